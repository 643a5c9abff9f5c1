"""One opt-in log of a run, for the workshop's measurements; never for a reader.

With ``BOOK_LOG`` naming a file, the helpers append one JSON line per event there:
``{"event": "margin", ...}`` for how much of its tolerance a check or a bound used
(workshop.measure.margins), ``{"event": "slider", ...}`` for a slider's frames, bytes
and seconds (workshop.measure.bench), ``{"event": "figure", ...}`` for a figure whose
text ``show`` refuses (logged, then refused as always). Unset, as in a reader's
kernel, on the site and under nbval, nothing is written. The log only watches: what a
page prints and draws is the same with it on or off.
"""

from __future__ import annotations

import json
import os

#: The one environment variable of the log.
LOG = "BOOK_LOG"


def enabled() -> bool:
    """Whether a run asked for the log."""
    return bool(os.environ.get(LOG))


def log(event: str, **fields) -> None:
    """Append one event to the log, if a run asked for one."""
    path = os.environ.get(LOG)
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"event": event, **fields}) + "\n")
