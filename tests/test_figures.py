"""book.figures: the annotated heatmap, each value in the colour that contrasts with its cell."""

from __future__ import annotations

import matplotlib.pyplot
import numpy as np
import pytest

import book
from book import new_figure


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
