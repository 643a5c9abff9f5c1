"""book.style: the house figure style, show()'s refusals and the manifest a reader reads."""

from __future__ import annotations

import io
import re

import matplotlib.pyplot
import numpy as np
import pytest

import book
from book import new_figure, show


def test_palette_is_okabe_ito():
    book.use()
    assert book.PALETTE[:3] == ("#0072B2", "#E69F00", "#009E73")
    assert matplotlib.rcParams["axes.prop_cycle"].by_key()["color"][0] == "#0072B2"


def test_show_displays_html_with_alt(make_fig, capsys):
    shown = []
    import IPython.display

    orig = IPython.display.display
    IPython.display.display = lambda obj: shown.append(obj)
    try:
        show(make_fig(), alt="A straight line from the origin to one.")
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
def test_show_refuses_figures_that_break_the_house_style(make_fig, kw, msg):
    if "title" in kw:
        with pytest.raises(ValueError, match="title"):
            new_figure(kw["title"])
        return
    with pytest.raises(ValueError, match=msg):
        show(make_fig(**kw), alt="A figure with something missing.")


@pytest.mark.parametrize("alt", [None, "", "short", 5])
def test_show_needs_alt_text(make_fig, alt):
    with pytest.raises(ValueError, match="alt"):
        show(make_fig(), alt=alt)


def test_show_rejects_non_figures():
    with pytest.raises(TypeError, match="list"):
        show([1, 2], alt="Not a figure at all, just a list.")


@pytest.mark.parametrize("n", [0, 13, 1.5, True])
def test_new_figure_rejects_bad_grid(n):
    with pytest.raises(ValueError, match=re.escape(repr(n))):
        new_figure("A title", ncols=n)


def test_long_titles_wrap_to_the_figure_width(make_fig, shown):
    title = "A title that states a long finding " * 4
    fig = make_fig(title=title.strip())
    r = shown(fig)
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


def test_mathtext_survives_wrapping(make_fig, shown):
    fig = make_fig(
        title="An error that falls as $\\sqrt{1/b - 1/n}$ " + "and keeps falling " * 5
    )
    shown(fig)
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
def test_show_refuses_text_off_the_canvas_or_too_small(make_fig, spoil, msg):
    fig = make_fig()
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


def test_manifest_lists_what_a_reader_reads_and_is_deterministic(shown):

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

    m1, m2 = repr(shown(make())), repr(shown(make()))
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


def test_label_points_does_not_overprint(shown):
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
    shown(fig)


def test_manifest_drops_the_mathtext_font_wrapper(shown):
    fig, ax = new_figure("Log axis")
    ax.loglog([1, 10, 100], [1, 10, 100])
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    m = repr(shown(fig))
    assert "$10^{1}$" in m and "mathdefault" not in m
