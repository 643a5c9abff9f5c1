"""How much of each page is code a reader has to scroll past (issue 14).

    python -m workshop.measure.code_share [SITE]      # default: _build/test/_build/html

Opens every content page of a built site in headless Chromium at 1280 px, offline,
and measures with one script per page (no screenshots):

- code: the height of the code input a reader sees (a cell folded behind its
  "Show code" toggle counts nothing; the toggle line itself is counted apart);
- share: code as a share of the article's height (the content column, from the
  title to the last paragraph; the site's header and footer are not the page);
- cols: how many characters of the code font fit in a code cell's box, and how many
  shown code blocks scroll sideways at this width.

Prints a table, then the goal: on the pages that have code, a median share of at most
20 % and no page above 30 %. Exits 1 if the goal is missed (tests/test_survey.py asserts
the same numbers from the same script, measured in its page survey).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from urllib.parse import urlparse

from workshop.config import TEST_SITE

WIDTH = 1280
MEDIAN_GOAL, MAX_GOAL, MIN_COLS = 0.20, 0.30, 88

# One evaluation per page. A closed <details> renders none of its content, but Chromium
# still lays it out (content-visibility: hidden) and reports its box: a folded input is
# one that checkVisibility() calls hidden, and counts 0 px. `cols` divides the code box's inner width by the width of one
# character of the code font (measured on a probe inside the first code block).
MEASURE = """() => {
    const art = document.querySelector('article.bd-article') || document.body;
    const h = el => el.getBoundingClientRect().height;
    const inputs = [...art.querySelectorAll('div.cell_input')];
    const shown = inputs.filter(c => c.checkVisibility() && h(c) > 0);
    const toggles = [...art.querySelectorAll('div.cell details.above-input > summary')];
    const pres = shown.map(c => c.querySelector('pre')).filter(Boolean);
    let cols = null;
    const box = (pres[0] || art.querySelector('div.cell_input pre'));
    if (box) {
        const probe = document.createElement('span');
        probe.textContent = 'x'.repeat(100);
        box.appendChild(probe);
        const cw = probe.getBoundingClientRect().width / 100;
        probe.remove();
        const cs = getComputedStyle(box);
        const inner = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        cols = cw > 0 ? Math.floor(inner / cw + 1e-6) : null;
    }
    return {
        page: h(art),
        code: shown.reduce((s, c) => s + h(c), 0),
        toggles: toggles.reduce((s, t) => s + h(t), 0),
        cells: inputs.length,
        folded: inputs.length - shown.length,
        cols,
        scrolling: pres.filter(p => p.scrollWidth > p.clientWidth + 1).length,
        font: box ? getComputedStyle(box).fontSize : null,
    };
}"""

READY = """async () => { await document.fonts.ready;
    if (window.MathJax && MathJax.startup && MathJax.startup.promise)
        await MathJax.startup.promise; }"""


def content_pages(site: Path) -> list[str]:
    """Every content page (not the index redirect, search or the generated index)."""
    return sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if not p.relative_to(site).as_posix().startswith(("_", "genindex", "search"))
        and 'http-equiv="Refresh"' not in p.read_text(encoding="utf-8")[:2000]
    )


def share(m: dict) -> float:
    return m["code"] / m["page"] if m["page"] else 0.0


def goal(results: dict[str, dict]) -> tuple[float, float, list[str]]:
    """(median share, largest share, what misses the goal) over the pages with code."""
    coded = {p: share(m) for p, m in results.items() if m["cells"]}
    median = statistics.median(coded.values())
    worst = max(coded.values())
    bad = [f"median {median:.1%} > {MEDIAN_GOAL:.0%}"] if median > MEDIAN_GOAL else []
    bad += [f"{p}: {s:.1%} > {MAX_GOAL:.0%}" for p, s in coded.items() if s > MAX_GOAL]
    bad += [
        f"{p}: {m['cols']} columns of code fit, {MIN_COLS} wanted"
        for p, m in results.items()
        if m["cols"] is not None and m["cols"] < MIN_COLS
    ]
    bad += [
        f"{p}: {m['scrolling']} shown code block(s) scroll sideways"
        for p, m in results.items()
        if m["scrolling"]
    ]
    return median, worst, bad


def table(results: dict[str, dict]) -> str:
    rows = [
        f"{'page':<44} {'code %':>7} {'page px':>8} {'code px':>8} {'cells':>5} "
        f"{'folded':>6} {'cols':>4}"
    ]
    for p, m in results.items():
        rows.append(
            f"{p.removeprefix('notebooks/'):<44} {share(m):>7.1%} {m['page']:>8.0f} "
            f"{m['code']:>8.0f} {m['cells']:>5} {m['folded']:>6} {m['cols'] or '':>4}"
        )
    return "\n".join(rows)


def measure(site: Path) -> dict[str, dict]:
    from playwright.sync_api import sync_playwright

    from workshop.config import chromium
    from workshop.site.server import serve

    exe = chromium()
    if exe is None:
        sys.exit("code_share: chromium is not installed (make chromium)")
    url, stop = serve(site)
    host = urlparse(url).netloc
    results = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=exe, args=["--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": WIDTH, "height": 900})
            page.route(
                "**/*",
                lambda r: (
                    r.abort()
                    if urlparse(r.request.url).netloc not in (host, "")
                    and not r.request.url.startswith("data:")
                    else r.continue_()
                ),
            )
            for path in content_pages(site):
                page.goto(f"{url}/{path}", wait_until="load")
                page.evaluate(READY)
                results[path] = page.evaluate(MEASURE)
            browser.close()
    finally:
        stop()
    return results


def main() -> int:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else TEST_SITE
    if not (site / "index.html").exists():
        sys.exit(f"code_share: no built site at {site}")
    results = measure(site)
    print(table(results))
    median, worst, bad = goal(results)
    print(
        f"\npages with code: median {median:.1%} (goal <= {MEDIAN_GOAL:.0%}), "
        f"largest {worst:.1%} (goal <= {MAX_GOAL:.0%})"
    )
    for line in bad:
        print("  misses:", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
