"""Figure kinds the book draws on many pages, written once.

`heatmap` is the annotated matrix: one coloured cell per entry, its value printed on it
in black or white, whichever reads better against that cell's colour.
"""

from __future__ import annotations

import numbers

import matplotlib as mpl
import numpy as np

from .fmt import unsigned_zero
from .style import SEQUENTIAL


def _luminance(rgba) -> float:
    """Relative luminance (WCAG 2) of an sRGB colour with channels in [0, 1]."""
    c = np.asarray(rgba[:3], dtype=float)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(lin @ [0.2126, 0.7152, 0.0722])


# Black and white text have the same contrast ratio against a colour of this luminance:
# (L + 0.05) / 0.05 == 1.05 / (L + 0.05). Brighter cells get black
# text, darker ones white.
EQUAL_CONTRAST = 0.05**0.5 * 1.05**0.5 - 0.05


def text_colour(rgba) -> str:
    """'black' or 'white': the text colour with more contrast against `rgba`."""
    return "black" if _luminance(rgba) > EQUAL_CONTRAST else "white"


def heatmap(
    ax,
    M,
    row_labels=None,
    col_labels=None,
    fmt="{:.2f}",
    cmap=SEQUENTIAL,
    vmin=None,
    vmax=None,
    *,
    fontsize=8,
    col_rotation=0,
    annotate=True,
):
    """Draw matrix `M` on `ax` with every value printed on its cell; returns the image.

    `fmt` is a format string such as "{:.3f}" (or a function of the value); `cmap` a
    colormap or its name; `vmin` and `vmax` fix the colour scale (default: the data's
    range). Each label's text colour comes from the luminance of its own cell's colour.
    A non-finite entry (a masked -inf, a NaN) is printed but gets no colour.
    `annotate=False` draws the labelled matrix without the values.
    """
    A = np.asarray(M, dtype=float) if not isinstance(M, np.ndarray) else M
    if A.ndim != 2 or 0 in A.shape:
        raise ValueError(
            f"heatmap: M must be a non-empty 2-D matrix, got shape {np.shape(M)}"
        )
    if not (np.issubdtype(A.dtype, np.number) or A.dtype == bool):
        raise ValueError(f"heatmap: M must hold numbers, got dtype {A.dtype}")
    n_rows, n_cols = A.shape
    for what, labels, n in (("row", row_labels, n_rows), ("col", col_labels, n_cols)):
        if labels is not None and len(labels) != n:
            raise ValueError(
                f"heatmap: {len(labels)} {what}_labels {list(labels)!r} for {n} {what}s"
            )
    if isinstance(cmap, str):
        if cmap not in mpl.colormaps:
            raise ValueError(f"heatmap: unknown cmap {cmap!r}")
        cmap = mpl.colormaps[cmap]
    elif not isinstance(cmap, mpl.colors.Colormap):
        raise ValueError(f"heatmap: cmap must be a Colormap or its name, got {cmap!r}")
    for name, v in (("vmin", vmin), ("vmax", vmax)):
        if v is not None and (
            isinstance(v, bool) or not isinstance(v, numbers.Real) or not np.isfinite(v)
        ):
            raise ValueError(f"heatmap: {name} must be a finite number, got {v!r}")
    if vmin is not None and vmax is not None and not vmin < vmax:
        raise ValueError(f"heatmap: vmin {vmin!r} must be below vmax {vmax!r}")
    if callable(fmt):
        label = fmt
    elif isinstance(fmt, str):

        def label(v):  # a residue that prints as zero prints with no sign
            return unsigned_zero(fmt.format(v))

    else:
        raise ValueError(
            f"heatmap: fmt must be a format string or function, got {fmt!r}"
        )
    try:
        label(A.flat[0])
    except (ValueError, IndexError, KeyError, TypeError) as e:
        raise ValueError(
            f"heatmap: fmt {fmt!r} cannot format {A.flat[0]!r}: {e}"
        ) from e

    im = ax.imshow(A, cmap=cmap, vmin=vmin, vmax=vmax)
    for (i, j), v in np.ndenumerate(A if annotate else np.empty((0, 0))):
        finite = np.isfinite(v)
        ax.text(
            j,
            i,
            label(v),
            ha="center",
            va="center",
            fontsize=fontsize,
            color=text_colour(im.cmap(im.norm(v))) if finite else "black",
        )
    ax.set_xticks(
        range(n_cols),
        col_labels if col_labels is not None else range(n_cols),
        rotation=col_rotation,
    )
    ax.set_yticks(
        range(n_rows), row_labels if row_labels is not None else range(n_rows)
    )
    ax.grid(False)
    return im
