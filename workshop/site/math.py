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
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

from workshop.config import ROOT

logger = logging.getLogger(__name__)
SCRIPT = Path(__file__).with_name("static") / "tex2svg.cjs"
CSS_NAME = "math-svg.css"


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
        self.cache: dict[tuple[str, bool], str] = {}

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("workshop.site.math: the TeX process stopped")
        return json.loads(line)

    def svg(self, tex: str, display: bool) -> str:
        if not isinstance(tex, str) or not tex.strip():
            raise ValueError(f"math: empty formula {tex!r}")
        key = (tex, display)
        if key not in self.cache:
            self.proc.stdin.write(json.dumps({"tex": tex, "display": display}) + "\n")
            self.proc.stdin.flush()
            reply = self._read()
            if "error" in reply:
                raise ValueError(f"math: TeX error {reply['error']!r} in {tex!r}")
            self.cache[key] = reply["html"]
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


def _svg_or_warn(self, node, tex_text: str, display: bool) -> str:
    try:
        return tex().svg(tex_text, display)
    except ValueError as e:
        logger.warning(str(e), location=node)
        return self.encode(tex_text)


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
    app.connect("build-finished", _write_css)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
