"""Math drawn at build time: every formula becomes an inline SVG (MathJax 3's own TeX
and SVG output, run in node from node_modules/mathjax), so no page loads MathJax.

A math page used to fetch MathJax's 263 KB (gzip) script and its fonts and then typeset
in the reader's browser; the same formulas as SVG paths weigh 27 KB on 48.4, the page
with the most math, and appear with the text. Each SVG carries MathJax's assistive
MathML, so a screen reader reads the formula. The SVG draws in `currentColor`, so dark
mode needs nothing.

`html_math_renderer = "book_svg"` (set by this extension) replaces sphinx.ext.mathjax's
visitors with the two below; a TeX error fails the build (-W) with the formula named.
One node process serves a whole build; each distinct formula is converted once.
A glyph's outline is written once a page (`share_glyphs`, `glyph_defs`): the formulas
point at it with <use>, which took the glossary's HTML from 81 to 52 KB (gzip).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

from workshop.config import ROOT

logger = logging.getLogger(__name__)
SCRIPT = Path(__file__).with_name("static") / "tex2svg.cjs"
CSS_NAME = "math-svg.css"


#: MathJax's local font cache: each formula's <defs> holds the paths of its glyphs,
#: numbered per formula ("MJX-7-TEX-I-1D465"); the same glyph has the same path.
_DEFS = re.compile(r"<defs>(.*?)</defs>", re.S)
_GLYPH = re.compile(r'<path id="MJX-\d+-(TEX-[A-Z0-9]+-[0-9A-F]+)" d="([^"]*)"></path>')
_HREF = re.compile(r'xlink:href="#MJX-\d+-(TEX-[A-Z0-9]+-[0-9A-F]+)"')


def share_glyphs(html: str) -> tuple[str, dict[str, str]]:
    """A formula's SVG with its glyph definitions taken out, its uses pointing at the
    page's one copy ("#mjx-TEX-I-1D465"), and those glyphs {key: path}. A page then
    carries each glyph once (`glyph_defs`), not once per formula."""
    glyphs: dict[str, str] = {}
    for block in _DEFS.findall(html):
        for key, d in _GLYPH.findall(block):
            glyphs[key] = d
    html = _DEFS.sub("", html)
    html = _HREF.sub(lambda m: f'xlink:href="#mjx-{m.group(1)}"', html)
    if "MJX-" in html:  # a MathJax id this module did not rewrite
        raise ValueError(f"math: an SVG id was left unshared in {html[:80]!r}")
    return html, glyphs


def glyph_defs(glyphs: dict[str, str]) -> str:
    """One hidden SVG that defines a page's glyphs, for its formulas' <use>."""
    paths = "".join(
        f'<path id="mjx-{key}" d="{d}"></path>' for key, d in sorted(glyphs.items())
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false" '
        'style="position:absolute;width:0;height:0;overflow:hidden">'
        f"<defs>{paths}</defs></svg>"
    )


class TeX:
    """A node process that turns TeX into SVG, one formula a request."""

    def __init__(self, root: Path = ROOT):
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("workshop.site.math needs node (Node 20) on PATH")
        if not (root / "node_modules" / "mathjax").is_dir():
            raise RuntimeError(
                f"workshop.site.math: {root / 'node_modules' / 'mathjax'} is missing; "
                "run `make install` (npm ci)"
            )
        self.proc = subprocess.Popen(
            [node, str(SCRIPT), str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.css = self._read()["css"]
        self.cache: dict[tuple[str, bool], tuple[str, dict[str, str]]] = {}

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("workshop.site.math: the TeX process stopped")
        return json.loads(line)

    def svg(self, tex: str, display: bool) -> str:
        """The formula's SVG; its glyphs are in `glyphs(tex, display)`."""
        return self._get(tex, display)[0]

    def glyphs(self, tex: str, display: bool) -> dict[str, str]:
        return self._get(tex, display)[1]

    def _get(self, tex: str, display: bool) -> tuple[str, dict[str, str]]:
        if not isinstance(tex, str) or not tex.strip():
            raise ValueError(f"math: empty formula {tex!r}")
        key = (tex, display)
        if key not in self.cache:
            self.proc.stdin.write(json.dumps({"tex": tex, "display": display}) + "\n")
            self.proc.stdin.flush()
            reply = self._read()
            if "error" in reply:
                raise ValueError(f"math: TeX error {reply['error']!r} in {tex!r}")
            self.cache[key] = share_glyphs(reply["html"])
        return self.cache[key]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)


_tex: TeX | None = None


def tex() -> TeX:
    global _tex
    if _tex is None:
        _tex = TeX()
    return _tex


#: The glyphs each page's formulas use, {docname: {key: path}}, filled as the page is
#: written and emptied into the page by `_defs` (html-page-context).
_page_glyphs: dict[str, dict[str, str]] = {}


def _svg_or_warn(self, node, tex_text: str, display: bool) -> str:
    try:
        svg = tex().svg(tex_text, display)
    except ValueError as e:
        logger.warning(str(e), location=node)
        return self.encode(tex_text)
    page = _page_glyphs.setdefault(self.builder.current_docname, {})
    page.update(tex().glyphs(tex_text, display))
    return svg


def visit_math(self, node: nodes.math) -> None:
    self.body.append(self.starttag(node, "span", "", CLASS="math"))
    self.body.append(_svg_or_warn(self, node, node.astext(), False))
    self.body.append("</span>")
    raise nodes.SkipNode


def _display_tex(node) -> str:
    """What sphinx.ext.mathjax would typeset: equations split on blank lines aligned,
    one with line breaks split."""
    parts = [p for p in node.astext().split("\n\n") if p.strip()]
    parts = [rf"\begin{{split}}{p}\end{{split}}" if r"\\" in p else p for p in parts]
    if len(parts) > 1:
        return r"\begin{aligned}" + r"\\".join(parts) + r"\end{aligned}"
    return parts[0] if parts else ""


def visit_displaymath(self, node: nodes.math_block) -> None:
    from sphinx.util.math import get_node_equation_number

    self.body.append(self.starttag(node, "div", CLASS="math"))
    if node.get("number"):
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, "Link to this equation")
        self.body.append("</span>")
    tex_text = node.astext() if node.get("nowrap") else _display_tex(node)
    self.body.append(_svg_or_warn(self, node, tex_text, True))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def _choose(app, config) -> None:
    config.html_math_renderer = "book_svg"


def _css(app, pagename, templatename, context, doctree) -> None:
    """The SVG output's small stylesheet, on pages with math only."""
    domain = app.env.get_domain("math")
    if domain.has_equations(pagename):
        app.add_css_file(CSS_NAME)


def _defs(app, pagename, templatename, context, doctree) -> None:
    """The page's glyphs, defined once at the top of its body."""
    glyphs = _page_glyphs.pop(pagename, None)
    if glyphs and "body" in context:
        context["body"] = glyph_defs(glyphs) + context["body"]


def _write_css(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        out = Path(app.outdir) / "_static" / CSS_NAME
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(tex().css, encoding="utf-8")
    if _tex is not None:
        _tex.close()


def setup(app):
    app.add_html_math_renderer(
        "book_svg", (visit_math, None), (visit_displaymath, None)
    )
    app.connect("config-inited", _choose)
    app.connect("html-page-context", _css)
    app.connect("html-page-context", _defs)
    app.connect("build-finished", _write_css)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
