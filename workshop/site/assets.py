"""Lay out what the site serves itself, from the pinned npm packages.

    python -m workshop.site.assets            # writes site-assets/

- (MathJax is not copied: math is drawn as SVG at build time, workshop/site/math.py.)
- IBM Plex Sans in four faces and IBM Plex Mono in one, cut down with fontTools
  to the Latin characters the book uses, so the faces stay near 60 KB together.
- fonts.css, book.css and book.js, listed by name in _config.yml.
Nothing here is fetched at build time: npm installed the packages beforehand.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from fontTools import subset

# The Latin characters the book uses; book/page_fonts.py adds
# other scripts page by page.
from book import page_fonts  # noqa: E402
from book.page_fonts import LATIN  # noqa: E402
from workshop.config import ASSETS as OUT
from workshop.config import NODE_MODULES as NODE

FACES = [  # (css family, package, file stem, weight, style)
    ("IBM Plex Sans", "ibm-plex-sans", "ibm-plex-sans-latin-400-normal", 400, "normal"),
    ("IBM Plex Sans", "ibm-plex-sans", "ibm-plex-sans-latin-400-italic", 400, "italic"),
    ("IBM Plex Sans", "ibm-plex-sans", "ibm-plex-sans-latin-700-normal", 700, "normal"),
    ("IBM Plex Sans", "ibm-plex-sans", "ibm-plex-sans-latin-700-italic", 700, "italic"),
    ("IBM Plex Mono", "ibm-plex-mono", "ibm-plex-mono-latin-400-normal", 400, "normal"),
]

BOOK_CSS = """\
/* The book's own styles. */
.book-slider { margin: 0.5em 0 1em; }
.book-slider-controls { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em;
  margin-bottom: 0.3em; font-variant-numeric: tabular-nums; }
.book-slider input[type=range] { width: 14em; accent-color: #0072B2; }
.book-slider output { display: inline-block; min-width: 3.5em; font-weight: 700; }
.book-slider input[type=range]:focus-visible { outline: 3px solid #E69F00; outline-offset: 2px; }
/* Figures: drawn at 2x, shown at their 1x width (720 or 480 px), centred in the column. */
img.book-figure, .book-slider img { display: block; margin: 0.3em auto; max-width: 100%; height: auto; }
/* Exercises (book/exercises.py): the answer box the page's script fills in. */
.book-exercise { margin: 0.3em 0 1em; padding: 0.6em 0.9em; border-left: 4px solid #0072B2;
  background: var(--pst-color-surface); }
.book-exercise-form { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4em 0.8em; margin: 0 0 0.4em; }
.book-exercise-form label { margin: 0; font-weight: 700; }
.book-exercise-form input, .book-exercise-form select { min-height: 44px; padding: 0 0.5em; font: inherit;
  border: 1px solid var(--pst-color-border); border-radius: 0.25em; background: var(--pst-color-background);
  color: var(--pst-color-text-base); }
.book-exercise-form button { min-height: 44px; padding: 0 1em; font: inherit; font-weight: 700;
  border: 1px solid #0072B2; border-radius: 0.25em; background: #0072B2; color: #fff; cursor: pointer; }
.book-exercise-form :focus-visible { outline: 3px solid #E69F00; outline-offset: 2px; }
.book-exercise-result { flex-basis: 100%; margin: 0; min-height: 1.5em; font-weight: 700; }
.book-exercise-result[data-right=true] { color: #007a55; }
.book-exercise-result[data-right=false] { color: #b5470b; }
html[data-theme=dark] .book-exercise-result[data-right=true] { color: #4fd1a5; }
html[data-theme=dark] .book-exercise-result[data-right=false] { color: #ffab73; }
.book-exercise-kernel { margin: 0 0 0.3em; font-size: 0.9em; color: var(--pst-color-text-muted); }
.book-exercise details.book-solution > summary { cursor: pointer; font-weight: 700; }
.book-exercise-print, .book-exercise-answer { display: none; }
"""

# The page as a reader sees it (issue 14): sliders, dark mode, folded
# checks, the phone, numbers.
READER_CSS = """\
/* Sliders: each thumb is a 44 px touch target; a named knob shows its range, quietly. */
.book-slider input[type=range] { height: 44px; margin: 0; cursor: pointer; touch-action: pan-y; }
.book-slider-controls > label { display: inline-flex; align-items: center; gap: 0.4em; min-height: 44px; }
.book-slider output { white-space: nowrap; }
/* A named knob: its name and range, then the thumb and the value; on a phone the thumb and the
   value take the second line. */
.book-slider-knob { display: inline-flex; flex-wrap: wrap; align-items: center; column-gap: 0.6em;
  max-width: 100%; }
.book-slider-knob > label { margin: 0; }
.book-slider-knob > input[type=range] { flex: 1 1 9em; min-width: 9em; max-width: 14em; }
.book-slider-range { color: var(--pst-color-text-muted); font-size: 0.9em; white-space: nowrap; }
@media (max-width: 540px) { .book-slider-knob { width: 100%; } .book-slider-knob > label { flex-basis: 100%; } }

/* Figures are drawn on white. On a dark page they sit on a white card with rounded corners;
   nothing filters them, so the palette is the one the figure was drawn in. (The theme dims
   every image in dark mode with brightness(0.8) contrast(1.2) and lays it on grey.) */
html[data-theme] body .bd-content img:not(.only-dark):not(.dark-light) { filter: none; }
html body .bd-content div.cell_output img, html body .bd-content figure img, html body .book-slider img {
  background-color: #fff; border-radius: 0.5rem; box-sizing: border-box; max-width: 100%; height: auto; }
html[data-theme=dark] body .bd-content div.cell_output img, html[data-theme=dark] body .bd-content figure img,
html[data-theme=dark] body .book-slider img { background-color: #fff; padding: 0.5rem; }
/* The theme lays a light slab under every HTML output in dark mode (the slider's controls too);
   the figure has its own card, the controls belong to the dark page. */
html[data-theme=dark] .bd-content div.cell_output .text_html:not(:has(table.dataframe)) {
  background-color: transparent; color: inherit; padding: 0; }

/* Checks: a cell's `ok` lines fold into one line that opens to the list. */
details.book-checks { margin: 0.2em 0 0.4em; font-size: 0.9em; }
details.book-checks > summary { display: inline-flex; align-items: center; gap: 0.45em;
  min-height: 2em; padding: 0 0.7em; border-radius: 1em; cursor: pointer; list-style: none;
  color: var(--book-ok-text); background: var(--book-ok-bg); font-variant-numeric: tabular-nums; }
details.book-checks > summary::-webkit-details-marker { display: none; }
details.book-checks > summary .book-checks-what { margin-left: -0.45em; opacity: 0.8; }
@media (max-width: 30em) { details.book-checks > summary .book-checks-what { display: none; } }
details.book-checks > summary::before { content: ""; width: 0.55em; height: 0.3em;
  border-left: 2px solid currentColor; border-bottom: 2px solid currentColor;
  transform: translateY(-0.1em) rotate(-45deg); }
details.book-checks > summary::after { content: "show"; font-size: 0.85em; opacity: 0.75; }
details.book-checks[open] > summary::after { content: "hide"; }
details.book-checks > summary:focus-visible { outline: 3px solid #E69F00; outline-offset: 2px; }
details.book-checks > div.highlight { margin-top: 0.3em; }
/* A printed sentence or list wraps at the column's edge instead of running off it (a phone
   shows about 45 characters); rows laid out in columns keep their layout, and scroll where
   they must (workshop.site.sphinxext.wrap_sentences marks which lines are which). */
div.cell_output pre span.book-wrap { white-space: pre-wrap; overflow-wrap: break-word; }
/* A displayed table's columns of numbers (right-aligned, book.table) never break inside a
   number or a range such as 0.489-0.722; the table scrolls in its own box instead. */
div.cell_output td.text-right { white-space: nowrap; }
html { --book-ok-text: #00573f; --book-ok-bg: #e3f3ec; }
html[data-theme=dark] { --book-ok-text: #9be0c4; --book-ok-bg: #143a2e; }

/* Code cells: ruff's 88 columns fit the content column at desktop width (652 px inside the
   box at 1280 px): IBM Plex Mono at 12 px is 7.2 px a character, 634 px a line. Outputs take the
   same size, so a cell reads as one piece; a phone scrolls as before. Print has its own sizes. */
@media screen {
  div.cell div.cell_input pre, div.cell div.cell_output pre { font-size: 0.75rem; }
}

/* Folded code: a cell whose code draws, checks or prints a table keeps its output in view and
   its code behind one quiet line, "Show code", set like the checks' line but grey. */
div.cell details.hide.above-input { margin: 0.3em 0 0.4em; padding: 0; border: 0; border-radius: 0;
  background: none; overflow: visible; box-shadow: none !important; }
.bd-main .bd-content .bd-article-container div.cell details.hide.above-input > summary {
  display: inline-flex; align-items: center; gap: 0.5em; min-height: 2em; margin: 0;
  padding: 0 0.8em; border: 1px solid var(--book-fold-border); border-radius: 999px;
  list-style: none; cursor: pointer; font-size: 0.85em; color: var(--book-fold-text);
  background: var(--book-fold-bg); }
div.cell details.hide.above-input > summary::-webkit-details-marker { display: none; }
div.cell details.hide.above-input > summary::before { content: ""; flex: none; width: 0.4em;
  height: 0.4em; border-right: 2px solid currentColor; border-bottom: 2px solid currentColor;
  transform: translateX(-0.1em) rotate(-45deg); transition: transform 0.15s; }
div.cell details.hide.above-input[open] > summary::before {
  transform: translateY(-0.15em) rotate(45deg); }
div.cell details.hide.above-input > summary > p.admonition-title { margin: 0; padding: 0;
  border: 0; background: none; color: inherit; font-size: inherit; font-weight: 400;
  line-height: 1.2; position: static; }
div.cell details.hide.above-input > summary > p.admonition-title::before,
div.cell details.hide.above-input > summary > p.admonition-title::after { content: none; display: none; }
.bd-main .bd-content .bd-article-container div.cell details.hide.above-input > summary:hover {
  color: var(--pst-color-text-base); border-color: var(--pst-color-text-muted); }
div.cell details.hide.above-input > summary:focus-visible { outline: 3px solid #E69F00; outline-offset: 2px; }
div.cell details.hide.above-input[open] > summary { margin-bottom: 0.3em; }
div.cell details.hide.above-input > div.cell_input { margin: 0; }
/* A finger needs 44 px. */
@media (pointer: coarse), (max-width: 540px) {
  .bd-main .bd-content .bd-article-container div.cell details.hide.above-input > summary { min-height: 44px; } }
html { --book-fold-text: #4a5058; --book-fold-bg: #f4f5f7; --book-fold-border: #d5d9de; }
html[data-theme=dark] { --book-fold-text: #c3c9d1; --book-fold-bg: #1d2229; --book-fold-border: #3a424c; }

/* Numbers in prose: a computed number reads as part of the sentence, not as code. */
code.literal.book-num { font-family: inherit; font-size: inherit; color: inherit;
  background: none; border: 0; padding: 0; font-variant-numeric: tabular-nums lining-nums;
  white-space: nowrap; }

/* The errata table on a phone: each entry becomes a card, every column labelled. */
@media (max-width: 720px) {
  table.book-errata, table.book-errata tbody, table.book-errata tr, table.book-errata td {
    display: block; width: 100% !important; }
  table.book-errata colgroup, table.book-errata thead { display: none; }
  table.book-errata tr { margin: 0 0 1em; border: 1px solid var(--pst-color-border);
    border-radius: 0.5rem; padding: 0.3em 0.8em; }
  table.book-errata td { border: 0; padding: 0.3em 0; overflow-wrap: anywhere; }
  table.book-errata td::before { display: block; font-weight: 700; font-size: 0.85em;
    color: var(--pst-color-text-muted); }
  table.book-errata td:nth-child(1)::before { content: "The source says"; }
  table.book-errata td:nth-child(2)::before { content: "Source"; }
  table.book-errata td:nth-child(3)::before { content: "The book measures"; }
  table.book-errata td:nth-child(4)::before { content: "Where"; }
}

/* The bibliography: each entry under its author-year label, the form the text cites. */
div.citation-list > div.citation { margin: 0 0 0.9em; }
div.citation-list > div.citation > span.label { float: none; display: block; font-weight: 700; }
div.citation-list > div.citation > p { margin-left: 1.5em; }

/* On a phone a figure is shrunk to the column and its text falls below 11 px: a tap opens it
   at the size its text was set for (its 1x width), to scroll and pinch; Escape, the button or
   a tap on the backdrop closes it. */
@media (max-width: 720px) {
  html body .bd-content div.cell_output img.book-figure, html body .book-slider img { cursor: zoom-in; } }
dialog.book-zoom { padding: 0; border: 0; width: 100vw; height: 100vh; max-width: 100vw;
  max-height: 100vh; margin: 0; background: #fff; color: #1a1a1a; }
dialog.book-zoom::backdrop { background: rgba(0, 0, 0, 0.6); }
dialog.book-zoom > div { overflow: auto; width: 100%; height: calc(100% - 52px); }
dialog.book-zoom img { display: block; max-width: none !important; height: auto !important;
  background: #fff; filter: none !important; margin: 0 auto; }
dialog.book-zoom > button { display: block; width: 100%; min-height: 52px; border: 0;
  border-top: 1px solid #d5d9de; background: #f4f5f7; color: #1a1a1a; font: inherit; }

/* The glossary's A-Z line. */
nav.book-az { display: flex; flex-wrap: wrap; gap: 0.1em; margin: 0.5em 0 1.5em; }
nav.book-az a, nav.book-az span { display: inline-block; min-width: 1.55em; padding: 0.35em 0;
  text-align: center; border-radius: 0.3em; text-decoration: none; font-weight: 700; }
nav.book-az span { color: var(--pst-color-text-muted); font-weight: 400; opacity: 0.6; }
nav.book-az a:hover, nav.book-az a:focus-visible { background: var(--pst-color-surface); }
"""

# The page's own script: sliders re-sync with their thumbs when a page is shown again
# (the browser restores a thumb after Back but not the label and figure), and on every
# input; a link to a cell opens that cell's folded checks.
BOOK_JS = """\
(function () {
  function sync(r) {
    var data = r.querySelector('script[type="application/json"]'), img = r.querySelector('img');
    if (!data || !img) return;
    var f = r.bookFrames || (r.bookFrames = JSON.parse(data.textContent));
    if (!f.frames) return;  // a slider drawn from data: book/chart.js keeps it in step
    var ins = r.querySelectorAll('input[type=range]'), key = [];
    for (var i = 0; i < ins.length; i++) {
      var n = +ins[i].value, lab = f.labels[i][n], out = r.querySelector('output[for="' + ins[i].id + '"]');
      key.push(n);
      ins[i].setAttribute('aria-valuetext', lab);
      if (out) out.textContent = lab;
    }
    var fr = f.frames[key.join(',')];
    if (fr && img.getAttribute('src') !== fr[0]) { img.src = fr[0]; img.alt = fr[1]; }
  }
  function syncAll() { document.querySelectorAll('.book-slider').forEach(sync); }
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1)), el = id && document.getElementById(id);
    if (el) el.querySelectorAll('details.book-checks').forEach(function (d) { d.open = true; });
  }
  document.addEventListener('DOMContentLoaded', function () { syncAll(); openTarget(); });
  window.addEventListener('pageshow', syncAll);
  window.addEventListener('hashchange', openTarget);
  document.addEventListener('input', function (e) {
    var r = e.target.closest && e.target.closest('.book-slider');
    if (r) sync(r);
  });
  // A phone: a tapped figure opens at its 1x width, where its text is the size it was set for.
  var narrow = window.matchMedia('(max-width: 720px)');
  function zoom(img) {
    var d = document.createElement('dialog'), box = document.createElement('div'),
        big = document.createElement('img'), close = document.createElement('button');
    d.className = 'book-zoom';
    d.setAttribute('aria-label', 'Enlarged figure');
    big.src = img.getAttribute('src');
    big.alt = img.alt;
    big.style.width = (+img.getAttribute('width') || img.naturalWidth) + 'px';
    close.type = 'button';
    close.textContent = 'Close';
    close.addEventListener('click', function () { d.close(); });
    d.addEventListener('click', function (e) { if (e.target === d) d.close(); });
    d.addEventListener('keydown', function (e) {
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); d.close(); }
    });
    d.addEventListener('close', function () { d.remove(); img.focus && img.focus(); });
    box.appendChild(big);
    d.appendChild(box);
    d.appendChild(close);
    document.body.appendChild(d);
    d.showModal();
  }
  document.addEventListener('click', function (e) {
    var img = e.target.closest && e.target.closest(
      '.bd-content div.cell_output img.book-figure, .book-slider img');
    if (img && narrow.matches && !img.closest('dialog')) zoom(img);
  });
  // Exercises (book/exercises.py): an answer box checks the reader's answer against the
  // key the page computed and carries (data-key), with no kernel and nothing fetched.
  function verdict(box, raw) {
    var d = box.dataset, s = String(raw).trim();
    if (d.choices !== undefined) {
      if (!s) return [null, 'choose an answer first'];
      return s === d.key ? [true, 'right: ' + s] : [false, 'wrong: ' + s + ' is not the answer'];
    }
    var v = Number(s.replace(/\u2212/g, '-').replace(/,/g, ''));
    if (!s || !isFinite(v)) return [null, 'type a number, such as 0.5 (you typed "' + s + '")'];
    var key = Number(d.key), tol = Number(d.tol), off = v - key;
    // a number with the unit, singular after exactly 1, by book.fmt.counted's rule
    function n(x) {
      var u = d.unit || '';
      if (String(x) === '1' && /^[a-z]{2,}[^s]s$/.test(u)) u = u.slice(0, -1);
      return u ? x + ' ' + u : String(x);
    }
    if (Math.abs(off) <= tol * (1 + 1e-9) + 1e-12)
      return [true, 'right: ' + n(v) + (tol ? ' is within \u00b1 ' + n(d.tol) + ' of the key' : ' is the key, exactly')];
    return [false, 'wrong: ' + n(v) + ' is ' + n(Number(Math.abs(off).toPrecision(3))) + ' ' +
      (off > 0 ? 'above' : 'below') + ' the key (' + (tol ? 'right within \u00b1 ' + n(d.tol) : 'right only exactly') + ')'];
  }
  function exerciseBox(box) {
    if (box.querySelector('form')) return;
    var d = box.dataset, id = 'answer-' + d.id.replace(/\\./g, '-'), f = document.createElement('form');
    var lab = document.createElement('label'), inp, btn = document.createElement('button'),
        out = document.createElement('p');
    f.className = 'book-exercise-form';
    lab.setAttribute('for', id);
    lab.textContent = 'Your answer to exercise ' + d.id + (d.unit ? ' (' + d.unit + ')' : '');
    if (d.choices !== undefined) {
      inp = document.createElement('select');
      var none = document.createElement('option');
      none.value = ''; none.textContent = 'choose';
      inp.appendChild(none);
      d.choices.split('|').forEach(function (c) {
        var o = document.createElement('option'); o.value = c; o.textContent = c; inp.appendChild(o);
      });
    } else {
      inp = document.createElement('input');
      inp.type = 'text'; inp.setAttribute('inputmode', 'decimal'); inp.autocomplete = 'off';
      inp.size = 10;
    }
    inp.id = id;
    btn.type = 'submit'; btn.textContent = 'Check';
    out.className = 'book-exercise-result';
    out.setAttribute('role', 'status'); out.setAttribute('aria-live', 'polite');
    f.appendChild(lab); f.appendChild(inp); f.appendChild(btn); f.appendChild(out);
    f.addEventListener('submit', function (e) {
      e.preventDefault();
      var r = verdict(box, inp.value);
      out.textContent = r[1];
      out.dataset.right = r[0] === null ? '' : String(r[0]);
    });
    box.insertBefore(f, box.firstChild);
  }
  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('.book-exercise[data-key]').forEach(exerciseBox);
  });
})();
// The article header's sidebar buttons (the ones a reader sees) open the navigation and
// the page's contents. pydata-sphinx-theme 0.17 and sphinx-book-theme 1.3 each bind
// only the first .primary-toggle and .secondary-toggle of a page, which since 0.17 are
// the hidden navbar copies (pydata-sphinx-theme#2451, sphinx-book-theme#988): on a phone
// the visible buttons did nothing. A click on a visible one is handed to its first
// copy, so the themes' own handlers run: the modal drawer on a narrow screen, the
// collapsed sidebar on a wide one.
document.addEventListener('click', function (e) {
  var b = e.target.closest && e.target.closest('.primary-toggle, .secondary-toggle');
  if (!b) return;
  var first = document.querySelector(
    b.classList.contains('primary-toggle') ? '.primary-toggle' : '.secondary-toggle');
  if (!first || first === b) return;
  e.preventDefault();
  e.stopPropagation();
  first.click();
});
// The theme's Bootstrap (bootstrap.js, 24 KB compressed) draws the header buttons'
// tooltips and opens the download menu. The page names it (<script type="book/on-demand">,
// workshop/site/sphinxext.py) and it loads here the first time a pointer, a finger or
// the keyboard focus reaches an element that needs it ([data-bs-toggle]). A click or
// arrow key that comes before it has loaded is held and given to it once it has; the
// button under the pointer or in focus then gets the event Bootstrap waits for, so its
// tooltip shows as it would have.
(function () {
  var state = 'waiting', held = [], hovered = null, focused = null;
  // (the tag is at the end of the body, which this script in the head runs before)
  function named() { return document.querySelector('script[type="book/on-demand"]'); }
  function load() {
    var tag = named();
    if (state !== 'waiting' || !tag) return;
    state = 'loading';
    var s = document.createElement('script');
    s.src = tag.getAttribute('data-src');
    s.onload = function () {
      state = 'loaded';
      if (hovered) hovered.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
      if (focused) focused.dispatchEvent(new FocusEvent('focusin', {bubbles: true}));
      held.splice(0).forEach(function (f) { f(); });
    };
    s.onerror = function () { state = 'waiting'; };
    document.head.appendChild(s);
  }
  function wants(e) { return e.target.closest && e.target.closest('[data-bs-toggle]'); }
  function reach(e) { if (state === 'waiting' && wants(e)) load(); }
  document.addEventListener('mouseover', function (e) { hovered = wants(e); reach(e); }, true);
  document.addEventListener('focusin', function (e) { focused = wants(e); reach(e); }, true);
  document.addEventListener('focusout', function () { focused = null; }, true);
  document.addEventListener('pointerdown', reach, true);
  document.addEventListener('touchstart', reach, {capture: true, passive: true});
  function hold(e, replay) {
    var t = state !== 'loaded' && named() && e.target.closest &&
        e.target.closest('[data-bs-toggle="dropdown"]');
    if (!t) return;
    e.preventDefault();
    e.stopPropagation();
    held.push(function () { replay(t); });
    load();
  }
  document.addEventListener('click', function (e) {
    hold(e, function (t) { t.click(); });
  }, true);
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') hold(e, function (t) {
      t.dispatchEvent(new KeyboardEvent('keydown', {key: e.key, bubbles: true, cancelable: true}));
    });
  }, true);
  // The back-to-top button, wired as the theme's bootstrap.js wires it (shown while the
  // reader scrolls back up below the header); Bootstrap's own copy takes over once loaded.
  document.addEventListener('DOMContentLoaded', function () {
    var btn = document.getElementById('pst-back-to-top'),
        header = document.getElementsByClassName('bd-header')[0];
    if (!btn || !header) return;
    var bottom = header.getBoundingClientRect().bottom, last;
    btn.addEventListener('click', function () {
      if (state === 'loaded') return;
      document.body.scrollTop = 0;
      document.documentElement.scrollTop = 0;
    });
    window.addEventListener('scroll', function () {
      if (state === 'loaded') return;
      btn.style.display = last > window.scrollY && window.scrollY > bottom ? 'block' : 'none';
      last = window.scrollY;
    });
  });
})();
"""


def _copy(src: Path, dst: Path) -> None:
    if not src.exists():
        sys.exit(f"site_assets: {src} is missing; run `npm ci --ignore-scripts` first")
    if src.is_dir():
        shutil.copytree(src, dst, dirs_exist_ok=True)
    else:
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)


#: How the site's faces are cut (and a page's own cut of one, workshop/site/page_fonts.py,
#: so that it draws the same glyphs): kerning, ligatures, tabular and lining figures.
CUT = dict(
    layout_features=("kern", "liga", "tnum", "lnum"),
    name_ids=(1, 2, 4, 6),
    desubroutinize=True,
)


def face_source(pkg: str, stem: str) -> Path:
    """The npm font file a face of FACES is cut from."""
    return NODE / "@fontsource" / pkg / "files" / f"{stem}.woff2"


def subset_font(src: Path, dst: Path, unicodes: str) -> int:
    data = page_fonts.subset_font(src, subset.parse_unicodes(unicodes), **CUT)
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(data)
    return len(data)


def fonts() -> list[str]:
    css = []
    for family, pkg, stem, weight, style in FACES:
        src = face_source(pkg, stem)
        if not src.exists():
            sys.exit(
                f"site_assets: {src} is missing; run `npm ci --ignore-scripts` first"
            )
        subset_font(src, OUT / "fonts" / f"{stem}.woff2", LATIN)
        # The unicode-range matters: without it the browser takes these faces to cover
        # every character, and never asks for the per-page faces that
        # carry Greek, kana or Hangul.
        css.append(
            f"@font-face {{ font-family: '{family}'; font-style: {style}; "
            f"font-weight: {weight};\n"
            f"  font-display: swap; src: url('fonts/{stem}.woff2') format('woff2');\n"
            f"  unicode-range: {LATIN.replace(',', ', ')}; }}"
        )
    css.append(""":root {
  --pst-font-family-base: 'IBM Plex Sans', system-ui, sans-serif;
  --pst-font-family-heading: 'IBM Plex Sans', system-ui, sans-serif;
  --pst-font-family-monospace: 'IBM Plex Mono', 'IBM Plex Sans', ui-monospace,
    monospace;
}""")
    return css


def main() -> None:
    OUT.mkdir(exist_ok=True)
    shutil.rmtree(OUT / "mathjax", ignore_errors=True)  # left by older builds
    (OUT / "fonts.css").write_text("\n".join(fonts()) + "\n", encoding="utf-8")
    (OUT / "book.css").write_text(BOOK_CSS + READER_CSS, encoding="utf-8")
    (OUT / "book.js").write_text(BOOK_JS, encoding="utf-8")
    sizes = {p.name: p.stat().st_size for p in (OUT / "fonts").glob("*.woff2")}
    sans = sum(v for k, v in sizes.items() if "sans" in k)
    print(
        f"site-assets: four Plex Sans faces {sans} bytes, Plex Mono "
        f"{sum(sizes.values()) - sans} bytes"
    )


if __name__ == "__main__":
    main()
