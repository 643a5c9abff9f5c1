"""What still figures' hover data weighs: per page, its figures, how many carry hover
data (book/style.py hover_html), and that data gzip-compressed as a static host sends
it (each figure alone, and the page's figures together, as a page is sent).

    python -m workshop.measure.still_bytes [SITE]     # default: the test build

A page with such a figure also loads book/chart.js (workshop/site/sphinxext.py
NEEDED_BY); its gzipped size is printed once, and counted for the pages that load it
only because of a still figure. `make bench` prints the summary rows.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

from workshop.config import TEST_BUILD

SITE = TEST_BUILD / "_build" / "html"

_STORE = re.compile(
    r'<script type="application/json" class="book-chart-data" '
    r'data-boxes="[^"]*">.*?</script>',
    re.S,
)
_DATA = re.compile(r">(.*)</script>", re.S)


def _gz(b: bytes) -> int:
    return len(gzip.compress(b, 9, mtime=0))


def pages(site: Path = SITE) -> list[dict]:
    """One row per page with a figure: figures, figures with hover data, the data's
    bytes gzipped alone (sum over figures), the bytes the page's gzip grows by (its
    HTML with the stores against without), and whether it loads chart.js only for its
    still figures (no slider)."""
    rows = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        figures = text.count('<img class="book-figure"')
        stores = _STORE.findall(text)
        if not figures and not stores:
            continue
        alone = sum(_gz(_DATA.search(s).group(1).encode()) for s in stores)
        without = _STORE.sub("", text)
        added = _gz(text.encode()) - _gz(without.encode())
        rows.append(
            {
                "page": page.relative_to(site).as_posix(),
                "figures": figures,
                "hover": len(stores),
                "alone": alone,
                "added": added,
                "chart_js_for_stills": bool(stores)
                and 'class="book-slider"' not in text,
            }
        )
    return rows


def chart_js_bytes(site: Path = SITE) -> int:
    js = site / "_static" / "chart.js"
    return _gz(js.read_bytes()) if js.exists() else 0


def rows(site: Path = SITE) -> list[tuple[str, str, str, bool]]:
    """bench's rows: figures with hover, and what the data adds."""
    found = pages(site)
    figures = sum(r["figures"] for r in found)
    hover = sum(r["hover"] for r in found)
    added = sum(r["added"] for r in found)
    worst = max(found, key=lambda r: r["added"], default=None)
    js_pages = sum(r["chart_js_for_stills"] for r in found)
    return [
        ("still figures with hover", f"{hover} of {figures}", "", True),
        ("still hover data (gzip)", f"{added / 1e3:.1f} KB", "", True),
        (
            "largest on one page",
            f"{worst['added'] / 1e3:.1f} KB" if worst else "-",
            worst["page"] if worst else "",
            True,
        ),
        (
            "chart.js for stills only",
            f"{js_pages} pages x {chart_js_bytes(site) / 1e3:.1f} KB",
            "",
            True,
        ),
    ]


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else SITE
    print(f"{'page':<52} {'figs':>4} {'hover':>5} {'alone':>7} {'added':>7} js")
    for r in pages(site):
        print(
            f"{r['page']:<52} {r['figures']:>4} {r['hover']:>5} {r['alone']:>7} "
            f"{r['added']:>7} {'+' if r['chart_js_for_stills'] else ''}"
        )
    for name, value, target, _ in rows(site):
        print(f"{name:<28} {value:>22} {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
