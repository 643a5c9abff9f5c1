"""Unit tests of the shared package, bad input included: every
error names the bad value."""

from __future__ import annotations

import io
import json
import re

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import book  # noqa: E402
from book import ClaimFailed, bound, check, fixed, new_figure, show, slider  # noqa: E402
from workshop.config import ROOT
from workshop.site import sphinxext


# check --------------------------------------------------------------------------------
def test_check_prints_ok(capsys):
    check("one plus one is two", 1 + 1, 2)
    check("close enough", 0.1 + 0.2, 0.3, tol=1e-12)
    check("arrays match", np.ones(3), [1, 1, 1])
    check("a true claim", True)
    assert capsys.readouterr().out.splitlines() == [
        "ok one plus one is two",
        "ok close enough",
        "ok arrays match",
        "ok a true claim",
    ]


def test_check_fails_loudly_with_both_values():
    with pytest.raises(
        ClaimFailed, match=r"(?s)claim failed: wrong.*got:\s+3.*expected: 4"
    ):
        check("wrong", 3, 4)
    with pytest.raises(ClaimFailed):
        check("not true", False)
    with pytest.raises(ClaimFailed):
        check("relative", 1.1, 1.0, rtol=0.05)


def test_check_nan_never_passes():
    with pytest.raises(ClaimFailed):
        check("nan is not close to anything", float("nan"), 0.0, tol=1.0)


@pytest.mark.parametrize(
    "text, rows",
    [
        ("scale 0.03: ratio 0.97, at depth 20 0.99, level 4.4e-02", set()),
        ("one sentence\nanother, with [1, 2]", set()),
        ("d     sd    max\n4     0.1   0.9", {0, 1}),
        (
            "a heading\nlayer_norm(x)   [-0.34, 1.37]\nsoftmax(x)      [0.1, 0.9]",
            {1, 2},
        ),
        ("rows:\n  a 1\n  b 2", {1, 2}),
        ("width 8: [4.     3.5353 2.5637]", set()),
    ],
)
def test_printed_columns_keep_their_layout_and_sentences_wrap(text, rows):
    assert sphinxext.column_rows(text.split("\n")) == rows
    wrapped = sphinxext.wrap_sentences(text)
    assert wrapped.count('<span class="book-wrap">') == text.count("\n") + 1 - len(rows)
    assert re.sub(r"</?span[^>]*>", "", wrapped) == text


@pytest.mark.parametrize("claim", ["", "   ", None, 3, "two\nlines"])
def test_check_rejects_bad_claims(claim):
    with pytest.raises(ValueError, match="claim"):
        check(claim, 1, 1)


@pytest.mark.parametrize("tol", [-1e-3, float("nan"), float("inf"), "0.1", True])
def test_check_rejects_bad_tolerance(tol):
    with pytest.raises(ValueError, match=re.escape(repr(tol))):
        check("x", 1.0, 1.0, tol=tol)


def test_check_tolerance_needs_numbers():
    with pytest.raises(ValueError, match="needs numbers"):
        check("strings", "a", "b", tol=0.1)


# fmt ----------------------------------------------------------------------------------
def test_bound():
    assert bound(3e-17) == "< 1e-15"
    assert bound(-2e-13, floor=1e-12) == "< 1e-12"
    assert bound(np.float64(0.0)) == "< 1e-15"
    assert bound(np.array(1e-16)) == "< 1e-15"


@pytest.mark.parametrize(
    "x, floor, msg",
    [
        (1e-10, 1e-15, "not below"),
        (float("nan"), 1e-15, "NaN"),
        ("0", 1e-15, "'0'"),
        (0.0, 2e-15, "power of ten"),
        (0.0, -1e-15, "power of ten"),
        (True, 1e-15, "True"),
    ],
)
def test_bound_rejects(x, floor, msg):
    with pytest.raises((ValueError, TypeError), match=msg):
        bound(x, floor=floor)


def test_fixed():
    assert fixed(0.38861, 3) == "0.389"
    assert fixed(-0.0001, 3) == "0.000"
    assert fixed(2, 0) == "2"
    with pytest.raises(ValueError, match="16"):
        fixed(1.0, 16)
    with pytest.raises(ValueError, match="inf"):
        fixed(float("inf"))
    with pytest.raises(TypeError, match="None"):
        fixed(None)


# style --------------------------------------------------------------------------------
def _fig(title="A line rises", xl="x", yl="y"):
    fig, ax = new_figure(title)
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel(xl)
    ax.set_ylabel(yl)
    return fig


def test_palette_is_okabe_ito():
    book.use()
    assert book.PALETTE[:3] == ("#0072B2", "#E69F00", "#009E73")
    assert matplotlib.rcParams["axes.prop_cycle"].by_key()["color"][0] == "#0072B2"


def test_show_displays_html_with_alt(capsys):
    shown = []
    import IPython.display

    orig = IPython.display.display
    IPython.display.display = lambda obj: shown.append(obj)
    try:
        show(_fig(), alt="A straight line from the origin to one.")
    finally:
        IPython.display.display = orig
    html = shown[0]._repr_html_()
    assert html.startswith('<img class="book-figure" src="data:image/webp;base64,')
    assert 'width="720" height="380"' in html  # displayed at 1x, drawn at 2x
    r = shown[0].rendered
    from PIL import Image

    assert Image.open(io.BytesIO(r.data)).size == (1440, 760)
    assert 'alt="A straight line from the origin to one."' in html


@pytest.mark.parametrize(
    "kw, msg",
    [
        (dict(title=""), "title"),
        (dict(xl=""), "x-axis label"),
        (dict(yl=""), "y-axis label"),
    ],
)
def test_show_refuses_figures_that_break_the_house_style(kw, msg):
    if "title" in kw:
        with pytest.raises(ValueError, match="title"):
            new_figure(kw["title"])
        return
    with pytest.raises(ValueError, match=msg):
        show(_fig(**kw), alt="A figure with something missing.")


@pytest.mark.parametrize("alt", [None, "", "short", 5])
def test_show_needs_alt_text(alt):
    with pytest.raises(ValueError, match="alt"):
        show(_fig(), alt=alt)


def test_show_rejects_non_figures():
    with pytest.raises(TypeError, match="list"):
        show([1, 2], alt="Not a figure at all, just a list.")


@pytest.mark.parametrize("n", [0, 13, 1.5, True])
def test_new_figure_rejects_bad_grid(n):
    with pytest.raises(ValueError, match=re.escape(repr(n))):
        new_figure("A title", ncols=n)


def _shown(fig, alt="A figure drawn for a unit test."):
    import IPython.display

    shown, orig = [], IPython.display.display
    IPython.display.display = lambda obj: shown.append(obj)
    try:
        show(fig, alt=alt)
    finally:
        IPython.display.display = orig
    return shown[0]


def test_long_titles_wrap_to_the_figure_width():
    title = "A title that states a long finding " * 4
    fig = _fig(title=title.strip())
    r = _shown(fig)
    first = repr(r).splitlines()[1]
    assert (
        first.startswith("figure title: A title") and "states a long finding" in first
    )
    assert fig._suptitle.get_text().count("\n") >= 1  # wrapped, not cut


def test_shared_mathtext_layouts_change_no_pixel():
    """Figures share one cache of laid-out formulas (book.style): a log axis drawn
    after another draws the same pixels as one drawn by a renderer of its own."""
    from matplotlib.backends import backend_agg
    from matplotlib.mathtext import MathTextParser

    def pixels(own_parser: bool) -> bytes:
        fig, ax = book.new_figure("$\\sqrt{1/b - 1/n}$ on a log axis")
        ax.semilogy([1, 2, 3], [1e-6, 1e-3, 1])
        fig.canvas.draw()
        if own_parser:
            renderer = fig.canvas.get_renderer()
            kind = {"vector": "path", "raster": "agg"}[
                renderer.mathtext_parser._output_type
            ]
            renderer.mathtext_parser = MathTextParser(kind)
            fig.canvas.draw()
        data = bytes(fig.canvas.buffer_rgba())
        matplotlib.pyplot.close(fig)
        return data

    first, again, alone = pixels(False), pixels(False), pixels(True)
    assert backend_agg.RendererAgg._book_shared_parser is not None
    assert first == again == alone


def test_mathtext_survives_wrapping():
    fig = _fig(
        title="An error that falls as $\\sqrt{1/b - 1/n}$ " + "and keeps falling " * 5
    )
    _shown(fig)
    assert "$\\sqrt{1/b - 1/n}$" in fig._suptitle.get_text()


@pytest.mark.parametrize(
    "spoil, msg",
    [
        (
            lambda f, a: a.text(1.6, 0.5, "a note far to the right"),
            "runs off the canvas",
        ),
        (lambda f, a: a.annotate("below", (0.5, 0.5), xytext=(0.5, -2)), "below"),
        (
            lambda f, a: a.legend(["line"], loc="upper left", bbox_to_anchor=(1.3, 1)),
            "legend",
        ),
        (lambda f, a: a.set_xticks([0, 1], ["zero", "one" * 30]), "tick"),
        (lambda f, a: a.text(0.5, 0.5, "tiny", fontsize=6), "below the 11 px minimum"),
        (lambda f, a: a.set_xlabel("small label", fontsize=7), "small label"),
    ],
)
def test_show_refuses_text_off_the_canvas_or_too_small(spoil, msg):
    fig = _fig()
    spoil(fig, fig.axes[0])
    with pytest.raises(ValueError, match=msg):
        show(fig, alt="A figure with text where a reader cannot read it.")


def test_narrow_figures_have_a_standard_width():
    fig, ax = new_figure("Narrow", figsize=(4.0, 3.0))
    ax.plot([0, 1])
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    assert tuple(fig.get_size_inches()) == (4.8, 3.0)
    fig, _ = new_figure("Wide", figsize=(11.0, 3.0))
    assert tuple(fig.get_size_inches()) == (7.2, 3.0)


def test_manifest_lists_what_a_reader_reads_and_is_deterministic():
    import numpy as np

    def make():
        fig, (a, b) = new_figure("Two panels", ncols=2)
        a.plot([0, 1], [0, 2], label="measured")
        a.plot([0, 1], [0, 1], label="source")
        a.legend()
        a.annotate("slope 2.00", (0.5, 1.0))
        a.set_xlabel("step")
        a.set_ylabel("loss")
        im = b.imshow(np.arange(9).reshape(3, 3), cmap="cividis")
        fig.colorbar(im, ax=b, label="weight")
        b.set_xlabel("key")
        b.set_ylabel("query")
        return fig

    m1, m2 = repr(_shown(make())), repr(_shown(make()))
    assert m1 == m2 and "0x" not in m1
    for want in (
        "figure title: Two panels",
        "panel 0 x label: step",
        "panel 0 legend: measured",
        "panel 0 legend: source",
        "panel 0 text: slope 2.00",
        "panel 1 colour map: cividis",
        "colour bar y label: weight",
    ):
        assert want in m1, (want, m1)
    assert re.search(r"panel 0 x ticks: 0\.0 \| 0\.2", m1), m1


def test_colour_is_one_per_concept():
    assert book.colour("pre-ln") == book.colour("Pre-LN") == book.CONCEPT["pre-ln"]
    assert book.colour("allowed") != book.colour("blocked")
    with pytest.raises(KeyError, match="no colour for concept 'sideways'"):
        book.colour("sideways")


# slider -------------------------------------------------------------------------------
def _draw(a):
    return _fig(title=f"Slope {a}")


def test_static_slider_html(monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    s = slider(_draw, "Line with slope {a} drawn on unit axes.", a=[1, 2, 3])
    html = s._repr_html_()
    assert '<input type="range"' in html and 'max="2"' in html and 'value="1"' in html
    payload = json.loads(
        re.search(r'<script type="application/json">(.*?)</script>', html).group(1)
    )
    assert payload["labels"] == [["1", "2", "3"]]
    assert set(payload["frames"]) == {"0", "1", "2"}
    assert payload["frames"]["2"][1] == "Line with slope 3 drawn on unit axes."
    assert payload["frames"]["2"][2].startswith("figure title: Slope 3")
    assert payload["frames"]["2"][0].startswith("data:image/webp;base64,")
    assert 'width="720" height="380"' in html
    assert 'alt="Line with slope 2 drawn on unit axes."' in html


def test_static_slider_two_knobs_and_start(monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    s = slider(
        lambda a, b: _draw(a * b),
        lambda a, b: f"Product of {a} and {b}, drawn as a line.",
        a=[1, 2],
        b=[0.5, 1.0, 2.0],
        start={"a": 2, "b": 0.5},
    )
    payload = json.loads(
        re.search(
            r'<script type="application/json">(.*?)</script>', s._repr_html_()
        ).group(1)
    )
    assert len(payload["frames"]) == 6 and "1,0" in payload["frames"]


def test_slider_live_mode_builds_widgets(monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "live")
    monkeypatch.setattr(book.slider_module, "widget_mode", lambda: "live")
    w = book.slider_module._live(
        _draw, "Line with slope {a} drawn.", {"a": [1, 2]}, {"a": 1}, 72
    )
    assert type(w).__name__ == "VBox"


def _widgets(w):
    yield w
    for child in getattr(w, "children", ()):
        yield from _widgets(child)


def test_live_slider_redraws_without_an_output_widget():
    """Moving the knob sets the picture's HTML; no Output widget anywhere, because
    nbclient-based runners stall on one (jupyter/nbclient#312)."""
    import ipywidgets

    w = book.slider_module._live(
        _draw, "Line with slope {a} drawn.", {"a": [1, 2]}, {"a": 1}, 72
    )
    assert not any(isinstance(x, ipywidgets.Output) for x in _widgets(w))
    knob, picture = w.children[0].children[0], w.children[1]
    assert 'alt="Line with slope 1 drawn."' in picture.value
    knob.value = 2
    assert 'alt="Line with slope 2 drawn."' in picture.value


def test_live_slider_shows_a_redraw_error_in_the_picture():
    def draw(a):
        if a == 2:
            raise ValueError(f"a must not be 2, got {a!r}")
        return _draw(a)

    w = book.slider_module._live(
        draw, "Line with slope {a} drawn.", {"a": [1, 2]}, {"a": 1}, 72
    )
    w.children[0].children[0].value = 2
    assert "ValueError: a must not be 2, got 2" in w.children[1].value


def test_widget_mode_rejects_unknown(monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "sometimes")
    with pytest.raises(ValueError, match="'sometimes'"):
        book.widget_mode()


@pytest.mark.parametrize(
    "knobs, start, msg",
    [
        ({}, None, "at least one knob"),
        ({"a": []}, None, "'a' has no values"),
        ({"a": "abc"}, None, "list of values"),
        ({"a": [1, 1]}, None, "repeats"),
        ({"a": [1.0, float("nan")]}, None, "nan"),
        ({"a": list(range(200))}, None, "200 frames"),
        ({"a": [1, 2]}, {"b": 1}, "'b'"),
        ({"a": [1, 2]}, {"a": 5}, "5"),
    ],
)
def test_slider_rejects_bad_knobs(monkeypatch, knobs, start, msg):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    with pytest.raises((ValueError, TypeError), match=msg):
        slider(_draw, "Line with slope {a} drawn.", start=start, **knobs)


def test_slider_rejects_bad_draw_and_alt(monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    with pytest.raises(TypeError, match="callable"):
        slider(42, "alt text long enough here", a=[1])
    with pytest.raises(TypeError, match="not a matplotlib Figure"):
        slider(lambda a: "nope", "alt text long enough here", a=[1])
    with pytest.raises(ValueError, match="alt"):
        slider(_draw, "short", a=[1])
    with pytest.raises(ValueError, match="dpi"):
        slider(_draw, "alt text long enough here", dpi=1000, a=[1])
    with pytest.raises(ValueError, match="runs off the canvas"):
        slider(
            lambda a: _fig(title="T " + "wide" * 80 + f" {a}"),
            "alt text long enough here",
            a=[1],
        )


# sphinx extension ---------------------------------------------------------------------
def test_glossary_and_errata_render(tmp_path):
    (tmp_path / "glossary.yml").write_text(
        "- term: zeta\n  definition: Last.\n  where: notebooks/z\n"
        "- term: alpha\n  definition: First.\n  where: notebooks/a\n"
    )
    text = sphinxext.glossary_text(tmp_path)
    assert ":::{glossary}\n:sorted:" in text and "{doc}`/notebooks/a`" in text
    (tmp_path / "errata.yml").write_text(
        "- claim: x is 2\n  source: 003_f5c0d122b8100c3e.txt, lesson 17\n"
        "  measured: x is 3\n  where: notebooks/a\n"
    )
    text = sphinxext.errata_text(tmp_path)
    assert "x is 3" in text
    assert "{ref}`the course <source-course>`, lesson 17" in text
    (tmp_path / "errata.yml").write_text(
        "- claim: x\n  source: s.txt part 1\n  measured: y\n  where: notebooks/a\n"
    )
    with pytest.raises(ValueError, match="s.txt part 1"):
        sphinxext.errata_text(tmp_path)


def test_glossary_rejects_duplicates_and_gaps(tmp_path):
    (tmp_path / "glossary.yml").write_text(
        "- term: a\n  definition: x\n  where: n\n- term: A\n  "
        "definition: y\n  where: n\n"
    )
    with pytest.raises(ValueError, match="'A' is defined twice"):
        sphinxext.glossary_text(tmp_path)
    (tmp_path / "glossary.yml").write_text("- term: a\n  where: n\n")
    with pytest.raises(ValueError, match="lacks definition"):
        sphinxext.glossary_text(tmp_path)


def test_real_glossary_and_errata_parse():
    root = ROOT
    sphinxext.glossary_text(root)
    sphinxext.errata_text(root)
    assert "claims" in sphinxext.claims_text(root)
    assert "Source claims that reproduce" in sphinxext.claims_text(root)


def test_cells_are_numbered_with_their_tags_and_toggles_named_by_their_text():
    html = (
        '<div class="cell docutils container">a</div>'
        '<div class="cell tag_hide-input docutils container">'
        '<details class="admonition hide above-input">'
        '<summary aria-label="Toggle hidden content">'
        '<p class="collapsed admonition-title">Show code</p></summary></details></div>'
        '<div class="cell tag_remove-output tag_x docutils container">c</div>'
        '<div class="cell_input docutils container">not a cell</div>'
    )
    out = sphinxext.number_cells(html)
    assert re.findall(r'class="(cell[^"]*)" id="cell-(\d+)"', out) == [
        ("cell docutils container", "1"),
        ("cell tag_hide-input docutils container", "2"),
        ("cell tag_remove-output tag_x docutils container", "3"),
    ]
    named = sphinxext.name_code_toggles(out)
    assert "aria-label" not in named and "<summary>" in named


def test_matrix_markdown():
    from book import matrix_markdown

    text = matrix_markdown(
        [[1, -np.inf], [0.5, 2]], "S", ["a", "b"], ["x", "y"], digits=2
    )
    assert text.splitlines() == [
        "| S | x | y |",
        "| --- | ---: | ---: |",
        "| a | 1.00 | -inf |",
        "| b | 0.50 | 2.00 |",
    ]
    with pytest.raises(ValueError, match=r"\(2, 2\).*3 row"):
        matrix_markdown(np.eye(2), "S", ["a", "b", "c"], ["x", "y"])
    with pytest.raises(ValueError, match="NaN"):
        matrix_markdown([[np.nan]], "S", ["a"], ["x"])
    with pytest.raises(ValueError, match="'2'"):
        matrix_markdown([[1.0]], "S", ["a"], ["x"], digits="2")


# heatmap ------------------------------------------------------------------------------
def _heatmap_texts(M, **kw):
    fig, ax = new_figure("a heatmap")
    book.heatmap(ax, M, **kw)
    texts = [(t.get_text(), t.get_color()) for t in ax.texts]
    matplotlib.pyplot.close(fig)
    return texts


def test_heatmap_prints_every_value_with_the_contrast_of_its_cell():
    texts = _heatmap_texts(
        [[0.0, 1.0], [0.25, 0.75]], fmt="{:.2f}", cmap="gray", vmin=0, vmax=1
    )
    assert [t for t, _ in texts] == ["0.00", "1.00", "0.25", "0.75"]
    # gray: black cell -> white text, white cell -> black text
    assert texts[0][1] == "white" and texts[1][1] == "black"


def test_heatmap_contrast_follows_the_colormap_not_the_value():
    # the same values on a reversed map swap every text colour
    a = _heatmap_texts([[0.0, 1.0]], cmap="viridis", vmin=0, vmax=1)
    b = _heatmap_texts([[0.0, 1.0]], cmap="viridis_r", vmin=0, vmax=1)
    assert [c for _, c in a] == ["white", "black"]
    assert [c for _, c in b] == ["black", "white"]


def test_heatmap_text_colour_has_the_larger_contrast():
    from book.figures import _luminance, text_colour

    def ratio(l1, l2):
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)

    for rgba in matplotlib.colormaps["cividis"](np.linspace(0, 1, 33)):
        lum = _luminance(rgba)
        best = "black" if ratio(lum, 0.0) > ratio(lum, 1.0) else "white"
        assert text_colour(rgba) == best


def test_heatmap_keeps_integers_and_labels():
    fig, ax = new_figure("a heatmap")
    im = book.heatmap(ax, np.array([[1, 2, 3]]), ["row"], ["a", "b", "c"], fmt="{}")
    assert [t.get_text() for t in ax.texts] == ["1", "2", "3"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["row"]
    assert im.get_array().shape == (1, 3)
    matplotlib.pyplot.close(fig)


def test_heatmap_prints_a_masked_cell():
    texts = _heatmap_texts([[1.0, -np.inf]], fmt="{:.1f}")
    assert [t for t, _ in texts] == ["1.0", "-inf"]


@pytest.mark.parametrize(
    "M, kw, message",
    [
        ([1, 2, 3], {}, r"2-D matrix, got shape \(3,\)"),
        (np.zeros((0, 2)), {}, r"got shape \(0, 2\)"),
        (np.array([["a"]]), {}, "must hold numbers, got dtype <U1"),
        (np.eye(2), {"row_labels": ["x"]}, r"1 row_labels \['x'\] for 2 rows"),
        (np.eye(2), {"col_labels": list("abc")}, "3 col_labels .* for 2 cols"),
        (np.eye(2), {"cmap": "no-such-map"}, "unknown cmap 'no-such-map'"),
        (np.eye(2), {"cmap": 3}, "cmap must be a Colormap or its name, got 3"),
        (np.eye(2), {"vmin": 1, "vmax": 0}, "vmin 1 must be below vmax 0"),
        (np.eye(2), {"vmin": float("nan")}, "vmin must be a finite number, got nan"),
        (np.eye(2), {"vmax": "1"}, "vmax must be a finite number, got '1'"),
        (np.eye(2), {"fmt": "{:d}"}, r"fmt '\{:d\}' cannot format"),
        (np.eye(2), {"fmt": 3}, "fmt must be a format string or function, got 3"),
    ],
)
def test_heatmap_names_bad_input(M, kw, message):
    fig, ax = new_figure("a heatmap")
    with pytest.raises(ValueError, match=message):
        book.heatmap(ax, M, **kw)
    matplotlib.pyplot.close(fig)


# toc ----------------------------------------------------------------------------------
def test_toc_lists_chapters_in_book_order(tmp_path):
    from workshop.config import notebooks, toc_docs

    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nparts:\n"
        "  - caption: one\n    chapters:\n      - file: b\n      - file: a\n"
        "  - caption: two\n    chapters:\n      - file: glossary\n"
    )
    (tmp_path / "a.ipynb").write_text("{}")
    (tmp_path / "b.ipynb").write_text("{}")
    assert toc_docs(tmp_path) == ["b", "a", "glossary"]
    assert notebooks(tmp_path) == [tmp_path / "b.ipynb", tmp_path / "a.ipynb"]


# fonts --------------------------------------------------------------------------------
def test_subset_font_keeps_exactly_the_asked_characters():
    import io

    from fontTools.ttLib import TTFont

    from book.page_fonts import subset_font

    src = ROOT / (
        "node_modules/@fontsource/ibm-plex-sans/files/"
        "ibm-plex-sans-greek-400-normal.woff2"
    )
    if not src.exists():
        pytest.skip("node_modules is not installed (make install)")
    data = subset_font(src, [0x3B1, 0x3B2])
    assert data == subset_font(
        src, [0x3B1, 0x3B2]
    )  # deterministic: page fonts are named by hash
    cmap = set(TTFont(io.BytesIO(data)).getBestCmap())
    assert {0x3B1, 0x3B2} <= cmap and 0x3B3 not in cmap


def test_order_prints_the_power_of_ten():
    from book import order

    assert order(7.9e12) == "about 1e13"
    assert order(6.0e12) == "about 1e13"
    assert order(-3e-5) == "about -1e-5"
    for bad in (0, float("inf"), float("nan"), "1e3", True):
        with pytest.raises((ValueError, TypeError), match="order"):
            order(bad)


def test_fixed_rounds_exact_ties_the_same_on_every_machine():
    from book import fixed

    below, above = 0.54625 - 1e-15, 0.54625 + 1e-15
    assert fixed(below, 4) == fixed(above, 4) == "0.5463"
    assert fixed(-3.705 + 1e-15, 2) == fixed(-3.705 - 1e-15, 2) == "-3.71"
    assert fixed(0.1234, 3) == "0.123" and fixed(-0.0001, 3) == "0.000"
    assert fixed(2.5, 0) == "3" and fixed(1e6 + 0.25, 1) == "1000000.3"


def test_label_points_does_not_overprint():
    fig, ax = new_figure("Crowded points")
    xs, ys = [1.0, 1.05, 1.1, 3.0], [1.0, 1.02, 0.98, 2.0]
    ax.scatter(xs, ys)
    ax.set_xlim(0, 4)
    ax.set_ylim(0, 3)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    texts = book.label_points(ax, xs, ys, ["alpha", "beta", "gamma", "delta"])
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(r) for t in texts]
    assert len(ax.texts) == 4
    assert not any(
        boxes[i].overlaps(boxes[j]) for i in range(4) for j in range(i + 1, 4)
    )
    _shown(fig)


def test_manifest_drops_the_mathtext_font_wrapper():
    fig, ax = new_figure("Log axis")
    ax.loglog([1, 10, 100], [1, 10, 100])
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    m = repr(_shown(fig))
    assert "$10^{1}$" in m and "mathdefault" not in m


def test_slider_names_label_the_knobs(monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    s = slider(
        _draw,
        "Line with slope {a} drawn on unit axes.",
        a=[0.5, 1, 2],
        names={"a": ("slope", "per step")},
    )
    html = s._repr_html_()
    assert (
        '<label for="book-slider-' in html
        and '>slope <span class="book-slider-range">' in html
    )
    assert "(0.5 to 2 per step)" in html
    assert 'aria-valuetext="1 per step"' in html and ">1 per step</output>" in html
    payload = json.loads(
        re.search(r'<script type="application/json">(.*?)</script>', html).group(1)
    )
    assert payload["labels"] == [["0.5 per step", "1 per step", "2 per step"]]


def test_slider_name_without_unit_and_unnamed_knobs(monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    html = slider(
        lambda a, b: _draw(a * b),
        "Product of {a} and {b} drawn.",
        a=[1, 2],
        b=[3, 4],
        names={"a": "learning rate η"},
    )._repr_html_()
    assert 'learning rate η <span class="book-slider-range">(1 to 2)</span>' in html
    # an unnamed knob keeps the markup notebooks already store, byte for byte
    assert re.search(
        r'<label for="book-slider-\d+-b" style="margin-right:1.2em">b <input', html
    )


def test_slider_without_names_is_unchanged(monkeypatch):
    """Notebooks that do not pass names= keep their stored outputs
    (nbval compares the HTML)."""
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    html = slider(
        _draw, "Line with slope {a} drawn on unit axes.", a=[1, 2, 3]
    )._repr_html_()
    assert re.search(
        r'<div class="book-slider-controls"><label for="book-slider-\d+-a" '
        r'style="margin-right:1\.2em">a <input type="range" id="book-slider-\d+-a" '
        r'min="0" max="2" step="1" value="1" aria-valuetext="2" '
        r'style="vertical-align:middle"> <output for="book-slider-\d+-a">2</output>'
        r"</label></div>",
        html,
    )


def test_slider_names_range_of_categories(monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    html = slider(
        lambda mode: _draw(1),
        "Wiring {mode} drawn here.",
        mode=["post", "pre", "none"],
        names={"mode": "wiring"},
    )._repr_html_()
    assert "(post, pre, none)" in html


@pytest.mark.parametrize(
    "names, msg",
    [
        (["a"], r"names must be a dict.*\['a'\]"),
        ({"b": "slope"}, r"'b', which is not a knob"),
        ({"a": 3}, r"names\['a'\].*got 3"),
        ({"a": ("slope",)}, r"names\['a'\].*\('slope',\)"),
        ({"a": ("slope", 2)}, r"names\['a'\].*\('slope', 2\)"),
        ({"a": "   "}, r"names\['a'\] is empty: '   '"),
        ({"a": "two\nlines"}, r"one short line.*'two\\nlines'"),
        ({"a": "x" * 41}, r"one short line.*'x{41}'"),
    ],
)
def test_slider_rejects_bad_names(monkeypatch, names, msg):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    with pytest.raises((ValueError, TypeError), match=msg):
        slider(_draw, "Line with slope {a} drawn.", names=names, a=[1, 2])


def test_slider_live_mode_uses_the_names(monkeypatch):
    w = book.slider_module._live(
        _draw,
        "Line with slope {a} drawn.",
        {"a": [1, 2]},
        {"a": 1},
        72,
        {"a": ("slope", "per step")},
    )
    knob = w.children[0].children[0]
    assert knob.description == "slope (1 to 2 per step)"
    assert [label for label, _ in knob.options] == ["1 per step", "2 per step"]
    plain = book.slider_module._live(
        _draw, "Line with slope {a} drawn.", {"a": [1, 2]}, {"a": 1}, 72
    )
    assert plain.children[0].children[0].description == "a"


_OUT = (
    '<div class="output stream highlight-myst-ansi notranslate"><div '
    'class="highlight"><pre>'
    "<span></span>{}</pre></div>"
)


def test_fold_checks_all_ok():
    html = sphinxext.fold_checks(_OUT.format("ok one\nok two &lt; three\n"))
    assert '<details class="book-checks"><summary>2 checks hold<span' in html
    assert "claims this cell tested as it ran" in html
    assert "ok one\nok two &lt; three\n</pre>" in html and html.count("<pre>") == 1
    one = sphinxext.fold_checks(_OUT.format("ok alone\n"))
    assert "<summary>1 check holds<span" in one


def test_fold_checks_mixed_keeps_other_lines_in_order():
    html = sphinxext.fold_checks(
        _OUT.format("a = 1\nok a is one\nb = 2\nok b is two\n")
    )
    kept, folded = html.split("<details", 1)
    assert "a = 1\nb = 2\n</pre>" in re.sub(r"</?span[^>]*>", "", kept)
    assert "ok a" not in kept
    assert "2 checks hold" in folded and "ok a is one\nok b is two\n" in folded


def test_fold_checks_leaves_other_output_and_is_idempotent():
    plain = _OUT.format("loss 0.3\nokay then\n")
    assert sphinxext.fold_checks(plain) == plain.replace(
        "loss 0.3\nokay then",
        '<span class="book-wrap">loss 0.3</span>\n<span class="book-wrap">okay then</span>',
    )
    twice = sphinxext.fold_checks(sphinxext.fold_checks(plain))
    assert twice == sphinxext.fold_checks(plain)
    once = sphinxext.fold_checks(_OUT.format("x\nok y\n"))
    assert sphinxext.fold_checks(once) == once


@pytest.mark.parametrize(
    "text, quiet",
    [
        ("0.809", True),
        ("1,000", True),
        ("-3", True),
        ("2.5e-07", True),
        ("12%", True),
        ('&lt;</span> <span class="pre">1e-15', True),
        ("3/4", True),
        ("ok", False),
        ("t0", False),
        ('k</span> <span class="pre">=</span> <span class="pre">3', False),
        ('[4,</span> <span class="pre">8]', False),
    ],
)
def test_quiet_numbers(text, quiet):
    html = f'<p>x <code class="docutils literal notranslate"><span class="pre">{text}</span></code> y</p>'
    assert ("book-num" in sphinxext.quiet_numbers(html)) is quiet


def test_glossary_has_a_to_z_and_letter_sections(tmp_path):
    (tmp_path / "glossary.yml").write_text(
        "- term: zeta\n  definition: Last, $z^2$.\n  where: notebooks/z\n"
        "- term: alpha\n  definition: First.\n  where: notebooks/a\n"
        "- term: Ångström\n  definition: Accented.\n  where: notebooks/a\n"
    )
    text = sphinxext.glossary_text(tmp_path)
    assert (
        '<a href="#glossary-a">A</a>' in text and '<a href="#glossary-z">Z</a>' in text
    )
    assert '<span class="book-az-none" aria-hidden="true">B</span>' in text
    assert (
        text.index("(glossary-a)=")
        < text.index("alpha")
        < text.index("Ångström")
        < text.index("(glossary-z)=")
    )
    assert "$z^2$" in text


def test_bibliography_labels_are_author_year():
    import pybtex.database

    from workshop.site.bibstyle import AuthorYearLabelStyle

    bib = pybtex.database.parse_string(
        r"""
    @article{v, author={Ashish Vaswani and Noam Shazeer and Niki Parmar}, title={A}, year={2017}}
    @article{b, author={Jimmy Ba and Jamie Kiros}, title={B}, year={2016}}
    @article{e, author={Jeffrey L. Elman}, title={C}, year={1990}}
    @article{w1, author={Jason Wei and Yi Tay and Rishi Bommasani}, title={D}, year={2022}}
    @article{w2, author={Jason Wei and Xuezhi Wang and Dale Schuurmans}, title={E}, year={2022}}
    @misc{n, title={Some report without authors}, year={2020}}
    """,
        "bibtex",
    )
    labels = list(AuthorYearLabelStyle().format_labels(bib.entries.values()))
    assert labels == [
        "Vaswani et al., 2017",
        "Ba and Kiros, 2016",
        "Elman, 1990",
        "Wei et al., 2022a",
        "Wei et al., 2022b",
        "Some report without authors, 2020",
    ]


def test_claims_headings_are_page_titles():
    root = ROOT
    text = sphinxext.claims_text(root)
    headings = [
        ln
        for ln in text.splitlines()
        if ln.startswith("## ") and ln != "## Source claims that reproduce"
    ]
    assert headings and all(
        " </notebooks/" in h and h.startswith("## {doc}`") for h in headings
    )
    assert not any(h.startswith("## {doc}`/") for h in headings)


def test_links_named_by_path_show_the_page_title():
    from types import SimpleNamespace

    from docutils import nodes

    para = nodes.paragraph()
    para += nodes.reference(
        "",
        "",
        nodes.inline("", "notebooks/part1/08-attention"),
        internal=True,
        refuri="notebooks/part1/08-attention.html",
    )
    para += nodes.reference(
        "", "", nodes.inline("", "elsewhere"), internal=True, refuri="x.html"
    )
    app = SimpleNamespace(
        env=SimpleNamespace(
            titles={"notebooks/part1/08-attention": nodes.title("", "8. Attention")}
        )
    )
    sphinxext._doc_links_show_titles(app, para, "execution")
    assert [r.astext() for r in para.children] == ["8. Attention", "elsewhere"]


def test_table_is_markdown_for_pages_and_aligned_text_for_consoles():
    from book import table

    t = table(["model", "weights", "gap"], [["base", "63,082,496", "-3.0%"]])
    assert t._repr_markdown_().splitlines() == [
        "| model | weights | gap |",
        "| --- | ---: | ---: |",
        "| base | 63,082,496 | -3.0% |",
    ]
    assert repr(t).splitlines() == [
        "model     weights    gap",
        "base   63,082,496  -3.0%",
    ]
    ranged = table(["L", "range"], [["6", "0.665-0.781"], ["20", "-"]])
    assert ranged._repr_markdown_().splitlines()[1] == "| ---: | ---: |"
    titled = table(["a"], [["1"]], title="what a is")
    assert titled._repr_markdown_().splitlines()[:2] == ["**what a is**", ""]
    assert repr(titled).splitlines()[0] == "what a is"
    with pytest.raises(ValueError, match="title must be a non-empty string, got ''"):
        table(["a"], [["1"]], title="")
    with pytest.raises(ValueError, match="row 0 has 1 cells, the header has 2"):
        table(["a", "b"], [["1"]])
    with pytest.raises(ValueError, match="needs a header and rows"):
        table(["a"], [])
