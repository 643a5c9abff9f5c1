"""The survey: every page of the built site opened once, cold and offline, in headless
Chromium. What it loads (no other host; its weight against the budgets), what it logs,
what axe-core finds, whether each slider's knob changes its picture, and how much of the
page is code.

Its own file so that pytest-xdist (make test: two workers, a file each) runs it on one worker
while the other runs tests/test_site.py, the charts, the PDF and the reading paths beside it.
"""

from __future__ import annotations

import json
import re
import statistics
from urllib.parse import urlparse

import pytest
from test_site import AXE, CHROMIUM, READY, SITE, _pages

from workshop.measure import code_share  # noqa: E402
from workshop.site.server import serve

pytestmark = pytest.mark.skipif(
    not (SITE / "index.html").exists(), reason=f"no built site at {SITE}; run make test"
)


@pytest.fixture(scope="module")
def server():
    url, stop = serve(SITE)
    yield url
    stop()


# The survey's JavaScript: axe's serious and critical WCAG A/AA violations, and the
# sliders whose knob does not change their picture.
AXE_RUN = """async ([whole, wholeMath, wholeNav]) => {
    // Code input that axe is not to check leaves the page first: axe builds its tree of
    // the whole DOM even for excluded nodes, and code is four fifths of it. Typeset
    // math likewise, except on the pages that hold the most of it, and the book's
    // table of contents, except on the pages that check it.
    if (!whole) document.querySelectorAll('div.cell_input').forEach(e => e.remove());
    if (!wholeMath) document.querySelectorAll('mjx-container').forEach(e => e.remove());
    if (!wholeNav) document.querySelectorAll('#pst-primary-sidebar nav.bd-docs-nav')
        .forEach(e => e.remove());
    const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']},
                                    resultTypes: ['violations']});
    return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
            .map(v => v.id + ': '
                + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
}"""
DEAD_SLIDERS = """() =>
    [...document.querySelectorAll('.book-slider')].filter(s => {
    const drawn = () => (s.querySelector('svg.book-chart-svg') || {}).innerHTML;
    const before = drawn();
    return !before || [...s.querySelectorAll('input[type=range]')].some(r => {
        const v0 = +r.value, v1 = v0 > +r.min ? v0 - 1 : v0 + 1;
        r.value = v1; r.dispatchEvent(new Event('input'));
        const moved = drawn() !== before;
        r.value = v0; r.dispatchEvent(new Event('input'));
        return !moved && +r.max > +r.min;
    });
}).map(s => s.id)"""


def _token_classes(path: str) -> set[str]:
    """The syntax-highlighting classes (Pygments tokens) a page's code uses."""
    text = (SITE / path).read_text(encoding="utf-8")
    return set(re.findall(r'<span class="([a-z0-9]{1,3})">', text))


def code_sample(paths: list[str]) -> set[str]:
    """Few pages whose code, together, uses every token class the site's code uses.

    Code blocks are four fifths of a page's elements, and their colours come from one
    theme: a token's contrast is the same on every page. So axe checks the code of these
    pages in full and skips the code of the rest (the prose, outputs and sliders of
    every page are checked everywhere)."""
    left = set().union(*(_token_classes(p) for p in paths))
    chosen = set()
    while left:
        best = max(paths, key=lambda p: len(_token_classes(p) & left))
        chosen.add(best)
        left -= _token_classes(best)
    return chosen


def math_sample(paths: list[str], n: int = 3) -> set[str]:
    """The `n` pages with the most math. MathJax draws every formula with the same
    elements and one colour, so axe checks them in full there; elsewhere typeset math
    leaves the page before axe runs (it is a third of a math page's elements, and a
    fifth of axe's time over the site)."""
    count = {
        p: (SITE / p).read_text(encoding="utf-8").count('class="math') for p in paths
    }
    return set(sorted(paths, key=lambda p: -count[p])[:n])


NAV = re.compile(r'<nav class="bd-links bd-docs-nav".*?</nav>', re.S)


def _nav(path: str) -> str:
    """A page's table of contents (the primary sidebar's nav) without what differs from
    page to page: the links' targets, relative to the page, and the marks on the
    current page's entry."""
    text = (SITE / path).read_text(encoding="utf-8")
    found = NAV.search(text)
    if found is None:
        return ""
    nav = re.sub(r'\shref="[^"]*"', "", found.group(0))

    def classes(m):
        return 'class="' + " ".join(
            c for c in m.group(1).split() if c not in ("current", "active")
        )

    return re.sub(r'class="([^"]*)', classes, nav)


def nav_sample(paths: list[str], chosen: set[str]) -> set[str]:
    """The pages on which axe checks the table of contents: `chosen`, if every page
    draws the same one, else every page.

    The theme draws the table of contents from _toc.yml, the same list on every page
    but for the mark on the current entry, which is styled alike everywhere. It is a
    sixth of a page's elements, and a fifth of axe's time."""
    navs = {_nav(p) for p in paths}
    return set(chosen) if len(navs) == 1 and "" not in navs else set(paths)


async def _survey_pages(server: str, paths: list[str], at_once: int = 2) -> dict:
    """Open every page once, cold and offline, `at_once` pages at a time (one per core:
    measured on 2 cores, 1 page at a time took 115 s, 2 took 92 s and 4 took 112 s)."""
    import asyncio

    from playwright.async_api import async_playwright

    host = urlparse(server).netloc
    whole_code, whole_math = code_sample(paths), math_sample(paths)
    whole_nav = nav_sample(paths, whole_code | whole_math)
    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        todo, found = list(paths), {}

        async def tab():
            """One tab that visits pages in turn (routing disables the HTTP cache, so
            each visit is a cold load; a tab is reused to spare a renderer start)."""
            # 1280 px (Playwright's default, set here because the code-share goal is
            # measured at this width)
            page = await browser.new_page(
                viewport={"width": code_share.WIDTH, "height": 720}
            )
            now = {}

            async def finished(r):
                weights = now["weights"]  # the visit this response belongs to
                if urlparse(r.url).path.endswith(".woff2"):
                    now["fonts"].append(urlparse(r.url).path)
                weights.append((await r.sizes())["responseBodySize"])

            async def route(r):
                url = r.request.url
                if urlparse(url).netloc != host and not url.startswith("data:"):
                    now["outside"].append(url)
                    return await r.abort()
                return await r.continue_()

            def console(m):
                if m.type == "error":
                    now["errors"].append(m.text)

            page.on("requestfinished", finished)
            await page.route("**/*", route)
            page.on("console", console)
            page.on("pageerror", lambda e: now["errors"].append(str(e)))
            while todo:
                path = todo.pop(0)
                now.update(outside=[], errors=[], weights=[], fonts=[])
                await page.goto(f"{server}/{path}", wait_until="load")
                await page.evaluate(READY)
                code = await page.evaluate(code_share.MEASURE)
                await page.add_script_tag(path=str(AXE))
                axe = await page.evaluate(
                    AXE_RUN, [path in whole_code, path in whole_math, path in whole_nav]
                )
                found[path] = dict(
                    outside=now["outside"],
                    errors=now["errors"],
                    axe=axe,
                    sliders=await page.locator(".book-slider").count(),
                    figures=await page.locator(
                        "article img, article svg image"
                    ).count(),
                    dead_sliders=await page.evaluate(DEAD_SLIDERS),
                    code=code,
                )
                await page.goto("about:blank")
                found[path]["bytes"] = sum(now["weights"])
                found[path]["fonts"] = sorted(now["fonts"])
            await page.close()

        await asyncio.gather(*(tab() for _ in range(at_once)))
        await browser.close()
    return {path: found[path] for path in paths}


@pytest.fixture(scope="module")
def survey(server):
    """Every page, opened once, cold, offline: what it loads, what
    it logs, what axe finds, and whether its sliders move."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    if CHROMIUM is None:
        pytest.fail(
            "chromium is not installed (make chromium installs Debian's package)"
        )
    # its own thread: the sync browser fixture of the other tests owns this one's loop
    with ThreadPoolExecutor(1) as pool:
        results = pool.submit(asyncio.run, _survey_pages(server, _pages())).result()
    out = SITE.parent / "page-survey.json"
    out.write_text(json.dumps(results, indent=1))
    return results


def test_no_page_requests_another_host(survey):
    bad = {p: r["outside"] for p, r in survey.items() if r["outside"]}
    assert not bad, f"pages request other hosts: {bad}"


def test_every_slider_on_every_page_changes_its_figure(survey):
    bad = {p: r["dead_sliders"] for p, r in survey.items() if r["dead_sliders"]}
    n = sum(r["sliders"] for r in survey.values())
    assert n > 0, "no sliders found on the site"
    assert not bad, f"sliders whose knob does not change the figure: {bad}"


def test_no_console_errors_on_any_page(survey):
    bad = {p: r["errors"] for p, r in survey.items() if r["errors"]}
    assert not bad, f"console errors: {bad}"


def test_no_serious_accessibility_violations(survey):
    bad = {p: r["axe"] for p, r in survey.items() if r["axe"]}
    assert not bad, (
        "axe-core serious/critical violations:\n" + json.dumps(bad, indent=1)[:4000]
    )


def test_code_is_folded_to_a_fifth_of_the_page(survey):
    """Visible code input takes at most a fifth of a page with code (median) and never
    more than 30 %, at 1280 px; a code cell shows 88 columns without scrolling sideways
    (workshop/measure/code_share.py prints the table)."""
    results = {p: r["code"] for p, r in survey.items()}
    median, worst, bad = code_share.goal(results)
    assert not bad, (
        f"median {median:.1%}, largest {worst:.1%}:\n"
        + "\n".join(bad)
        + "\n\n"
        + code_share.table(results)
    )


def test_slider_data_budgets():
    """Issue 28: every slider's states are data, at most 8 KB gzipped for the median
    slider and 300 KB for all of them (against 139 KB and 5.9 MB of frames before),
    with one image each."""
    from workshop.measure import slider_bytes

    found = slider_bytes.sliders(SITE)
    assert len(found) >= 34, f"{len(found)} sliders on the site"
    assert all(r["data"] and r["image"] for r in found), found
    data = [r["data"] for r in found]
    assert statistics.median(data) <= slider_bytes.MEDIAN_BUDGET, sorted(data)
    assert sum(data) <= slider_bytes.TOTAL_BUDGET, sum(data)


#: Pages with no figure that still weigh over 150 KB, and why. The list only shrinks.
#: Empty since the theme's bootstrap.js loads on demand (workshop/site/sphinxext.py
#: bootstrap_on_demand), togglebutton only where a page folds, and a page draws a face
#: it uses for a few characters from its own cut (workshop/site/page_fonts.py SPARSE):
#: the glossary went from 160 to 128 KB, the exercises from 161 to 125 KB.
HEAVY_WITHOUT_FIGURES: dict[str, str] = {}


def test_page_weight_budgets(survey):
    """Transferred bytes on a cold load (compressed as a static host
    serves it), fonts included."""
    sizes = {p: r["bytes"] for p, r in survey.items()}
    # Issue 28's budgets: median page at most 0.5 MB, no page over 1 MB, a page with no
    # figure at most 150 KB. Measured 2026-12-03 on the test build, once bootstrap.js
    # loaded on demand, togglebutton only where a page folds and sparse faces were cut
    # per page: median 236 KB (259 KB before; chapters 249 KB, 282 KB before),
    # largest 394 KB (07-overfitting, 416 KB before); the heaviest pages with no
    # figure the glossary 127.6 KB and the exercises 124.7 KB (159.6 and 161.4 KB
    # before), then 48-99-summary 116.5 KB (149.9 KB); the sources page 80.8 KB
    # (112.6 KB).
    median = statistics.median(sizes.values())
    assert median <= 500_000, f"median page transfers {median:.0f} bytes"
    over = {p: s for p, s in sizes.items() if s > 1_000_000}
    assert not over, f"pages over 1 MB: {over}"
    plain = {p: s for p, s in sizes.items() if not survey[p]["figures"]}
    assert "sources.html" in plain, "the sources page has a figure now"
    heavy = {p: s for p, s in plain.items() if s > 150_000}
    new = {p: s for p, s in heavy.items() if p not in HEAVY_WITHOUT_FIGURES}
    assert not new, f"pages with no figure over 150 KB: {new}"
    light = set(HEAVY_WITHOUT_FIGURES) - set(heavy)
    assert not light, f"now within 150 KB; strike from HEAVY_WITHOUT_FIGURES: {light}"


def test_a_page_with_its_own_cut_of_a_face_never_fetches_the_shared_one(survey):
    """workshop/site/page_fonts.py SPARSE: a page that draws only a few characters in
    the italics or the code face carries its own cut of that face for them; loaded
    cold, no page then fetches the shared face its cut stands for (it would, for a
    character the cut lacked). The glossary draws the code face for its search
    button's "Ctrl K" only, the exercises the italics for three phrases."""
    cuts = {}
    for p in survey:
        found = re.search(r'<style data-cuts="([^"]*)">', (SITE / p).read_text("utf-8"))
        cuts[p] = set(found.group(1).split()) if found else set()
    assert cuts["glossary.html"] == {"ibm-plex-mono-latin-400-normal"}, cuts
    assert "ibm-plex-sans-latin-400-italic" in cuts["exercises.html"], cuts
    bad = {
        p: [f for f in r["fonts"] if f.rsplit("/", 1)[-1][:-6] in cuts[p]]
        for p, r in survey.items()
    }
    bad = {p: f for p, f in bad.items() if f}
    assert not bad, f"pages that fetch a face they carry their own cut of: {bad}"
    assert sum(map(bool, cuts.values())) >= 10, cuts


def test_the_table_of_contents_is_checked_everywhere_unless_it_is_one(monkeypatch):
    """axe skips the table of contents on a page only when every page draws the same
    one; a page whose list differs puts it back on every page."""
    import test_survey

    pages = ["a.html", "b.html", "c.html"]
    monkeypatch.setattr(test_survey, "_nav", lambda p: "<nav>one</nav>")
    assert nav_sample(pages, {"a.html"}) == {"a.html"}
    monkeypatch.setattr(test_survey, "_nav", lambda p: f"<nav>{p}</nav>")
    assert nav_sample(pages, {"a.html"}) == set(pages)
    monkeypatch.setattr(test_survey, "_nav", lambda p: "")
    assert nav_sample(pages, {"a.html"}) == set(pages)
