"""The site's charts answer back (issue 28): every slider drawn from its stored data,
the still figures' invisible targets over their marks, and the values that hover, focus
and a tap show. Its own file so that pytest-xdist (make test: two workers, a file each)
can run it beside tests/test_site.py rather than after it."""

from __future__ import annotations

import json
import re

import pytest
from test_site import ATTENTION, SITE, _pages, open_offline

pytestmark = pytest.mark.skipif(
    not (SITE / "index.html").exists(), reason=f"no built site at {SITE}; run make test"
)


# Sliders drawn from data (issue 28) ---------------------------------------------------
# Focus a chart's SVG and step through three of its marks with the arrow key, in one
# call: per step, the focused mark's key and name, the tooltip's and the live region's text.
_KEYBOARD_STEPS = """(chart, sel) => {
    const svg = chart.querySelector(sel), seen = [];
    svg.focus();
    for (let step = 0; step < 3; step++) {
        if (step) svg.dispatchEvent(new KeyboardEvent('keydown',
            {key: 'ArrowRight', bubbles: true, cancelable: true}));
        const a = document.activeElement;
        seen.push([a.dataset.t, a.getAttribute('aria-label'),
            chart.querySelector('.book-chart-tip').innerText,
            chart.querySelector('.book-chart-live').innerText]);
    }
    return seen;
}"""


# One state of a slider, read in one call (a call to the browser costs more than what it
# reads): the knob `r` set to `v`, then what is drawn, the colour keys' widths, three
# steps of the keyboard (_KEYBOARD_STEPS) and the centre of the largest bar or cell.
_STATE = (
    """(s, [r, v]) => {
    const knob = s.querySelectorAll('input[type=range]')[r];
    knob.value = v; knob.dispatchEvent(new Event('input'));
    s.scrollIntoView({block: 'center'});
    const svg = s.querySelector('svg.book-chart-svg');
    const panels = [...svg.querySelectorAll('g.bk-panel')].map(g => ({
        marks: [...g.querySelectorAll('[data-mark]')].map(e => [e.classList[0],
                                                                +e.dataset.mark]),
        bars: [...g.querySelectorAll('rect.bk-bar')].map(e => [+e.dataset.mark,
            +e.getAttribute('height'), +e.getAttribute('width')]),
        cells: [...g.querySelectorAll('g.bk-cells rect')].length,
    }));
    const widths = [...s.querySelectorAll('.book-chart-grad')]
        .map(g => g.getBoundingClientRect().width);
    const drawn = {state: s.dataset.state, alt: svg.getAttribute('aria-label'), panels,
                   targets: svg.querySelectorAll('.bk-t').length, widths};
    drawn.keys = ("""
    + _KEYBOARD_STEPS
    + """)(s, 'svg.book-chart-svg');
    // the pointer's spot: the largest bar or cell, if nothing lies over its centre
    const rs = [...s.querySelectorAll('rect.bk-t')].map(e => [e,
        e.getBoundingClientRect()]).filter(([, b]) => b.width > 2 && b.height > 2);
    rs.sort((a, b) => b[1].width * b[1].height - a[1].width * a[1].height);
    drawn.spot = null;
    if (rs.length) {
        const [, b] = rs[0], x = b.x + b.width / 2, y = b.y + b.height / 2;
        const top = document.elementFromPoint(x, y);  // a line's point may lie on it
        if (top && top.classList.contains('bk-t'))
            drawn.spot = [x, y, top.getAttribute('aria-label')];
    }
    return drawn;
}"""
)
# The tooltip as a reader sees it: shown (a box, not hidden) and its text.
_TIP = """(s) => { const t = s.querySelector('.book-chart-tip'), b = t.getBoundingClientRect();
    return [b.width > 0 && b.height > 0 && getComputedStyle(t).visibility !== 'hidden',
            t.innerText]; }"""

_KIND = {"line": "bk-line", "bar": "bk-bar", "cells": "bk-cells", "area": "bk-area"}


def _value_text(v) -> str:
    """A JSON number as book.fmt.sig wrote it (and chart.js's fmt shows it)."""
    if v is None:
        return "none"
    t = repr(float(v))
    return t[:-2] if t.endswith(".0") else t


def _expected_text(mark, i) -> str:
    """What a hover names for target `i` of a mark: its value, or the bound of a value
    the data drew at 0 as possible float noise (book.chartdata NOISE)."""
    tiny = mark.get("tiny")
    if tiny == 1 or (isinstance(tiny, list) and i in tiny):
        return f"< {_value_text(mark['lt'])}"
    return _value_text(_expected_value(mark, i))


def _expected_value(mark, i):
    if mark["k"] == "bar":
        return mark["w"] if mark.get("o") == "h" else mark["h"]
    if mark["k"] == "cells":
        return mark["v"][i]
    return mark["y"][i]


def _check_state(page, slider, drawn, data, alt, where):
    """The drawn marks match the data (count, order, extent), and hover and keyboard
    focus show each mark's exact value and name (`drawn`: what _STATE read)."""
    assert drawn["alt"] == alt, where
    # a colour bar's key shows its gradient (a page rule once squeezed it to 0 px)
    widths = drawn["widths"]
    assert len(widths) == len(data.get("bars", [])), (where, widths)
    assert all(w >= 40 for w in widths), (where, widths)
    assert len(drawn["panels"]) == len(data["axes"]), where
    n_targets = 0
    for p, (panel, got) in enumerate(zip(data["axes"], drawn["panels"])):
        want = [
            (_KIND[m["k"]], i) for i, m in enumerate(panel["marks"]) if m["k"] in _KIND
        ]
        assert [(c, i) for c, i in got["marks"]] == want, (where, p)
        cells = sum(m["rows"] * m["cols"] for m in panel["marks"] if m["k"] == "cells")
        assert got["cells"] == cells, (where, p)
        # bars: drawn heights in proportion to the data, on a linear value axis
        bars = [(panel["marks"][i], h, w) for i, h, w in got["bars"]]
        vertical = [(m["h"], h) for m, h, _ in bars if m.get("o") != "h" and m["h"]]
        if vertical and panel.get("yscale") != "log":
            tall = max(vertical, key=lambda vh: abs(vh[0]))
            k = tall[1] / abs(tall[0])
            for v, h in vertical:
                assert abs(h - abs(v) * k) <= 1.5 + 0.02 * h, (where, p, v, h)
        # horizontal bars: drawn lengths in proportion to the data, on a linear x axis
        across = [(m["w"], w) for m, _, w in bars if m.get("o") == "h" and m["w"]]
        if across and panel.get("xscale") != "log":
            long = max(across, key=lambda vw: abs(vw[0]))
            k = long[1] / abs(long[0])
            for v, w in across:
                assert abs(w - abs(v) * k) <= 1.5 + 0.02 * w, (where, p, v, w)
        for m in panel["marks"]:
            if m["k"] == "bar":
                n_targets += 1
            elif m["k"] == "cells":
                n_targets += sum(v is not None for v in m["v"])
            elif m["k"] in ("line", "points") and not m.get("nh"):
                n_targets += sum(
                    x is not None and y is not None for x, y in zip(m["x"], m["y"])
                )
    assert drawn["targets"] <= n_targets, where
    assert drawn["targets"] > 0, f"{where}: nothing to hover"
    # keyboard: focus the chart, step through a few marks; hover: the first bar or cell
    _check_keyboard_tips(drawn["keys"], data, where)
    # the pointer on the largest bar or cell: its own name and value
    spot = drawn["spot"]
    if spot:
        page.mouse.move(spot[0], spot[1])
        assert slider.evaluate(_TIP) == [True, spot[2]], (where, spot)


def test_every_slider_is_drawn_from_its_data_and_answers_hover(browser, server):
    """For every slider on the site: each knob moved to each end, the chart drawn from
    that state's stored data (marks in count, order and extent), and the tooltip of a
    focused or hovered mark shows the value the data holds."""
    pages = [p for p in _pages() if 'class="book-slider"' in (SITE / p).read_text()]
    assert pages, "no slider on the site"
    seen = 0
    for path in pages:
        page, outside, errors = open_offline(browser, server, path, wait="load")
        page.wait_for_function(
            "[...document.querySelectorAll('.book-slider')]"
            ".every(s => s.querySelector('svg.book-chart-svg'))"
        )
        for k, slider in enumerate(page.query_selector_all(".book-slider")):
            f, knobs = slider.evaluate(
                "s => [s.querySelector('script[type=\"application/json\"]')"
                ".textContent, [...s.querySelectorAll('input[type=range]')]"
                ".map(r => [+r.max, +r.value])]"
            )
            f = json.loads(f)
            for r, (top, now) in enumerate(knobs):
                for v in sorted({0, top, now}):
                    drawn = slider.evaluate(_STATE, [r, v])
                    key = drawn["state"]
                    data, alt = f["states"][key]
                    _check_state(
                        page, slider, drawn, data, alt, f"{path} slider {k} {key}"
                    )
            seen += 1
        assert not outside and not errors, (path, outside, errors)
        page.close()
    assert seen >= 34, f"{seen} sliders checked"


# Still figures answer too (issue 28) --------------------------------------------------
_STILL = re.compile(
    r'<script type="application/json" class="book-chart-data" '
    r'data-boxes="([^"]*)">(.*?)</script>',
    re.S,
)


def _stills(text: str):
    """(data, boxes) of every still figure with hover data in a page's HTML."""
    import html as html_lib

    return [
        (json.loads(m.group(2)), json.loads(html_lib.unescape(m.group(1))))
        for m in _STILL.finditer(text)
    ]


def _to_px(lim, log, a, b):
    """Python's own reading of a data value's pixel, independent of chart.js."""
    import math

    lo, hi = (math.log10(v) for v in lim) if log else lim

    def f(v):
        t = (math.log10(v) if v > 0 else -math.inf) if log else v
        return a + (t - lo) * (b - a) / ((hi - lo) or 1)

    return f


def _expected_boxes(data, boxes):
    """{'p,m,i': (x0, y0, x1, y1)}: each target's place in the image, in CSS px of the
    image's own size, from the stored boxes, limits and values."""
    W, H = data["w"], data["h"]
    out = {}
    for pi, (p, (fl, ft, fr, fb)) in enumerate(zip(data["axes"], boxes)):
        X = _to_px(p["xlim"], p.get("xscale") == "log", fl * W, fr * W)
        Y = _to_px(p["ylim"], p.get("yscale") == "log", fb * H, ft * H)
        for mi, m in enumerate(p["marks"]):
            if m["k"] == "bar":
                # the rectangle in data, whichever way the bar points
                xs, ys = (m["x"], m["x"] + m["w"]), (m["y0"], m["y0"] + m["h"])
                # clipped to the panel, as the picture clips it
                px = sorted(min(max(X(v), fl * W), fr * W) for v in xs)
                py = sorted(min(max(Y(v), ft * H), fb * H) for v in ys)
                out[f"{pi},{mi},0"] = (px[0], py[0], px[1], py[1])
            elif m["k"] == "cells":
                if "xe" in m:
                    xe, ye = m["xe"], m["ye"]
                else:
                    left, right, bottom, top = m["extent"]
                    first, last = (
                        (bottom, top) if m["origin"] == "lower" else (top, bottom)
                    )
                    xe = [
                        left + (right - left) * c / m["cols"]
                        for c in range(m["cols"] + 1)
                    ]
                    ye = [
                        first + (last - first) * r / m["rows"]
                        for r in range(m["rows"] + 1)
                    ]
                for r in range(m["rows"]):
                    for c in range(m["cols"]):
                        if m["v"][r * m["cols"] + c] is None:
                            continue
                        px = sorted((X(xe[c]), X(xe[c + 1])))
                        py = sorted((Y(ye[r]), Y(ye[r + 1])))
                        out[f"{pi},{mi},{r * m['cols'] + c}"] = (
                            px[0],
                            py[0],
                            px[1],
                            py[1],
                        )
            else:
                for i, (x, y) in enumerate(zip(m["x"], m["y"])):
                    if x is None or y is None:
                        continue
                    if p.get("xscale") == "log" and x <= 0:
                        continue
                    if p.get("yscale") == "log" and y <= 0:
                        continue
                    px, py = X(x), Y(y)
                    if (
                        fl * W - 1 <= px <= fr * W + 1
                        and ft * H - 1 <= py <= fb * H + 1
                    ):
                        out[f"{pi},{mi},{i}"] = (px, py, px, py)
    return out


_TARGETS = """(s) => {
    const img = s.querySelector('img.book-figure'), cs = getComputedStyle(img);
    const r = img.getBoundingClientRect(), n = k => parseFloat(cs[k]) || 0;
    const content = [r.left + n('borderLeftWidth') + n('paddingLeft'),
        r.top + n('borderTopWidth') + n('paddingTop'),
        img.clientWidth - n('paddingLeft') - n('paddingRight'),
        img.clientHeight - n('paddingTop') - n('paddingBottom')];
    const svg = s.querySelector('svg.book-still-svg').getBoundingClientRect();
    return {content, svg: [svg.left, svg.top, svg.width, svg.height],
        targets: [...s.querySelectorAll('.bk-t')].map(e => { const b =
            e.getBoundingClientRect(); return [e.dataset.t, b.x + b.width / 2,
            b.y + b.height / 2, e.getAttribute('aria-label')]; })};
}"""

# The picture's own pixels at points of the image (fractions of its natural size), read
# through a canvas: the image is a data: URL, so the canvas may be read.
_PIXELS = """(s, pts) => {
    const img = s.querySelector('img.book-figure');
    const c = document.createElement('canvas');
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    return pts.map(([fx, fy]) => [...g.getImageData(Math.floor(fx * c.width),
        Math.floor(fy * c.height), 1, 1).data.slice(0, 3)]);
}"""


def _kinds(data):
    return {m["k"] for p in data["axes"] for m in p["marks"]}


def _still_sample():
    """Pages to check in the browser: the first pages whose still figures hold bars,
    heatmap cells, lines and scatter points, each kind at least twice if the site has
    it twice."""
    want = {"bar": 2, "cells": 2, "line": 2, "points": 1}
    pages = []
    for p in _pages():
        found = set()
        for data, _ in _stills((SITE / p).read_text("utf-8")):
            found |= {k for k in _kinds(data) if want.get(k, 0) > 0}
        if found:
            pages.append(p)
            for k in found:
                want[k] -= 1
        if not any(v > 0 for v in want.values()):
            break
    return pages


def test_every_still_figure_with_hover_data_is_well_formed():
    """Each still figure's stored hover data is JSON with a box per panel inside the
    image, and something to ask; enough of the site's figures carry it."""
    figures = with_data = 0
    for p in _pages():
        text = (SITE / p).read_text("utf-8")
        figures += text.count('<img class="book-figure"')
        for data, boxes in _stills(text):
            with_data += 1
            assert len(boxes) == len(data["axes"]), p
            for left, top, right, bottom in boxes:
                assert 0 <= left < right <= 1 and 0 <= top < bottom <= 1, (p, boxes)
            assert _expected_boxes(data, boxes), f"{p}: a figure with nothing to ask"
        if text.count("book-chart-data"):
            assert '<script type="module" src="_static/chart.js' in text or (
                "chart.js" in text.partition("<body")[0]
            ), f"{p} has still hover data and does not load chart.js"
    assert with_data >= 50 and with_data >= 0.6 * figures, (with_data, figures)


def test_still_figures_answer_hover_over_the_right_place(browser, server):
    """For a sample of still figures of each kind: the invisible SVG lies exactly over
    the image (desktop and phone widths, light and dark), every target sits over its
    mark as the stored boxes and values place it, a bar's target sits on the bar's own
    colour in the picture, a cell's on one colour, and focus and hover show the value
    the data holds, in the tooltip and the live region."""
    pages = _still_sample()
    assert pages, "no still figure carries hover data"
    kinds_seen: dict[str, int] = {}
    for path in pages:
        stores = _stills((SITE / path).read_text("utf-8"))
        for width, scheme in ((1280, "light"), (390, "dark")):
            ctx = browser.new_context(
                viewport={"width": width, "height": 900}, color_scheme=scheme
            )
            page = ctx.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{server}/{path}", wait_until="load")
            page.wait_for_function(
                f"document.querySelectorAll('.book-still svg').length == {len(stores)}"
            )
            for k, (data, boxes) in enumerate(stores):
                where = f"{path} figure {k} at {width} {scheme}"
                still = page.locator(".book-still").nth(k)
                still.scroll_into_view_if_needed()
                got = still.evaluate(_TARGETS)
                cl, ct, cw, ch = got["content"]
                assert got["svg"] == pytest.approx([cl, ct, cw, ch], abs=0.6), where
                want = _expected_boxes(data, boxes)
                assert sorted(t[0] for t in got["targets"]) == sorted(want), where
                sc = cw / data["w"]
                for key, x, y, _ in got["targets"]:
                    x0, y0, x1, y1 = want[key]
                    pad = 2.5  # a bar of no height gets a target 4 px tall
                    assert cl + x0 * sc - pad <= x <= cl + x1 * sc + pad, (where, key)
                    assert ct + y0 * sc - pad <= y <= ct + y1 * sc + pad, (where, key)
                for kind in _kinds(data):
                    kinds_seen[kind] = kinds_seen.get(kind, 0) + 1
                if width == 1280:
                    _check_still_pixels(still, data, want, where)
                    _check_still_tips(page, still, data, got["targets"], where)
            assert not errors, (path, errors)
            ctx.close()
    assert {"bar", "cells", "line"} <= set(kinds_seen), kinds_seen


def _check_still_pixels(still, data, want, where):
    """The picture under the targets: a bar's interior is the bar's colour, a heatmap
    cell's interior one colour (a box off by part of a cell would straddle two)."""
    W, H = data["w"], data["h"]
    for pi, p in enumerate(data["axes"]):
        for mi, m in enumerate(p["marks"]):
            keys = [k for k in want if k.startswith(f"{pi},{mi},")]
            if m["k"] == "bar":
                x0, y0, x1, y1 = want[keys[0]]
                if (x1 - x0) < 6 or (y1 - y0) < 6:
                    continue
                pts = [
                    ((x0 + (x1 - x0) * fx) / W, (y0 + (y1 - y0) * fy) / H)
                    for fx in (0.3, 0.5, 0.7)
                    for fy in (0.3, 0.5, 0.7)
                ]
                rgb = [int(m["c"][i : i + 2], 16) for i in (1, 3, 5)]
                seen = still.evaluate(_PIXELS, pts)
                near = sum(
                    max(abs(a - b) for a, b in zip(px, rgb)) <= 12 for px in seen
                )
                assert near >= 5, (where, m, seen)
            elif m["k"] == "cells":
                for key in keys[:: max(1, len(keys) // 12)]:
                    x0, y0, x1, y1 = want[key]
                    if (x1 - x0) < 8 or (y1 - y0) < 8:
                        continue
                    pts = [
                        ((x0 + (x1 - x0) * fx) / W, (y0 + (y1 - y0) * fy) / H)
                        for fx, fy in (
                            (0.15, 0.15),
                            (0.85, 0.15),
                            (0.15, 0.85),
                            (0.85, 0.85),
                        )
                    ]
                    seen = still.evaluate(_PIXELS, pts)
                    spread = max(
                        max(px[c] for px in seen) - min(px[c] for px in seen)
                        for c in range(3)
                    )
                    assert spread <= 16, (where, key, seen)


def _check_keyboard_tips(steps, data, where):
    """What _KEYBOARD_STEPS read: the tooltip and the live region name each focused
    mark as the data does."""
    for key, label, text, live in steps:
        assert key, f"{where}: no mark has the focus"
        p, m, i = (int(x) for x in key.split(","))
        mark = data["axes"][p]["marks"][m]
        assert text == label, (where, text, label)
        assert _expected_text(mark, i) in text, (where, text, mark["k"])
        # a name is a tick label or a rounded number, never float arithmetic's 2.8000000000000003
        assert not re.search(r"\d\.\d{8,}", text), (where, text)
        if mark.get("label"):
            assert mark["label"] in text, (where, text)
        assert live == text, where


def _check_still_tips(page, still, data, targets, where):
    """Keyboard focus and the pointer show the data's value and name."""
    steps = still.evaluate(_KEYBOARD_STEPS, "svg.book-still-svg")
    _check_keyboard_tips(steps, data, where)
    page.keyboard.press("Escape")
    # the pointer: on the largest bar or cell, and on a line's point (nearest on x)
    area = still.evaluate(
        "s => Object.fromEntries([...s.querySelectorAll('[data-t]')].map(e => {"
        " const b = e.getBoundingClientRect(); return [e.dataset.t, b.width * b.height];"
        " }))"
    )
    by_area = sorted(
        (
            t
            for t in targets
            if data["axes"][int(t[0].split(",")[0])]["marks"][int(t[0].split(",")[1])][
                "k"
            ]
            in ("bar", "cells")
        ),
        key=lambda t: -area[t[0]],
    )[:1]
    lines = [
        t
        for t in targets
        if data["axes"][int(t[0].split(",")[0])]["marks"][int(t[0].split(",")[1])]["k"]
        == "line"
    ]
    for t in by_area + lines[len(lines) // 2 : len(lines) // 2 + 1]:
        page.mouse.move(t[1], t[2])
        visible, shown = still.evaluate(_TIP)
        assert visible, (where, t)
        if t in by_area:
            assert shown == t[3], (where, shown, t)
        else:
            # nearest on x: a point of some line at this x, with its value
            same_x = [u[3] for u in targets if abs(u[1] - t[1]) <= 1.0]
            assert shown in same_x, (where, shown, t)
    page.mouse.move(0, 0)


def test_the_arrow_keys_step_through_a_charts_marks(browser, server):
    """Real key presses (the other chart tests send the key event from script): Right
    moves to the next mark, End to the last, and the tooltip names the focused one."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/{ATTENTION}", wait_until="load")
    svg = page.locator(".book-still svg.book-still-svg").first
    svg.focus()
    focused = "() => [document.activeElement.dataset.t, document.activeElement.getAttribute('aria-label')]"
    first = page.evaluate(focused)
    page.keyboard.press("ArrowRight")
    second = page.evaluate(focused)
    page.keyboard.press("End")
    last = page.evaluate(focused)
    assert (
        first[0] and second[0] and last[0] and len({first[0], second[0], last[0]}) == 3
    )
    tip = page.locator(".book-still .book-chart-tip").first
    assert tip.inner_text() == last[1]
    page.close()


def test_a_tap_on_a_figure_with_values_shows_one_then_enlarges(browser, server):
    """On a phone, a tap on a bar or cell of a figure that answers hover shows its
    value; a second tap on it opens the figure enlarged (book.js), as a tap does on a
    figure without values."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = ctx.new_page()
    page.goto(f"{server}/{ATTENTION}", wait_until="load")
    page.wait_for_selector(".book-still svg rect.bk-t")
    cell = page.locator(".book-still svg rect.bk-t").first
    cell.scroll_into_view_if_needed()
    b = cell.bounding_box()
    x, y = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(150)
    still = cell.locator("xpath=ancestor::div[contains(@class, 'book-still')]")
    tip = still.locator(".book-chart-tip")
    assert tip.is_visible() and tip.inner_text() == cell.get_attribute("aria-label")
    # on a phone the value is read out under the figure and covers none of it
    picture = still.locator("img").bounding_box()
    assert tip.bounding_box()["y"] >= picture["y"] + picture["height"] - 1
    assert page.locator("dialog.book-zoom[open]").count() == 0
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(200)
    assert page.locator("dialog.book-zoom[open]").count() == 1
    ctx.close()
