"""How close each tolerance in the notebooks comes to failing, cell by cell.

    python -m workshop.measure.margins notebooks/part3/*.ipynb    # lists uses above 5 % of a limit

Every `check(..., tol=)` and every `bound(x, floor)` records the share of its limit it
used (the run's log, book.log). A comparison of two orders of the same sum that uses 30 % of its
tolerance here can use 300 % on another CPU: raise its floor, or compare in a way that
does not depend on the order.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import nbformat

from book.log import LOG
from workshop.run.execute import run


def margins(path: Path, floor: float = 0.05) -> list[tuple[int, str, str, float]]:
    log = Path(tempfile.mkstemp(suffix=".jsonl")[1])
    os.environ[LOG] = str(log)
    os.environ.setdefault("BOOK_WIDGETS", "static")
    nb = nbformat.read(path, as_version=4)
    code_index = {
        id(c): k for k, c in enumerate(c for c in nb.cells if c.cell_type == "code")
    }
    found = []

    def after(cell, cell_index, **_):
        lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
        log.write_text("", encoding="utf-8")
        for line in lines:
            rec = json.loads(line)
            if rec["event"] == "margin" and rec["used"] > floor:
                found.append(
                    (
                        code_index.get(id(cell), -1),
                        rec["kind"],
                        rec["what"],
                        rec["used"],
                    )
                )

    run(nb, path, timeout=600, on_cell_executed=after)
    log.unlink(missing_ok=True)
    return found


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        for k, kind, what, used in margins(Path(arg)):
            print(
                f"{arg} code cell {k}: {kind} {what[:90]!r} uses "
                f"{100 * used:.0f}% of its limit"
            )
