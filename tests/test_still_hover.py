"""A still figure's hover data (book/style.py `_hover`, book/chartdata.py `still`): what
`show` attaches beside the image when the book is built, and what it leaves out."""

from __future__ import annotations

import configparser
import html
import json
import re
from pathlib import Path

import numpy as np
import pytest

import book.style
from book import heatmap, new_figure

_STORE = re.compile(
    r'<script type="application/json" class="book-chart-data" '
    r'data-boxes="([^"]*)">(.*?)</script>'
)


def _attached(shown_obj):
    """(data, boxes) that a shown figure's HTML carries, or None."""
    text = shown_obj._repr_html_()
    assert text.startswith('<img class="book-figure" src="data:image/webp;base64,')
    m = _STORE.search(text)
    if m is None:
        assert "book-chart-data" not in text
        return None
    return json.loads(m.group(2)), json.loads(html.unescape(m.group(1)))


def _bars():
    fig, ax = new_figure("Bars rise from a to c")
    ax.bar(["a", "b", "c"], [1.0, 2.0 / 3, 3.5], label="height")
    ax.set_xlabel("letter")
    ax.set_ylabel("height (m)")
    return fig


def test_a_bar_chart_carries_its_bars_rounded_and_its_panel_box(shown):
    data, boxes = _attached(shown(_bars()))
    (panel,) = data["axes"]
    assert [m["k"] for m in panel["marks"]] == ["bar"] * 3
    assert [m["h"] for m in panel["marks"]] == [1.0, 0.6667, 3.5]  # book.fmt.sig, 4
    assert panel["xticks"] == [[0, "a"], [1.0, "b"], [2.0, "c"]]
    assert panel["xlabel"] == "letter" and panel["ylabel"] == "height (m)"
    assert {m["label"] for m in panel["marks"]} == {"height"}
    assert data["w"] == 720 and data["h"] == 380
    # drawing-only fields are not carried: the picture is matplotlib's
    assert "title" not in data and "key" not in data and "grid" not in panel
    ((left, top, right, bottom),) = boxes
    assert 0 < left < right < 1 and 0 < top < bottom < 1
    assert right - left > 0.7  # one panel spans most of the figure's width


def test_the_box_is_the_panel_as_drawn(shown):
    """The stored box is the axes' place in the rendered image (after the layout)."""
    fig = _bars()
    ax = fig.axes[0]
    out = shown(fig)
    _, (box,) = _attached(out)
    b = ax.get_position()
    assert box == [round(v, 4) for v in (b.x0, 1 - b.y1, b.x1, 1 - b.y0)]


def test_a_heatmap_carries_its_cells_and_the_colour_bar_names_them(shown):
    fig, ax = new_figure("Weights of a small matrix")
    M = np.arange(6).reshape(2, 3) / 7
    im = heatmap(ax, M, ["r0", "r1"], ["c0", "c1", "c2"])
    ax.set_xlabel("key")
    ax.set_ylabel("query")
    fig.colorbar(im, ax=ax, label="weight")
    data, boxes = _attached(shown(fig))
    (panel,) = data["axes"]
    (cells,) = panel["marks"]  # the annotations are in the picture, not the data
    assert cells["k"] == "cells" and (cells["rows"], cells["cols"]) == (2, 3)
    assert cells["v"] == [0, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143]
    assert "c" not in cells  # the colours are the image's
    assert data["bars"] == [{"label": "weight"}]
    assert len(boxes) == 1  # the colour bar is not a panel


def test_a_line_chart_carries_its_points_and_thins_a_long_line(shown):
    fig, ax = new_figure("A long line and a short one")
    x = np.arange(5000)
    ax.plot(x, np.sin(x / 300), label="long")
    ax.plot([0, 2500, 4999], [0, 1, 0], "o-", label="short")
    ax.set_xlabel("step")
    ax.set_ylabel("value")
    data, _ = _attached(shown(fig))
    long, short = data["axes"][0]["marks"]
    assert long["n"] == 5000 and len(long["x"]) <= 402  # chartdata's thinning
    assert short["x"] == [0, 2500, 4999] and short["label"] == "short"
    assert set(short) == {"k", "x", "y", "label"}  # no colour, width or marker


def test_an_unsupported_figure_gets_no_hover_and_says_why_in_the_log(
    shown, tmp_path, monkeypatch
):
    log = tmp_path / "log.jsonl"
    monkeypatch.setenv("BOOK_LOG", str(log))
    fig, ax = new_figure("A panel placed by hand")
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    extra = fig.add_axes([0.6, 0.6, 0.2, 0.2])  # no grid cell: chart() cannot read it
    extra.plot([0, 1], [1, 0])
    extra.set_xlabel("x")
    extra.set_ylabel("y")
    out = shown(fig)
    assert _attached(out) is None
    assert repr(out).startswith("[figure: ")  # the figure itself is shown as ever
    (event,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert event["event"] == "hover" and event["hover"] is False
    assert "add_axes" in event["reason"]


def test_a_figure_with_nothing_to_ask_gets_no_hover(shown):
    fig, ax = new_figure("Only a shaded span and a note")
    ax.axvspan(0.2, 0.4, alpha=0.3)
    ax.set_xlim(0, 1)
    ax.text(0.5, 0.5, "a note")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    assert _attached(shown(fig)) is None


def test_a_live_kernel_gets_the_image_alone(shown, monkeypatch):
    import sys

    monkeypatch.setattr(sys.modules["book.slider"], "widget_mode", lambda: "live")
    assert _attached(shown(_bars())) is None


def test_a_heatmap_over_the_byte_budget_gets_no_hover(shown, monkeypatch):
    monkeypatch.setattr(book.style, "MAX_HOVER", 50)
    assert _attached(shown(_bars())) is None


def test_the_data_is_the_same_without_pixels(shown, monkeypatch):
    """nbval's kernels lay figures out without drawing pixels
    (book.style.DRAW_PIXELS): the data they store is the data the site's build stores."""
    with_pixels = _attached(shown(_bars()))
    monkeypatch.setattr(book.style, "DRAW_PIXELS", False)
    assert _attached(shown(_bars())) == with_pixels


def test_nbval_compares_the_values_but_not_the_boxes():
    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).with_name("nbval-sanitize.cfg"))
    subs = [
        (re.compile(s["regex"]), s["replace"]) for s in cfg.values() if "regex" in s
    ]

    def sanitise(text):
        for rx, rep in subs:
            text = rx.sub(rep, text)
        return text

    def html_of(box, value):
        return (
            '<img class="book-figure" src="data:image/webp;base64,AAAA">'
            f'<script type="application/json" class="book-chart-data" '
            f'data-boxes="[[{box},0.1,0.9,0.9]]">{{"v":[{value}]}}</script>'
        )

    assert sanitise(html_of(0.1, 1.5)) == sanitise(html_of(0.1003, 1.5))
    assert sanitise(html_of(0.1, 1.5)) != sanitise(html_of(0.1, 1.6))


@pytest.mark.parametrize("text", ["</script>", "a</b"])
def test_a_label_cannot_close_the_script(shown, text):
    fig = _bars()
    fig.axes[0].set_xlabel(f"letter {text}")
    raw = shown(fig)._repr_html_()
    body = raw.split('class="book-chart-data"', 1)[1]
    assert body.count("</") == 1  # only the script's own end tag
