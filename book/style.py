"""The house figure style: one palette, labelled axes, a title that states the finding.

`new_figure` makes a figure in the house style; `show` checks that it has a
title and labelled axes, renders it to a small PNG and displays it with alt
text. Every figure in the book goes through `show`, so none can skip the rules.
"""

from __future__ import annotations

import base64
import html
import io

import matplotlib

matplotlib.use("Agg")  # the book draws to PNG; nothing needs a window
import matplotlib.pyplot as plt  # noqa: E402
from cycler import cycler  # noqa: E402

__all__ = [
    "PALETTE",
    "SEQUENTIAL",
    "DIVERGING",
    "use",
    "new_figure",
    "show",
    "figure_png",
    "figure_html",
]

#: Okabe and Ito's eight colours, safe for the common colour-vision deficiencies.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#000000",
    "#F0E442",
)
#: Colour maps for heatmaps: perceptually uniform and colour-blind safe.
SEQUENTIAL = "cividis"
DIVERGING = "PuOr"

_RC = {
    "figure.figsize": (6.4, 3.8),
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "axes.prop_cycle": cycler(color=list(PALETTE)),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "image.cmap": SEQUENTIAL,
    "legend.frameon": False,
    "lines.linewidth": 1.8,
    "svg.hashsalt": "book",
    "path.simplify": True,
}


def use() -> None:
    """Apply the house style to matplotlib (idempotent)."""
    plt.rcParams.update(_RC)


def new_figure(title: str, *, ncols: int = 1, nrows: int = 1, figsize=None, **kw):
    """A figure in the house style whose title states the finding.

    Returns ``(fig, ax)`` for one panel, ``(fig, axes)`` for several.
    """
    if not isinstance(title, str) or not title.strip():
        raise ValueError(f"new_figure: title must state the finding, got {title!r}")
    for name, n in (("ncols", ncols), ("nrows", nrows)):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 12:
            raise ValueError(f"new_figure: {name} must be an int in 1..12, got {n!r}")
    use()
    if figsize is None:
        w, h = _RC["figure.figsize"]
        figsize = (
            w if ncols == 1 else min(3.4 * ncols, 11.0),
            h if nrows == 1 else 3.0 * nrows,
        )
    fig, ax = plt.subplots(nrows, ncols, figsize=figsize, layout="constrained", **kw)
    fig.suptitle(title, fontweight="bold", fontsize=11)
    return fig, ax


def _problems(fig) -> list[str]:
    out = []
    title = fig._suptitle.get_text() if fig._suptitle is not None else ""
    axes = [a for a in fig.axes if a.axison and not hasattr(a, "_colorbar")]
    if not title.strip() and not any(a.get_title().strip() for a in axes):
        out.append("it has no title (the title states the finding)")
    for i, a in enumerate(axes):
        if a.name == "polar" or getattr(a, "_book_unlabelled_ok", False):
            continue
        if not a.get_xlabel().strip():
            out.append(f"panel {i} has no x-axis label")
        if not a.get_ylabel().strip():
            out.append(f"panel {i} has no y-axis label")
    return out


def _check_alt(where: str, alt) -> str:
    if not isinstance(alt, str) or len(alt.strip()) < 15:
        raise ValueError(
            f"{where}: alt must say what the figure shows (15+ characters), got {alt!r}"
        )
    return alt.strip()


def figure_png(fig, *, dpi: int = 100, colors: int = 128) -> bytes:
    """Render `fig` to a palette PNG (small, and exact for flat-colour plots)."""
    from PIL import Image

    problems = _problems(fig)
    if problems:
        plt.close(fig)
        raise ValueError("figure breaks the house style: " + "; ".join(problems))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    img = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    img = img.quantize(
        colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def figure_html(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<img class="book-figure" src="data:image/png;base64,{data}" '
        f'alt="{html.escape(alt, quote=True)}" style="max-width:100%;height:auto">'
    )


class _Figure:
    """A rendered figure: HTML with alt text for the site and JupyterLab."""

    def __init__(self, png: bytes, alt: str):
        self.png, self.alt = png, alt

    def _repr_html_(self):
        return figure_html(self.png, self.alt)

    def __repr__(self):
        return f"[figure: {self.alt}]"


def show(fig, alt: str, *, dpi: int = 100) -> None:
    """Check the house rules, then display `fig` as a PNG with alt text, and close it."""
    alt = _check_alt("show", alt)
    if not hasattr(fig, "savefig"):
        raise TypeError(f"show: expected a matplotlib Figure, got {type(fig).__name__}")
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 30 <= dpi <= 300:
        raise ValueError(f"show: dpi must be an int in 30..300, got {dpi!r}")
    try:
        png = figure_png(fig, dpi=dpi)
    finally:
        plt.close(fig)
    from IPython.display import display

    display(_Figure(png, alt))
