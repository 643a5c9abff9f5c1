"""A matplotlib figure as data: what `book/chart.js` draws as SVG, with hover values.

`chart(fig)` reads a finished figure (the one a slider's `draw` returns, unchanged)
and returns a plain dict of its panels and marks. Every number is rounded to `digits`
significant digits by `book.fmt.sig`, the book's one formatter for chart data, so the
dict (and its JSON, which nbval compares) is the same on every machine that prints the
page's digits. Nothing in it comes from matplotlib's text layout: a panel's place is
its cell in the figure's grid, a text's place is its anchor in data (or axes)
coordinates, and the page's script lays the text out in the page's own fonts.

Shape (keys kept short: the site carries one dict per slider state)::

    {"w": 720, "h": 360, "title": "...", "key": [[label, colour, kind], ...],
     "axes": [{"grid": [nrows, ncols, row0, row1, col0, col1],
               "xlim": [lo, hi], "ylim": [lo, hi], "xscale": "linear"|"log", ...,
               "xticks": [[pos, text], ...], "yticks": ..., "xlabel": ...,
               "title": ..., "marks": [...]}],
     "bars": {...colour bars...}}

Marks (`"k"` is the kind): ``line`` (x, y, colour, style, width, marker, label),
``bar`` (x, w, y0, h, colour, label; ``o: "h"`` for horizontal bars), ``cells`` (a
heatmap: extent, rows, cols, values and each cell's colour as hex, so the page needs
no colour map), ``points`` (a scatter), ``area`` (a filled polygon), ``rect`` (a span)
and ``text`` (an annotation at its data anchor). An artist this module does not know
raises a ValueError that names it: a chart is never drawn with a mark missing.
"""

from __future__ import annotations

import math
import re

import numpy as np

from .fmt import fixed, sig

__all__ = ["chart", "plain_text"]

_SUPERSCRIPT = str.maketrans("0123456789-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")
_SUBSCRIPT = str.maketrans("0123456789-+", "₀₁₂₃₄₅₆₇₈₉₋₊")
_SYMBOLS = {
    r"\times": "×",
    r"\cdot": "·",
    r"\eta": "η",
    r"\alpha": "α",
    r"\beta": "β",
    r"\sigma": "σ",
    r"\mu": "μ",
    r"\tau": "τ",
    r"\lambda": "λ",
    r"\theta": "θ",
    r"\pi": "π",
    r"\sqrt": "√",
    r"\infty": "∞",
    r"\leq": "≤",
    r"\geq": "≥",
    r"\approx": "≈",
    r"\ell": "ℓ",
    r"\,": " ",
    r"\;": " ",
    r"\ ": " ",
}


def _math_to_unicode(m: str) -> str:
    """The plain-text reading of a short mathtext formula: ``10^{-3}`` -> ``10⁻³``."""
    m = re.sub(r"\\mathdefault\{([^{}]*)\}", r"\1", m)
    m = re.sub(r"\\math(?:rm|it|bf)\{([^{}]*)\}", r"\1", m)
    for k, v in _SYMBOLS.items():
        m = m.replace(k, v)

    def script(table):
        def sub(match):
            body = match.group(1) if match.group(1) is not None else match.group(2)
            out = body.translate(table)
            known = {chr(v) for v in table.values()} | set("()")
            return out if all(c in known for c in out) else body

        return sub

    m = re.sub(r"\^\{([^{}]*)\}|\^(\S)", script(_SUPERSCRIPT), m)
    m = re.sub(r"_\{([^{}]*)\}|_(\S)", script(_SUBSCRIPT), m)
    return m.replace("{", "").replace("}", "")


def plain_text(s: str) -> str:
    """Text as a reader reads it, on one line: mathtext as Unicode, a plain minus."""
    from .style import _clean  # drops the \mathdefault{} wrapper of tick labels

    s = _clean(str(s))
    parts = s.split("$")
    if len(parts) % 2 == 1:  # balanced dollars: odd parts are formulas
        s = "".join(_math_to_unicode(p) if i % 2 else p for i, p in enumerate(parts))
    return " ".join(s.replace("\u2212", "-").split())


def _hex(c) -> str:
    from matplotlib.colors import to_hex

    return to_hex(c, keep_alpha=False).upper()


def _alpha(c, artist=None) -> float:
    from matplotlib.colors import to_rgba

    a = to_rgba(c)[3]
    if artist is not None and artist.get_alpha() is not None:
        a *= artist.get_alpha()
    return a


class _Round:
    def __init__(self, digits: int):
        if isinstance(digits, bool) or not isinstance(digits, int) or digits < 1:
            raise ValueError(f"chart: digits must be a positive int, got {digits!r}")
        self.digits = digits

    def __call__(self, x):
        x = float(x)
        if not math.isfinite(x):
            return None
        return float(sig(x, self.digits)) if x else 0

    def all(self, xs):
        return [self(x) for x in np.asarray(xs, dtype=float).ravel()]


def _seen(m, r, labelled, colour=None, artist=None):
    """`m` with its opacity (when `colour` is given and not opaque) and the legend
    label of `labelled` (when it has one): what every kind of mark records."""
    if colour is not None:
        a = _alpha(colour, artist)
        if a < 1:
            m["a"] = r(a)
    lab = _label(labelled)
    if lab:
        m["label"] = lab
    return m


def _label(artist) -> str | None:
    lab = artist.get_label()
    if not isinstance(lab, str) or not lab.strip() or lab.startswith("_"):
        return None
    return plain_text(lab)


def _to_data(ax, artist, xy):
    """Points in `artist`'s own coordinates as data coordinates (an axhline's x, given
    in axes fractions, becomes the x limits)."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    tr = artist.get_transform()
    if tr == ax.transData:
        return xy
    return ax.transData.inverted().transform(tr.transform(xy))


def _ticks(axis, r):
    from .style import _tick_labels

    out = []
    for t in _tick_labels(axis):
        pos = t.get_position()[0 if axis.axis_name == "x" else 1]
        out.append([r(pos), plain_text(t.get_text())])
    out.sort(key=lambda p: p[0])
    rot = 0
    labs = _tick_labels(axis)
    if labs:
        rot = round(float(labs[0].get_rotation())) % 360
    return out, rot


def _linestyle(ls) -> str:
    return {"-": "-", "solid": "-", "--": "--", "dashed": "--", ":": ":"}.get(
        ls, {"dotted": ":", "-.": "-.", "dashdot": "-."}.get(ls, "")
    )


#: A line with more points than this is carried as the points a picture of it shows:
#: in each of `_BUCKETS` equal runs of its points, the lowest and the highest (true
#: data points, in their order), so the drawn envelope is the full line's.
MAX_POINTS = 600
_BUCKETS = 200


def _thin(xy):
    n = len(xy)
    if n <= MAX_POINTS:
        return xy, None
    keep = {0, n - 1}
    y = np.where(np.isfinite(xy[:, 1]), xy[:, 1], 0.0)
    edges = np.linspace(0, n, _BUCKETS + 1).astype(int)
    for a, b in zip(edges[:-1], edges[1:]):
        if b > a:
            keep.add(a + int(np.argmin(y[a:b])))
            keep.add(a + int(np.argmax(y[a:b])))
    return xy[sorted(keep)], n


def _line(ax, ln, r):
    xy, n = _thin(_to_data(ax, ln, ln.get_xydata()))
    marker = ln.get_marker()
    marker = (
        marker if isinstance(marker, str) and marker not in ("", "None", " ") else ""
    )
    ls = _linestyle(ln.get_linestyle())
    if not ls and not marker:
        return None
    m = {
        "k": "line",
        "x": r.all(xy[:, 0]),
        "y": r.all(xy[:, 1]),
        "c": _hex(ln.get_color()),
        "lw": r(ln.get_linewidth()),
    }
    if n:
        m["n"] = n
    if ls != "-":
        m["ls"] = ls
    if marker:
        m["m"] = marker
        m["ms"] = r(ln.get_markersize())
        face = ln.get_markerfacecolor()
        if isinstance(face, str) and face.lower() == "none":
            m["mf"] = "none"
    return _seen(m, r, ln, ln.get_color(), ln)


def _bar(rect, container, r):
    horizontal = getattr(container, "orientation", "vertical") == "horizontal"
    m = {
        "k": "bar",
        "x": r(rect.get_x()),
        "w": r(rect.get_width()),
        "y0": r(rect.get_y()),
        "h": r(rect.get_height()),
        "c": _hex(rect.get_facecolor()),
    }
    if horizontal:
        m["o"] = "h"
    return _seen(m, r, container, rect.get_facecolor(), rect)


def _cells(im, r, x_edges=None, y_edges=None):
    A = np.ma.masked_invalid(np.ma.asarray(im.get_array(), dtype=float))
    if A.ndim != 2:
        raise ValueError(
            f"chart: an image of shape {A.shape} is not a heatmap (only 2-D arrays "
            "of values are)"
        )
    raw = A.filled(np.nan)
    shown = np.where(np.ma.getmaskarray(A), np.nan, raw)
    values = [r(v) if math.isfinite(v) else None for v in shown.ravel()]
    finite = [abs(v) for v in values if v is not None]
    tiny, floor = [], 0.0
    if finite and max(finite):
        floor = NOISE * max(finite)
        tiny = _tiny(values, floor)
        values = _snap(values, floor)
    # colours from the stored values, so that a cell's colour is as machine-independent
    # as its number (noise at a diverging map's midpoint would flip its shade)
    stored = np.array([np.nan if v is None else v for v in values]).reshape(A.shape)
    rgba = im.to_rgba(stored)
    colours = [
        _hex(rgba[i, j]) if v is not None and rgba[i, j][3] > 0 else None
        for (i, j), v in zip(np.ndindex(A.shape), values)
    ]
    m = {
        "k": "cells",
        "rows": int(A.shape[0]),
        "cols": int(A.shape[1]),
        "v": values,
        "c": colours,
    }
    # cells snap silently: whether a noise cell is exactly 0 or 1e-17 depends on the
    # machine, so a list of them would too (and a masked weight is exactly 0)
    del tiny
    if x_edges is None:
        left, right, bottom, top = im.get_extent()
        m["extent"] = [r(left), r(right), r(bottom), r(top)]
        m["origin"] = im.origin
    else:
        m["xe"], m["ye"] = r.all(x_edges), r.all(y_edges)
    return _seen(m, r, im)


def _mesh(ax, qm, r):
    coords = np.asarray(qm.get_coordinates())
    xe, ye = coords[0, :, 0], coords[:, 0, 1]
    return _cells(qm, r, xe, ye)


def _paths(ax, coll, r, kind):
    """A line or contour collection as polylines; a filled one as areas."""
    marks = []
    faces = coll.get_facecolor() if kind == "area" else coll.get_edgecolor()
    for i, path in enumerate(coll.get_paths()):
        polys = path.to_polygons(closed_only=(kind == "area"))
        if not len(faces):
            continue
        c = faces[i % len(faces)]
        for poly in polys:
            if len(poly) < 2:
                continue
            xy = _to_data(ax, coll, poly)
            m = {"k": kind, "x": r.all(xy[:, 0]), "y": r.all(xy[:, 1]), "c": _hex(c)}
            if kind == "line":
                lws = coll.get_linewidth()
                m["lw"] = r(lws[i % len(lws)] if len(lws) else 1)
                m["nh"] = 1  # a contour or a collection of lines: no value to read
            marks.append(_seen(m, r, coll, c, coll))
    return marks


def _points(ax, pc, r):
    # a scatter's points are its offsets, placed by its offset transform (its own
    # transform only sizes the markers)
    xy = np.asarray(pc.get_offsets(), dtype=float).reshape(-1, 2)
    tr = pc.get_offset_transform()
    if len(xy) and tr != ax.transData:
        xy = ax.transData.inverted().transform(tr.transform(xy))
    faces = pc.get_facecolor()
    m = {
        "k": "points",
        "x": r.all(xy[:, 0]),
        "y": r.all(xy[:, 1]),
        "c": [_hex(faces[i % len(faces)]) for i in range(len(xy))]
        if len(faces)
        else [],
    }
    return _seen(m, r, pc)


def _text(ax, t, r, fig=None):
    from matplotlib.text import Annotation

    s = plain_text(t.get_text())
    if not s or not t.get_visible():
        return None
    m = {"k": "text", "s": s}
    if isinstance(t, Annotation):
        if t.xycoords != "data":
            raise ValueError(
                f"chart: annotation {s!r} is placed in {t.xycoords!r} coordinates; "
                "place it in data coordinates"
            )
        x, y = t.xy
        m["x"], m["y"] = r(x), r(y)
        if t.anncoords == "offset points":
            dx, dy = t.get_position()
            m["dx"], m["dy"] = r(dx), r(dy)
        elif t.anncoords == "data" and tuple(t.get_position()) != tuple(t.xy):
            m["x"], m["y"] = r(t.get_position()[0]), r(t.get_position()[1])
        elif t.anncoords != "data":
            raise ValueError(
                f"chart: annotation {s!r} has its text in {t.anncoords!r}; use "
                "'offset points' or 'data'"
            )
    else:
        x, y = t.get_position()
        tr = t.get_transform()
        if fig is not None and tr == fig.transFigure:
            m["at"] = "figure"
        elif ax is not None and tr == ax.transAxes:
            m["at"] = "axes"
        elif ax is None or tr != ax.transData:
            raise ValueError(
                f"chart: text {s!r} is placed by a transform chart() cannot read; "
                "place it in data, axes or figure coordinates"
            )
        m["x"], m["y"] = r(x), r(y)
    c = _hex(t.get_color())
    if c != "#000000":
        m["c"] = c
    if t.get_ha() != "left":
        m["ha"] = t.get_ha()
    va = t.get_va()
    if va != "baseline":
        m["va"] = "center" if va == "center_baseline" else va
    m["size"] = r(t.get_fontsize())
    rot = round(float(t.get_rotation())) % 360
    if rot:
        m["rot"] = rot
    if t.get_fontweight() in ("bold", 700, "heavy"):
        m["b"] = 1
    return m


def _legend(leg, key):
    if leg is None or not leg.get_visible():
        return
    handles = getattr(leg, "legend_handles", None) or getattr(leg, "legendHandles", [])
    for h, t in zip(handles, leg.get_texts()):
        label = plain_text(t.get_text())
        if not label:
            continue
        if hasattr(h, "get_color") and not hasattr(h, "get_facecolor"):
            c, kind = h.get_color(), "line"
            if isinstance(getattr(h, "get_linestyle", lambda: "-")(), str) and (
                h.get_linestyle() in ("None", "", " ")
            ):
                kind = "point"
            elif _linestyle(h.get_linestyle()) not in ("-", ""):
                kind = "dash" if _linestyle(h.get_linestyle()) == "--" else "dot"
        elif hasattr(h, "get_facecolor"):
            fc = h.get_facecolor()
            fc = fc[0] if np.ndim(fc) == 2 and len(fc) else fc
            c, kind = fc, "box"
        else:
            raise ValueError(f"chart: legend entry {label!r} has a {type(h).__name__}")
        entry = [label, _hex(c), kind]
        if entry not in key:
            key.append(entry)


def _colour_bar(ax, r):
    cb = ax._colorbar
    lo, hi = float(cb.norm.vmin), float(cb.norm.vmax)
    stops = [_hex(cb.cmap(cb.norm(lo + (hi - lo) * i / 10))) for i in range(11)]
    vertical = cb.orientation == "vertical"
    axis = ax.yaxis if vertical else ax.xaxis
    ticks, _ = _ticks(axis, r)
    label = plain_text(axis.label.get_text())
    return {"lo": r(lo), "hi": r(hi), "stops": stops, "ticks": ticks, "label": label}


def _grid(ax):
    spec = ax.get_subplotspec() if hasattr(ax, "get_subplotspec") else None
    if spec is None:
        raise ValueError(
            "chart: a panel made without a grid (fig.add_axes) has no place chart() "
            "can read; use new_figure(ncols=, nrows=) or fig.add_subplot"
        )
    nrows, ncols = spec.get_gridspec().get_geometry()
    rows, cols = spec.rowspan, spec.colspan
    return [nrows, ncols, rows.start, rows.stop, cols.start, cols.stop]


_SKIP = ("Spine", "XAxis", "YAxis", "Legend", "_ColorbarSpine")


def _panel(ax, r, key):
    from matplotlib.collections import LineCollection, PathCollection, PolyCollection
    from matplotlib.container import BarContainer
    from matplotlib.contour import ContourSet
    from matplotlib.image import AxesImage
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon, Rectangle
    from matplotlib.text import Text

    for name in ("xscale", "yscale"):
        scale = getattr(ax, f"get_{name}")()
        if scale not in ("linear", "log"):
            raise ValueError(f"chart: a {scale} {name[0]} axis is not supported")
    xticks, xrot = _ticks(ax.xaxis, r)
    yticks, _ = _ticks(ax.yaxis, r)
    p = {
        "grid": _grid(ax),
        "xlim": r.all(ax.get_xlim()),
        "ylim": r.all(ax.get_ylim()),
        "xticks": xticks,
        "yticks": yticks,
        "xlabel": plain_text(ax.get_xlabel()),
        "ylabel": plain_text(ax.get_ylabel()),
        "title": plain_text(ax.get_title()),
    }
    if xrot:
        p["xrot"] = xrot
    for name in ("xscale", "yscale"):
        if getattr(ax, f"get_{name}")() == "log":
            p[name] = "log"
    if not ax.axison:
        p["off"] = 1
    if ax.yaxis.get_label_position() == "right":
        p["yright"] = 1
    bars = {}
    for c in ax.containers:
        if isinstance(c, BarContainer):
            for rect in c.patches:
                bars[id(rect)] = c
    titles = {id(t) for t in (ax.title, ax._left_title, ax._right_title)}
    marks = []
    children = sorted(ax.get_children(), key=lambda a: a.get_zorder())
    for a in children:
        if a is ax.patch or type(a).__name__ in _SKIP or id(a) in titles:
            continue
        if not a.get_visible():
            continue
        if isinstance(a, Line2D):
            m = _line(ax, a, r)
            if m:
                marks.append(m)
        elif isinstance(a, Rectangle) and id(a) in bars:
            marks.append(_bar(a, bars[id(a)], r))
        elif isinstance(a, (Rectangle, Polygon)):
            xy = ax.transData.inverted().transform(
                a.get_transform().transform(a.get_path().vertices)
            )
            m = {
                "k": "area",
                "x": r.all(xy[:, 0]),
                "y": r.all(xy[:, 1]),
                "c": _hex(a.get_facecolor()),
            }
            marks.append(_seen(m, r, a, a.get_facecolor(), a))
        elif isinstance(a, AxesImage):
            marks.append(_cells(a, r))
        elif type(a).__name__ == "QuadMesh":
            marks.append(_mesh(ax, a, r))
        elif isinstance(a, ContourSet) or isinstance(a, LineCollection):
            marks.extend(_paths(ax, a, r, "line"))
        elif isinstance(a, PathCollection):
            marks.append(_points(ax, a, r))
        elif isinstance(a, PolyCollection):
            marks.extend(_paths(ax, a, r, "area"))
        elif isinstance(a, Text):
            m = _text(ax, a, r)
            if m:
                marks.append(m)
        else:
            raise ValueError(
                f"chart: panel {ax.get_title()!r} holds a {type(a).__name__} "
                f"({a.get_label()!r}), which chart() does not draw"
            )
    p["marks"] = marks
    _snap_noise(p, r.digits)
    _legend(ax.get_legend(), key)
    return p


#: A value smaller than this share of its axis's largest limit (or, for a heatmap's
#: cells, of its largest cell) may be float noise: `-2.4e-16` where the page computed
#: zero, whose digits depend on the BLAS kernel and the SIMD path. The data draws it
#: at 0 and names it as a bound, as the book prints noise: the mark's ``"tiny"`` lists
#: the indices (``1`` for a bar's value) and ``"lt"`` the bound, so a hover says
#: ``< 4e-12``, never a digit that differs from machine to machine.
NOISE = 1e-12


def _snap(values, floor):
    if isinstance(values, list):
        return [0 if v is not None and abs(v) < floor else v for v in values]
    return 0 if values is not None and abs(values) < floor else values


def _tiny(values, floor) -> list[int]:
    """The indices of `values` that `_snap` sets to 0 and that were not 0."""
    return [i for i, v in enumerate(values) if v and abs(v) < floor]


def _bound(floor: float) -> float:
    """The bound a hover names for a snapped value: `floor` rounded up to one digit."""
    e = math.floor(math.log10(floor))
    return float(f"{math.ceil(floor / 10**e - 1e-9)}e{e}")


def _quantise(values, q):
    """`values` to the nearest multiple of `q` (a power of ten) by the book's own
    rounding (`book.fmt.fixed`, ties away from zero), -0 written 0."""
    d = -round(math.log10(q))

    def one(v):
        if v is None or d > 15:
            return v
        t = float(fixed(v, d)) if d >= 0 else float(fixed(v / q, 0)) * q
        return t or 0

    return [one(v) for v in values] if isinstance(values, list) else one(values)


def _snap_noise(p, digits: int) -> None:
    """On a linear axis, the value a hover names (a line's or a point's y, a bar's
    length) is kept to `digits` digits of the axis's scale, not of itself: near zero
    a fitted curve's value has few digits that hold (-0.004733 on one CPU, -0.004734
    on another, for an ill-conditioned fit on an axis to 3), and float noise has none.
    A nonzero value that this rounds to 0 is named by its bound ("tiny", "lt"). Other
    numbers (positions) have float noise set to 0. On a log axis a tiny positive
    value is a value, and is kept."""
    floors, quanta = {}, {}
    for axis in "xy":
        lim = [abs(v) for v in p[f"{axis}lim"] if v is not None]
        linear = p.get(f"{axis}scale") != "log"
        top = max(lim) if linear and lim else 0.0
        floors[axis] = NOISE * top
        quanta[axis] = 10.0 ** (math.floor(math.log10(top)) - digits) if top else 0.0
    fields = {"x": "x", "y": "y", "w": "x", "y0": "y", "h": "y"}
    for m in p["marks"]:
        if m["k"] in ("cells", "text"):  # cells are snapped where they are read
            continue
        # the value a hover names: a bar's length, a line's or a point's y
        value = ("w" if m.get("o") == "h" else "h") if m["k"] == "bar" else "y"
        for field, axis in fields.items():
            if field not in m or not floors[axis]:
                continue
            if field != value:
                m[field] = _snap(m[field], floors[axis])
                continue
            v, q = m[field], quanta[axis]
            new = _quantise(v, q)
            olds, news = (v, new) if isinstance(v, list) else ([v], [new])
            tiny = [i for i, (a, b) in enumerate(zip(olds, news)) if a and b == 0]
            if tiny:
                m["tiny"] = tiny if isinstance(v, list) else 1
                m["lt"] = _bound(q / 2)
            m[field] = new


def chart(fig, digits: int = 4) -> dict:
    """The data of `fig`'s panels and marks, every number to `digits` significant
    digits (see the module docstring for the shape)."""
    if not hasattr(fig, "axes") or not hasattr(fig, "savefig"):
        raise TypeError(
            f"chart: expected a matplotlib Figure, got {type(fig).__name__}"
        )
    from .style import PX_PER_INCH, _standard_width

    r = _Round(digits)
    w_in, h_in = fig.get_size_inches()
    css_w = round(_standard_width(w_in) * PX_PER_INCH)
    key: list = []
    out = {
        "w": css_w,
        "h": round(h_in * css_w / w_in),
        "title": plain_text(fig._suptitle.get_text()) if fig._suptitle else "",
    }
    axes, bars = [], []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        if hasattr(ax, "_colorbar"):
            bars.append(_colour_bar(ax, r))
            continue
        axes.append(_panel(ax, r, key))
    if not axes:
        raise ValueError("chart: the figure has no panel to draw")
    for leg in fig.legends:
        _legend(leg, key)
    texts = [m for t in fig.texts if (m := _text(None, t, r, fig))]
    out["axes"] = axes
    if key:
        out["key"] = key
    if bars:
        out["bars"] = bars
    if texts:
        out["texts"] = texts
    return out


# still figures ------------------------------------------------------------------------
#: What a still figure's overlay reads of each mark: where it is and what it holds. The
#: picture is matplotlib's, so nothing that only draws (colours of cells and lines,
#: widths, annotations, areas) is carried. A bar keeps its colour: the site's test
#: reads the picture's pixel under the bar's target against it.
_HOVER_MARK = {
    "line": ("k", "x", "y", "label", "n", "tiny", "lt"),
    "points": ("k", "x", "y", "label", "tiny", "lt"),
    "bar": ("k", "x", "w", "y0", "h", "o", "c", "label", "tiny", "lt"),
    "cells": ("k", "rows", "cols", "v", "extent", "origin", "xe", "ye", "label", "tiny")
    + ("lt",),
}
_HOVER_PANEL = ("xlim", "ylim", "xscale", "yscale", "xticks", "yticks")
_HOVER_PANEL += ("xlabel", "ylabel")


def _panel_axes(fig):
    """The axes `chart` makes panels of, in its order (visible, not colour bars)."""
    return [a for a in fig.axes if a.get_visible() and not hasattr(a, "_colorbar")]


def panel_boxes(fig) -> list:
    """Each panel's plotting box in the drawn figure, as fractions of the image from its
    top left corner: ``[left, top, right, bottom]``. Read after the figure is drawn
    (matplotlib's layout, so it may move by a pixel between releases and fonts; the
    notebooks store it where nbval does not compare it, tests/nbval-sanitize.cfg)."""
    out = []
    for ax in _panel_axes(fig):
        b = ax.get_position()
        out.append([round(float(v), 4) for v in (b.x0, 1 - b.y1, b.x1, 1 - b.y0)])
    return out


def still(fig, digits: int = 4):
    """A drawn still figure's hover data and its panels' boxes, as ``(data, boxes)``:
    the marks a reader can ask for a value (bars, heatmap cells, line and scatter
    points) with what names them (axis labels, ticks, legend labels), from `chart`,
    rounded the same way. ``None`` when the figure holds no such mark. An artist
    `chart` does not know raises its ValueError: such a figure gets no hover."""
    full = chart(fig, digits)
    boxes = panel_boxes(fig)
    if len(boxes) != len(full["axes"]):  # pragma: no cover - the same filter
        raise ValueError("chart: panels and boxes disagree")
    axes, kept = [], []
    for p, box in zip(full["axes"], boxes):
        marks = [
            {k: m[k] for k in _HOVER_MARK[m["k"]] if k in m}
            for m in p["marks"]
            if m["k"] in _HOVER_MARK and not m.get("nh")
        ]
        if not marks:
            continue
        panel = {k: p[k] for k in _HOVER_PANEL if k in p and p[k] not in ("", [])}
        panel["marks"] = marks
        axes.append(panel)
        kept.append(box)
    if not axes:
        return None
    data = {"w": full["w"], "h": full["h"], "axes": axes}
    labels = [b["label"] for b in full.get("bars", ())]
    if any(m["k"] == "cells" for p in axes for m in p["marks"]) and labels:
        data["bars"] = [{"label": lab} for lab in labels]
    return data, kept
