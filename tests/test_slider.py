"""book.slider: the static and the live slider, their knobs, names and refusals."""

from __future__ import annotations

import json
import re

import pytest

import book
from book import slider


def test_static_slider_html(draw, monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    s = slider(draw, "Line with slope {a} drawn on unit axes.", a=[1, 2, 3])
    html = s._repr_html_()
    assert '<input type="range"' in html and 'max="2"' in html and 'value="1"' in html
    payload = json.loads(
        re.search(r'<script type="application/json">(.*?)</script>', html).group(1)
    )
    assert payload["labels"] == [["1", "2", "3"]]
    assert list(payload["states"]) == ["0", "1", "2"]
    data, alt = payload["states"]["2"]
    assert alt == "Line with slope 3 drawn on unit axes."
    assert data["title"] == "Slope 3" and data["axes"][0]["marks"][0]["k"] == "line"
    # one image, of the first state, for the first paint, print and no scripts
    assert html.count("data:image/webp;base64,") == 1
    assert "<script>" not in html  # the page's book/chart.js draws; no inline script
    assert 'width="720" height="380"' in html
    assert 'alt="Line with slope 2 drawn on unit axes."' in html


def test_static_slider_two_knobs_and_start(draw, monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    s = slider(
        lambda a, b: draw(a * b),
        lambda a, b: f"Product of {a} and {b}, drawn as a line.",
        a=[1, 2],
        b=[0.5, 1.0, 2.0],
        start={"a": 2, "b": 0.5},
    )
    payload = json.loads(
        re.search(
            r'<script type="application/json">(.*?)</script>', s._repr_html_()
        ).group(1)
    )
    assert len(payload["states"]) == 6 and "1,0" in payload["states"]
    assert payload["states"]["1,0"][1] == "Product of 2 and 0.5, drawn as a line."


def test_static_slider_data_is_rounded_and_within_budget(make_fig, monkeypatch):
    """Every number in the stored data has at most `digits` significant digits."""
    import numpy as np

    monkeypatch.setenv("BOOK_WIDGETS", "static")

    def draw(a):
        fig = make_fig(title=f"Root of {a}")
        fig.axes[0].plot([0, 1, 2], [0, np.sqrt(a), 2 * np.sqrt(a)], label="root")
        return fig

    s = slider(draw, "A line rising by the root of {a}.", a=[2, 3], digits=3)
    payload = json.loads(
        re.search(
            r'<script type="application/json">(.*?)</script>', s._repr_html_()
        ).group(1)
    )
    line = payload["states"]["0"][0]["axes"][0]["marks"][-1]
    assert line["y"] == [0, 1.41, 2.83] and line["label"] == "root"
    with pytest.raises(ValueError, match="digits"):
        slider(draw, "A line rising by the root of {a}.", a=[2, 3], digits=0)


def test_static_slider_data_budget(draw, monkeypatch):
    monkeypatch.setattr(book.slider_module, "MAX_DATA", 10)
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    with pytest.raises(ValueError, match="gzipped, over 10"):
        slider(draw, "Line with slope {a} drawn on unit axes.", a=[1, 2, 3])


def _live(draw, alt, spec, first, dpi, names=None):
    """book.slider's live widget, its knobs named as slider() names them."""
    m = book.slider_module
    return m._live(draw, alt, spec, first, dpi, m._validate_names(names, spec))


def test_slider_live_mode_builds_widgets(draw, monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "live")
    monkeypatch.setattr(book.slider_module, "widget_mode", lambda: "live")
    w = _live(draw, "Line with slope {a} drawn.", {"a": [1, 2]}, {"a": 1}, 72)
    assert type(w).__name__ == "VBox"


def _widgets(w):
    yield w
    for child in getattr(w, "children", ()):
        yield from _widgets(child)


@pytest.fixture
def no_anywidget(monkeypatch):
    """A reader's environment without anywidget: the live slider shows images."""
    monkeypatch.setattr(book.slider_module, "_CHART_WIDGET", False)


def test_live_slider_redraws_chart_data_with_anywidget(draw):
    """With anywidget, the picture is book/chart.js's widget and a knob sends the
    state's chart data; no Output widget anywhere."""
    pytest.importorskip("anywidget")
    import ipywidgets

    w = _live(draw, "Line with slope {a} drawn.", {"a": [1, 2]}, {"a": 1}, 72)
    assert not any(isinstance(x, ipywidgets.Output) for x in _widgets(w))
    knob, picture = w.children[0].children[0], w.children[1]
    assert type(picture).__name__ == "ChartWidget"
    assert "export function render" in picture._esm
    assert picture.alt == "Line with slope 1 drawn." and picture.chart["title"] == (
        "Slope 1"
    )
    knob.value = 2
    assert picture.alt == "Line with slope 2 drawn." and picture.chart["title"] == (
        "Slope 2"
    )


def test_live_slider_redraws_without_an_output_widget(draw, no_anywidget):
    """Moving the knob sets the picture's HTML; no Output widget anywhere, because
    nbclient-based runners stall on one (jupyter/nbclient#312)."""
    import ipywidgets

    w = _live(draw, "Line with slope {a} drawn.", {"a": [1, 2]}, {"a": 1}, 72)
    assert not any(isinstance(x, ipywidgets.Output) for x in _widgets(w))
    knob, picture = w.children[0].children[0], w.children[1]
    assert 'alt="Line with slope 1 drawn."' in picture.value
    knob.value = 2
    assert 'alt="Line with slope 2 drawn."' in picture.value


@pytest.mark.parametrize("anywidget", [True, False], ids=["chart", "image"])
def test_live_slider_shows_a_redraw_error(draw, monkeypatch, anywidget):
    """A draw that fails on one knob value names the error where the picture is: the
    chart widget's error (anywidget) or the picture's HTML (without it)."""
    if anywidget:
        pytest.importorskip("anywidget")
    else:
        monkeypatch.setattr(book.slider_module, "_CHART_WIDGET", False)

    def failing(a):
        if a == 2:
            raise ValueError(f"a must not be 2, got {a!r}")
        return draw(a)

    w = _live(failing, "Line with slope {a} drawn.", {"a": [1, 2]}, {"a": 1}, 72)
    w.children[0].children[0].value = 2
    picture = w.children[1]
    shown = picture.error if anywidget else picture.value
    assert "ValueError: a must not be 2, got 2" in shown


def test_widget_mode_rejects_unknown(monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "sometimes")
    with pytest.raises(ValueError, match="'sometimes'"):
        book.widget_mode()


@pytest.mark.parametrize(
    "knobs, start, msg",
    [
        ({}, None, "at least one knob"),
        ({"a": []}, None, "'a' has no values"),
        ({"a": "abc"}, None, "list of values"),
        ({"a": [1, 1]}, None, "repeats"),
        ({"a": [1.0, float("nan")]}, None, "nan"),
        ({"a": list(range(200))}, None, "200 frames"),
        ({"a": [1, 2]}, {"b": 1}, "'b'"),
        ({"a": [1, 2]}, {"a": 5}, "5"),
    ],
)
def test_slider_rejects_bad_knobs(draw, monkeypatch, knobs, start, msg):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    with pytest.raises((ValueError, TypeError), match=msg):
        slider(draw, "Line with slope {a} drawn.", start=start, **knobs)


def test_slider_rejects_bad_draw_and_alt(make_fig, draw, monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    with pytest.raises(TypeError, match="callable"):
        slider(42, "alt text long enough here", a=[1])
    with pytest.raises(TypeError, match="not a matplotlib Figure"):
        slider(lambda a: "nope", "alt text long enough here", a=[1])
    with pytest.raises(ValueError, match="alt"):
        slider(draw, "short", a=[1])
    with pytest.raises(ValueError, match="dpi"):
        slider(draw, "alt text long enough here", dpi=1000, a=[1])
    with pytest.raises(ValueError, match="runs off the canvas"):
        slider(
            lambda a: make_fig(title="T " + "wide" * 80 + f" {a}"),
            "alt text long enough here",
            a=[1],
        )


def test_slider_names_label_the_knobs(draw, monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    s = slider(
        draw,
        "Line with slope {a} drawn on unit axes.",
        a=[0.5, 1, 2],
        names={"a": ("slope", "per step")},
    )
    html = s._repr_html_()
    assert (
        '<label for="book-slider-' in html
        and '>slope <span class="book-slider-range">' in html
    )
    assert "(0.5 to 2 per step)" in html
    assert 'aria-valuetext="1 per step"' in html and ">1 per step</output>" in html
    payload = json.loads(
        re.search(r'<script type="application/json">(.*?)</script>', html).group(1)
    )
    assert payload["labels"] == [["0.5 per step", "1 per step", "2 per step"]]


def test_slider_name_without_unit_and_unnamed_knobs(draw, monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    html = slider(
        lambda a, b: draw(a * b),
        "Product of {a} and {b} drawn.",
        a=[1, 2],
        b=[3, 4],
        names={"a": "learning rate η"},
    )._repr_html_()
    assert 'learning rate η <span class="book-slider-range">(1 to 2)</span>' in html
    # an unnamed knob is called by its identifier, and shows its range too
    assert 'b <span class="book-slider-range">(3 to 4)</span>' in html


def test_slider_without_names_shows_each_knob_by_its_identifier(draw, monkeypatch):
    """With no names=, a knob's control is the same markup as a named one's: its
    identifier for the name, its range, the value."""
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    html = slider(
        draw, "Line with slope {a} drawn on unit axes.", a=[1, 2, 3]
    )._repr_html_()
    assert re.search(
        r'<div class="book-slider-controls"><span class="book-slider-knob">'
        r'<label for="book-slider-\d+-a">a <span class="book-slider-range">\(1 to 3\)'
        r'</span></label> <input type="range" id="book-slider-\d+-a" min="0" max="2" '
        r'step="1" value="1" aria-valuetext="2" style="vertical-align:middle"> '
        r'<output for="book-slider-\d+-a">2</output></span></div>',
        html,
    )


def test_slider_names_range_of_categories(draw, monkeypatch):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    html = slider(
        lambda mode: draw(1),
        "Wiring {mode} drawn here.",
        mode=["post", "pre", "none"],
        names={"mode": "wiring"},
    )._repr_html_()
    assert "(post, pre, none)" in html


@pytest.mark.parametrize(
    "names, msg",
    [
        (["a"], r"names must be a dict.*\['a'\]"),
        ({"b": "slope"}, r"'b', which is not a knob"),
        ({"a": 3}, r"names\['a'\].*got 3"),
        ({"a": ("slope",)}, r"names\['a'\].*\('slope',\)"),
        ({"a": ("slope", 2)}, r"names\['a'\].*\('slope', 2\)"),
        ({"a": "   "}, r"names\['a'\] is empty: '   '"),
        ({"a": "two\nlines"}, r"one short line.*'two\\nlines'"),
        ({"a": "x" * 41}, r"one short line.*'x{41}'"),
    ],
)
def test_slider_rejects_bad_names(draw, monkeypatch, names, msg):
    monkeypatch.setenv("BOOK_WIDGETS", "static")
    with pytest.raises((ValueError, TypeError), match=msg):
        slider(draw, "Line with slope {a} drawn.", names=names, a=[1, 2])


def test_slider_live_mode_uses_the_names(draw, monkeypatch):
    w = _live(
        draw,
        "Line with slope {a} drawn.",
        {"a": [1, 2]},
        {"a": 1},
        72,
        {"a": ("slope", "per step")},
    )
    knob = w.children[0].children[0]
    assert knob.description == "slope (1 to 2 per step)"
    assert [label for label, _ in knob.options] == ["1 per step", "2 per step"]
    plain = _live(draw, "Line with slope {a} drawn.", {"a": [1, 2]}, {"a": 1}, 72)
    assert plain.children[0].children[0].description == "a (1 to 2)"


@pytest.mark.parametrize(
    "label, unit, shown",
    [
        ("1", "tokens", "1 token"),
        ("2", "tokens", "2 tokens"),
        ("1", "dims", "1 dim"),
        ("1", "ms", "1 ms"),
        ("1", "s", "1 s"),
        ("1", "class", "1 class"),
        ("1", "per step", "1 per step"),
        ("0.5", "layers", "0.5 layers"),
    ],
)
def test_a_value_of_one_takes_its_unit_in_the_singular(label, unit, shown):
    assert book.slider_module._with_unit(label, unit) == shown
