// book/chart.js: draws the chart data of book/chartdata.py as SVG, with exact values
// on hover, tap and keyboard focus. No third-party code; colours come from the data,
// fonts from the page, axes and text in currentColor (readable in dark mode).
//
//   render({model, el})  anywidget's contract (a live slider in JupyterLab, Colab)
//   boot(root)           the static site: every .book-slider with stored states
//   draw(el, data, alt)  one chart into el; returns {el, svg, targets}
//
// A value is shown as the JSON holds it: Python's book.fmt.sig rounded it, and fmt()
// below writes a number as Python's repr writes the same float, so the text a reader
// hovers is the book's formatter's text.

const NS = "http://www.w3.org/2000/svg";
const PT = 100 / 72; // CSS px per point (the figures are laid out at 100 px to the inch)

const STYLE = `
.book-chart{position:relative;max-width:100%;margin:.25em 0 .5em}
.book-chart-title{font-weight:700;font-size:.95em;line-height:1.3;margin:0 0 .2em}
.book-chart-key{display:flex;flex-wrap:wrap;gap:.15em 1em;font-size:.8em;margin:0 0 .2em;
  align-items:center}
.book-chart-key span{display:inline-flex;align-items:center;gap:.35em}
.book-chart-key svg{overflow:visible}
.book-chart-key .book-chart-bar{display:inline-flex;flex-direction:column;
  align-items:stretch;gap:.1em;min-width:10em}
.book-chart-key .book-chart-grad{display:block;height:.7em;
  border:1px solid rgba(127,127,127,.5)}
.book-chart-key .book-chart-ends{display:flex;justify-content:space-between;font-size:.9em}
.book-chart svg.book-chart-svg{display:block;width:100%;height:auto;overflow:visible}
.book-chart svg text{fill:currentColor}
.book-chart .bk-t{outline:none}
.book-chart svg:focus{outline:none}
.book-chart svg:focus-visible .bk-hi{stroke-width:2.5}
.book-chart-tip{position:absolute;pointer-events:none;z-index:5;font-size:.8em;
  line-height:1.3;padding:.25em .5em;border-radius:3px;max-width:22em;
  background:var(--pst-color-background,#fff);color:var(--pst-color-text-base,#222);
  border:1px solid rgba(127,127,127,.6);box-shadow:0 1px 4px rgba(0,0,0,.25)}
/* on a phone the value is read out under the figure, in the page's flow, so that it
   covers no part of a small figure; what follows the figure moves down a line */
@media (max-width:600px){.book-chart-tip{position:static;max-width:none;margin-top:.3em;
  box-shadow:none}}
.book-chart-live{position:absolute;width:1px;height:1px;overflow:hidden;
  clip:rect(0 0 0 0);white-space:nowrap}
@media print{.book-chart{display:none!important}
  .book-slider img.book-slider-still{display:block!important}}
`;

// One <style> a document for each stylesheet (the chart's, the still overlay's).
function style(doc, id = "book-chart-style", text = STYLE) {
  if (doc.getElementById(id)) return;
  const s = doc.createElement("style");
  s.id = id;
  s.textContent = text;
  (doc.head || doc.documentElement).appendChild(s);
}

/** A number as Python's repr writes the same float (book.fmt.sig's text). */
export function fmt(v) {
  if (v === null || v === undefined) return "none";
  if (typeof v !== "number") return String(v);
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a < 1e-4 || a >= 1e16) {
    const [m, e] = v.toExponential().split("e");
    const n = Math.abs(+e);
    return `${m}e${+e < 0 ? "-" : "+"}${n < 10 ? "0" : ""}${n}`;
  }
  return String(v);
}

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs || {}) if (attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function html(tag, cls, parent, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// Black in the data is the page's text colour, so it stays readable in dark mode.
function paint(c) {
  return !c || c === "#000000" ? "currentColor" : c;
}

function scale(lim, log, a, b) {
  let [lo, hi] = lim;
  if (log) {
    lo = Math.log10(lo);
    hi = Math.log10(hi);
  }
  const k = (b - a) / (hi - lo || 1);
  return (v) => {
    if (v === null || v === undefined) return NaN;
    const t = log ? (v > 0 ? Math.log10(v) : -Infinity) : v;
    return a + (t - lo) * k;
  };
}

const DASH = { "--": "5 3", ":": "1.5 2.5", "-.": "6 2.5 1.5 2.5" };

let measurer = null;
let chartCount = 0;  // each chart's number on the page, kept across its redraws
function textWidth(svg, s, size, bold) {
  try {
    if (!measurer || measurer.ownerSVGElement !== svg) {
      measurer = el("text", { x: -9999, y: -9999, "aria-hidden": "true" }, svg);
    }
    measurer.setAttribute("font-size", size);
    measurer.setAttribute("font-weight", bold ? "700" : "400");
    measurer.textContent = s;
    const w = measurer.getComputedTextLength();
    if (w > 0) return w;
  } catch (e) {
    /* not in a rendered document: estimate below */
  }
  return s.length * size * 0.56;
}

function wrapWords(svg, s, size, width, bold) {
  const words = String(s).split(" ");
  const lines = [];
  let line = "";
  for (const w of words) {
    const next = line ? `${line} ${w}` : w;
    if (line && textWidth(svg, next, size, bold) > width) {
      lines.push(line);
      line = w;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

function tickAt(ticks, v) {
  if (!ticks) return null;
  for (const [p, t] of ticks) if (Math.abs(p - v) <= 1e-9 * Math.max(1, Math.abs(v))) return t;
  return null;
}

// A bar is named by the tick it stands at: the nearest one within half the gap between
// ticks (grouped bars stand beside their tick), else by its centre to 4 digits.
function tickNear(ticks, v) {
  if (!ticks || !ticks.length) return null;
  let best = null, gap = Infinity;
  for (let j = 1; j < ticks.length; j++) gap = Math.min(gap, Math.abs(ticks[j][0] - ticks[j - 1][0]));
  for (const [p, t] of ticks) {
    const d = Math.abs(p - v);
    if ((best === null || d < best[0]) && (ticks.length === 1 ? d < 1e-9 : d < gap / 2)) best = [d, t];
  }
  return best ? best[1] : null;
}

// A value the data drew at 0 because it may be float noise (book.chartdata NOISE) is
// named by its bound, as the book prints noise: "< 4e-12".
function valueText(m, i, v) {
  const tiny = m.tiny === 1 || (Array.isArray(m.tiny) && m.tiny.includes(i));
  return tiny ? `< ${fmt(m.lt)}` : fmt(v);
}

function join(parts) {
  return parts.filter((p) => p !== null && p !== undefined && p !== "").join(", ");
}

function named(label, value) {
  return label ? `${label} ${value}` : value;
}

/** The name and value a reader is told for target `i` of a mark (book's wording). */
export function tipText(panel, m, i, data) {
  if (m.k === "bar") {
    const h = m.o === "h";
    const c = h ? m.y0 + m.h / 2 : m.x + m.w / 2;
    const where = named(h ? panel.ylabel : panel.xlabel,
      tickNear(h ? panel.yticks : panel.xticks, c) ?? fmt(+c.toPrecision(4)));
    const v = h ? m.w : m.h;
    return `${join([m.label, where])}: ${named(h ? panel.xlabel : panel.ylabel, valueText(m, i, v))}`;
  }
  if (m.k === "cells") {
    const r = Math.floor(i / m.cols), c = i % m.cols;
    const [xc, yc] = cellCentre(m, r, c);
    const row = tickAt(panel.yticks, yc) ?? fmt(yc);
    const col = tickAt(panel.xticks, xc) ?? fmt(xc);
    const what = (data.bars && data.bars.length === 1 && data.bars[0].label) || "value";
    return `${join([m.label, named(panel.ylabel, row), named(panel.xlabel, col)])}: ` +
      `${what} ${valueText(m, i, m.v[i])}`;
  }
  const x = m.x[i], y = m.y[i];
  const where = named(panel.xlabel, tickAt(panel.xticks, x) ?? fmt(x));
  return `${join([m.label, where])}: ${named(panel.ylabel, valueText(m, i, y))}`;
}

function cellCentre(m, r, c) {
  if (m.xe) return [(m.xe[c] + m.xe[c + 1]) / 2, (m.ye[r] + m.ye[r + 1]) / 2];
  const [l, rt, b, t] = m.extent;
  const dx = (rt - l) / m.cols;
  const top = m.origin === "lower" ? b : t, dy = ((m.origin === "lower" ? t : b) - top) / m.rows;
  return [l + (c + 0.5) * dx, top + (r + 0.5) * dy];
}

function cellBox(m, r, c, X, Y) {
  let x0, x1, y0, y1;
  if (m.xe) {
    [x0, x1, y0, y1] = [m.xe[c], m.xe[c + 1], m.ye[r], m.ye[r + 1]];
  } else {
    const [l, rt, b, t] = m.extent;
    const dx = (rt - l) / m.cols;
    const top = m.origin === "lower" ? b : t, dy = ((m.origin === "lower" ? t : b) - top) / m.rows;
    [x0, x1, y0, y1] = [l + c * dx, l + (c + 1) * dx, top + r * dy, top + (r + 1) * dy];
  }
  const a = X(x0), b2 = X(x1), p = Y(y0), q = Y(y1);
  return [Math.min(a, b2), Math.min(p, q), Math.abs(b2 - a), Math.abs(q - p)];
}

function key(data, box) {
  const bits = data.key || [];
  const bars = data.bars || [];
  if (!bits.length && !bars.length) return;
  const k = html("div", "book-chart-key", box);
  for (const [label, c, kind] of bits) {
    const s = html("span", "", k);
    const sw = el("svg", { width: 18, height: 10, "aria-hidden": "true" });
    if (kind === "box") el("rect", { x: 2, y: 0, width: 14, height: 10, fill: paint(c) }, sw);
    else if (kind === "point") el("circle", { cx: 9, cy: 5, r: 3.5, fill: paint(c) }, sw);
    else {
      el("line", {
        x1: 0, y1: 5, x2: 18, y2: 5, stroke: paint(c), "stroke-width": 2,
        "stroke-dasharray": kind === "dash" ? DASH["--"] : kind === "dot" ? "2 2" : undefined,
      }, sw);
    }
    s.appendChild(sw);
    html("span", "", s, label);
  }
  for (const b of bars) {
    const s = html("span", "book-chart-bar", k);
    if (b.label) html("span", "", s, b.label);
    const g = html("span", "book-chart-grad", s);
    g.style.background = `linear-gradient(to right, ${b.stops.join(",")})`;
    const ends = html("span", "book-chart-ends", s);
    html("span", "", ends, fmt(b.lo));
    html("span", "", ends, fmt(b.hi));
  }
}

// The highlight, the tooltip and the live region follow one current target; the chart
// (an SVG of its own, or one laid over a still image) takes the focus once (Tab), and
// the arrow keys, Home and End move among its targets (a roving tabindex).
function interact({ box, svg, targets, W, tip, live, hi, nearest }) {
  let current = -1;
  function show(i, fromPointer) {
    if (i < 0 || i >= targets.length) return;
    const t = targets[i];
    if (current >= 0) targets[current].node.setAttribute("tabindex", -1);
    current = i;
    t.node.setAttribute("tabindex", 0);
    svg.setAttribute("tabindex", -1);
    const bb = t.node.getBBox ? t.node.getBBox() : { x: t.x - 3, y: t.y - 3, width: 6, height: 6 };
    const pad = t.kind === "cells" || t.kind === "bar" ? 0 : 2;
    for (const h of hi) {
      h.setAttribute("x", bb.x - pad);
      h.setAttribute("y", bb.y - pad);
      h.setAttribute("width", Math.max(4, bb.width + 2 * pad));
      h.setAttribute("height", Math.max(4, bb.height + 2 * pad));
      h.setAttribute("display", "inline");
    }
    tip.textContent = t.text;
    tip.hidden = false;
    live.textContent = t.text;
    const sc = svg.getBoundingClientRect && svg.getBoundingClientRect().width ? svg.getBoundingClientRect().width / W : 1;
    // the SVG's place in the box (an SVG element has no offsetLeft)
    const sr = svg.getBoundingClientRect ? svg.getBoundingClientRect() : { left: 0, top: 0 };
    const br = box.getBoundingClientRect ? box.getBoundingClientRect() : { left: 0, top: 0 };
    const ox = sr.left - br.left - (box.clientLeft || 0), oy = sr.top - br.top - (box.clientTop || 0);
    const tx = ox + t.x * sc, ty = oy + t.y * sc;
    const bw = box.clientWidth || W;
    tip.style.left = `${Math.max(0, Math.min(tx + 10, bw - (tip.offsetWidth || 160) - 4))}px`;
    const above = ty - (tip.offsetHeight || 24) - 10;
    tip.style.top = `${above >= 0 ? above : ty + 14}px`;
    if (!fromPointer && box.ownerDocument.activeElement !== t.node) t.node.focus({ preventScroll: true });
  }
  function hide() {
    tip.hidden = true;
    for (const h of hi) h.setAttribute("display", "none");
  }
  svg.addEventListener("pointermove", (ev) => {
    const i = nearest(ev);
    if (i >= 0) show(i, true); else hide();
  });
  svg.addEventListener("pointerdown", (ev) => {
    const i = nearest(ev);
    if (i >= 0) show(i, true);
  });
  // a lifted finger leaves too: a tapped value stays until the next tap elsewhere
  svg.addEventListener("pointerleave", (ev) => { if (ev.pointerType !== "touch") hide(); });
  svg.addEventListener("focusin", (ev) => {
    if (ev.target === svg) show(current >= 0 ? current : 0, false);
  });
  svg.addEventListener("focusout", (ev) => {
    if (!svg.contains(ev.relatedTarget)) {
      hide();
      svg.setAttribute("tabindex", 0);
      if (current >= 0) targets[current].node.setAttribute("tabindex", -1);
    }
  });
  svg.addEventListener("keydown", (ev) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
    let i = current < 0 ? 0 : current;
    if (step) i = Math.max(0, Math.min(targets.length - 1, i + step));
    else if (ev.key === "Home") i = 0;
    else if (ev.key === "End") i = targets.length - 1;
    else if (ev.key === "Escape") { hide(); return; }
    else return;
    ev.preventDefault();
    show(i, false);
  });
  return { show, hide, current: () => (tip.hidden ? -1 : current) };
}

/** Draw `data` into `box` (emptied first); returns the targets, in reading order. */
export function draw(box, data, alt) {
  style(box.ownerDocument);
  box.textContent = "";
  box.bookChart = box.bookChart || ++chartCount;
  box.classList.add("book-chart");
  if (data.title) html("p", "book-chart-title", box, data.title);
  key(data, box);
  const W = Math.max(280, Math.round(box.clientWidth || data.w));
  const narrow = W < 540;
  const g0 = data.axes[0].grid;
  const stack = narrow && g0[1] > 1;
  const nrows = stack ? data.axes.length : g0[0];
  const ncols = stack ? 1 : g0[1];
  const rowH = stack ? Math.max(200, Math.min(300, W * 0.7)) : (data.h - 30) / nrows * Math.min(1, 0.55 + 0.45 * W / data.w);
  const H = Math.round(rowH * nrows);
  const svg = el("svg", {
    class: "book-chart-svg", viewBox: `0 0 ${W} ${H}`, width: W, height: H,
    role: "group", tabindex: 0, "aria-roledescription": "chart",
    "aria-label": alt || data.title || "chart",
  }, box);
  const live = html("div", "book-chart-live", box);
  live.setAttribute("aria-live", "polite");
  const tip = html("div", "book-chart-tip", box);
  tip.hidden = true;
  const FS = 11.5;
  const targets = [];
  data.axes.forEach((p, pi) => {
    const g = p.grid;
    const [r0, r1, c0, c1] = stack ? [pi, pi + 1, 0, 1] : [g[2], g[3], g[4], g[5]];
    const cx = (c0 * W) / ncols, cw = ((c1 - c0) * W) / ncols;
    const cy = r0 * rowH, ch = (r1 - r0) * rowH;
    const panel = el("g", { class: "bk-panel", "data-panel": pi }, svg);
    // margins from the text this panel draws, measured in the page's font
    const tlines = p.title ? wrapWords(svg, p.title, FS + 0.5, cw - 16, true) : [];
    const yw = Math.max(0, ...p.yticks.map((t) => textWidth(svg, t[1], FS)));
    const rot = p.xrot || 0;
    const xw = Math.max(0, ...p.xticks.map((t) => textWidth(svg, t[1], FS)));
    const xTickH = rot ? Math.min(90, xw * Math.sin((rot * Math.PI) / 180) + FS) : FS + 4;
    const left = p.off ? 4 : yw + 10 + (p.ylabel ? FS + 6 : 0);
    const bottom = p.off ? 4 : xTickH + 8 + (p.xlabel ? FS + 6 : 0);
    const top = 6 + tlines.length * (FS + 4);
    const right = 12;
    const x0 = cx + left, x1 = cx + cw - right, y0 = cy + top, y1 = cy + ch - bottom;
    const X = scale(p.xlim, p.xscale === "log", x0, x1);
    const Y = scale(p.ylim, p.yscale === "log", y1, y0);
    tlines.forEach((t, i) => {
      el("text", { x: (x0 + x1) / 2, y: cy + 4 + (i + 1) * (FS + 2), "text-anchor": "middle",
        "font-size": FS + 0.5, "font-weight": 700 }, panel).textContent = t;
    });
    // unique on the page and the same every load, however often the chart redraws
    // (once more when the page's fonts arrive after the first draw)
    const clipId = `bkc${box.bookChart}-${pi}`;
    const clip = el("clipPath", { id: clipId }, panel);
    el("rect", { x: x0 - 1, y: y0 - 1, width: x1 - x0 + 2, height: y1 - y0 + 2 }, clip);
    if (!p.off) {
      const axes = el("g", { class: "bk-axes", "aria-hidden": "true" }, panel);
      for (const [v, t] of p.yticks) {
        const y = Y(v);
        if (!(y >= y0 - 0.5 && y <= y1 + 0.5)) continue;
        el("line", { x1: x0, x2: x1, y1: y, y2: y, stroke: "currentColor", "stroke-opacity": 0.12 }, axes);
        el("text", { x: x0 - 6, y, "text-anchor": "end", "dominant-baseline": "middle", "font-size": FS }, axes).textContent = t;
      }
      for (const [v, t] of p.xticks) {
        const x = X(v);
        if (!(x >= x0 - 0.5 && x <= x1 + 0.5)) continue;
        el("line", { x1: x, x2: x, y1: y1, y2: y1 + 4, stroke: "currentColor", "stroke-opacity": 0.6 }, axes);
        const tx = el("text", { x, y: y1 + 6 + FS * 0.8, "text-anchor": rot ? "end" : "middle", "font-size": FS }, axes);
        if (rot) tx.setAttribute("transform", `rotate(${-rot} ${x} ${y1 + 10})`);
        tx.textContent = t;
      }
      el("path", { d: `M${x0} ${y0}V${y1}H${x1}`, fill: "none", stroke: "currentColor", "stroke-opacity": 0.6 }, axes);
      if (p.xlabel) el("text", { x: (x0 + x1) / 2, y: cy + ch - 4, "text-anchor": "middle", "font-size": FS }, axes).textContent = p.xlabel;
      if (p.ylabel) {
        const yl = el("text", { x: 0, y: 0, "text-anchor": "middle", "font-size": FS,
          transform: `translate(${cx + FS} ${(y0 + y1) / 2}) rotate(-90)` }, axes);
        yl.textContent = p.ylabel;
      }
    }
    const plot = el("g", { "clip-path": `url(#${clipId})` }, panel);
    const hasCells = p.marks.some((m) => m.k === "cells");
    p.marks.forEach((m, mi) => {
      const add = (node, i, cxp, cyp) => {
        node.classList.add("bk-t");
        node.setAttribute("tabindex", -1);
        node.setAttribute("role", "img"); // a named value (an unstyled shape has no role)
        const text = tipText(p, m, i, data);
        node.setAttribute("aria-label", text);
        node.setAttribute("data-t", `${pi},${mi},${i}`);
        targets.push({ node, text, x: cxp, y: cyp, panel: pi, mark: mi, i, kind: m.k });
      };
      if (m.k === "line" || m.k === "area") {
        let d = "", pen = false;
        m.x.forEach((xv, i) => {
          const px = X(xv), py = Y(m.y[i]);
          if (!isFinite(px) || !isFinite(py)) { pen = false; return; }
          d += `${pen ? "L" : "M"}${px.toFixed(1)} ${py.toFixed(1)}`;
          pen = true;
        });
        if (m.k === "area") {
          el("path", { d: d + "Z", fill: paint(m.c), "fill-opacity": m.a ?? 1, class: "bk-area",
            "data-mark": mi }, plot);
          return;
        }
        const grp = el("g", { class: "bk-line", "data-mark": mi }, plot);
        if (m.ls !== "" && d) {
          el("path", { d, fill: "none", stroke: paint(m.c), "stroke-width": (m.lw || 1) * PT * 0.9,
            "stroke-dasharray": DASH[m.ls], "stroke-opacity": m.a ?? 1,
            "stroke-linejoin": "round" }, grp);
        }
        if (m.nh) return; // a contour or a grid line: drawn, not a value to read
        const rr = m.m ? Math.max(2, (m.ms || 6) * PT * 0.4) : 3;
        m.x.forEach((xv, i) => {
          const px = X(xv), py = Y(m.y[i]);
          if (!isFinite(px) || !isFinite(py)) return;
          const dot = el("circle", { cx: px.toFixed(1), cy: py.toFixed(1), r: rr,
            fill: m.m ? (m.mf === "none" ? "none" : paint(m.c)) : "transparent",
            stroke: m.m ? paint(m.c) : "none" }, grp);
          add(dot, i, px, py);
        });
      } else if (m.k === "bar") {
        const h = m.o === "h";
        // a bar is its rectangle in data (x, w along x; y0, h along y) whichever way
        // it points; only what its tooltip names depends on that
        const [bx0, bx1] = [X(m.x), X(m.x + m.w)];
        const [by0, by1] = [Y(m.y0), Y(m.y0 + m.h)];
        const rc = el("rect", {
          x: Math.min(bx0, bx1).toFixed(1), y: Math.min(by0, by1).toFixed(1),
          width: Math.abs(bx1 - bx0).toFixed(1), height: Math.abs(by1 - by0).toFixed(1),
          fill: paint(m.c), "fill-opacity": m.a ?? 1, class: "bk-bar", "data-mark": mi,
        }, plot);
        add(rc, 0, (bx0 + bx1) / 2, Math.min(by0, by1));
      } else if (m.k === "cells") {
        const grp = el("g", { class: "bk-cells", "data-mark": mi }, plot);
        for (let r = 0; r < m.rows; r++) {
          for (let c = 0; c < m.cols; c++) {
            const i = r * m.cols + c;
            const [bx, by, bw, bh] = cellBox(m, r, c, X, Y);
            const rc = el("rect", { x: bx.toFixed(1), y: by.toFixed(1), width: (bw + 0.3).toFixed(1),
              height: (bh + 0.3).toFixed(1), fill: m.c[i] || "transparent" }, grp);
            if (m.v[i] !== null) add(rc, i, bx + bw / 2, by + bh / 2);
          }
        }
      } else if (m.k === "points") {
        const grp = el("g", { class: "bk-points", "data-mark": mi }, plot);
        m.x.forEach((xv, i) => {
          const dot = el("circle", { cx: X(xv), cy: Y(m.y[i]), r: 3.5, fill: paint(m.c[i]) }, grp);
          add(dot, i, X(xv), Y(m.y[i]));
        });
      } else if (m.k === "text") {
        const at = m.at === "axes" ? [x0 + m.x * (x1 - x0), y1 - m.y * (y1 - y0)] : [X(m.x), Y(m.y)];
        const px = at[0] + (m.dx || 0) * PT, py = at[1] - (m.dy || 0) * PT;
        const size = Math.max(9, (m.size || 10) * PT * 0.85);
        const t = el("text", {
          x: px.toFixed(1), y: py.toFixed(1), "font-size": size.toFixed(1),
          "text-anchor": { center: "middle", right: "end" }[m.ha] || "start",
          "dominant-baseline": { center: "central", top: "hanging", bottom: "text-after-edge" }[m.va],
          "font-weight": m.b ? 700 : undefined, class: "bk-text", "aria-hidden": "true",
        }, panel);
        if (m.c && m.c !== "#000000") t.style.fill = m.c;
        else if (hasCells && m.c === undefined) t.style.fill = "#000000";
        if (m.rot) t.setAttribute("transform", `rotate(${-m.rot} ${px} ${py})`);
        t.textContent = m.s;
        if (hasCells && m.at === undefined) {
          const cell = p.marks.find((q) => q.k === "cells");
          const [, , bw] = cellBox(cell, 0, 0, X, Y);
          if (textWidth(svg, m.s, size) > bw - 2) t.setAttribute("display", "none");
        }
      }
    });
  });
  if (measurer && measurer.parentNode === svg) {
    svg.removeChild(measurer);
    measurer = null;
  }
  const hi = el("rect", { class: "bk-hi", fill: "none", stroke: "currentColor",
    "stroke-width": 2, "pointer-events": "none", display: "none" }, svg);
  function nearest(ev) {
    const r = svg.getBoundingClientRect();
    const sc = W / (r.width || W);
    const x = (ev.clientX - r.left) * sc, y = (ev.clientY - r.top) * sc;
    const hit = ev.target && ev.target.classList && ev.target.classList.contains("bk-t")
      ? targets.findIndex((t) => t.node === ev.target) : -1;
    if (hit >= 0) return hit;
    let best = -1, bd = 30 * sc;
    targets.forEach((t, i) => {
      if (t.kind === "cells" || t.kind === "bar") return;
      const d = Math.hypot(t.x - x, t.y - y);
      if (d < bd) { bd = d; best = i; }
    });
    return best;
  }
  const { show, hide } = interact({ box, svg, targets, W, tip, live, hi: [hi], nearest });
  return { el: box, svg, targets, show, hide };
}

// A slider: controls, the still image of the default state, and every state's data.
function slider(root) {
  if (root.dataset.bookChart) return;
  const store = root.querySelector('script[type="application/json"]');
  if (!store) return;
  const f = JSON.parse(store.textContent);
  if (!f.states) return;
  root.dataset.bookChart = "1";
  const inputs = root.querySelectorAll("input[type=range]");
  const img = root.querySelector("img");
  const note = root.querySelector(".book-slider-note");
  if (note) note.hidden = true;
  const box = document.createElement("div");
  if (img) img.after(box);
  else root.appendChild(box);
  let last = null;
  function update() {
    const k = [];
    inputs.forEach((inp, i) => {
      const n = +inp.value;
      k.push(n);
      const lab = f.labels[i][n];
      inp.setAttribute("aria-valuetext", lab);
      const out = root.querySelector(`output[for="${inp.id}"]`);
      if (out) out.textContent = lab;
    });
    const key = k.join(",");
    const [data, alt] = f.states[key];
    const focused = last && box.contains(document.activeElement);
    last = draw(box, data, alt);
    if (img) {
      img.alt = alt;
      img.hidden = true;
      img.classList.add("book-slider-still");
    }
    root.dataset.state = key;
    if (focused) last.svg.focus({ preventScroll: true });
  }
  inputs.forEach((inp) => inp.addEventListener("input", update));
  // after Back the browser restores the thumbs: draw the state they show
  window.addEventListener("pageshow", () => {
    if (root.dataset.state !== [...inputs].map((i) => i.value).join(",")) update();
  });
  update();
  // the margins are measured in the page's fonts: once they have loaded, draw again
  if (document.fonts && document.fonts.status !== "loaded") document.fonts.ready.then(update);
  if (typeof ResizeObserver !== "undefined") {
    let w = box.clientWidth;
    new ResizeObserver(() => {
      if (Math.abs(box.clientWidth - w) > 8) {
        w = box.clientWidth;
        update();
      }
    }).observe(box);
  }
}

// A still figure: matplotlib's image stays what the reader sees (and what print and a
// reader without scripts get); an invisible SVG laid exactly over it holds a target per
// bar, heatmap cell and line or scatter point, placed from the stored data and each
// panel's box in the image (fractions of it, from matplotlib's layout).
const STILL_STYLE = `
.book-still{position:relative}
.book-still-svg{position:absolute;left:0;top:0;overflow:visible;touch-action:manipulation}
.book-still-svg:focus{outline:none}
.book-still-svg:focus-visible{outline:2px solid #E69F00;outline-offset:2px}
.book-still-svg .bk-t{fill:transparent;outline:none}
.book-still .book-chart-tip{color:#1a1a1a;background:#fff}
@media print{.book-still-svg,.book-still .book-chart-tip{display:none!important}}
`;

/** Lay hover targets over the still image before `store` (its hover data). */
export function overlay(store) {
  if (store.dataset.bookChart) return null;
  const img = store.previousElementSibling;
  if (!img || img.tagName !== "IMG") return null;
  const data = JSON.parse(store.textContent);
  const boxes = JSON.parse(store.dataset.boxes || "[]");
  if (!data.axes || boxes.length !== data.axes.length) return null;
  store.dataset.bookChart = "1";
  const doc = store.ownerDocument;
  style(doc);
  style(doc, "book-still-style", STILL_STYLE);
  const W = +img.getAttribute("width") || data.w, H = +img.getAttribute("height") || data.h;
  const wrap = doc.createElement("div");
  wrap.className = "book-still";
  img.before(wrap);
  wrap.append(img, store);
  const svg = el("svg", {
    class: "book-still-svg", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none",
    role: "group", tabindex: 0, "aria-roledescription": "chart",
    "aria-label": `Values in the figure: ${img.alt}`,
  }, wrap);
  const live = html("div", "book-chart-live", wrap);
  live.setAttribute("aria-live", "polite");
  const tip = html("div", "book-chart-tip", wrap);
  tip.hidden = true;
  const targets = [];
  const panels = [];
  data.axes.forEach((p, pi) => {
    const [l, t, r, b] = boxes[pi];
    const x0 = l * W, x1 = r * W, y0 = t * H, y1 = b * H;
    panels.push([x0, y0, x1, y1]);
    const X = scale(p.xlim, p.xscale === "log", x0, x1);
    const Y = scale(p.ylim, p.yscale === "log", y1, y0);
    const g = el("g", { class: "bk-panel", "data-panel": pi }, svg);
    p.marks.forEach((m, mi) => {
      const add = (node, i, cx, cy) => {
        node.classList.add("bk-t");
        node.setAttribute("tabindex", -1);
        node.setAttribute("role", "img"); // a named value (an unstyled shape has no role)
        const text = tipText(p, m, i, data);
        node.setAttribute("aria-label", text);
        node.setAttribute("data-t", `${pi},${mi},${i}`);
        targets.push({ node, text, x: cx, y: cy, panel: pi, mark: mi, i, kind: m.k });
      };
      if (m.k === "bar") {
        const h = m.o === "h";
        // a bar is its rectangle in data (x, w along x; y0, h along y) whichever way
        // it points; only what its tooltip names depends on that
        // the picture clips a bar to its panel (a bar from 0 on a log axis starts at
        // the panel's edge): so does its target
        const cx = (v) => Math.max(x0, Math.min(x1, v)), cy = (v) => Math.max(y0, Math.min(y1, v));
        const [bx0, bx1] = [cx(X(m.x)), cx(X(m.x + m.w))];
        const [by0, by1] = [cy(Y(m.y0)), cy(Y(m.y0 + m.h))];
        let [bx, by, bw, bh] = [Math.min(bx0, bx1), Math.min(by0, by1), Math.abs(bx1 - bx0), Math.abs(by1 - by0)];
        if (![bx, by, bw, bh].every(isFinite)) return;
        // a bar of no length is still a value to read: a thin target on its base
        if (bh < 4 && !h) { by -= (4 - bh) / 2; bh = 4; }
        if (bw < 4 && h) { bx -= (4 - bw) / 2; bw = 4; }
        const rc = el("rect", { x: bx.toFixed(1), y: by.toFixed(1), width: bw.toFixed(1),
          height: bh.toFixed(1), "data-mark": mi }, g);
        add(rc, 0, bx + bw / 2, by);
      } else if (m.k === "cells") {
        for (let r = 0; r < m.rows; r++) {
          for (let c = 0; c < m.cols; c++) {
            const i = r * m.cols + c;
            if (m.v[i] === null) continue;
            const [bx, by, bw, bh] = cellBox(m, r, c, X, Y);
            const rc = el("rect", { x: bx.toFixed(1), y: by.toFixed(1), width: bw.toFixed(1),
              height: bh.toFixed(1), "data-mark": mi }, g);
            add(rc, i, bx + bw / 2, by + bh / 2);
          }
        }
      } else if (m.k === "line" || m.k === "points") {
        m.x.forEach((xv, i) => {
          const px = X(xv), py = Y(m.y[i]);
          if (!isFinite(px) || !isFinite(py)) return;
          if (px < x0 - 1 || px > x1 + 1 || py < y0 - 1 || py > y1 + 1) return; // clipped
          const dot = el("circle", { cx: px.toFixed(1), cy: py.toFixed(1),
            r: m.k === "points" ? 5 : 3, "data-mark": mi }, g);
          add(dot, i, px, py);
        });
      }
    });
  });
  if (!targets.length) return null;
  // the highlight: a dark line inside a white one, seen on any colour of the image
  const hi = [
    el("rect", { fill: "none", stroke: "#fff", "stroke-width": 4, rx: 2, "pointer-events": "none", display: "none" }, svg),
    el("rect", { class: "bk-hi", fill: "none", stroke: "#1a1a1a", "stroke-width": 1.6, rx: 2, "pointer-events": "none", display: "none" }, svg),
  ];
  // the pointer: a bar or cell under it; else, in its panel, the line point nearest
  // on x (the nearest line at that x), or a scatter point within reach
  function nearest(ev) {
    const rect = svg.getBoundingClientRect();
    const sc = W / (rect.width || W);
    const x = (ev.clientX - rect.left) * sc, y = (ev.clientY - rect.top) * sc;
    const hit = ev.target && ev.target.classList && ev.target.classList.contains("bk-t")
      ? targets.findIndex((t) => t.node === ev.target) : -1;
    if (hit >= 0 && targets[hit].kind !== "line") return hit;
    const pi = panels.findIndex(([a, b, c, d]) => x >= a - 4 && x <= c + 4 && y >= b - 4 && y <= d + 4);
    if (pi < 0) return -1;
    let best = -1, bx = Infinity, by = Infinity, bp = 20 * sc;
    targets.forEach((t, i) => {
      if (t.panel !== pi) return;
      if (t.kind === "line") {
        const dx = Math.abs(t.x - x), dy = Math.abs(t.y - y);
        if (dx < bx - 0.5 || (dx <= bx + 0.5 && dy < by)) { bx = dx; by = dy; best = i; }
      }
    });
    if (best >= 0) return best;
    targets.forEach((t, i) => {
      if (t.panel !== pi || t.kind !== "points") return;
      const d = Math.hypot(t.x - x, t.y - y);
      if (d < bp) { bp = d; best = i; }
    });
    return best;
  }
  // A tap shows the value under the finger. A tap away from every target, or on the
  // target whose value is already shown, is a tap on the picture (on a phone the page
  // opens it enlarged, book.js).
  let again = false;
  svg.addEventListener("pointerdown", (ev) => {
    const i = nearest(ev);
    again = i < 0 || i === api.current();
  });
  const api = interact({ box: wrap, svg, targets, W, tip, live, hi, nearest });
  svg.addEventListener("click", () => { if (again) img.click(); });
  // the SVG covers the image's content box (its card's padding differs in dark mode)
  function place() {
    const cs = getComputedStyle(img);
    const px = (k) => parseFloat(cs[k]) || 0;
    const left = img.offsetLeft + px("borderLeftWidth") + px("paddingLeft");
    const top = img.offsetTop + px("borderTopWidth") + px("paddingTop");
    const w = img.clientWidth - px("paddingLeft") - px("paddingRight");
    const h = img.clientHeight - px("paddingTop") - px("paddingBottom");
    svg.style.left = `${left}px`;
    svg.style.top = `${top}px`;
    svg.setAttribute("width", Math.max(1, w));
    svg.setAttribute("height", Math.max(1, h));
  }
  place();
  img.addEventListener("load", place);
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(place).observe(img);
  if (typeof MutationObserver !== "undefined") {
    new MutationObserver(place).observe(doc.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  }
  window.addEventListener("resize", place);
  return { el: wrap, svg, targets, place, ...api };
}

/** Draw every static slider under `root` from its stored data. */
export function boot(root) {
  const r = root || document;
  style(r.ownerDocument || r);
  r.querySelectorAll(".book-slider").forEach(slider);
  r.querySelectorAll("script.book-chart-data").forEach(overlay);
}

/** anywidget: the chart of the knobs' current state, redrawn when it changes. */
export function render({ model, el: host }) {
  const box = document.createElement("div");
  host.appendChild(box);
  const redraw = () => draw(box, model.get("chart"), model.get("alt"));
  model.on("change:chart", redraw);
  requestAnimationFrame ? requestAnimationFrame(redraw) : redraw();
  return () => model.off("change:chart", redraw);
}

export default { render };

if (typeof document !== "undefined" && document.querySelector("script[data-book-chart]")) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => boot());
  else boot();
}
