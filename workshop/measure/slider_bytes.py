"""What the sliders weigh: each slider's chart data (every state, as JSON) and its one
image, gzip-compressed as a static host sends them; the median and the total.

    python -m workshop.measure.slider_bytes [SITE]     # default: the test build

Issue 28's budgets: slider data at most 8 KB per slider (median) and 300 KB for all
sliders together, against 139 KB and 5.9 MB of frames before the sliders were drawn
from data. `make bench` prints the same rows.
"""

from __future__ import annotations

import base64
import gzip
import re
import statistics
import sys
from pathlib import Path

from workshop.config import TEST_BUILD

SITE = TEST_BUILD / "_build" / "html"
MEDIAN_BUDGET = 8_000
TOTAL_BUDGET = 300_000

_SLIDER = re.compile(
    r'<div class="book-slider" id="([^"]+)">(.*?)</script></div>', re.S
)
_DATA = re.compile(r'<script type="application/json">(.*)', re.S)
_IMAGE = re.compile(r'src="data:image/[a-z+]+;base64,([A-Za-z0-9+/=]+)"')


def sliders(site: Path = SITE) -> list[dict]:
    """One row per slider on the built site: page, id, data bytes (gzip) and image
    bytes (the decoded image: already compressed)."""
    rows = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        for sid, body in _SLIDER.findall(text):
            data = _DATA.search(body)
            image = _IMAGE.search(body)
            rows.append(
                {
                    "page": page.relative_to(site).as_posix(),
                    "id": sid,
                    "data": len(gzip.compress(data.group(1).encode(), 9, mtime=0))
                    if data
                    else 0,
                    "image": len(base64.b64decode(image.group(1))) if image else 0,
                }
            )
    return rows


def rows(site: Path = SITE) -> list[tuple[str, str, str, bool]]:
    """bench's rows: the median and total slider data against the budgets."""
    found = sliders(site)
    if not found:
        return [("slider data", "no sliders found", "", False)]
    data = [r["data"] for r in found]
    med, total = statistics.median(data), sum(data)
    images = sum(r["image"] for r in found)
    return [
        ("sliders", str(len(found)), "", True),
        (
            "median slider data (gzip)",
            f"{med / 1e3:.1f} KB",
            "<= 8 KB",
            med <= MEDIAN_BUDGET,
        ),
        (
            "all slider data (gzip)",
            f"{total / 1e3:.0f} KB",
            "<= 300 KB",
            total <= TOTAL_BUDGET,
        ),
        ("all slider first images", f"{images / 1e3:.0f} KB", "", True),
    ]


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else SITE
    for r in sliders(site):
        print(f"{r['page']:<48} {r['id']:<16} {r['data']:>7} {r['image']:>8}")
    out = rows(site)
    for name, value, target, ok in out:
        print(f"{name:<28} {value:>10} {target:>10} {'yes' if ok else 'NO'}")
    return 0 if all(r[3] for r in out) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
