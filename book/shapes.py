"""The shape flow of attention, drawn from a page's own arrays.

`shape_flow(ax, x=X, q=Q, k=K, v=V, weights=A, out=out, ...)` draws every matrix of one
attention layer as a rectangle, to scale, labelled with its name and its shape:
X [n, d_model] -> (W_Q, W_K, W_V) -> Q, K, V -> scores [n, m] -> weights (softmax, rows
sum to one, optionally masked) -> output [n, d_v], and for several heads the split into
heads, the concatenation and W_O. Each argument is an array or its `.shape`, so the
picture always matches the page's numbers. It returns the alt text, written from the
same shapes; the page gives the figure its title (the finding) and calls `show`.
"""

from __future__ import annotations

import numbers
import re

import numpy as np

from .style import colour

__all__ = ["shape_flow", "flow_shapes"]

#: Colour of each kind of block: one concept, one colour (book.style.CONCEPT).
_KIND = {
    "X": "input",
    "W_Q": "query",
    "W_K": "key",
    "W_V": "value",
    "Q": "query",
    "K": "key",
    "V": "value",
    "scores": "scores",
    "weights": "weights",
    "heads out": "output",
    "concat": "output",
    "W_O": "output",
    "output": "output",
}
_SCALES = ("linear", "sqrt", "log")


def _shape(name, a, ndims=(2,)):
    """The shape of `a` (an array, nested lists, or a tuple of sizes), checked:
    positive ints only."""
    shape = getattr(a, "shape", a)
    if isinstance(shape, list) and shape and isinstance(shape[0], (list, tuple)):
        shape = np.shape(a)  # a matrix as a list of rows (lesson 20)
    if isinstance(shape, (str, bytes)) or not hasattr(shape, "__len__"):
        raise ValueError(f"shape_flow: {name} must be an array or its shape, got {a!r}")
    shape = tuple(shape)
    if len(shape) not in ndims:
        want = " or ".join(f"{k}-D" for k in ndims)
        raise ValueError(f"shape_flow: {name} must be {want}, got shape {shape!r}")
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, numbers.Integral) or s < 1:
            raise ValueError(
                f"shape_flow: {name} has a size that is not a positive int: {shape!r}"
            )
    return tuple(int(s) for s in shape)


def _need(what, got, want):
    if got != want:
        raise ValueError(f"shape_flow: {what} is {got!r}, expected {want!r}")


def flow_shapes(
    *,
    q,
    k,
    v,
    weights,
    out,
    x=None,
    scores=None,
    w_q=None,
    w_k=None,
    w_v=None,
    mask=None,
    heads=1,
    concat=None,
    w_o=None,
):
    """The checked shapes of one attention layer, as a dict of name -> (rows, cols).

    `q`, `k`, `v`, `weights` (and `scores`) are one layer's matrices. With several heads
    they are 3-D, heads first ([h, n, d_k]; `weights` [h, n, m]), or 2-D with `heads=h`,
    in which case `q`, `k`, `v` are the full [n, h*d_k] products that are split into
    heads. `mask` is an [n, m] array whose true (or nonzero) entries are blocked.
    Every mismatch raises a ValueError naming the value.
    """
    if isinstance(heads, bool) or not isinstance(heads, numbers.Integral) or heads < 1:
        raise ValueError(f"shape_flow: heads must be a positive int, got {heads!r}")
    heads = int(heads)
    X = None if x is None else _shape("x", x)
    qkv = {
        nm: _shape(nm.lower(), a, (2, 3)) for nm, a in (("Q", q), ("K", k), ("V", v))
    }
    mix = {"weights": _shape("weights", weights, (2, 3))}
    if scores is not None:
        mix["scores"] = _shape("scores", scores, (2, 3))
    if len({len(sh) for sh in qkv.values()}) != 1:
        raise ValueError(
            "shape_flow: q, k and v must all be 2-D or all 3-D (heads first), got "
            + ", ".join(f"{a.lower()} {sh!r}" for a, sh in qkv.items())
        )
    split = (
        len(qkv["Q"]) == 2 and heads > 1
    )  # full products, split into heads by columns
    if len(qkv["Q"]) == 3:
        h = qkv["Q"][0]
        if heads not in (1, h):
            raise ValueError(f"shape_flow: heads={heads!r} but q holds {h} heads")
        heads = h
    for a, sh in list(qkv.items()) + list(mix.items()):
        if split and a in qkv:
            continue
        if heads > 1 and (len(sh) != 3 or sh[0] != heads):
            raise ValueError(
                f"shape_flow: with {heads} heads, {a.lower()} must be 3-D with "
                f"{heads} heads first, got shape {sh!r}"
            )
        if heads == 1 and len(sh) == 3 and sh[0] != 1:
            raise ValueError(f"shape_flow: {a.lower()} has shape {sh!r}: heads first?")
    if split:
        qkv = {a: (1, *sh) for a, sh in qkv.items()}
    per = {a: sh[1:] if len(sh) == 3 else sh for a, sh in {**qkv, **mix}.items()}
    full = None
    if split:
        full = {a: per[a] for a in ("Q", "K", "V")}
        for a in ("Q", "K", "V"):
            r, c = per[a]
            if c % heads:
                raise ValueError(
                    f"shape_flow: {a.lower()} has {c} columns, not divisible by "
                    f"heads={heads}"
                )
            per[a] = (r, c // heads)
    (nq, dk), (m, dk2), (m2, dv) = per["Q"], per["K"], per["V"]
    n, d_model = X if X is not None else (nq, None)
    _need("q's row count", nq, n)
    _need("k's width", dk2, dk)
    _need("v's row count", m2, m)
    for a in ("weights", "scores"):
        if a in per:
            _need(f"{a}' shape (per head)", per[a], (n, m))
    shapes = {} if X is None else {"X": X}
    for a, wname, arr in (("Q", "W_Q", w_q), ("K", "W_K", w_k), ("V", "W_V", w_v)):
        if arr is not None:
            if X is None:
                raise ValueError(f"shape_flow: {wname.lower()} given without x")
            W = _shape(wname.lower(), arr)
            cols = (full or per)[a][1]
            _need(f"{wname.lower()}'s shape", W, (d_model, cols))
            shapes[wname] = W
    if mask is not None:
        M = np.asarray(mask)
        if M.shape != (n, m):
            raise ValueError(
                f"shape_flow: mask has shape {M.shape!r}, expected {(n, m)!r}"
            )
        if M.dtype != bool and not np.isin(M, (0, 1)).all():
            raise ValueError(
                "shape_flow: mask must be true (blocked) or false, got values "
                f"{np.unique(M)[:6]!r}"
            )
        if M.astype(bool).all(axis=1).any():
            row = int(np.flatnonzero(M.astype(bool).all(axis=1))[0])
            raise ValueError(f"shape_flow: mask blocks every key of row {row}")
    shapes.update({a: (full or per)[a] for a in ("Q", "K", "V")})
    shapes["per head"] = {a: per[a] for a in ("Q", "K", "V")}
    if "scores" in per:
        shapes["scores"] = per["scores"]
    shapes["weights"] = per["weights"]
    O = _shape("out", out)
    if heads == 1:
        _need("out's shape", O, (n, dv))
    else:
        if concat is None:
            raise ValueError(
                f"shape_flow: with {heads} heads, pass concat (the [n, h*d_v] heads)"
            )
        C = _shape("concat", concat)
        _need("concat's shape", C, (n, heads * dv))
        shapes["heads out"] = (n, dv)
        shapes["concat"] = C
        if w_o is not None:
            Wo = _shape("w_o", w_o)
            _need("w_o's row count", Wo[0], C[1])
            _need("out's shape", O, (n, Wo[1]))
            shapes["W_O"] = Wo
        else:
            _need("out's shape", O, C)
    shapes["output"] = O
    shapes["heads"] = heads
    shapes["split"] = split
    shapes["mask"] = None if mask is None else np.asarray(mask).astype(bool)
    return shapes


def _visible(text):
    """About how many characters `text` shows (mathtext markup removed)."""
    return len(re.sub(r"\\[a-z]+|[${}^_!\\]", "", text)) + 2 * text.count("sqrt")


def _fmt(shape):
    return "×".join(str(s) for s in shape)


#: What each block is called on the figure.
_CAPTION = {"W_Q": "W$_Q$", "W_K": "W$_K$", "W_V": "W$_V$", "W_O": "W$_O$"}


def _columns(s):
    """The stages left to right, each a list of (name, shape, stacked copies), and the
    operation written on the arrow into each stage."""
    h = s["heads"]
    cols, ops = ([[("X", s["X"], 1)]] if "X" in s else []), []
    ws = [w for w in ("W_Q", "W_K", "W_V") if w in s]
    if ws:
        cols.append([(w, s[w], 1) for w in ws])
        ops.append("")
    if s["split"] or h == 1:  # a full product: dashes mark its heads' columns
        cols.append([(a, s[a], 1) for a in ("Q", "K", "V")])
    else:
        cols.append([(a, s["per head"][a], h) for a in ("Q", "K", "V")])
    if "X" in s:
        ops.append("X W" if ws else "")
    if "scores" in s:
        cols.append([("scores", s["scores"], h)])
        ops.append(r"$QK^\top\!/\sqrt{d_k}$")
    cols.append([("weights", s["weights"], h)])
    ops.append("softmax" if "scores" in s else r"softmax$(QK^\top)$")
    if h > 1:
        cols.append([("heads out", s["heads out"], h)])
        ops.append("× V")
        cols.append([("concat", s["concat"], 1)])
        ops.append("concat")
        if "W_O" in s:
            cols.append([("W_O", s["W_O"], 1)])
            ops.append("")
    cols.append([("output", s["output"], 1)])
    ops.append("× V" if h == 1 else ("× W$_O$" if "W_O" in s else ""))
    return cols, ops


def shape_flow(title, *, scale="linear", **arrays):
    """The shape flow of one attention layer: a figure and its alt text, `(fig, alt)`.

    `title` states the finding (as for `new_figure`); the keyword arrays are those of
    `flow_shapes` (x, q, k, v, weights, out, and optionally scores, w_q, w_k, w_v, mask,
    heads, concat, w_o), each an array or its `.shape`. Every block is a rectangle of
    rows by columns on one scale: `scale="linear"` (a side of 8 is twice a side of 4) or
    `"sqrt"` (sides drawn as the square roots of the sizes) or `"log"` (a side of
    size z drawn 1 + log2(z) long), for a layer whose widths dwarf its sequence. A
    stack of shadows is one block per head; a mask's blocked
    entries are grey cells in the weights. A key names the colours. Display it with
    `show(fig, alt)`.
    """
    from matplotlib.patches import FancyArrowPatch, Patch, Rectangle

    from .style import FULL_WIDTH, new_figure

    if scale not in _SCALES:
        raise ValueError(f"shape_flow: scale must be one of {_SCALES}, got {scale!r}")
    s = flow_shapes(**arrays)
    side = {
        "linear": float,
        "sqrt": lambda z: float(np.sqrt(z)),
        "log": lambda z: 1.0 + float(np.log2(z)),
    }[scale]
    cols, ops = _columns(s)
    # the layout in inches: arrows, labels and shadows have fixed sizes, blocks share a
    # scale `u` (inches per unit of side) chosen to fill the width
    label, margin, most = 0.42, 0.1, 3.4
    shadow = min(0.05, 0.21 / max(s["heads"] - 1, 1))
    gaps = [0.3 + 0.058 * _visible(op) for op in ops]  # each arrow fits its operation
    fixed_w = sum(gaps) + 2 * margin
    stacks = [shadow * (max(cp for *_, cp in col) - 1) for col in cols]
    units = [max(side(sh[1]) for _, sh, _ in col) for col in cols]
    texts = [
        max(max(len(_fmt(sh)) + (4 if cp > 1 else 0), len(nm)) for nm, sh, cp in col)
        * 0.07
        for col in cols
    ]  # the width its labels need, at about 0.07 in a character of 9 pt

    def col_width(i, u):
        return max(units[i] * u + stacks[i], texts[i])

    units_h = max(sum(side(sh[0]) for _, sh, _ in col) for col in cols)
    fixed_h = max(
        label * len(col) + sum(shadow * (cp - 1) for *_, cp in col) for col in cols
    )
    room = FULL_WIDTH - 0.2 - fixed_w
    lo, hi = 0.0, (most - fixed_h) / units_h
    for _ in range(40):  # the largest scale whose columns fit the width
        mid = (lo + hi) / 2
        lo, hi = (
            (mid, hi)
            if sum(col_width(i, mid) for i in range(len(cols))) <= room
            else (lo, mid)
        )
    u = lo
    if u <= 0 or sum(col_width(i, u) for i in range(len(cols))) > room:
        raise ValueError(
            f"shape_flow: {len(cols)} stages do not fit the figure's width"
        )
    tall = units_h * u + fixed_h
    fig, ax = new_figure(title, figsize=(FULL_WIDTH, tall + 1.3))
    used = sum(col_width(i, u) for i in range(len(cols)))
    x0, spans, kinds = (room - used) / 2 + margin, [], []
    for ci, col in enumerate(cols):
        width = col_width(ci, u)
        heights = [side(sh[0]) * u + (cp - 1) * shadow for _, sh, cp in col]
        y = (sum(heights) + label * len(col)) / 2 - label / 2
        for (nm, shape, cp), hgt in zip(col, heights):
            hh, ww = side(shape[0]) * u, side(shape[1]) * u
            kind = _KIND[nm]
            kinds.append(kind)
            light = nm.startswith("W")
            left = x0 + (width - ww - (cp - 1) * shadow) / 2
            for j in reversed(range(cp)):  # the back copies first
                ax.add_patch(
                    Rectangle(
                        (left + j * shadow, y - hh - j * shadow),
                        ww,
                        hh,
                        facecolor=colour(kind),
                        alpha=0.45 if light else 0.9,
                        edgecolor="0.25",
                        hatch="///" if light else None,
                        linewidth=0.8,
                    )
                )
            if nm == "weights" and s["mask"] is not None:
                M = s["mask"]
                r, c = M.shape
                for (i, j), blocked in np.ndenumerate(M):
                    if blocked:
                        ax.add_patch(
                            Rectangle(
                                (left + j * ww / c, y - (i + 1) * hh / r),
                                ww / c,
                                hh / r,
                                facecolor=colour("blocked"),
                                edgecolor="0.55",
                                linewidth=0.4,
                            )
                        )
            if (s["split"] and nm in ("Q", "K", "V") and cp == 1) or nm == "concat":
                for j in range(1, s["heads"]):
                    xs = left + j * ww / s["heads"]
                    ax.plot([xs, xs], [y, y - hh], color="0.1", lw=0.8, ls="--")
            name = _CAPTION.get(nm, nm)
            dims = _fmt(shape) if cp == 1 else f"{cp} × {_fmt(shape)}"
            cx = left + (ww + (cp - 1) * shadow) / 2
            ax.text(cx, y + 0.04, name, ha="center", va="bottom", fontsize=9)
            ax.text(cx, y - hgt - 0.04, dims, ha="center", va="top", fontsize=9)
            y -= hgt + label
        spans.append((x0, x0 + width))
        x0 += width + (gaps[ci] if ci < len(gaps) else 0)
    for ((_, right), (left, _)), op in zip(zip(spans, spans[1:]), ops):
        ax.add_patch(
            FancyArrowPatch(
                (right + 0.06, 0),
                (left - 0.06, 0),
                arrowstyle="-|>",
                mutation_scale=11,
                color="0.3",
                lw=1.1,
            )
        )
        if op:
            ax.text((right + left) / 2, 0.06, op, ha="center", va="bottom", fontsize=8)
    ax.set_xlim(0, FULL_WIDTH - 0.2)
    ax.set_ylim(-tall / 2 - 0.05, tall / 2 + 0.05)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax._book_unlabelled_ok = True
    seen = list(dict.fromkeys(kinds))
    if s["mask"] is not None:
        seen.append("blocked")
    handles = [Patch(facecolor=colour(c), edgecolor="0.4", label=c) for c in seen]
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncol=len(handles),
        frameon=False,
        fontsize=9,
        handlelength=1.2,
        columnspacing=1.0,
    )
    return fig, _alt(s, scale)


def _alt(s, scale):
    h = s["heads"]
    parts = [
        "Shape flow of attention, every matrix a rectangle with sides drawn "
        + {
            "linear": "to scale",
            "sqrt": "as the square roots of its sizes",
            "log": "on a logarithmic scale",
        }[scale]
        + ". "
    ]
    if "X" in s:
        n, d_model = s["X"]
        parts.append(f"X is {_fmt(s['X'])} ({n} tokens of width {d_model}); ")
    ws = [w for w in ("W_Q", "W_K", "W_V") if w in s]
    if ws:
        parts.append(", ".join(f"{w} is {_fmt(s[w])}" for w in ws) + "; ")
    parts.append(", ".join(f"{a} is {_fmt(s[a])}" for a in ("Q", "K", "V")))
    if h > 1:
        ph = s["per head"]
        parts.append(
            f"; split into {h} heads, each with Q {_fmt(ph['Q'])}, K {_fmt(ph['K'])} "
            f"and V {_fmt(ph['V'])}"
        )
    each = f"{h} heads of " if h > 1 else ""
    if "scores" in s:
        parts.append(f"; the scores are {each}{_fmt(s['scores'])}")
    parts.append(
        f"; the softmax weights are {each}{_fmt(s['weights'])}, each row summing to one"
    )
    if s["mask"] is not None:
        M = s["mask"]
        parts.append(f", with {int(M.sum())} of {M.size} entries blocked by the mask")
    if h > 1:
        parts.append(
            f"; the {h} head outputs of {_fmt(s['heads out'])} are concatenated into "
            f"{_fmt(s['concat'])}"
        )
        if "W_O" in s:
            parts.append(f", multiplied by W_O {_fmt(s['W_O'])}")
    parts.append(f"; the output is {_fmt(s['output'])}.")
    return "".join(parts)
