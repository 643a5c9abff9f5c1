"""Sliders that work live in a kernel and on the static site.

`slider(draw, alt, d=[4, 16, 64])` draws one figure per knob value.

- With a kernel (JupyterLab, Binder, Colab) it is a live ipywidgets control
  that calls `draw` as the reader drags.
- When the book is built (``BOOK_WIDGETS=static``, set by the Makefile and by
  the test suite) every frame is drawn once, ahead of time, and the output is a
  small HTML range input that swaps precomputed PNG frames: it needs no kernel
  and no network, and nbval sees the same output every run (the base64 frames
  are sanitised, see ``tests/nbval-sanitize.cfg``).
"""
from __future__ import annotations

import html
import itertools
import json
import keyword
import math
import numbers
import os

from .style import _check_alt, figure_png

__all__ = ["slider", "widget_mode", "MAX_FRAMES", "MAX_PAYLOAD"]

MAX_FRAMES = 120
#: Frames of one slider, in bytes of PNG, before base64. A page must stay under 2 MB.
MAX_PAYLOAD = 700_000

_counter = itertools.count(1)


def widget_mode() -> str:
    """'static' when the book is being built or tested, else 'live'."""
    mode = os.environ.get("BOOK_WIDGETS", "live")
    if mode not in ("live", "static"):
        raise ValueError(f"BOOK_WIDGETS must be 'live' or 'static', got {mode!r}")
    if mode == "live":
        try:
            import ipywidgets  # noqa: F401
            from IPython import get_ipython

            if get_ipython() is None or not hasattr(get_ipython(), "kernel"):
                return "static"
        except ImportError:
            return "static"
    return mode


def _label(v) -> str:
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        return str(v)
    if isinstance(v, numbers.Integral):
        return str(int(v))
    return f"{float(v):g}"


def _validate(draw, alt, knobs, start):
    if not callable(draw):
        raise TypeError(f"slider: draw must be callable, got {draw!r}")
    if not (callable(alt) or isinstance(alt, str)):
        raise TypeError(f"slider: alt must be a string or a function of the knobs, got {alt!r}")
    if not knobs:
        raise ValueError("slider: give at least one knob, e.g. slider(draw, alt, d=[4, 16, 64])")
    spec = {}
    for name, values in knobs.items():
        if not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError(f"slider: knob name {name!r} is not an identifier")
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise TypeError(f"slider: knob {name!r} needs a list of values, got {values!r}")
        values = list(values)
        if not values:
            raise ValueError(f"slider: knob {name!r} has no values")
        for v in values:
            if isinstance(v, numbers.Real) and not isinstance(v, bool) and not math.isfinite(float(v)):
                raise ValueError(f"slider: knob {name!r} has a non-finite value {v!r}")
        labels = [_label(v) for v in values]
        if len(set(labels)) != len(labels):
            raise ValueError(f"slider: knob {name!r} repeats a value: {labels}")
        spec[name] = values
    n = math.prod(len(v) for v in spec.values())
    if n > MAX_FRAMES:
        raise ValueError(f"slider: {n} frames is more than {MAX_FRAMES}; use fewer knob values")
    start = dict(start or {})
    for name, v in start.items():
        if name not in spec:
            raise ValueError(f"slider: start names an unknown knob {name!r}")
        if v not in spec[name]:
            raise ValueError(f"slider: start value {v!r} is not among knob {name!r}'s values {spec[name]}")
    first = {k: start.get(k, vals[len(vals) // 2]) for k, vals in spec.items()}
    return spec, first


def _alt_for(alt, kw) -> str:
    text = alt(**kw) if callable(alt) else alt.format(**kw)
    return _check_alt("slider", text)


def _frame(draw, kw, dpi):
    fig = draw(**kw)
    if not hasattr(fig, "savefig"):
        raise TypeError(f"slider: draw({kw}) returned {type(fig).__name__}, not a matplotlib Figure")
    import matplotlib.pyplot as plt

    try:
        return figure_png(fig, dpi=dpi, colors=64)
    finally:
        plt.close(fig)


class _StaticSlider:
    def __init__(self, html_text: str, alt: str):
        self.html_text, self.alt = html_text, alt

    def _repr_html_(self):
        return self.html_text

    def __repr__(self):
        return f"[slider: {self.alt}]"


_JS = """(function(){var r=document.getElementById(%(id)s);if(!r)return;
var n=r.querySelector('.book-slider-note');if(n)n.hidden=true;
var f=JSON.parse(r.querySelector('script[type="application/json"]').textContent);
var ins=r.querySelectorAll('input[type=range]'),img=r.querySelector('img');
function upd(){var k=[],i;for(i=0;i<ins.length;i++){var n=+ins[i].value;k.push(n);
var lab=f.labels[i][n];ins[i].setAttribute('aria-valuetext',lab);
r.querySelector('output[for="'+ins[i].id+'"]').textContent=lab;}
var fr=f.frames[k.join(',')];img.src=fr[0];img.alt=fr[1];}
for(var i=0;i<ins.length;i++){ins[i].addEventListener('input',upd);}})();"""


#: Shown where the frames' script cannot run (JupyterLab strips scripts from untrusted outputs);
#: the script hides it on the site.
_NOTE = "Static preview: the picture follows the slider once this cell runs in a kernel."


def _bench_log(alt0: str, frames: int, nbytes: int, seconds: float) -> None:
    """With BOOK_BENCH_LOG set (make bench), note how long the frames took; never printed."""
    path = os.environ.get("BOOK_BENCH_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"alt": alt0, "frames": frames, "bytes": nbytes, "seconds": seconds}) + "\n")


def _static(draw, alt, spec, first, dpi):
    import time

    t0 = time.perf_counter()
    sid = f"book-slider-{next(_counter)}"
    names = list(spec)
    frames, total = {}, 0
    for idx in itertools.product(*(range(len(spec[k])) for k in names)):
        kw = {k: spec[k][i] for k, i in zip(names, idx)}
        png = _frame(draw, kw, dpi)
        total += len(png)
        if total > MAX_PAYLOAD:
            raise ValueError(f"slider: frames exceed {MAX_PAYLOAD} bytes; lower dpi or use fewer values")
        import base64

        frames[",".join(map(str, idx))] = ["data:image/png;base64," + base64.b64encode(png).decode(),
                                           _alt_for(alt, kw)]
    labels = [[_label(v) for v in spec[k]] for k in names]
    key0 = ",".join(str(spec[k].index(first[k])) for k in names)
    controls = []
    for i, k in enumerate(names):
        iid = f"{sid}-{k}"
        v0 = spec[k].index(first[k])
        controls.append(
            f'<label for="{iid}" style="margin-right:1.2em">{html.escape(k)} '
            f'<input type="range" id="{iid}" min="0" max="{len(spec[k]) - 1}" step="1" value="{v0}" '
            f'aria-valuetext="{html.escape(labels[i][v0])}" style="vertical-align:middle"> '
            f'<output for="{iid}">{html.escape(labels[i][v0])}</output></label>')
    payload = json.dumps({"labels": labels, "frames": frames}, separators=(",", ":"))
    src, alt0 = frames[key0]
    text = (f'<div class="book-slider" id="{sid}">'
            f'<div class="book-slider-controls">{"".join(controls)}</div>'
            f'<img src="{src}" alt="{html.escape(alt0, quote=True)}" style="max-width:100%;height:auto">'
            f'<p class="book-slider-note" style="font-size:smaller;margin:0">{_NOTE}</p>'
            f'<script type="application/json">{payload}</script>'
            f'<script>{_JS % {"id": json.dumps(sid)}}</script></div>')
    _bench_log(alt0, len(frames), total, time.perf_counter() - t0)
    return _StaticSlider(text, alt0)


def _live(draw, alt, spec, first, dpi):
    import ipywidgets as w
    from IPython.display import display

    from .style import _Figure

    controls = {k: w.SelectionSlider(options=[(_label(v), v) for v in vals], value=first[k],
                                     description=k, continuous_update=True)
                for k, vals in spec.items()}

    def render(**kw):
        display(_Figure(_frame(draw, kw, dpi), _alt_for(alt, kw)))

    out = w.interactive_output(render, controls)
    return w.VBox([w.HBox(list(controls.values())), out])


def slider(draw, alt, *, start=None, dpi: int = 72, **knobs):
    """A slider over the knobs' values that redraws `draw(**knobs)`.

    `alt` is the alt text, a format string over the knobs (``"... at d={d}"``) or
    a function of them. `start` picks the first frame (default: the middle value).
    """
    spec, first = _validate(draw, alt, knobs, start)
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 30 <= dpi <= 150:
        raise ValueError(f"slider: dpi must be an int in 30..150, got {dpi!r}")
    if widget_mode() == "static":
        return _static(draw, alt, spec, first, dpi)
    return _live(draw, alt, spec, first, dpi)
