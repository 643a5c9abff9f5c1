"""Sliders that work live in a kernel and on the static site.

`slider(draw, alt, d=[4, 16, 64])` draws one figure per knob value.
`names={"d": ("model width", "dims")}` gives a knob a reader's name and unit; the
control then shows the name, the value with its unit, and the knob's range.

- With a kernel (JupyterLab, Binder, Colab) it is a live ipywidgets control
  that calls `draw` as the reader drags; `book/chart.js`, an anywidget, draws
  the figure's data (book.chartdata) with exact values on hover. Without
  anywidget installed, the control shows each state's image instead.
- When the book is built (``BOOK_WIDGETS=static``, set by the Makefile and by
  the test suite) every state is drawn once, ahead of time, and stored as chart
  data (JSON, every number rounded by book.fmt.sig) beside one image of the first
  state (first paint, print, no scripts). The site's `book/chart.js` draws each
  state as SVG as the knob moves: no kernel, no network, and nbval compares the
  JSON as text (only the image's base64 is sanitised, see
  ``tests/nbval-sanitize.cfg``).
"""

from __future__ import annotations

import html
import itertools
import json
import keyword
import math
import numbers
import os

from .fmt import counted
from .style import DENSITY, _check_alt, figure_html, render

__all__ = ["slider", "widget_mode", "MAX_FRAMES", "MAX_PAYLOAD"]

MAX_FRAMES = 120
#: Frames of one slider, in bytes of image data, before base64. A page must stay
#: under 2 MB.
MAX_PAYLOAD = 700_000
#: Chart data of all of one slider's states, in bytes gzipped (issue 28's budget is a
#: median of 8 KB and 300 KB for every slider together).
MAX_DATA = 48_000
#: Significant digits of a slider's chart data (book.fmt.sig), unless it says fewer.
DIGITS = 4
#: Device pixels per displayed pixel for slider frames. A slider carries every frame,
#: so it is drawn at 1.5x (sharp at a glance), not the 2x of a still figure; a slider
#: over MAX_PAYLOAD steps down through 1.25x to 1x.
SLIDER_DENSITY = 1.5
_STEPS_DOWN = (1.5, 1.25, 1.0)

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


def _validate_names(names, spec) -> dict:
    """{knob: (reader's name, unit)} for every knob, from `names`; a knob not named
    is called by its identifier, with no unit."""
    names = {} if names is None else names
    if not isinstance(names, dict):
        raise TypeError(
            f"slider: names must be a dict of knob -> name or "
            f"(name, unit), got {names!r}"
        )
    out = {k: (k, "") for k in spec}
    for knob, given in names.items():
        if knob not in spec:
            raise ValueError(
                f"slider: names gives a name to {knob!r}, which is not a "
                f"knob ({', '.join(spec)})"
            )
        pair = (given, "") if isinstance(given, str) else given
        if (
            not isinstance(pair, tuple)
            or len(pair) != 2
            or not all(isinstance(x, str) for x in pair)
        ):
            raise TypeError(
                f"slider: names[{knob!r}] must be a name or a (name, unit) pair of "
                f"strings, got {given!r}"
            )
        name, unit = (" ".join(x.split()) for x in pair)
        if not name:
            raise ValueError(f"slider: names[{knob!r}] is empty: {given!r}")
        if (
            any(x != " ".join(x.split()) for x in pair)
            or len(name) > 40
            or len(unit) > 20
        ):
            raise ValueError(
                f"slider: names[{knob!r}] must be one short line (name up to 40 "
                f"characters, unit up to 20), got {given!r}"
            )
        out[knob] = (name, unit)
    return out


def _with_unit(label: str, unit: str) -> str:
    return counted(label, unit)  # '8 layers', '1 layer'


def _range_text(values, unit: str) -> str:
    """What a knob spans, for its label: '0.001 to 1 s' for
    numbers, else its settings."""
    numeric = all(
        isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values
    )
    if numeric and len(values) > 1:
        lo, hi = min(values), max(values)
        return _with_unit(f"{_label(lo)} to {_label(hi)}", unit)
    labels = [_label(v) for v in values]
    text = ", ".join(labels)
    return text if len(text) <= 40 else f"{len(labels)} settings"


def _validate(draw, alt, knobs, start):
    if not callable(draw):
        raise TypeError(f"slider: draw must be callable, got {draw!r}")
    if not (callable(alt) or isinstance(alt, str)):
        raise TypeError(
            f"slider: alt must be a string or a function of the knobs, got {alt!r}"
        )
    if not knobs:
        raise ValueError(
            "slider: give at least one knob, e.g. slider(draw, alt, d=[4, 16, 64])"
        )
    spec = {}
    for name, values in knobs.items():
        if not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError(f"slider: knob name {name!r} is not an identifier")
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise TypeError(
                f"slider: knob {name!r} needs a list of values, got {values!r}"
            )
        values = list(values)
        if not values:
            raise ValueError(f"slider: knob {name!r} has no values")
        for v in values:
            if (
                isinstance(v, numbers.Real)
                and not isinstance(v, bool)
                and not math.isfinite(float(v))
            ):
                raise ValueError(f"slider: knob {name!r} has a non-finite value {v!r}")
        labels = [_label(v) for v in values]
        if len(set(labels)) != len(labels):
            raise ValueError(f"slider: knob {name!r} repeats a value: {labels}")
        spec[name] = values
    n = math.prod(len(v) for v in spec.values())
    if n > MAX_FRAMES:
        raise ValueError(
            f"slider: {n} frames is more than {MAX_FRAMES}; use fewer knob values"
        )
    start = dict(start or {})
    for name, v in start.items():
        if name not in spec:
            raise ValueError(f"slider: start names an unknown knob {name!r}")
        if v not in spec[name]:
            raise ValueError(
                f"slider: start value {v!r} is not among knob "
                f"{name!r}'s values {spec[name]}"
            )
    first = {k: start.get(k, vals[len(vals) // 2]) for k, vals in spec.items()}
    return spec, first


def _alt_for(alt, kw) -> str:
    text = alt(**kw) if callable(alt) else alt.format(**kw)
    return _check_alt("slider", text)


def _frame(draw, kw, density=DENSITY, *, pixels=True, digits=None):
    """One frame, drawn and checked like any figure (see `book.style.render`); with
    `digits`, also its chart data (`book.chartdata.chart`), as (rendered, data)."""
    fig = draw(**kw)
    if not hasattr(fig, "savefig"):
        raise TypeError(
            f"slider: draw({kw}) returned {type(fig).__name__}, not a matplotlib Figure"
        )
    import matplotlib.pyplot as plt

    try:
        rendered = render(fig, density=density, pixels=pixels)
        if digits is None:
            return rendered
        from .chartdata import chart

        return rendered, chart(fig, digits)
    finally:
        plt.close(fig)


def _densities(dpi):
    """Densities to try, best first, each once: the slider density (or what `dpi`
    asks for, at most a still figure's), then the steps down to 1x."""
    first = SLIDER_DENSITY if dpi is None else max(1.0, min(DENSITY, dpi / 100))
    return [first, *(d for d in _STEPS_DOWN if d < first)]


class _StaticSlider:
    """A slider as the site shows it. Its HTML holds every state's chart data as JSON,
    which nbval compares as text (tests/nbval-sanitize.cfg strips only the image)."""

    def __init__(self, html_text: str, alt: str, payload: str = ""):
        self.html_text, self.alt, self.payload = html_text, alt, payload

    def _repr_html_(self):
        return self.html_text

    def __repr__(self):
        return f"[slider: {self.alt}]"


#: Shown where the frames' script cannot run (JupyterLab strips scripts
# from untrusted outputs);
#: the script hides it on the site.
_NOTE = (
    "Static preview: the picture follows the slider once this cell runs in a kernel."
)


def _bench_log(alt0: str, frames: int, nbytes: int, seconds: float) -> None:
    """With the log on (book.log; make bench), note how long the frames took; never
    printed."""
    from .log import log

    log("slider", alt=alt0, frames=frames, bytes=nbytes, seconds=seconds)


def _control(sid, k, values, v0, named):
    """One knob's HTML: its name and range, the range input, and the value shown."""
    iid = f"{sid}-{k}"
    labels = [_label(v) for v in values]
    name, unit = named
    shown = _with_unit(labels[v0], unit)
    span = _range_text(values, unit)
    return (
        f'<span class="book-slider-knob"><label for="{iid}">{html.escape(name)}'
        f' <span class="book-slider-range">({html.escape(span)})</span></label> '
        f'<input type="range" id="{iid}" min="0" max="{len(values) - 1}" step="1" '
        f'value="{v0}" aria-valuetext="{html.escape(shown)}" '
        f'style="vertical-align:middle"> <output '
        f'for="{iid}">{html.escape(shown)}</output></span>'
    )


def _static(draw, alt, spec, first, dpi, names, digits=DIGITS):
    import gzip
    import time

    t0 = time.perf_counter()
    sid = f"book-slider-{next(_counter)}"
    knobs = list(spec)
    key0 = ",".join(str(spec[k].index(first[k])) for k in knobs)
    # Every state is carried as chart data (book/chartdata.py), which the page's
    # book/chart.js draws; only the first state is also an image (the first paint,
    # print, and a reader without scripts). Every state is laid out and checked.
    states = {}
    for idx in itertools.product(*(range(len(spec[k])) for k in knobs)):
        kw = {k: spec[k][i] for k, i in zip(knobs, idx)}
        key = ",".join(map(str, idx))
        if key == key0:
            continue
        _, data = _frame(draw, kw, pixels=False, digits=digits)
        states[key] = [data, _alt_for(alt, kw)]
    kw0 = {k: first[k] for k in knobs}
    for density in _densities(dpi):
        still, data = _frame(draw, kw0, density, digits=digits)
        if len(still.data) <= MAX_PAYLOAD:
            break
    else:
        raise ValueError(
            f"slider: its image exceeds {MAX_PAYLOAD} bytes even at density "
            f"{density:g}; draw less"
        )
    states[key0] = [data, _alt_for(alt, kw0)]
    states = {k: states[k] for k in sorted(states, key=_state_order)}
    labels = [[_with_unit(_label(v), names[k][1]) for v in spec[k]] for k in knobs]
    controls = [
        _control(sid, k, spec[k], spec[k].index(first[k]), names[k]) for k in knobs
    ]
    payload = json.dumps(
        {"labels": labels, "states": states}, separators=(",", ":"), ensure_ascii=False
    )
    packed = len(gzip.compress(payload.encode(), 9, mtime=0))
    if packed > MAX_DATA:
        raise ValueError(
            f"slider: its states' data is {packed} bytes gzipped, over {MAX_DATA}; use "
            "fewer knob values or fewer digits"
        )
    payload = payload.replace("</", "<\\/")  # no "</script>" inside the script
    alt0 = states[key0][1]
    text = (
        f'<div class="book-slider" id="{sid}">'
        f'<div class="book-slider-controls">{"".join(controls)}</div>'
        f'<img src="{still.uri}" width="{still.width}" height="{still.height}" '
        f'alt="{html.escape(alt0, quote=True)}" style="max-width:100%;height:auto">'
        f'<p class="book-slider-note" style="font-size:smaller;margin:0">{_NOTE}</p>'
        f'<script type="application/json">{payload}</script></div>'
    )
    _bench_log(alt0, len(states), len(still.data) + packed, time.perf_counter() - t0)
    return _StaticSlider(text, alt0, payload)


def _state_order(key: str):
    return tuple(int(i) for i in key.split(","))


def _chart_widget_class():
    """The anywidget that draws chart data with book/chart.js, or None where anywidget
    is not installed."""
    global _CHART_WIDGET
    if _CHART_WIDGET is not None:
        return _CHART_WIDGET or None
    try:
        import anywidget
        import traitlets
    except ImportError:
        _CHART_WIDGET = False
        return None
    from pathlib import Path

    class ChartWidget(anywidget.AnyWidget):
        """One chart (book.chartdata) drawn by book/chart.js; `chart` changes as a
        knob moves, and the module redraws."""

        _esm = (Path(__file__).with_name("chart.js")).read_text(encoding="utf-8")
        chart = traitlets.Dict().tag(sync=True)
        alt = traitlets.Unicode("").tag(sync=True)
        error = traitlets.Unicode("").tag(sync=True)

    _CHART_WIDGET = ChartWidget
    return ChartWidget


_CHART_WIDGET = None


def _live(draw, alt, spec, first, dpi, names, digits=DIGITS):
    """The controls and a widget that draws the current state: book/chart.js's
    anywidget where anywidget is installed, else an HTML widget holding its image.

    Each move redraws the frame and sets the widget's value. No Output widget: an
    nbclient-based runner (jupyter nbconvert --execute, papermill, the book's own path
    tests) mimics one by sending on the shell channel while it waits for the cell's
    reply there, and that reply can then wait out the whole cell timeout
    (jupyter/nbclient#312; measured here, a 30-cell notebook stalled in 2 of 5 runs)."""
    import ipywidgets as w

    def description(k):
        name, unit = names[k]
        return f"{name} ({_range_text(spec[k], unit)})"

    controls = {
        k: w.SelectionSlider(
            options=[(_with_unit(_label(v), names[k][1]), v) for v in vals],
            value=first[k],
            description=description(k),
            style={"description_width": "initial"},
            continuous_update=True,
        )
        for k, vals in spec.items()
    }

    chart_widget = _chart_widget_class()
    if chart_widget is not None:
        # anywidget: book/chart.js draws the state's data, the same module as the site
        def frame(kw):
            _, data = _frame(draw, kw, pixels=False, digits=digits)
            return {"chart": data, "alt": _alt_for(alt, kw)}

        picture = chart_widget(**frame(first))  # a bad first frame raises in the cell

        def show(kw):
            state = frame(kw)
            with picture.hold_sync():
                picture.alt, picture.chart, picture.error = (
                    state["alt"],
                    state["chart"],
                    "",
                )

        def fail(message):
            picture.error = message
    else:
        # no anywidget (a download with only numpy, matplotlib and ipywidgets): the
        # state's picture in an HTML widget
        def frame_html(kw):
            return figure_html(_frame(draw, kw, _densities(dpi)[0]), _alt_for(alt, kw))

        picture = w.HTML(frame_html(first))

        def show(kw):
            picture.value = frame_html(kw)

        def fail(message):
            picture.value = (
                f'<pre class="book-slider-error">{html.escape(message)}</pre>'
            )

    def redraw(_change):
        kw = {k: c.value for k, c in controls.items()}
        try:
            show(kw)
        except Exception as e:  # a widget callback's error reaches no cell: show it
            fail(f"{type(e).__name__}: {e}")

    for c in controls.values():
        c.observe(redraw, names="value")
    return w.VBox([w.HBox(list(controls.values())), picture])


def slider(
    draw,
    alt,
    *,
    start=None,
    dpi: int | None = None,
    names=None,
    digits: int = DIGITS,
    **knobs,
):
    """A slider over the knobs' values that redraws `draw(**knobs)`.

    `alt` is the alt text, a format string over the knobs (``"... at d={d}"``) or
    a function of them. `start` picks the first frame (default: the middle value).
    `names` gives knobs a reader's name, or a (name, unit) pair:
    ``names={"lr": "learning rate η", "t": ("time", "s")}``. Each knob's control shows
    its name (a knob not named: its identifier), its range ("0.001 to 1 s") and the
    value with its unit.
    `digits` is how many significant digits the chart data keeps (book.fmt.sig): the
    site draws each state from that data, and shows those digits on hover.
    """
    spec, first = _validate(draw, alt, knobs, start)
    named = _validate_names(names, spec)
    if dpi is not None and (
        isinstance(dpi, bool) or not isinstance(dpi, int) or not 30 <= dpi <= 150
    ):
        raise ValueError(f"slider: dpi must be an int in 30..150, got {dpi!r}")
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 6:
        raise ValueError(f"slider: digits must be an int in 1..6, got {digits!r}")
    if widget_mode() == "static":
        return _static(draw, alt, spec, first, dpi, named, digits)
    return _live(draw, alt, spec, first, dpi, named, digits)
