"""The house figure style: one palette, labelled axes, a title that states the finding.

`new_figure` makes a figure in the house style; `show` checks that it has a
title and labelled axes, that every piece of text lies on the canvas and is big
enough to read, renders it at twice the displayed pixel density and displays it
with alt text and a text manifest. Every figure in the book goes through `show`
(or a slider frame), so none can skip the rules.

Sizes: a figure is laid out in inches at 100 CSS pixels to the inch, one of two
standard widths (`FULL_WIDTH` 7.2 in = 720 px, `NARROW_WIDTH` 4.8 in = 480 px),
and drawn at `DENSITY` device pixels per CSS pixel. Text must be at least
`MIN_TEXT_PX` CSS pixels tall as displayed (8 pt on the standard widths).
"""

from __future__ import annotations

import base64
import html
import io
import math

import matplotlib

matplotlib.use("Agg")  # the book draws to pixels; nothing needs a window
import matplotlib.pyplot as plt  # noqa: E402
from cycler import cycler  # noqa: E402
from matplotlib.text import Text  # noqa: E402


def _share_mathtext_layouts() -> None:
    """Let every Agg renderer share one mathtext parser, and so one cache of laid-out
    formulas. Each new figure makes a new renderer with an empty cache; a slider's
    frames then parse the same `$10^{-4}$` tick labels again in every frame (a third of
    a log-axis frame's layout time). Parses are keyed by text, dpi and font, so sharing
    them changes no pixel (tests/test_style.py). Where a renderer has no such parser
    (another matplotlib), nothing changes."""
    from matplotlib.backends import backend_agg
    from matplotlib.mathtext import MathTextParser

    renderer = backend_agg.RendererAgg
    if hasattr(renderer, "_book_shared_parser"):
        return
    renderer._book_shared_parser = None
    init = renderer.__init__

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        own = getattr(self, "mathtext_parser", None)
        if isinstance(own, MathTextParser):
            if renderer._book_shared_parser is None:
                renderer._book_shared_parser = own
            self.mathtext_parser = renderer._book_shared_parser

    renderer.__init__ = __init__


_share_mathtext_layouts()

__all__ = [
    "PALETTE",
    "SEQUENTIAL",
    "DIVERGING",
    "CONCEPT",
    "colour",
    "label_points",
    "mask_cmap",
    "shades",
    "concept_key",
    "FULL_WIDTH",
    "NARROW_WIDTH",
    "DENSITY",
    "MIN_TEXT_PX",
    "use",
    "new_figure",
    "show",
    "render",
    "figure_png",
    "figure_html",
    "manifest",
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
BLUE, ORANGE, GREEN, VERMILLION, PURPLE, SKY, BLACK, YELLOW = PALETTE
GREY = "#8C8C8C"
#: Colour maps for heatmaps: perceptually uniform and colour-blind safe.
SEQUENTIAL = "cividis"
DIVERGING = "PuOr"

#: One colour per concept across the whole book: a reader who learns that Pre-LN is
#: blue on one page finds it blue on every page. `colour(name)` looks one up.
CONCEPT = {
    # wirings of a block (part 12, lesson 21, 48.8)
    "pre-ln": BLUE,
    "post-ln": VERMILLION,
    "no residual": GREY,
    # the three projections (part 8, lesson 20, 48.3)
    "query": BLUE,
    "key": ORANGE,
    "value": GREEN,
    # masks (48.5, 48.11): allowed is the colour of information that flows
    "allowed": BLUE,
    "blocked": "#D4D4D4",
    # data splits (part 7, 48.15)
    "train": BLUE,
    "test": VERMILLION,
    "validation": VERMILLION,
    # a claim in a source against what the notebook measures
    "source": VERMILLION,
    "measured": BLUE,
    "theory": BLACK,
    # batch sizes (part 5): one colour per size on every figure
    "batch 2": PURPLE,
    "batch 4": SKY,
    "batch 8": GREEN,
    "batch 16": SKY,
    "batch 32": BLUE,
    "batch 64": YELLOW,
    "batch 128": VERMILLION,
    "batch 256": ORANGE,
    "batch 512": GREY,
    "full batch": BLACK,
    # residual streams (lesson 21)
    "residual": GREEN,
    # normalisations (part 6)
    "batch norm": ORANGE,
    "layer norm": BLUE,
    # attention scaling (part 8, 48.4)
    "raw": VERMILLION,
    "scaled": BLUE,
    # the other blocks of attention's shape flow (book/shapes.py)
    "input": GREY,
    "scores": PURPLE,
    "weights": YELLOW,
    "output": VERMILLION,
    # a weight in [0, 1] drawn as a heatmap (part 8): deeper blue, larger weight
    "attention weight": BLUE,
}


def mask_cmap(one: str = "blocked"):
    """A two-colour map for a 0/1 mask drawn with imshow, in the concept colours:
    ``mask_cmap("blocked")`` draws 1 as blocked and 0 as allowed;
    ``"allowed"`` the reverse."""
    from matplotlib.colors import ListedColormap

    if one not in ("allowed", "blocked"):
        raise ValueError(f"mask_cmap: one must be 'allowed' or 'blocked', got {one!r}")
    other = "allowed" if one == "blocked" else "blocked"
    return ListedColormap([colour(other), colour(one)], name=f"mask, 1 = {one}")


def shades(name: str = "attention weight"):
    """A sequential colour map from near-white to the concept colour `name`: a larger
    value is a deeper shade of that one colour, so the cells that matter stand out in
    the book's colour (cividis draws a middling value, a weight of 0.5, grey)."""
    from matplotlib.colors import LinearSegmentedColormap

    return LinearSegmentedColormap.from_list(
        f"shades of {name}", ["#F7FAFC", colour(name)]
    )


def concept_key(where, concepts, **kw):
    """A legend of colour patches naming `concepts` (a key for colour that encodes)."""
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=colour(c), edgecolor="0.4", label=c) for c in concepts]
    kw.setdefault("frameon", False)
    return where.legend(handles=handles, **kw)


def label_points(ax, xs, ys, labels, *, fontsize=8, pad=3):
    """Annotate points with labels that neither overprint one another nor leave the
    axes: each label takes the first of eight places around its point that is free."""
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = ax.get_window_extent(renderer)
    pts = ax.transData.transform(list(zip(xs, ys)))
    taken = []
    px = fig.dpi / 72
    places = [
        (pad, pad, "left", "bottom"),
        (pad, -pad, "left", "top"),
        (-pad, pad, "right", "bottom"),
        (-pad, -pad, "right", "top"),
        (0, 2 * pad, "center", "bottom"),
        (0, -2 * pad, "center", "top"),
        (pad, 4 * pad, "left", "bottom"),
        (pad, -4 * pad, "left", "top"),
    ]
    inv = ax.transData.inverted()

    def place(xy, label, dx, dy, ha, va):
        return ax.annotate(
            label,
            inv.transform(xy),
            xytext=(dx, dy),
            textcoords="offset points",
            fontsize=fontsize,
            ha=ha,
            va=va,
        )

    out = []
    for (x, y), label in zip(pts, labels):
        chosen = None
        for spot in places:
            t = place((x, y), label, *spot)
            bb = t.get_window_extent(renderer)
            inside = (
                bb.x0 >= box.x0 - 2 * px
                and bb.x1 <= box.x1 + 2 * px
                and bb.y0 >= box.y0 - 2 * px
                and bb.y1 <= box.y1 + 2 * px
            )
            clash = any(bb.overlaps(o) for o in taken) or any(
                bb.contains(*p) for p in pts
            )
            if inside and not clash:
                chosen = (t, bb)
                break
            t.remove()
        if (
            chosen is None
        ):  # no free place: the first one, and the reader sees the clash
            t = place((x, y), label, *places[0])
            chosen = (t, t.get_window_extent(renderer))
        taken.append(chosen[1])
        out.append(chosen[0])
    return out


def colour(concept: str) -> str:
    """The book's one colour for `concept` (see `CONCEPT`); unknown names raise."""
    try:
        return CONCEPT[concept.lower() if isinstance(concept, str) else concept]
    except (KeyError, TypeError):
        raise KeyError(
            f"colour: no colour for concept {concept!r}; add it to book.style.CONCEPT "
            f"(known: {', '.join(sorted(CONCEPT))})"
        ) from None


#: CSS pixels to the inch (the browser's reference pixel at 100 figure dpi).
PX_PER_INCH = 100
#: The two standard displayed widths, in inches at `PX_PER_INCH`.
FULL_WIDTH = 7.2
NARROW_WIDTH = 4.8
#: Device pixels drawn per displayed CSS pixel (sharp on high-resolution screens).
DENSITY = 2
#: No figure text smaller than this, in CSS pixels as displayed on a desktop column.
MIN_TEXT_PX = 11.0

_RC = {
    "figure.figsize": (FULL_WIDTH, 3.8),
    "figure.dpi": PX_PER_INCH,
    "savefig.dpi": PX_PER_INCH,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "xtick.labelsize": 9.5,
    "ytick.labelsize": 9.5,
    "legend.fontsize": 9.5,
    "legend.title_fontsize": 9.5,
    "figure.titlesize": 12,
    "axes.prop_cycle": cycler(color=list(PALETTE)),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "image.cmap": SEQUENTIAL,
    "legend.frameon": False,
    "legend.loc": "best",
    "lines.linewidth": 1.8,
    "svg.hashsalt": "book",
    "path.simplify": True,
}


def use() -> None:
    """Apply the house style to matplotlib (idempotent)."""
    plt.rcParams.update(_RC)


def _standard_width(w: float) -> float:
    return NARROW_WIDTH if w <= (NARROW_WIDTH + FULL_WIDTH) / 2 else FULL_WIDTH


def new_figure(title: str, *, ncols: int = 1, nrows: int = 1, figsize=None, **kw):
    """A figure in the house style whose title states the finding.

    The width is snapped to one of the two standard widths (a requested width up
    to 6 in becomes `NARROW_WIDTH`, anything wider `FULL_WIDTH`); the height is kept.
    Returns ``(fig, ax)`` for one panel, ``(fig, axes)`` for several.
    """
    if not isinstance(title, str) or not title.strip():
        raise ValueError(f"new_figure: title must state the finding, got {title!r}")
    for name, n in (("ncols", ncols), ("nrows", nrows)):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 12:
            raise ValueError(f"new_figure: {name} must be an int in 1..12, got {n!r}")
    use()
    if figsize is None:
        h = _RC["figure.figsize"][1]
        figsize = (FULL_WIDTH, h if nrows == 1 else 3.0 * nrows)
    w, h = figsize
    figsize = (_standard_width(w), h)
    fig, ax = plt.subplots(nrows, ncols, figsize=figsize, layout="constrained", **kw)
    fig.suptitle(title, fontweight="bold", fontsize=_RC["figure.titlesize"])
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


# text on the canvas -------------------------------------------------------------------
def _tick_labels(axis):
    """The tick labels `axis` draws (not the ones matplotlib keeps outside the view)."""
    out = []
    for tick in axis._update_ticks():
        for lab in (tick.label1, tick.label2):
            if lab.get_visible() and lab.get_text().strip():
                out.append(lab)
    return out


def _texts(fig):
    """Every piece of text the figure draws, as (where, Text), in drawing order."""
    seen, out = set(), []

    def add(where, t):
        if (
            isinstance(t, Text)
            and id(t) not in seen
            and t.get_visible()
            and t.get_text().strip()
        ):
            seen.add(id(t))
            out.append((where, t))

    def add_legend(where, leg):
        if leg is not None and leg.get_visible():
            add(where + " legend title", leg.get_title())
            for t in leg.get_texts():
                add(where + " legend", t)

    add("figure title", fig._suptitle)
    add("figure x label", getattr(fig, "_supxlabel", None))
    add("figure y label", getattr(fig, "_supylabel", None))
    for t in fig.texts:
        add("figure text", t)
    for leg in fig.legends:
        add_legend("figure", leg)
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        where = "colour bar" if hasattr(ax, "_colorbar") else f"panel {i}"
        for t in (ax._left_title, ax.title, ax._right_title):
            add(where + " title", t)
        if ax.axison:
            for name in ("xaxis", "yaxis") + (
                ("zaxis",) if hasattr(ax, "zaxis") else ()
            ):
                axis = getattr(ax, name)
                if not axis.get_visible():
                    continue
                add(f"{where} {name[0]} label", axis.label)
                add(f"{where} {name[0]} offset", axis.offsetText)
                for t in _tick_labels(axis):
                    add(f"{where} {name[0]} tick", t)
        for t in ax.texts:
            add(where + " text", t)
        add_legend(where, ax.get_legend())
        for child in ax.get_children():  # tables, anchored text boxes
            if isinstance(child, Text):
                add(where + " text", child)
    return out


def _split_words(text: str) -> list[str]:
    """Words of a line, keeping each $...$ mathtext span whole."""
    words, cur, math_on = [], "", False
    for ch in text:
        if ch == "$" and not cur.endswith("\\"):
            math_on = not math_on
        if ch == " " and not math_on:
            if cur:
                words.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        words.append(cur)
    return words


def _wrap(t: Text, max_px: float, renderer) -> bool:
    """Re-break `t`'s lines so each fits in `max_px` pixels, as evenly as the words
    allow (no lone last word); True when it changed."""
    text = t.get_text()
    if t.get_window_extent(renderer).width <= max_px:
        return False
    words = _split_words(" ".join(text.split("\n")))
    widths = {}

    def width(line):
        if line not in widths:
            t.set_text(line)
            widths[line] = t.get_window_extent(renderer).width
        return widths[line]

    def greedy(limit):
        lines, cur = [], ""
        for w in words:
            trial = f"{cur} {w}" if cur else w
            if cur and width(trial) > limit:
                lines.append(cur)
                cur = w
            else:
                cur = trial
        return lines + [cur]

    best = greedy(max_px)
    lo, hi = 0.3 * max_px, max_px
    for _ in range(10):  # the narrowest limit that needs no more lines: balanced lines
        mid = (lo + hi) / 2
        trial = greedy(mid)
        if len(trial) <= len(best) and max(map(width, trial)) <= max_px:
            best, hi = trial, mid
        else:
            lo = mid
    new = "\n".join(best)
    t.set_text(new)
    return new != text


def _wrap_titles(fig, renderer) -> bool:
    changed = False
    W = fig.bbox.width
    if fig._suptitle is not None and fig._suptitle.get_text().strip():
        changed |= _wrap(fig._suptitle, 0.96 * W, renderer)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        width = max(ax.bbox.width, 0.15 * W)
        for t in (ax.title, ax._left_title, ax._right_title):
            if t.get_visible() and t.get_text().strip():
                changed |= _wrap(t, min(width, 0.96 * W), renderer)
    return changed


def _text_problems(fig, renderer, css_px_per_point: float) -> list[str]:
    """Text below the minimum displayed size or outside the
    canvas, one line per place."""
    W, H = fig.bbox.width, fig.bbox.height
    tol = 1.0
    small: dict[str, list[str]] = {}
    off: dict[str, list[str]] = {}
    sizes: dict[str, float] = {}
    for where, t in _texts(fig):
        label = t.get_text().replace("\n", " ")
        if len(label) > 60:
            label = label[:57] + "..."
        px = t.get_fontsize() * css_px_per_point
        if px < MIN_TEXT_PX - 0.05:
            small.setdefault(where, []).append(repr(label))
            sizes[where] = min(sizes.get(where, 99.0), t.get_fontsize())
        if t.get_clip_on() and t.get_clip_box() is not None and where.endswith(" text"):
            continue  # clipped to its axes: it cannot leave the canvas
        bb = t.get_window_extent(renderer)
        sides = [
            s
            for s, bad in (
                ("left", bb.x0 < -tol),
                ("right", bb.x1 > W + tol),
                ("bottom", bb.y0 < -tol),
                ("top", bb.y1 > H + tol),
            )
            if bad
        ]
        if sides:
            off.setdefault(where, []).append(f"{label!r} ({', '.join(sides)})")
    need = math.ceil(10 * MIN_TEXT_PX / css_px_per_point) / 10
    out = [
        f"{where} {', '.join(labels[:4])}{' ...' if len(labels) > 4 else ''} "
        f"{'is' if len(labels) == 1 else 'are'} {sizes[where] * css_px_per_point:.1f} "
        f"px as displayed, below the {MIN_TEXT_PX:g} px minimum (fontsize "
        f"{sizes[where]:g} pt; use at least {need:g})"
        for where, labels in small.items()
    ]
    out += [
        f"{where} {', '.join(items[:4])}{' ...' if len(items) > 4 else ''} "
        "runs off the canvas"
        for where, items in off.items()
    ]
    return out


# manifest: what a reader reads in the figure ------------------------------------------
def _clean(s: str) -> str:
    """Text as a reader reads it: one line, a plain minus, no mathtext font wrapper."""
    while "\\mathdefault{" in s:  # $\mathdefault{10^{-1}}$ -> $10^{-1}$
        i = s.index("\\mathdefault{")
        j, depth = i + len("\\mathdefault{"), 1
        while j < len(s) and depth:
            depth += {"{": 1, "}": -1}.get(s[j], 0)
            j += 1
        s = s[:i] + s[i + len("\\mathdefault{") : j - 1] + s[j:]
    return " ".join(s.replace("\u2212", "-").split())


def manifest(fig, texts=None) -> str:
    """The text a reader sees in `fig`, one line per part: titles, axis labels and
    ticks, legend entries, annotations and colour-map names.
    Deterministic: no data, no addresses."""
    lines = []
    texts = _texts(fig) if texts is None else texts
    groups: dict[str, list[str]] = {}
    for where, t in texts:
        groups.setdefault(where, []).append(_clean(t.get_text()))
    for where, items in groups.items():
        if where.endswith(" tick"):
            lines.append(f"{where}s: {' | '.join(items)}")
        else:
            for s in items:
                lines.append(f"{where}: {s}")
    cmaps = []
    for i, ax in enumerate(fig.axes):
        for art in list(ax.images) + list(ax.collections):
            cmap = getattr(art, "get_cmap", lambda: None)()
            if cmap is not None and art.get_array() is not None:
                name = f"panel {i} colour map: {cmap.name}"
                if name not in cmaps:
                    cmaps.append(name)
    return "\n".join(lines + cmaps)


# rendering ----------------------------------------------------------------------------
class Rendered:
    """A figure drawn to pixels: the encoded image, its
    displayed size and its manifest."""

    def __init__(self, data: bytes, mime: str, width: int, height: int, text: str):
        self.data, self.mime, self.width, self.height, self.manifest = (
            data,
            mime,
            width,
            height,
            text,
        )

    @property
    def uri(self) -> str:
        return f"data:{self.mime};base64," + base64.b64encode(self.data).decode("ascii")


#: The encoding of every figure: lossless WebP (every current browser reads it).
IMAGE_FORMAT = "webp"


def _encode(img, fmt: str) -> tuple[bytes, str]:
    from PIL import Image

    out = io.BytesIO()
    if fmt == "webp":
        img.save(out, format="WEBP", lossless=True, quality=80, method=4)
        return out.getvalue(), "image/webp"
    if fmt == "webp-lossy":
        img.save(out, format="WEBP", quality=90, method=4)
        return out.getvalue(), "image/webp"
    if fmt.startswith("png"):
        colors = int(fmt[3:] or 256)
        q = img.quantize(
            colors=colors,
            method=Image.Quantize.MEDIANCUT,
            dither=Image.Dither.FLOYDSTEINBERG,
        )
        q.save(out, format="PNG", optimize=True)
        return out.getvalue(), "image/png"
    raise ValueError(f"unknown image format {fmt!r}")


#: Whether show() and the slider frames draw pixels. The workshop's test kernels turn
#: it off (workshop/run/kernels.py no_pixels): nbval compares no image.
DRAW_PIXELS = True


def render(
    fig, *, density: float = DENSITY, fmt: str | None = None, pixels: bool = True
) -> Rendered:
    """Lay out `fig`, wrap its titles to fit, refuse text that leaves the canvas or is
    too small to read, and draw it at `density` device pixels per displayed pixel.
    `pixels=False` lays out and checks but draws no pixel (a slider state that is
    carried as chart data, not as an image)."""
    from PIL import Image

    problems = _problems(fig)
    if problems:
        raise ValueError("figure breaks the house style: " + "; ".join(problems))
    w_in, h_in = fig.get_size_inches()
    css_w = round(_standard_width(w_in) * PX_PER_INCH)
    css_px_per_inch = css_w / w_in
    css_h = round(h_in * css_px_per_inch)
    fig.set_dpi(css_px_per_inch * density)
    canvas = fig.canvas
    # With DRAW_PIXELS off (nbval's kernels) the layout is computed, text measured and
    # checked, but no pixel is drawn: nbval compares the alt text and the manifest.
    skip = not (DRAW_PIXELS and pixels)
    for _ in range(3):
        if skip:
            fig.draw_without_rendering()
        else:
            canvas.draw()
        renderer = canvas.get_renderer()
        if not _wrap_titles(fig, renderer):
            break
    texts = _texts(fig)
    bad = _text_problems(fig, renderer, css_px_per_inch / 72)
    if bad:
        from .log import log

        title = _clean(fig._suptitle.get_text()) if fig._suptitle else ""
        log("figure", title=title, problems=bad)  # with the log on (book.log)
        raise ValueError(
            "figure text must lie on the canvas and be big enough to read: "
            + "; ".join(bad)
        )
    if skip:
        # nbval replaces every image by a placeholder before comparing
        # (tests/nbval-sanitize.cfg):
        # it checks the alt text and the manifest, which are made above. make test skips
        # encoding pixels nobody compares; the stored notebooks and the site have them.
        return Rendered(b"skipped", "image/webp", css_w, css_h, manifest(fig, texts))
    img = Image.frombuffer(
        "RGBA",
        canvas.get_width_height(),
        bytes(canvas.buffer_rgba()),
        "raw",
        "RGBA",
        0,
        1,
    ).convert("RGB")
    data, mime = _encode(img, fmt or IMAGE_FORMAT)
    return Rendered(data, mime, css_w, css_h, manifest(fig, texts))


def figure_png(fig, *, dpi: int = 100, colors: int = 128) -> bytes:
    """Render `fig` to a palette PNG at `dpi` (kept for callers outside the book)."""
    return render(fig, density=dpi / PX_PER_INCH, fmt=f"png{colors}").data


def img_tag(r: Rendered, alt: str, cls: str = "book-figure") -> str:
    return (
        f'<img class="{cls}" src="{r.uri}" width="{r.width}" height="{r.height}" '
        f'alt="{html.escape(alt, quote=True)}" style="max-width:100%;height:auto">'
    )


def figure_html(r: Rendered, alt: str) -> str:
    return img_tag(r, alt)


#: A still figure's hover data, in bytes gzipped, at most: a figure whose data would
#: weigh more is shown without hover (logged, see `_hover`). Lines are already thinned
#: by book.chartdata; this bounds a large heatmap.
MAX_HOVER = 16_000


def _hover(fig, digits: int = 4):
    """`fig`'s hover data for the site, as ``(json, boxes json)``, or None.

    Only when the book is built (``BOOK_WIDGETS=static``): the site's book/chart.js
    lays targets over the image from it. A figure that `book.chartdata.chart` cannot
    read in full (an artist it does not know), or with no bar, cell or point to ask,
    or over `MAX_HOVER`, gets none; with the log on (book.log) the reason is logged,
    never printed, so a page's outputs do not depend on it."""
    import gzip
    import json

    from .chartdata import still
    from .log import log
    from .slider import widget_mode

    if widget_mode() != "static":
        return None
    title = _clean(fig._suptitle.get_text()) if fig._suptitle else ""
    try:
        got = still(fig, digits)
    except ValueError as e:
        log("hover", title=title, hover=False, reason=str(e))
        return None
    if got is None:
        log("hover", title=title, hover=False, reason="no bar, cell or point")
        return None
    data, boxes = got
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    packed = len(gzip.compress(text.encode(), 9, mtime=0))
    if packed > MAX_HOVER:
        log("hover", title=title, hover=False, reason=f"{packed} bytes gzipped")
        return None
    log("hover", title=title, hover=True, bytes=packed)
    return text.replace("</", "<\\/"), json.dumps(boxes, separators=(",", ":"))


def hover_html(hover) -> str:
    """The hover data beside a still figure's <img>: a JSON script the site's
    book/chart.js reads (inert elsewhere). The panels' pixel boxes sit in its
    `data-boxes` attribute, which nbval does not compare (tests/nbval-sanitize.cfg)."""
    if hover is None:
        return ""
    text, boxes = hover
    return (
        f'<script type="application/json" class="book-chart-data" '
        f'data-boxes="{html.escape(boxes, quote=True)}">{text}</script>'
    )


class _Figure:
    """A rendered figure: HTML with alt text for the site and JupyterLab; its text/plain
    is the alt text and the manifest, so nbval compares what a reader reads in it.
    Built for the site, its HTML also carries the figure's hover data (`_hover`)."""

    def __init__(self, rendered: Rendered, alt: str, hover=None):
        self.rendered, self.alt, self.hover = rendered, alt, hover

    def _repr_html_(self):
        return figure_html(self.rendered, self.alt) + hover_html(self.hover)

    def __repr__(self):
        return f"[figure: {self.alt}]\n{self.rendered.manifest}"


def show(
    fig, alt: str, *, dpi: int | None = None, hover: bool = True, digits: int = 4
) -> None:
    """Check the house rules, then display `fig` with alt text, and close it.

    `dpi` is accepted for old callers and ignored: every
    figure is drawn at `DENSITY`. ``hover=False`` gives the site's figure no hover
    values: for a chart whose numbers differ from machine to machine (a chaotic
    product, float noise), where only the picture and the printed bounds hold. `digits`
    is how many significant digits its hover values keep (fewer for an ill-conditioned
    fit whose fourth digit differs between CPUs)."""
    alt = _check_alt("show", alt)
    if not isinstance(hover, bool):
        raise TypeError(f"show: hover must be True or False, got {hover!r}")
    if not hasattr(fig, "savefig"):
        raise TypeError(f"show: expected a matplotlib Figure, got {type(fig).__name__}")
    if dpi is not None and (
        isinstance(dpi, bool) or not isinstance(dpi, int) or not 30 <= dpi <= 300
    ):
        raise ValueError(f"show: dpi must be an int in 30..300, got {dpi!r}")
    try:
        r = render(fig)
        # read from the figure as drawn, before it is closed
        hover = _hover(fig, digits) if hover else None
    finally:
        plt.close(fig)
    from IPython.display import display

    display(_Figure(r, alt, hover))
