"""The built site: nothing loaded from other hosts, and a slider
that works with no kernel.

Runs against the test build (make test builds it into _build/test with the stored
outputs). The browser checks use Debian's chromium-headless-shell (else chromium,
workshop/config.py chromium()) through Playwright, with every request to any host but
the local server recorded and refused, as a reader with the network off would see.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import pytest

from workshop.config import ROOT, built_site, chromium

SITE = built_site()
CHROMIUM = chromium()

pytestmark = pytest.mark.skipif(
    not (SITE / "index.html").exists(), reason=f"no built site at {SITE}; run make test"
)

# Attributes a browser fetches by itself (a plain <a href> is a link, not a load).
LOADED = {
    ("script", "src"),
    ("img", "src"),
    ("iframe", "src"),
    ("source", "src"),
    ("video", "src"),
    ("audio", "src"),
    ("embed", "src"),
    ("object", "data"),
    ("input", "src"),
}
LINK_LOADS = {
    "stylesheet",
    "preload",
    "icon",
    "shortcut",
    "modulepreload",
    "prefetch",
    "manifest",
    "apple-touch-icon",
    "dns-prefetch",
    "preconnect",
}


class _Loads(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for t, attr in LOADED:
            if tag == t and a.get(attr):
                self.urls.append(a[attr])
        if (
            tag == "link"
            and set((a.get("rel") or "").lower().split()) & LINK_LOADS
            and a.get("href")
        ):
            self.urls.append(a["href"])
        if a.get("style"):
            self.urls += re.findall(r"url\(\s*['\"]?([^'\")]+)", a["style"])


def _external(url: str) -> bool:
    p = urlparse(url.strip())
    return p.scheme in ("http", "https") or url.strip().startswith("//")


def test_html_loads_nothing_from_other_hosts():
    bad = []
    for page in SITE.rglob("*.html"):
        parser = _Loads()
        parser.feed(page.read_text(encoding="utf-8", errors="replace"))
        bad += [f"{page.relative_to(SITE)}: {u}" for u in parser.urls if _external(u)]
    assert not bad, "pages load from other hosts:\n" + "\n".join(sorted(set(bad))[:30])


def test_css_loads_nothing_from_other_hosts():
    bad = []
    for css in SITE.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        for u in re.findall(r"url\(\s*['\"]?([^'\")]+)", text) + re.findall(
            r"@import\s+['\"]([^'\"]+)", text
        ):
            if _external(u):
                bad.append(f"{css.relative_to(SITE)}: {u}")
    assert not bad, "stylesheets load from other hosts:\n" + "\n".join(bad[:30])


def test_fonts_are_small():
    faces = sorted((SITE / "_static" / "fonts").glob("ibm-plex-sans-latin-*.woff2"))
    assert len(faces) == 4, faces
    total = sum(f.stat().st_size for f in faces)
    assert total <= 62_000, f"the four Plex Sans faces weigh {total} bytes"


def open_offline(browser, server, path, weights=None, wait="networkidle"):
    """Open a page with every request to another host refused and recorded.

    With `weights` (a list), the compressed size of every response is appended to it.
    """
    page = browser.new_page()
    outside, errors = [], []
    if weights is not None:
        page.on(
            "requestfinished", lambda r: weights.append(r.sizes()["responseBodySize"])
        )
    host = urlparse(server).netloc

    def route(r):
        if urlparse(r.request.url).netloc != host and not r.request.url.startswith(
            "data:"
        ):
            outside.append(r.request.url)
            return r.abort()
        return r.continue_()

    page.route("**/*", route)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/{path}", wait_until=wait)
    if wait != "networkidle":
        page.evaluate("""async () => { await document.fonts.ready;
            if (window.MathJax && MathJax.startup && MathJax.startup.promise)
                await MathJax.startup.promise; }""")
    return page, outside, errors


def test_attention_page_offline(browser, server):
    page, outside, errors = open_offline(
        browser, server, "notebooks/part1/08-attention.html"
    )
    # Math is drawn at build time (workshop/site/math.py): SVG in the page, no MathJax.
    assert page.locator("mjx-container svg").count() > 0
    assert page.evaluate("typeof window.MathJax") == "undefined"
    assert page.evaluate("document.fonts.check(\"16px 'IBM Plex Sans'\")")
    font = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "IBM Plex Sans" in font, font
    page.evaluate("document.fonts.ready")
    loaded = page.evaluate(
        "[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
    )
    assert any("IBM Plex Sans" in f for f in loaded), loaded

    slider = page.locator(".book-slider").first
    svg = slider.locator("svg.book-chart-svg")
    before_state, before_alt = (
        slider.get_attribute("data-state"),
        svg.get_attribute("aria-label"),
    )
    rng = slider.locator("input[type=range]").first
    rng.focus()
    page.keyboard.press("ArrowRight")
    after_state, after_alt = (
        slider.get_attribute("data-state"),
        svg.get_attribute("aria-label"),
    )
    assert after_state != before_state, "the slider did not change the figure"
    assert after_alt != before_alt, "the slider did not change the alt text"
    assert slider.locator("img").get_attribute("alt") == after_alt
    assert slider.locator("output").first.inner_text() == "256"
    assert not outside, f"requests to other hosts: {outside}"
    assert not errors, f"console errors: {errors}"
    page.close()


def _page_font_block(page: Path) -> str:
    m = re.search(
        r"<!-- book page fonts -->(.*?)<!-- book page fonts -->",
        page.read_text(encoding="utf-8"),
        re.S,
    )
    return m.group(1) if m else ""


def test_pages_without_other_scripts_carry_no_extra_font():
    assert _page_font_block(SITE / "index.html") == ""


def _answer(body: str, content_type: str):
    """A route handler that answers with `body`."""
    return lambda route: route.fulfill(body=body, content_type=content_type)


def test_a_page_cut_of_a_face_draws_the_glyphs_the_shared_face_draws(browser, server):
    """workshop/site/page_fonts.py SPARSE: the exercises' italic phrases and the
    glossary's search shortcut, drawn with the page's own cut of the face and again
    with the page's cuts taken out (the shared face then draws them), are the same
    pixels; and with the cut only the cut is fetched."""
    cases = [
        ("exercises.html", "article em", "italic"),
        ("glossary.html", "kbd", "mono"),
    ]
    for path, selector, face in cases:
        shots, fetched = [], []
        for keep in (True, False):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            got = []
            page.on("requestfinished", lambda r: got.append(r.url))
            if not keep:
                html = (SITE / path).read_text("utf-8")
                html = re.sub(
                    r'<style data-cuts="[^"]*">.*?</style>', "", html, flags=re.S
                )
                page.route(f"**/{path}", _answer(html, "text/html"))
            page.goto(f"{server}/{path}", wait_until="networkidle")
            page.evaluate("document.fonts.ready")
            el = page.locator(selector).locator("visible=true").first
            el.scroll_into_view_if_needed()
            shots.append(el.screenshot(animations="disabled"))
            fetched.append([u for u in got if u.endswith(".woff2")])
            context.close()
        assert shots[0] == shots[1], f"{path}: {selector} drawn otherwise by the cut"
        assert any("/fonts/page/" in u for u in fetched[0]), fetched[0]
        shared = [u for u in fetched[1] if face in u and "/fonts/page/" not in u]
        assert shared and not [u for u in fetched[0] if u in shared], fetched


def test_pages_with_greek_or_japanese_get_their_own_small_subset():
    page = SITE / "notebooks" / "part2" / "17-tokenization.html"
    if not page.exists():
        pytest.skip("tokenization page not built")
    block = _page_font_block(page)
    text = page.read_text(encoding="utf-8")
    if not re.search(r"[\u0370-\u03ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", text):
        pytest.skip("page quotes no Greek, kana, kanji or Hangul")
    assert block, "a page with non-Latin text got no page font"
    files = re.findall(r"url\('([^']+)'\)", block)
    sizes = [(page.parent / f).resolve().stat().st_size for f in files]
    assert sum(sizes) < 150_000, f"page fonts weigh {sum(sizes)} bytes"
    for ch in set(re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]", text)):
        assert f"U+{ord(ch):04X}" in block, f"{ch!r} has no glyph in the page's fonts"


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def _pages():
    """Every content page (not the index redirect, search or the generated index)."""
    return sorted(
        p.relative_to(SITE).as_posix()
        for p in SITE.rglob("*.html")
        if not p.relative_to(SITE).as_posix().startswith(("_", "genindex", "search"))
        and 'http-equiv="Refresh"' not in p.read_text(encoding="utf-8")[:2000]
    )


READY = """async () => { await document.fonts.ready;
    if (window.MathJax && MathJax.startup && MathJax.startup.promise)
        await MathJax.startup.promise; }"""


def test_korean_text_is_drawn_with_the_page_font(browser, server):
    """The typography page quotes Korean: its Hangul must come from
    the page's own Plex subset."""
    path = "notebooks/part1/13-typography.html"
    if not (SITE / path).exists():
        pytest.skip("typography page not built")
    page, outside, errors = open_offline(browser, server, path)
    page.wait_for_timeout(300)
    loaded = page.evaluate("""async () => { await document.fonts.ready;
        return [...document.fonts].filter(f => f.status === 'loaded')
            .map(f => f.unicodeRange); }""")
    assert any("U+C774" in r for r in loaded), (
        f"no loaded page font covers U+C774 (이): {loaded[:6]}"
    )
    assert not outside and not errors, (outside, errors)
    page.close()


def test_errata_and_claims_link_to_cells_that_exist():
    """Each errata entry and each checked claim links to the
    notebook cell that prints it."""
    broken, n = [], 0
    for name in ("errata.html", "claims.html"):
        for href in set(
            re.findall(
                r'href="([^"#]+\.html)#(cell-\d+)"',
                (SITE / name).read_text(encoding="utf-8"),
            )
        ):
            n += 1
            target = SITE / href[0]
            if not target.exists() or f'id="{href[1]}"' not in target.read_text(
                encoding="utf-8"
            ):
                broken.append(f"{name} -> {href[0]}#{href[1]}")
    assert n > 0, "no cell links found on the errata and claims pages"
    assert not broken, f"links to cells that do not exist: {broken[:10]}"


def test_figures_are_webp_drawn_at_twice_their_displayed_width():
    """Every figure and slider frame is a WebP data URI, given its 1x size in
    width/height, and drawn at 2x (slider frames at least 1x: a heavy slider steps
    down to fit its budget)."""
    import base64
    import io

    from PIL import Image

    bad, n = [], 0
    img_re = re.compile(r"<img\b[^>]*>")
    for path in _pages():
        text = (SITE / path).read_text(encoding="utf-8")
        for tag in img_re.findall(text):
            m = re.search(r'src="data:image/([a-z+]+);base64,([A-Za-z0-9+/=]+)"', tag)
            if not m:
                continue
            n += 1
            w = re.search(r'width="(\d+)"', tag)
            if m.group(1) != "webp" or not w:
                bad.append(f"{path}: {m.group(1)} image, width attribute {bool(w)}")
                continue
            px = Image.open(io.BytesIO(base64.b64decode(m.group(2)))).size[0]
            css = int(w.group(1))
            slider = "book-figure" not in tag
            if css not in (720, 480) or px < css * (1 if slider else 2):
                bad.append(f"{path}: {px} px drawn for {css} px displayed")
    assert n > 0, "no figures found on the site"
    assert not bad, f"figures off the house format: {bad[:10]}"


# The page as a reader sees it (issue 14) ----------------------------------------------
ATTENTION = "notebooks/part1/08-attention.html"


def _slider_state(page):
    """For every static slider: does the label, the alt text and the
    figure match the thumbs?"""
    return page.evaluate("""() => [...document.querySelectorAll('.book-slider')].map(s => {
        const f = JSON.parse(s.querySelector('script[type="application/json"]').textContent);
        const ins = [...s.querySelectorAll('input[type=range]')], img = s.querySelector('img');
        const key = ins.map(r => r.value).join(','), fr = f.states[key];
        const labels = ins.every((r, i) => s.querySelector(`output[for="${r.id}"]`).textContent
                                           === f.labels[i][+r.value]);
        const svg = s.querySelector('svg.book-chart-svg');
        return {id: s.id, key, labels, figure: s.dataset.state === key,
                alt: img.alt === fr[1] && svg.getAttribute('aria-label') === fr[1]};
    })""")


def test_sliders_resync_after_back_navigation(browser, server):
    """The browser restores a slider's thumb after Back; the label
    and the figure must follow."""
    page, outside, errors = open_offline(browser, server, ATTENTION, wait="load")
    rng = page.locator(".book-slider input[type=range]").first
    start = rng.input_value()
    rng.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    moved = rng.input_value()
    assert moved != start
    page.goto(f"{server}/errata.html", wait_until="load")
    page.go_back(wait_until="load")
    page.wait_for_timeout(200)
    restored = page.locator(".book-slider input[type=range]").first.input_value()
    if restored != moved:
        pytest.skip(
            f"this browser did not restore the thumb ({restored!r}, moved to {moved!r})"
        )
    bad = [
        s for s in _slider_state(page) if not (s["labels"] and s["figure"] and s["alt"])
    ]
    assert not bad, f"after Back, sliders show another frame than their thumbs: {bad}"
    assert not outside and not errors, (outside, errors)
    page.close()


def test_slider_touch_targets_are_44px(browser, server):
    page, _, _ = open_offline(browser, server, ATTENTION, wait="load")
    heights = page.evaluate(
        "[...document.querySelectorAll('.book-slider input[type=range]')]"
        ".map(r => r.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44, heights
    page.close()


def test_dark_mode_follows_the_system_and_leaves_figures_unfiltered(browser, server):
    for scheme in ("dark", "light"):
        ctx = browser.new_context(color_scheme=scheme)
        page = ctx.new_page()
        page.goto(f"{server}/{ATTENTION}", wait_until="load")
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
        filters = page.evaluate("""[...document.querySelectorAll('.bd-content img')]
            .map(i => getComputedStyle(i).filter)""")
        assert filters and set(filters) == {"none"}, (
            f"{scheme}: figure filters {set(filters)}"
        )
        ctx.close()


def test_sources_are_named_not_hashed():
    """Readers see the source texts by name (the blog series, the course, the
    textbook chapter), linked to the sources page, never by their file names."""
    hashed = re.compile(r"\b00[0-9]_[0-9a-f]{16}\.txt")
    bad = [
        p.relative_to(SITE).as_posix()
        for p in SITE.rglob("*.html")
        if hashed.search(p.read_text(encoding="utf-8"))
    ]
    assert not bad, f"pages that name a source by its file: {bad}"
    errata = (SITE / "errata.html").read_text(encoding="utf-8")
    for name in ("the blog series", "the course", "the textbook chapter"):
        assert name in errata or name in (SITE / "claims.html").read_text("utf-8"), name
    assert 'href="sources.html#source-' in errata


def test_errata_table_fits_a_phone(browser, server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(f"{server}/errata.html", wait_until="load")
    sizes = page.evaluate("""() => { const t = document.querySelector('table.book-errata');
        const r = t.getBoundingClientRect();
        return {left: r.left, right: r.right, scroll: t.scrollWidth, client: t.clientWidth,
                doc: document.documentElement.scrollWidth, vw: window.innerWidth}; }""")
    assert sizes["left"] >= 0 and sizes["right"] <= sizes["vw"], sizes
    assert sizes["scroll"] <= sizes["client"] + 1, sizes
    assert sizes["doc"] <= sizes["vw"], (
        f"the errata page scrolls sideways on a phone: {sizes}"
    )
    ctx.close()


def test_printed_sentences_wrap_on_a_phone(browser, server):
    """Printed sentences and lists (lesson 17 prints token lists up to 126 characters
    long) wrap on a 390 px phone: no sentence line reaches past its output's edge, and
    a block made only of sentences does not scroll sideways."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(f"{server}/notebooks/part2/17-tokenization.html", wait_until="load")
    found = page.evaluate("""() => [...document.querySelectorAll(
            'div.cell_output pre span.book-wrap')].map(s => {
            const pre = s.closest('pre'), box = pre.getBoundingClientRect();
            const right = Math.max(...[...s.getClientRects()].map(r => r.right));
            return {over: right - (box.left + pre.clientWidth), lines: s.getClientRects().length,
                    text: s.textContent.slice(0, 50)}; })""")
    assert len(found) >= 5, found
    wide = [f for f in found if f["over"] > 1]
    assert not wide, f"printed sentences run off a phone: {wide}"
    assert any(f["lines"] > 1 for f in found), "no long sentence wrapped"
    ctx.close()


def test_ok_lines_fold_and_cell_links_still_land(browser, server):
    html = (SITE / ATTENTION).read_text(encoding="utf-8")
    assert re.search(
        r'<details class="book-checks"><summary>\d+ checks? holds?<span class="book-checks-what">',
        html,
    )
    assert not re.search(
        r"<pre><span></span>(?:[^<]*\n)?ok ", html.split("book-checks")[0]
    ), "an ok line is printed outside its fold"
    cell = re.search(
        r'id="(cell-\d+)"(?:(?!id="cell-).)*?book-checks', html, re.S
    ).group(1)
    page, _, errors = open_offline(browser, server, f"{ATTENTION}#{cell}", wait="load")
    assert page.evaluate(
        f"document.getElementById('{cell}').querySelector('details.book-checks').open"
    ), "a link to a cell should open the cell's folded checks"
    summary = page.locator("details.book-checks > summary").first
    summary.focus()
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    assert not errors, errors
    page.close()


def test_back_matter_reads_as_a_book():
    bib = (SITE / "bibliography.html").read_text(encoding="utf-8")
    labels = re.findall(
        r'<span class="label"><span class="fn-bracket">\[</span>(.*?)<span', bib
    )
    assert labels and all(
        re.search(r", (\d{4}[a-z]?|n\.d\.)$", lab) for lab in labels
    ), labels[:5]
    glossary = (SITE / "glossary.html").read_text(encoding="utf-8")
    az = re.search(r'<nav class="book-az".*?</nav>', glossary, re.S)
    assert az, "the glossary has no A-Z line"
    for letter in re.findall(r'href="#(glossary-[a-z]+)"', az.group(0)):
        assert f'id="{letter}"' in glossary, (
            f"A-Z links to #{letter}, which is not on the page"
        )
    assert "mjx" in glossary or "math notranslate" in glossary, (
        "the glossary typesets no math"
    )
    claims = (SITE / "claims.html").read_text(encoding="utf-8")
    assert not re.search(r">/?notebooks/part\d/[\w-]+<", claims), (
        "the claims page shows notebook paths"
    )
    execution = (SITE / "execution.html").read_text(encoding="utf-8")
    assert not re.search(r">/?notebooks/part\d/[\w-]+<", execution), (
        "the execution page shows notebook paths"
    )


def test_numbers_in_prose_read_as_prose(browser, server):
    for scheme in ("light", "dark"):
        ctx = browser.new_context(color_scheme=scheme)
        page = ctx.new_page()
        page.goto(f"{server}/{ATTENTION}", wait_until="load")
        styles = page.evaluate("""() => { const c = document.querySelector('p code.book-num'),
                p = c.closest('p'), cs = getComputedStyle(c), ps = getComputedStyle(p);
            return {color: cs.color, pcolor: ps.color, bg: cs.backgroundColor, border: cs.borderTopWidth,
                    num: cs.fontVariantNumeric, family: cs.fontFamily, pfamily: ps.fontFamily}; }""")
        assert (
            styles["color"] == styles["pcolor"]
            and styles["family"] == styles["pfamily"]
        ), styles
        assert (
            styles["bg"] in ("rgba(0, 0, 0, 0)", "transparent")
            and styles["border"] == "0px"
        ), styles
        assert "tabular-nums" in styles["num"], styles
        ctx.close()


FOLDED = "div.cell details.hide.above-input"


def test_a_link_to_a_folded_cell_lands_on_its_output(browser, server):
    """The claims page links to the cell that prints each number. Where that cell's
    code is folded, the link lands on the output, in view and not under the header,
    and the toggle opens the code."""
    claims = (SITE / "claims.html").read_text(encoding="utf-8")
    target = None
    for href, cell in re.findall(r'href="([^"#]+\.html)#(cell-\d+)"', claims):
        page_html = (SITE / href).read_text(encoding="utf-8")
        if re.search(
            rf'<div class="cell [^"]*tag_hide-input[^"]*" id="{cell}">', page_html
        ):
            target = f"{href}#{cell}"
            break
    assert target, "no claim links to a cell whose code is folded"
    page, outside, errors = open_offline(browser, server, target, wait="load")
    page.evaluate(READY)
    page.wait_for_timeout(200)
    seen = page.evaluate(
        """(id) => { const c = document.getElementById(id);
        const out = c.querySelector('div.cell_output'), input = c.querySelector('div.cell_input');
        const r = out.getBoundingClientRect(), y = Math.min(r.top + 8, innerHeight - 1);
        const hit = document.elementFromPoint(r.left + 20, y);
        return {out: out.checkVisibility(), input: input.checkVisibility(),
                top: r.top, vh: innerHeight, onTop: out.contains(hit)}; }""",
        target.split("#")[1],
    )
    assert seen["out"] and not seen["input"], seen
    assert 0 <= seen["top"] < seen["vh"] and seen["onTop"], (
        f"{target}: the output is not in view after the jump: {seen}"
    )
    toggle = page.locator(f"#{target.split('#')[1]} > details.above-input > summary")
    assert toggle.inner_text().strip() == "Show code"
    toggle.click()
    assert toggle.inner_text().strip() == "Hide code"
    assert page.evaluate(
        f"document.getElementById('{target.split('#')[1]}')"
        ".querySelector('div.cell_input').checkVisibility()"
    ), "the toggle did not open the code"
    assert not outside and not errors, (outside, errors)
    page.close()


def test_code_toggle_reads_in_both_schemes_and_fits_a_finger(browser, server):
    """The "Show code" line passes axe's contrast check in light mode (desktop) and dark
    mode (a phone), is named by what it says, and is a 44 px target on the phone."""
    for scheme, width in (("light", 1280), ("dark", 390)):
        ctx = browser.new_context(
            color_scheme=scheme, viewport={"width": width, "height": 844}
        )
        page = ctx.new_page()
        page.goto(f"{server}/{ATTENTION}", wait_until="load")
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            """async (sel) => {
            // axe builds its tree of the whole page: the code and math it is not asked
            // about leave first (the toggles stay; their colours are their own)
            document.querySelectorAll('div.cell_input, mjx-container')
                .forEach(e => e.remove());
            const s = [...document.querySelectorAll(sel)];
            const r = await axe.run({include: s.map(e => [e])},
                                    {runOnly: {type: 'rule', values: ['color-contrast']}});
            return {n: s.length, bad: r.violations.map(v => v.nodes.length),
                    labels: s.filter(e => e.hasAttribute('aria-label')).length,
                    heights: s.map(e => e.getBoundingClientRect().height)}; }""",
            f"{FOLDED} > summary",
        )
        assert found["n"] > 0, "no folded code on the attention page"
        assert not found["bad"], f"{scheme}: toggles fail the contrast check: {found}"
        assert not found["labels"], "a toggle's aria-label hides what it says"
        if width < 500:
            assert min(found["heights"]) >= 44, found["heights"]
        ctx.close()


class _OutputText(HTMLParser):
    """The text inside every cell output (div.cell_output), code input left out."""

    def __init__(self):
        super().__init__()
        self.depth, self.text = 0, []

    def handle_starttag(self, tag, attrs):
        if tag != "div":
            return
        if self.depth:
            self.depth += 1
        elif "cell_output" in (dict(attrs).get("class") or "").split():
            self.depth = 1

    def handle_endtag(self, tag):
        if tag == "div" and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)


def test_markdown_tables_a_cell_displays_are_tables():
    """A table a cell displays as Markdown (48.0's sections, 48.3's matrices) reaches
    the page as a table, not as rows of pipes (myst-nb's default
    CommonMark has no tables)."""
    bad, tables = [], 0
    for path in _pages():
        html = (SITE / path).read_text(encoding="utf-8")
        parser = _OutputText()
        parser.feed(html)
        text = "".join(parser.text)
        if re.search(r"\|\s*:?-{3,}:?\s*\|", text):
            bad.append(path)
        tables += html.count('<table class="table">')
    assert not bad, f"Markdown tables shown as raw pipes on: {bad}"
    assert tables > 0, "no displayed table found on any page"


FIGURE = ".bd-content div.cell_output img.book-figure"


def test_a_tapped_figure_opens_at_its_own_size_on_a_phone(browser, server):
    """On a 390 px phone a figure is shrunk below its text size; a tap opens it at its
    1x width, unfiltered in dark mode, and Escape closes it. On a desktop a click does
    nothing: the figure is already at that size."""
    seen = {}
    for width, scheme in ((390, "dark"), (1280, "light")):
        ctx = browser.new_context(
            viewport={"width": width, "height": 844}, color_scheme=scheme
        )
        page = ctx.new_page()
        page.goto(f"{server}/{ATTENTION}", wait_until="load")
        # a figure without hover values (one with them: the test after the stills')
        img = page.locator(f"{FIGURE}:not(.book-still > img)").first
        img.scroll_into_view_if_needed()
        shown = img.evaluate("i => i.getBoundingClientRect().width")
        img.click()
        page.wait_for_timeout(200)
        opened = page.locator("dialog.book-zoom[open]")
        seen[width] = opened.count()
        if width == 390:
            assert seen[width] == 1, "a tap on a figure on a phone opens no dialog"
            big = opened.locator("img")
            got = big.evaluate(
                "i => [i.getBoundingClientRect().width, getComputedStyle(i).filter]"
            )
            assert got[0] == int(img.get_attribute("width")) > shown, (got, shown)
            assert got[1] == "none", f"the enlarged figure is filtered: {got[1]}"
            page.keyboard.press("Escape")
            page.wait_for_timeout(200)
            assert page.locator("dialog.book-zoom").count() == 0, "Escape left it open"
        ctx.close()
    assert seen[1280] == 0, "a click on a desktop figure opened a dialog"


def test_a_notebook_is_offered_only_where_it_runs_alone():
    """Every notebook page's download menu serves its .ipynb, and the file is there;
    a page that runs only in a checkout (downloads.CHECKOUT_ONLY) offers neither."""
    from workshop.site.downloads import CHECKOUT_ONLY

    pages = [p for p in _pages() if p.startswith("notebooks/")]
    assert pages
    for path in pages:
        doc = path.removesuffix(".html")
        link = f"_sources/{doc}.ipynb" in (SITE / path).read_text(encoding="utf-8")
        served = (SITE / "_sources" / f"{doc}.ipynb").exists()
        want = doc not in CHECKOUT_ONLY
        assert (link, served) == (want, want), (path, link, served)


def test_an_exercise_says_right_and_wrong_with_no_kernel(browser, server):
    """The answer box (book/exercises.py, book.js): typing the key says right, a
    wrong number says wrong and by how much, a choice works from the keyboard, and
    the verdict is announced (aria-live) to a screen reader."""
    page, outside, errors = open_offline(
        browser, server, "notebooks/part1/08-attention.html"
    )
    box = page.locator(".book-exercise[data-id='08.1']")
    key = box.get_attribute("data-key")
    field = box.get_by_label("Your answer to exercise 08.1")
    result = box.locator(".book-exercise-result")
    assert result.get_attribute("aria-live") == "polite"
    assert box.locator("details.book-solution").get_attribute("open") is None
    field.fill(key)
    field.press("Enter")  # the keyboard submits, as the Check button does
    assert result.inner_text().startswith("right"), result.inner_text()
    field.fill(str(float(key) + 0.5))
    box.get_by_role("button", name="Check").click()
    text = result.inner_text()
    assert text.startswith("wrong") and "0.5 above the key" in text, text
    field.fill("a lot")
    field.press("Enter")
    assert result.inner_text().startswith("type a number"), result.inner_text()
    assert not outside, f"requests to other hosts: {outside}"
    assert not errors, f"console errors: {errors}"
    page.close()


def test_exercise_index_links_every_question():
    index = (SITE / "exercises.html").read_text(encoding="utf-8")
    links = re.findall(r'href="(notebooks/part\d/[\w-]+\.html)#(ex-[\d-]+)"', index)
    assert len(links) >= 3 * 32, f"{len(links)} exercise links"
    for page, anchor in links:
        target = (SITE / page).read_text(encoding="utf-8")
        assert f'id="{anchor}"' in target, f"{page}#{anchor} is not on its page"
        assert f'id="exercise-{anchor[3:]}"' in target, (
            f"{page}: no answer box {anchor}"
        )


def test_exercises_print_their_answers_in_the_appendix_only(browser, server):
    """On paper (print.css) a chapter shows the question and a pointer, not the key
    or the cell that computes it; the exercises page prints every key."""
    page, _, _ = open_offline(browser, server, "notebooks/part1/08-attention.html")
    page.emulate_media(media="print")
    box = page.locator(".book-exercise[data-id='08.1']")
    assert not box.locator("details.book-solution").is_visible()
    assert box.locator(".book-exercise-print").is_visible()
    key_code = page.locator("div.cell.tag_exercise-key div.cell_input").first
    assert not key_code.is_visible(), "a key cell's code prints beside its question"
    page.goto(f"{server}/exercises.html")
    page.emulate_media(media="print")
    assert page.locator(".book-exercise-answer").first.is_visible()
    page.emulate_media(media="screen")
    assert not page.locator(".book-exercise-answer").first.is_visible()
    page.close()


def test_only_the_search_page_loads_the_search_index():
    """workshop/site/templates/layout.html drops the search tools and index the theme loads
    on every page for search-as-you-type (off here): only search.html loads them."""
    import pydata_sphinx_theme

    assert pydata_sphinx_theme.__version__ == "0.17.1", (
        "the layout override copies pydata-sphinx-theme 0.17.1's extrahead block: compare it "
        "with the new theme's layout.html, then update the version here"
    )
    loading = [p for p in _pages() if "searchindex.js" in (SITE / p).read_text("utf-8")]
    assert not loading, f"pages that load the search index: {loading[:5]}"
    assert "searchindex.js" in (SITE / "search.html").read_text("utf-8")


def test_icon_fonts_hold_every_icon_the_site_draws():
    """workshop/site/icons.py cuts Font Awesome to the icons the site draws: every fa-NAME
    class on a built page, and the theme's own icons, is still in one of the fonts."""
    from fontTools.ttLib import TTFont

    from workshop.site import icons

    fonts = sorted((SITE / icons.WEBFONTS).glob("*.woff2"))
    held = set().union(*(TTFont(f).getBestCmap() for f in fonts))
    names = icons.icon_names((SITE / icons.THEME_CSS).read_text(encoding="utf-8"))
    drawn = {
        n
        for p in _pages()
        for n in re.findall(r"\bfa-([a-z0-9-]+)", (SITE / p).read_text("utf-8"))
        if n in names
    }
    missing = sorted(n for n in drawn if names[n] not in held)
    assert drawn and not missing, f"icons drawn but cut from the fonts: {missing}"
    solid = SITE / icons.WEBFONTS / "fa-solid-900.woff2"
    assert solid.stat().st_size < 20_000, solid.stat().st_size


def test_a_page_loads_only_the_extension_assets_its_body_uses():
    """workshop/site/sphinxext.py NEEDED_BY: sphinx-design's CSS and JS (no page uses
    sphinx-design), the copy button (pages with code blocks), myst-nb's CSS (pages
    with notebook cells) and sphinx-togglebutton with its settings (pages with a
    dropdown note) load only where the body needs them."""
    from workshop.site.sphinxext import NEEDED_BY, SETTINGS_OF, needs

    for p in _pages():
        text = (SITE / p).read_text("utf-8")
        head, _, body = text.partition("<body")
        for asset, marks in NEEDED_BY.items():
            if not needs(marks, body):
                assert asset not in head, f"{p} loads {asset} and has none of {marks}"
                for word in SETTINGS_OF.get(asset, ()):
                    assert word not in head, f"{p} sets {word} for no {asset}"
    for p in ("sources.html", "glossary.html", "exercises.html"):
        text = (SITE / p).read_text("utf-8")
        assert "copybutton.js" not in text and "togglebutton." not in text, p
    chapter = (SITE / "notebooks/part1/08-attention.html").read_text("utf-8")
    assert "copybutton.js" in chapter and "mystnb." in chapter
    assert "togglebutton.js" in chapter and "togglebutton.css" in chapter


def _selectors_of(css: str) -> list[str]:
    """Every selector of a stylesheet's style rules (in @media too), with its
    pseudo-classes and pseudo-elements taken off, as querySelectorAll reads them."""
    import tinycss2

    out = []

    def walk(rules):
        for r in rules:
            if r.type == "qualified-rule":
                for sel in tinycss2.serialize(r.prelude).split(","):
                    sel = re.sub(r"::?[a-z-]+(\([^)]*\))?", "", sel).strip()
                    out.append(sel or "*")
            elif r.type == "at-rule" and r.lower_at_keyword == "media":
                walk(tinycss2.parse_rule_list(r.content, skip_whitespace=True))

    walk(tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True))
    return out


def test_a_page_without_toggles_loses_nothing_with_togglebutton(browser, server):
    """sphinx-togglebutton styles and drives only what it folds (.toggle,
    .admonition.dropdown) and the buttons and details it adds to them: on the pages
    that no longer load it, no selector of its full stylesheet matches an element,
    while on a chapter with a dropdown note its script adds its button."""
    import sphinx_togglebutton

    css = (
        Path(sphinx_togglebutton.__file__).parent / "_static" / "togglebutton.css"
    ).read_text("utf-8")
    selectors = _selectors_of(css)
    assert len(selectors) > 10, selectors
    for path in ("glossary.html", "exercises.html", "sources.html"):
        page, _, errors = open_offline(browser, server, path)
        matched = page.evaluate(
            "(ss) => ss.filter(s => document.querySelector(s))", selectors
        )
        assert not matched, f"{path}: togglebutton.css would style {matched}"
        assert not errors, errors
        page.close()
    page, _, errors = open_offline(browser, server, "notebooks/part1/08-attention.html")
    assert page.locator(".admonition.dropdown button.toggle-button").count() > 0
    assert page.evaluate("(ss) => ss.some(s => document.querySelector(s))", selectors)
    assert not errors, errors
    page.close()


def test_bootstrap_is_named_not_loaded_and_the_theme_needs_it_nowhere_else():
    """workshop/site/sphinxext.py bootstrap_on_demand: no page loads or preloads the
    theme's bootstrap.js; each names it once for book.js to load on demand, and the
    file it names is the theme's own. pydata-sphinx-theme.js reads window.bootstrap in
    one place, the collapse button of a sidebar layout no page has."""
    import pydata_sphinx_theme

    theme = Path(pydata_sphinx_theme.__file__).parent / "theme/pydata_sphinx_theme"
    for p in _pages() + ["search.html"]:
        text = (SITE / p).read_text("utf-8")
        assert not re.search(
            r'<(script|link)[^>]*\s(src|href)="[^"]*bootstrap\.js', text
        )
        named = re.findall(r'<script type="book/on-demand" data-src="([^"?]*)', text)
        assert len(named) == 1, (p, named)
        path = (SITE / p).parent / named[0]
        assert path.read_bytes() == (theme / "static/scripts/bootstrap.js").read_bytes()
        assert "pst-collapse-sidebar-button" not in text, p
    script = (theme / "static/scripts/pydata-sphinx-theme.js").read_text("utf-8")
    uses = re.findall(r"bootstrap\.\w+", script)
    assert uses == ["bootstrap.Tooltip"], uses
    assert "pst-collapse-sidebar-button" in script


def _bootstrap_page(browser, server, path, slow=0, **context):
    """A page opened offline, with bootstrap.js held back `slow` ms (a slow network),
    and the list of its requests for it."""
    import time

    ctx = browser.new_context(**context)
    page = ctx.new_page()
    asked, errors = [], []

    def route(r):
        if "bootstrap.js" in r.request.url:
            asked.append(r.request.url)
            time.sleep(slow / 1000)
        return r.continue_()

    page.route("**/*", route)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/{path}", wait_until="networkidle")
    return ctx, page, asked, errors


def test_bootstrap_loads_when_a_reader_reaches_for_what_it_drives(browser, server):
    """A reader who only reads and scrolls fetches no bootstrap.js, and the
    back-to-top button still shows on the way back up and takes them to the top; a
    pointer over a header button loads it and its tooltip shows; the download menu
    opens on the first click, tap or arrow key even when Bootstrap arrives after it
    (held back 400 ms here), and closes as Bootstrap closes it."""
    # (the theme shows the back-to-top button below 1200 px only)
    phone = {"viewport": {"width": 390, "height": 844}}
    ctx, page, asked, errors = _bootstrap_page(
        browser, server, "glossary.html", **phone
    )
    page.wait_for_timeout(300)
    assert not asked and page.evaluate("typeof window.bootstrap") == "undefined"
    top = page.locator("#pst-back-to-top")
    page.mouse.move(200, 500)  # over the glossary's text
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(300)
    assert not top.is_visible()
    page.mouse.wheel(0, -500)
    page.wait_for_timeout(300)
    assert top.is_visible(), "no back-to-top button on the way back up"
    top.click()
    page.wait_for_function("window.scrollY === 0")
    assert not asked, "reading and scrolling loaded bootstrap.js"
    assert not errors, errors
    ctx.close()

    # (the light front page for what needs no length)
    ctx, page, asked, errors = _bootstrap_page(browser, server, "intro.html")
    page.hover(".theme-switch-button")
    tip = page.locator(".tooltip.show")
    tip.wait_for(timeout=3000)
    assert tip.inner_text() == "Color mode" and len(asked) == 1
    assert not errors, errors
    ctx.close()

    menu = ".dropdown-download-buttons .dropdown-menu"
    button = ".dropdown-download-buttons button.dropdown-toggle"
    ways = {
        "click": ({}, lambda page: page.click(button)),
        "tap": (
            {"viewport": {"width": 390, "height": 844}, "has_touch": True},
            lambda page: page.tap(button),
        ),
        "arrow": (
            {},
            lambda page: (page.focus(button), page.keyboard.press("ArrowDown")),
        ),
    }
    for way, (context, act) in ways.items():
        ctx, page, asked, errors = _bootstrap_page(
            browser, server, "intro.html", slow=400, **context
        )
        assert not asked, way
        act(page)
        page.locator(f"{menu}.show").wait_for(timeout=3000)
        assert page.locator(button).get_attribute("aria-expanded") == "true", way
        assert page.locator(f"{menu} .dropdown-item").first.is_visible(), way
        page.keyboard.press("Escape")
        page.wait_for_function(f"!document.querySelector('{menu}.show')")
        assert len(asked) == 1 and not errors, (way, asked, errors)
        ctx.close()


def test_math_is_drawn_at_build_time_and_no_page_loads_mathjax():
    """workshop/site/math.py: each formula is an SVG in the page, with MathML for screen
    readers; no page fetches MathJax."""
    with_math = 0
    for p in _pages():
        text = (SITE / p).read_text("utf-8")
        assert "tex-chtml" not in text and "mathjax/" not in text, p
        if 'class="math' in text:
            with_math += 1
            assert "<mjx-container" in text and "<mjx-assistive-mml" in text, p
            assert "math-svg.css" in text, p
    assert with_math >= 20


def test_the_sidebar_buttons_a_reader_sees_open_the_sidebars(browser, server):
    """The article header's buttons open the navigation and the page's contents as
    drawers on a phone and collapse the navigation on a wide screen. The themes bind
    only the hidden navbar copies (pydata-sphinx-theme#2451); book.js hands a click on
    a visible button to its copy."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = ctx.new_page()
    page.goto(f"{server}/{ATTENTION}", wait_until="load")
    is_open = "(id) => document.getElementById(id).open"
    for side in ("primary", "secondary"):
        page.locator(f".{side}-toggle:visible").first.tap()
        page.wait_for_timeout(300)
        assert page.evaluate(is_open, f"pst-{side}-sidebar-modal"), side
        page.keyboard.press("Escape")
        page.wait_for_timeout(200)
        assert not page.evaluate(is_open, f"pst-{side}-sidebar-modal"), side
    ctx.close()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/{ATTENTION}", wait_until="load")
    page.locator(".primary-toggle:visible").first.click()
    page.wait_for_timeout(200)
    hidden = "() => document.getElementById('pst-primary-sidebar').classList"
    assert "pst-sidebar-hidden" in page.evaluate(hidden + ".value")
    page.close()


def test_an_exercise_verdict_counts_one_in_the_singular(browser, server):
    """The site's verdict (book.js) writes a unit as book.fmt.counted does: the key of
    17.2 is one token, and typing it reads '1 token', not '1 tokens'."""
    page, outside, errors = open_offline(
        browser, server, "notebooks/part2/17-tokenization.html"
    )
    box = page.locator(".book-exercise[data-id='17.2']")
    assert box.get_attribute("data-key") == "1", box.get_attribute("data-key")
    field = box.get_by_label("Your answer to exercise 17.2 (tokens)")
    field.fill("1")
    field.press("Enter")
    text = box.locator(".book-exercise-result").inner_text()
    assert text == "right: 1 token is the key, exactly", text
    field.fill("3")
    field.press("Enter")
    text = box.locator(".book-exercise-result").inner_text()
    assert text.startswith("wrong: 3 tokens is 2 tokens above the key"), text
    assert not outside and not errors, (outside, errors)
    page.close()
