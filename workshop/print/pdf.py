"""The whole book as one PDF, printed offline by Debian's chromium
from the single-page build.

    python -m workshop.print.pdf                 # _build/pdf/NAME.pdf (make pdf)
    python -m workshop.print.pdf --page URL OUT  # print one built page the same way (the make test smoke)

Why the browser and not LaTeX: every figure and slider is an HTML output (a data-URI
PNG), which LaTeX drops, and LaTeX also wants 1.4 GB of fonts and rejects TeX that
MathJax accepts. Chromium prints what the site shows: the same fonts (Plex, the per-page
CJK subsets), MathJax, figures.

Steps: jupyter-book builds the single-page HTML from the stored outputs (execution off,
as the test build); a loopback server serves it, and every request to another host is
refused; the page is given a title page, a contents list, a page per part and one line
under each slider saying what it varies (its controls are hidden by
workshop/site/static/print.css); the print is made twice, the first to learn on which page each
chapter starts, for the contents. A JSON summary is written beside it.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

from workshop import config
from workshop.config import ROOT, SITE
from workshop.site.sphinxext import pdf_name

OUT = config.PDF_OUT
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MARGIN = {"top": "16mm", "bottom": "18mm", "left": "16mm", "right": "16mm"}
FOOTER = (
    '<div style="width:100%;font-size:7.5pt;color:#555;padding:0 16mm;display:flex;'
    'justify-content:space-between;font-family:sans-serif"><span>{short}</span>'
    '<span class="pageNumber"></span></div>'
)


def book_meta(root: Path = ROOT) -> dict:
    cfg = config.config(root)
    return {
        "title": cfg.get("title", ""),
        "author": cfg.get("author", ""),
        "copyright": str(cfg.get("copyright", "")),
        "parts": [p["caption"] for p in config.parts(root)],
        "chapters": config.toc_docs(root),
    }


def chapter_title(root: Path, doc: str) -> str:
    """A chapter's title as its source spells it: the first `# `
    heading, markup dropped."""
    nb, md = root / f"{doc}.ipynb", root / f"{doc}.md"
    if nb.exists():
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        text = "\n".join(
            "".join(c["source"]) for c in cells if c["cell_type"] == "markdown"
        )
    else:
        text = md.read_text(encoding="utf-8")
    m = re.search(r"^# (.+)$", text, re.M)
    return re.sub(r"[`*_]", "", m.group(1)).strip() if m else doc


# Runs in the page: one line under each slider saying what it varies and where it is
# printed at (print.css hides the controls, which would be dead widgets on
# paper). Returns how many.
SLIDER_LINES = r"""() => {
  let n = 0;
  for (const s of document.querySelectorAll('.book-slider')) {
    if (s.querySelector('.book-slider-print')) { n += 1; continue; }
    const data = JSON.parse(s.querySelector('script[type="application/json"]').textContent);
    // a knob's label either wraps its input and output, or (a slider with names=) stands
    // beside them with a range after the name: read each by the input's id
    const knobs = [...s.querySelectorAll('.book-slider-controls input[type=range]')]
      .map((r, i) => {
        const lab = s.querySelector(`label[for="${r.id}"]`);
        const out = s.querySelector(`output[for="${r.id}"]`);
        return {name: lab ? lab.firstChild.textContent.trim() : r.id, values: data.labels[i],
                shown: out ? out.textContent.trim() : r.getAttribute('aria-valuetext')};
      });
    const varies = knobs.map(k => `${k.name} over ${k.values.join(', ')}`).join(', and ');
    const shown = knobs.map(k => `${k.name} = ${k.shown}`).join(', ');
    const line = document.createElement('p');
    line.className = 'book-slider-print';
    line.textContent = `On the site this figure is a slider: it varies ${varies}. Printed at ${shown}.`;
    s.querySelector('img').before(line);
    n += 1;
  }
  return n;
}"""

# Runs in the page: the book's front matter, part pages and slider
# lines. Returns what it saw.
PREPARE = r"""(meta) => {
  const article = document.querySelector('article.bd-article');
  const intro = article.querySelector(':scope > section');
  const wrappers = [...article.querySelectorAll('div.toctree-wrapper')];
  if (wrappers.length !== meta.parts.length)
    throw new Error(`${wrappers.length} toctree parts in the page, ${meta.parts.length} in _toc.yml`);
  document.title = meta.title;
  document.documentElement.classList.add('book-pdf');
  const el = (tag, cls, html) => { const e = document.createElement(tag);
    if (cls) e.className = cls; if (html !== undefined) e.innerHTML = html; return e; };
  const esc = s => s.replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));
  const title = el('section', 'book-pdf-title');
  title.append(el('h1', '', esc(meta.title)), el('p', '', esc(meta.author)),
               el('p', '', '&copy; ' + esc(meta.copyright)));
  const contents = el('nav', 'book-pdf-contents'); contents.id = 'book-pdf-contents';
  contents.append(el('h1', '', 'Contents'));
  const list = el('ol'); contents.append(list);
  const entry = (cls, id, text) => { const li = el('li', cls);
    li.innerHTML = `<a href="#${id}"><span class="title">${esc(text)}</span><span class="dots"></span>` +
                   `<span class="page" data-for="${id}">000</span></a>`; list.append(li); };
  const introTitle = intro.querySelector('h1').textContent.replace(/#$/, '').trim();
  intro.classList.add('book-pdf-intro');
  entry('chapter', intro.id, introTitle);
  const chapters = [];
  wrappers.forEach((w, i) => {
    const part = el('div', 'book-pdf-part'); part.id = `book-pdf-part-${i + 1}`;
    part.append(el('h1', '', esc(meta.parts[i])));
    w.prepend(part);
    entry('part', part.id, meta.parts[i]);
    for (const sec of w.querySelectorAll(':scope > section')) {
      sec.classList.add('book-pdf-chapter');
      const h = sec.querySelector('h2');
      const text = h.textContent.replace(/#$/, '').trim();
      chapters.push({id: sec.id, title: text});
      entry('chapter', sec.id, text);
    }
  });
  article.prepend(title, contents);
  const sliders = (__SLIDER_LINES__)();
  return {chapters, sliders, figures: document.querySelectorAll('img.book-figure').length,
          images: article.querySelectorAll('img').length, intro: {id: intro.id, title: introTitle}};
}"""

PREPARE = PREPARE.replace("__SLIDER_LINES__", SLIDER_LINES)

# Runs in the page after the print media is on: waits for MathJax, fonts and images,
# then reports the typeset formulas and any code block still wider than
# its box (clipped on paper).
SETTLE = r"""async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  await document.fonts.ready;
  await Promise.all([...document.images].map(i => i.decode().catch(() => null)));
  const wide = [...document.querySelectorAll('article pre')].filter(p => p.scrollWidth > p.clientWidth + 1);
  // folded code (a hide-input cell's input) that the print would still lay out
  const folded = [...document.querySelectorAll('div.cell.tag_hide-input .cell_input')]
    .filter(e => e.getClientRects().length > 0);
  return {math: document.querySelectorAll('mjx-container').length,
          wide_code: wide.map(p => p.textContent.slice(0, 60)),
          folded_code: folded.length};
}"""


def _serve(directory: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{httpd.server_address[1]}", httpd.shutdown


def _browser(p):
    return p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


def _offline(page, refused: list):
    def route(r):
        host = urlparse(r.request.url).hostname
        if host in ("127.0.0.1", "localhost") or r.request.url.startswith("data:"):
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort()

    page.route("**/*", route)


def _pdf(page, path: Path, short: str):
    page.pdf(
        path=str(path),
        format="A4",
        print_background=True,
        margin=MARGIN,
        outline=True,
        tagged=True,
        display_header_footer=True,
        header_template="<span></span>",
        footer_template=FOOTER.format(short=short),
    )


def page_of_destinations(path: Path) -> dict[str, int]:
    """Named destination -> 1-based page: chromium names one for
    each #id a link points at."""
    from pypdf import PdfReader

    r = PdfReader(str(path))
    return {
        str(name).lstrip("/"): r.get_destination_page_number(d) + 1
        for name, d in r.named_destinations.items()
    }


_TOKENS = re.compile(
    rb"/([^\s/<>\[\]()]+)\s+[-\d.]+\s+Tf|<([0-9A-Fa-f\s]*)>\s*Tj|\[([^\]]*)\]\s*TJ"
    rb"|/([^\s/<>\[\]()]+)\s+Do\b"
)


def inspect(path: Path) -> dict:
    """What a reader's viewer would find: pages, outline, images drawn, fonts, links,
    and any glyph drawn as .notdef (glyph 0 of a CID font: the box or blank a
    missing character prints as)."""
    from pypdf import PdfReader
    from pypdf.generic import IndirectObject

    r = PdfReader(str(path))
    outline = []

    def walk(items, depth):
        for it in items:
            if isinstance(it, list):
                walk(it, depth + 1)
            else:
                outline.append((depth, str(it.title)))

    walk(r.outline, 0)
    fonts, notdef, draws = {}, {}, []

    def font_info(ref):
        f = ref.get_object()
        sub = str(f.get("/Subtype"))
        desc = (f["/DescendantFonts"][0].get_object() if sub == "/Type0" else f).get(
            "/FontDescriptor"
        )
        desc = desc.get_object() if desc is not None else {}
        embedded = sub == "/Type3" or any(
            k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")
        )
        return {
            "name": str(f.get("/BaseFont", "[type 3]")).lstrip("/"),
            "subtype": sub,
            "embedded": embedded,
        }

    def key(ref):
        return ref.idnum if isinstance(ref, IndirectObject) else id(ref)

    def scan(data: bytes, res, page_no):
        fmap, xmap = {}, {}
        for name, ref in (res.get("/Font") or {}).items():
            if key(ref) not in fonts:
                fonts[key(ref)] = font_info(ref)
            fmap[name.lstrip("/")] = key(ref)
        for name, ref in (res.get("/XObject") or {}).items():
            xmap[name.lstrip("/")] = ref
        current = None
        for m in _TOKENS.finditer(data):
            # An XObject drawn: an image, or a form holding more.
            if m.group(4) is not None:
                ref = xmap.get(m.group(4).decode("latin-1"))
                x = ref.get_object() if ref is not None else None
                if x is not None and x.get("/Subtype") == "/Image":
                    draws.append((page_no, key(ref)))
                elif x is not None and x.get("/Subtype") == "/Form":
                    scan(x.get_data(), x.get("/Resources") or res, page_no)
                continue
            if m.group(1) is not None:
                current = fmap.get(m.group(1).decode("latin-1"))
                continue
            if current is None or fonts[current]["subtype"] != "/Type0":
                continue
            hexes = (
                [m.group(2)]
                if m.group(2) is not None
                else re.findall(rb"<([0-9A-Fa-f\s]*)>", m.group(3))
            )
            for h in hexes:
                h = re.sub(rb"\s", b"", h)
                if any(h[i : i + 4] == b"0000" for i in range(0, len(h), 4)):
                    notdef.setdefault(fonts[current]["name"], set()).add(page_no)

    links, broken = 0, []
    dests = r.named_destinations
    for i, page in enumerate(r.pages, start=1):
        contents = page.get_contents()
        scan(
            contents.get_data() if contents is not None else b"",
            page.get("/Resources") or {},
            i,
        )
        for a in page.get("/Annots") or []:
            a = a.get_object()
            d = a.get("/Dest")
            if d is None and a.get("/A") is not None:
                d = a["/A"].get_object().get("/D")
            if d is None:
                continue
            links += 1
            if (
                not isinstance(d, list)
                and str(d) not in dests
                and str(d).lstrip("/") not in dests
            ):
                broken.append((i, str(d)))
    return {
        "pages": len(r.pages),
        "outline": outline,
        "images": len(draws),
        "image_pages": [p for p, _ in draws],
        "fonts": sorted(
            {(f["name"], f["subtype"], f["embedded"]) for f in fonts.values()}
        ),
        "notdef": {k: sorted(v) for k, v in notdef.items()},
        "destinations": len(dests),
        "internal_links": links,
        "broken_links": broken,
    }


def print_page(url: str, out: Path, short: str = "") -> dict:
    """Print one built page as it is (the smoke test's route): same
    browser, same stylesheet."""
    from playwright.sync_api import sync_playwright

    refused: list[str] = []
    with sync_playwright() as p:
        b = _browser(p)
        page = b.new_page()
        _offline(page, refused)
        page.goto(url, wait_until="load", timeout=120_000)
        sliders = page.evaluate(SLIDER_LINES)
        page.emulate_media(media="print")
        seen = page.evaluate(SETTLE)
        _pdf(page, out, short)
        b.close()
    return {**seen, "sliders": sliders, "refused": refused}


def build_html(out: Path) -> Path:
    cfg = out / "config.yml"
    config.test_config(cfg)
    subprocess.run(
        [
            str(Path(sys.executable).parent / "jupyter-book"),
            "build",
            ".",
            "--builder",
            "singlehtml",
            "-W",
            "--keep-going",
            "--config",
            str(cfg),
            "--path-output",
            str(out / "src"),
        ],
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    return out / "src" / "_build" / "singlehtml"


def _only(pages: dict, keys: list) -> dict:
    return {k: pages.get(k) for k in keys}


FILL_CONTENTS = """(pages) => {
  for (const s of document.querySelectorAll('.book-pdf-contents .page'))
    s.textContent = pages[s.dataset.for] || ''; }"""


def book(out: Path = OUT) -> dict:
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader

    t0 = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    site = build_html(out)
    t_html = time.perf_counter() - t0
    meta = book_meta()
    target = out / pdf_name(ROOT)
    base, stop = _serve(site)
    refused: list[str] = []
    try:
        with sync_playwright() as p:
            b = _browser(p)
            page = b.new_page(viewport={"width": 1000, "height": 1400})
            _offline(page, refused)
            page.goto(f"{base}/intro.html", wait_until="load", timeout=180_000)
            seen = page.evaluate(PREPARE, meta)
            page.emulate_media(media="print")
            seen.update(page.evaluate(SETTLE))
            short = meta["title"].split(":")[0]
            # Print, write each chapter's page into the contents, print again: the
            # numbers can reflow the contents and move every chapter, so repeat until
            # a print puts every chapter where the contents says (three rounds at most).
            # Only the contents' entries count: a glossary term's anchor near a page
            # break was measured to land one page apart from one print to the next.
            listed = page.evaluate(
                "() => [...document.querySelectorAll('.book-pdf-contents .page')]"
                ".map(s => s.dataset.for)"
            )
            with tempfile.TemporaryDirectory() as tmp:
                trial = Path(tmp) / "trial.pdf"
                _pdf(page, trial, short)
                pages = _only(page_of_destinations(trial), listed)
                for _ in range(3):
                    page.evaluate(FILL_CONTENTS, pages)
                    _pdf(page, trial, short)
                    now = _only(page_of_destinations(trial), listed)
                    if now == pages:
                        break
                    pages = now
            _pdf(page, target, short)
            b.close()
    finally:
        stop()
    reader = PdfReader(str(target))
    starts = page_of_destinations(target)
    seen.update(
        {
            "pdf": str(target.relative_to(ROOT)),
            "html": str((site / "intro.html").relative_to(ROOT)),
            "pages": len(reader.pages),
            "bytes": target.stat().st_size,
            "seconds": round(time.perf_counter() - t0, 1),
            "html_seconds": round(t_html, 1),
            "refused": refused,
            "contents_pages_stable": all(starts.get(k) == v for k, v in pages.items()),
        }
    )
    (out / "summary.json").write_text(json.dumps(seen, indent=1), encoding="utf-8")
    html = SITE
    if html.is_dir():  # the site's download menu links _static/<name>.pdf
        (html / "_static").mkdir(exist_ok=True)
        shutil.copy2(target, html / "_static" / target.name)
    return seen


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--page", nargs=2, metavar=("URL", "OUT"), help="print one built page"
    )
    a = ap.parse_args(argv)
    if a.page:
        print(json.dumps(print_page(a.page[0], Path(a.page[1]))))
        return
    s = book()
    if s["refused"]:
        sys.exit(f"pdf: the page asked other hosts for {s['refused'][:5]}")
    print(
        f"pdf: {s['pdf']}: {s['pages']} pages, {s['bytes'] / 1e6:.1f} MB, "
        f"{s['figures']} figures, {s['sliders']} sliders, {len(s['chapters'])} "
        f"chapters, in {s['seconds']} s (html {s['html_seconds']} s)"
    )


if __name__ == "__main__":
    main()
