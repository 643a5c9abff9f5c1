"""The printed book (workshop/print/pdf.py).

Two levels, because the whole book takes minutes to print:

- make test: a smoke. One built page of the test site (Lesson 17: figures, a slider,
  code, math, Korean, Japanese and Hindi) is printed by the same browser, stylesheet and
  slider lines, and the PDF is checked as the whole book is. Also, the site's download
  menu offers the whole-book PDF.
- make pdf (and make soak): the whole book, with BOOK_PDF pointing at the summary
  workshop/print/pdf.py wrote: page count, one image per figure and slider, an outline entry per
  chapter in _toc.yml in its part, every font embedded, no .notdef glyph,
  every internal link resolved.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from workshop.config import ROOT, parts, test_site
from workshop.print import pdf  # noqa: E402

SITE = test_site()
SMOKE_PAGE = "notebooks/part2/17-tokenization.html"
SUMMARY = os.environ.get("BOOK_PDF")
CHROMIUM = Path(pdf.CHROMIUM).exists()


def _squash(s: str) -> str:
    """A title without spaces, with Sphinx's curly quotes made straight again."""
    s = s.translate(
        str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
    )
    return re.sub(r"\s+", "", s)


def figures_and_sliders(html: str) -> tuple[int, int]:
    return (
        len(re.findall(r'<img class="book-figure"', html)),
        len(re.findall(r'<div class="book-slider" id=', html)),
    )


def glyph_and_font_problems(seen: dict) -> list[str]:
    bad = [f"font {n} ({t}) is not embedded" for n, t, emb in seen["fonts"] if not emb]
    bad += [
        f"{font}: .notdef glyphs (missing characters) on pages {pages[:10]}"
        for font, pages in seen["notdef"].items()
    ]
    return bad


# --- make test: the smoke -------------------------------------------------------------


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    if not (SITE / SMOKE_PAGE).exists():
        pytest.skip(f"no built page {SITE / SMOKE_PAGE}; make test builds it")
    if not CHROMIUM:
        pytest.skip("no /usr/bin/chromium; make chromium installs it")
    from workshop.site.server import serve

    out = tmp_path_factory.mktemp("pdf") / "page.pdf"
    base, stop = serve(SITE)
    try:
        printed = pdf.print_page(f"{base}/{SMOKE_PAGE}", out)
    finally:
        stop()
    return printed, pdf.inspect(out), (SITE / SMOKE_PAGE).read_text(encoding="utf-8")


def test_smoke_page_prints_offline_with_every_figure_and_slider(smoke):
    printed, seen, html = smoke
    figures, sliders = figures_and_sliders(html)
    assert figures and sliders, "the smoke page should hold figures and a slider"
    assert not printed["refused"], printed["refused"]
    assert printed["sliders"] == sliders
    assert seen["images"] == figures + sliders, (seen["images"], figures, sliders)
    assert 5 <= seen["pages"] <= 80, seen["pages"]


def test_smoke_page_has_every_glyph_math_and_wrapped_code(smoke):
    printed, seen, _ = smoke
    assert not glyph_and_font_problems(seen), glyph_and_font_problems(seen)
    assert not printed["wide_code"], (
        f"code wider than the page: {printed['wide_code'][:3]}"
    )
    assert printed["folded_code"] == 0, "folded code prints: paper has no toggle"
    title = pdf.chapter_title(ROOT, "notebooks/part2/17-tokenization")
    assert any(_squash(title) in _squash(t) for _, t in seen["outline"]), (
        title,
        seen["outline"][:5],
    )


def test_download_menu_offers_the_whole_book_pdf():
    page = SITE / SMOKE_PAGE
    if not page.exists():
        pytest.skip(f"no built page {page}")
    name = pdf.pdf_name(ROOT)
    html = page.read_text(encoding="utf-8")
    assert "download-book-pdf-button" in html
    assert re.search(rf'href="(\.\./)*_static/{re.escape(name)}"', html), (
        "the whole-book link is missing"
    )
    assert re.search(
        r'<link[^>]*href="(\.\./)*_static/print\.css[^"]*"[^>]*media="print"', html
    ) or re.search(
        r'<link[^>]*media="print"[^>]*href="(\.\./)*_static/print\.css', html
    ), "no print stylesheet"


# --- make pdf / make soak: the whole book ---------------------------------------------

needs_book = pytest.mark.skipif(
    not SUMMARY, reason="the whole-book checks run in make pdf (BOOK_PDF)"
)


@pytest.fixture(scope="module")
def book():
    summary = json.loads(Path(SUMMARY).read_text(encoding="utf-8"))
    path = ROOT / summary["pdf"]
    assert path.exists(), path
    return (
        summary,
        pdf.inspect(path),
        (ROOT / summary["html"]).read_text(encoding="utf-8"),
    )


@needs_book
def test_book_page_count_is_plausible(book):
    summary, seen, _ = book
    meta = pdf.book_meta()
    assert summary["pages"] == seen["pages"]
    assert len(meta["chapters"]) * 3 <= seen["pages"] <= 1500, seen["pages"]
    assert summary["contents_pages_stable"], (
        "the contents' page numbers moved between the prints"
    )
    assert not summary["refused"], summary["refused"]


@needs_book
def test_book_has_one_image_per_figure_and_slider(book):
    summary, seen, html = book
    figures, sliders = figures_and_sliders(html)
    assert (summary["figures"], summary["sliders"]) == (figures, sliders)
    assert seen["images"] == figures + sliders, (seen["images"], figures, sliders)


@needs_book
def test_book_outline_lists_every_chapter_in_its_part(book):
    _, seen, _ = book
    meta = pdf.book_meta()
    tops = [t for d, t in seen["outline"] if d == 0]
    for part in meta["parts"]:
        assert part in tops, (part, tops)
    current, under = None, {}
    for depth, title in seen["outline"]:
        if depth == 0:
            current = title
        elif depth == 1:
            under.setdefault(current, []).append(_squash(title))
    missing = []
    for part in parts():
        got = under.get(part["caption"], [])
        want = [_squash(pdf.chapter_title(ROOT, c["file"])) for c in part["chapters"]]
        missing += [w for w in want if not any(w in g for g in got)]
        order = [
            next(i for i, g in enumerate(got) if w in g)
            for w in want
            if any(w in g for g in got)
        ]
        assert order == sorted(order), f"chapters of {part['caption']} out of order"
    assert not missing, f"chapters missing from the outline: {missing}"


@needs_book
def test_book_has_every_glyph_and_embeds_every_font(book):
    _, seen, _ = book
    assert not glyph_and_font_problems(seen), glyph_and_font_problems(seen)
    names = " ".join(n for n, _, _ in seen["fonts"])
    for face in (
        "IBMPlexSans-Regular",
        "IBMPlexMono-Regular",
        "IBMPlexSansKR",
        "IBMPlexSansJP",
    ):
        assert face in names, f"{face} is not in the PDF: {names}"


@needs_book
def test_book_code_wraps_math_typesets_links_resolve(book):
    summary, seen, _ = book
    assert not summary["wide_code"], summary["wide_code"][:3]
    assert summary.get("folded_code") == 0, "folded code prints in the book PDF"
    assert summary["math"] > 100, summary["math"]
    assert seen["internal_links"] > len(pdf.book_meta()["chapters"]), seen[
        "internal_links"
    ]
    assert not seen["broken_links"], seen["broken_links"][:10]


@needs_book
def test_site_copy_is_current_when_the_site_is_built(book):
    summary, _, _ = book
    site = ROOT / "_build" / "html"
    if not site.is_dir():
        pytest.skip("no _build/html to copy into")
    copy = site / "_static" / Path(summary["pdf"]).name
    assert copy.exists() and copy.read_bytes() == (ROOT / summary["pdf"]).read_bytes()


# The two ways a slider's controls are written: a label that wraps its input and output,
# and (a slider with names=) a label with a range beside them.
TWO_SLIDERS = """<div class="book-slider"><div class="book-slider-controls">
<label for="a-r">rounds <input type="range" id="a-r" aria-valuetext="10">
<output for="a-r">10</output></label></div><img src="data:,">
<script type="application/json">{"labels": [["5", "10"]]}</script></div>
<div class="book-slider"><div class="book-slider-controls"><span class="book-slider-knob">
<label for="b-lr">learning rate <span class="book-slider-range">(0.01 to 0.15)</span></label>
<input type="range" id="b-lr" aria-valuetext="0.05"> <output for="b-lr">0.05</output>
</span></div><img src="data:,">
<script type="application/json">{"labels": [["0.01", "0.05", "0.15"]]}</script></div>"""


def test_each_kind_of_slider_gets_its_printed_line():
    if not CHROMIUM:
        pytest.skip("no /usr/bin/chromium; make chromium installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = pdf._browser(p)
        page = b.new_page()
        page.set_content(TWO_SLIDERS)
        assert page.evaluate(pdf.SLIDER_LINES) == 2
        lines = page.locator(".book-slider-print").all_text_contents()
        b.close()
    assert lines == [
        "On the site this figure is a slider: it varies rounds over 5, 10. "
        "Printed at rounds = 10.",
        "On the site this figure is a slider: it varies learning rate over 0.01, 0.05, "
        "0.15. Printed at learning rate = 0.05.",
    ]
