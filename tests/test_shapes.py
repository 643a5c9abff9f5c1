"""book.shapes: the shape flow of attention is drawn from the arrays it is given,
and bad input is refused with an error that names the bad value."""

import numpy as np
import pytest

from book.shapes import flow_shapes, shape_flow
from book.style import manifest


def _single(n=4, d=4, dk=3):
    X = np.zeros((n, d))
    W = np.zeros((d, dk))
    Q = X @ W
    return dict(
        x=X,
        w_q=W,
        w_k=W,
        w_v=W,
        q=Q,
        k=Q,
        v=Q,
        scores=(n, n),
        weights=np.zeros((n, n)),
        out=Q,
    )


def test_the_labels_and_alt_text_are_the_arrays_shapes():
    fig, alt = shape_flow("Four tokens in, four rows out", **_single())
    text = manifest(fig)
    for label in ("4×4", "4×3", "W$_Q$", "scores", "weights", "output"):
        assert f"panel 0 text: {label}" in text
    assert "X is 4×4" in alt and "the output is 4×3" in alt
    assert "with sides drawn to scale" in alt
    fig2, alt2 = shape_flow("Six tokens", **_single(n=6, d=5, dk=2))
    assert "X is 6×5" in alt2 and "the scores are 6×6" in alt2
    assert "panel 0 text: 6×2" in manifest(fig2)


def test_blocks_are_drawn_to_scale():
    from matplotlib.patches import Rectangle

    fig, _ = shape_flow("Scale", **_single(n=6, d=4, dk=2))
    ax = fig.axes[0]
    rects = [p for p in ax.patches if isinstance(p, Rectangle)]
    sides = {(round(p.get_height() / p.get_width(), 6)) for p in rects}
    assert sides == {6 / 4, 4 / 2, 6 / 2, 1.0}  # X, W, Q/K/V, scores and weights


def test_a_mask_is_counted_and_keyed():
    kw = _single()
    kw["mask"] = np.triu(np.ones((4, 4), dtype=bool), 1)
    fig, alt = shape_flow("Masked", **kw)
    assert "6 of 16 entries blocked" in alt
    assert "figure legend: blocked" in manifest(fig)


def test_heads_are_split_and_concatenated():
    n, d, h = 5, 8, 2
    X = np.zeros((n, d))
    fig, alt = shape_flow(
        "Two heads",
        x=X,
        q=X,
        k=X,
        v=X,
        weights=np.zeros((h, n, n)),
        heads=h,
        concat=X,
        w_o=np.zeros((d, d)),
        out=X,
    )
    assert "split into 2 heads, each with Q 5×4" in alt
    assert "concatenated into 5×8" in alt
    assert "panel 0 text: 2 × 5×5" in manifest(fig)
    s = flow_shapes(
        x=X, q=(h, n, 4), k=(h, n, 4), v=(h, n, 4), weights=(h, n, n), concat=X, out=X
    )
    assert s["heads"] == 2 and s["per head"]["Q"] == (n, 4)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"x": "X"}, "x must be an array or its shape, got 'X'"),
        ({"x": (4, 0)}, "x has a size that is not a positive int: (4, 0)"),
        ({"q": (5, 3)}, "q's row count is 5, expected 4"),
        ({"k": (4, 2)}, "k's width is 2, expected 3"),
        ({"w_q": (4, 2)}, "w_q's shape is (4, 2), expected (4, 3)"),
        ({"weights": (4, 5)}, "weights' shape (per head) is (4, 5), expected (4, 4)"),
        ({"out": (4, 4)}, "out's shape is (4, 4), expected (4, 3)"),
        ({"mask": np.ones((3, 3))}, "mask has shape (3, 3), expected (4, 4)"),
        ({"mask": np.full((4, 4), 2)}, "mask must be true (blocked) or false"),
        ({"mask": np.ones((4, 4), bool)}, "mask blocks every key of row 0"),
        ({"heads": 0}, "heads must be a positive int, got 0"),
        ({"heads": 2}, "with 2 heads, weights must be 3-D with 2 heads first"),
        ({"q": np.zeros((2, 2, 2, 2))}, "q must be 2-D or 3-D, got shape (2, 2, 2, 2)"),
    ],
)
def test_bad_input_names_the_bad_value(change, message):
    kw = {**_single(), **change}
    with pytest.raises(ValueError) as err:
        flow_shapes(**kw)
    assert message in str(err.value)


def test_bad_scale_is_refused():
    with pytest.raises(ValueError, match="scale must be one of .* got 'cube'"):
        shape_flow("t", scale="cube", **_single())
