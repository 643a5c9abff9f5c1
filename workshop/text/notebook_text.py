"""Reading notebooks for the prose tests: the numbers a page quotes and
the text its cells print."""

from __future__ import annotations

import json
import re
from pathlib import Path

from workshop.config import ROOT, notebooks, toc_docs  # noqa: F401 (for the tests)
from workshop.site.sphinxext import NUMBER, cell_output_text

# A backticked span counts as a quoted number when it is made of numbers and the few
# signs that go with them: `0.389`, `< 1e-15`, `26x`, `0.81`-`0.90`,
# `2/3`, `12.5%`, `3 x 10^5`.
NUMBER_SPAN = re.compile(
    r"^[\s<>=~≈±+\-−×x*/^()%,.:0-9eE]*\d[\s<>=~≈±+\-−×x*/^()%,.:0-9eE]*$"
)
BACKTICKS = re.compile(r"``?([^`\n]+?)``?")
FENCE = re.compile(r"^(```|~~~|:::).*?^\1\s*$", re.S | re.M)
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
LINK = re.compile(
    r"\[[^\]]*\]\([^)]*\)|\b48\.\d{1,2}\b|\{[a-z:]+\}`[^`]*`|<[^>]+>|\[[^\]]*\]\{[^}]*\}"
)
DATA_URI = re.compile(r"data:image/[a-z+]+;base64,[A-Za-z0-9+/=]+")
# A product or version name is not a measured number: "Llama 3.1",
# "Python 3.11", "version 2.0".
VERSION = re.compile(r"\b(?:[A-Z][A-Za-z]*|version|v)[ -]?\d+(?:\.\d+)+\b")
LOOSE_DECIMAL = re.compile(r"(?<![\w.`/-])\d+\.\d+(?![\w.`])")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def output_text(cell) -> str:
    text = cell_output_text(
        cell, ("text/plain", "text/html", "text/markdown", "text/latex")
    )
    return DATA_URI.sub("data:", text)


def haystack(nb: dict) -> str:
    """Everything a quoted number may come from: outputs, and code
    cells (for given inputs)."""
    chunks = []
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            chunks.append(source(c))
            chunks.append(output_text(c))
    return "\n".join(chunks)


def prose(nb: dict) -> str:
    return "\n".join(source(c) for c in nb["cells"] if c["cell_type"] == "markdown")


def canonical(tok: str) -> str:
    return tok.replace(",", "")


def numbers_in(text: str) -> set[str]:
    return {canonical(m.group(0)) for m in NUMBER.finditer(text)}


# `d = 1024`, `w = 1.8904`, `max p ≈ 0.968`: a name given a number
# counts as a quoted number too.
ASSIGNED = re.compile(
    r"^[A-Za-z_][\w\s,()/.]*?\s*(?:=|≈|<=|>=|<|>)\s*([-−+]?[\d.,]+(?:[eE][-+]?\d+)?%?)$"
)


def quoted_numbers(md: str) -> list[tuple[str, str]]:
    """(span, number) for each number inside a backticked number span of the prose."""
    md = FENCE.sub("", md)
    found = []
    for m in BACKTICKS.finditer(md):
        span = m.group(1).strip()
        if NUMBER_SPAN.match(span):
            found += [(span, canonical(n)) for n in NUMBER.findall(span)]
        elif a := ASSIGNED.match(span):
            found += [(span, canonical(n)) for n in NUMBER.findall(a.group(1))]
    return found


def loose_decimals(md: str) -> list[str]:
    """Decimals in running prose that are not in backticks, math, links or code."""
    md = FENCE.sub("", md)
    md = BACKTICKS.sub("", md)
    md = MATH.sub("", md)
    md = LINK.sub("", md)
    md = VERSION.sub("", md)
    return LOOSE_DECIMAL.findall(md)


def number_present(num: str, hay_numbers: set[str]) -> bool:
    if num in hay_numbers:
        return True
    # `0.50` in prose may be printed as 0.5, and `1e-15` as 1e-15 or 1.0e-15.
    try:
        v = float(num)
    except ValueError:
        return False
    return any(_close_repr(v, h) for h in hay_numbers)


def _close_repr(v: float, h: str) -> bool:
    try:
        return float(h) == v
    except ValueError:
        return False


# --------------------------------------------------------------------------------------
# What the reader sees, section by section.
#
# A page is cut into sections at its `## ` headings (the title and opening are section
# 0). A number quoted in the prose of section s must be printed by an output of a code
# cell in section s or earlier, or be written as a literal input (an assignment or a
# call's argument, not a comment, not a string, not a plotting knob) in a code cell of
# section s or earlier. Boxes (``` {admonition}, :::{note}, any MyST directive but
# code and math) are prose.
# --------------------------------------------------------------------------------------

SECTION_HEADING = re.compile(r"^##\s")
# Directives whose body is not prose: code shown but not run, maths, raw output.
NOT_PROSE_DIRECTIVES = {
    "code",
    "code-block",
    "code-cell",
    "sourcecode",
    "math",
    "raw",
    "literalinclude",
    "eval-rst",
    "mermaid",
}
_FENCE_OPEN = re.compile(r"^(\s*)(`{3,}|~{3,}|:{3,})\s*(\{([\w:-]+)\})?(.*)$")


def prose_lines(md: str) -> str:
    """The prose of a markdown cell: code fences dropped, directive bodies kept.

    A fence that opens a directive other than code or maths (``:::{admonition} Title``,
    ```` ```{note} ````) keeps its body and its title; its
    `:option:` lines are dropped."""
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # (fence marker, body is prose)
    for line in md.splitlines():
        stripped = line.strip()
        if stack:
            marker, is_prose = stack[-1]
            if stripped == marker[0] * len(stripped) and len(stripped) >= len(marker):
                stack.pop()
                continue
        m = _FENCE_OPEN.match(line)
        in_prose = all(p for _, p in stack)
        if m and (not stack or in_prose):
            marker, name, rest = m.group(2), m.group(4), m.group(5)
            if name is None:
                is_prose = False  # ```python, ```text, a bare fence: code
            else:
                is_prose = name not in NOT_PROSE_DIRECTIVES
            stack.append((marker, is_prose))
            if is_prose and rest.strip():
                out.append(rest.strip())  # the box's title is prose
            continue
        if not in_prose:
            continue
        if stack and re.match(r"^\s*:[\w-]+:", line):
            continue  # a directive option, `:class: dropdown`
        out.append(line)
    return "\n".join(out)


def sectioned(nb: dict) -> list[tuple[int, int, str, str]]:
    """(section, cell index, cell type, text) for the notebook, markdown cut at `## `.

    For markdown the text is the prose (see prose_lines) of the part of the cell under
    one heading; for code cells it is the cell's source."""
    section = 0
    out = []
    for i, c in enumerate(nb["cells"]):
        if c["cell_type"] == "markdown":
            chunk: list[str] = []
            in_code_fence = False
            for line in source(c).splitlines():
                if re.match(r"^\s*(```|~~~)", line):
                    in_code_fence = (
                        not in_code_fence
                        if not line.strip()[3:].startswith("{")
                        else in_code_fence
                    )
                if not in_code_fence and SECTION_HEADING.match(line):
                    if chunk:
                        out.append(
                            (section, i, "markdown", prose_lines("\n".join(chunk)))
                        )
                    section += 1
                    chunk = [line]
                else:
                    chunk.append(line)
            if chunk:
                out.append((section, i, "markdown", prose_lines("\n".join(chunk))))
        elif c["cell_type"] == "code":
            out.append((section, i, "code", source(c)))
    return out


def section_prose(nb: dict) -> list[tuple[int, str]]:
    return [(s, t) for s, _, kind, t in sectioned(nb) if kind == "markdown"]


def all_prose(nb: dict) -> str:
    """Everything the reader reads in markdown cells, boxes included."""
    return "\n".join(t for _, t in section_prose(nb))


# Units a backticked number may carry; each family converts within itself.
UNITS = {
    "B": ("bytes", 1),
    "byte": ("bytes", 1),
    "bytes": ("bytes", 1),
    "KB": ("bytes", 1e3),
    "kB": ("bytes", 1e3),
    "MB": ("bytes", 1e6),
    "GB": ("bytes", 1e9),
    "TB": ("bytes", 1e12),
    "KiB": ("bytes", 1024),
    "MiB": ("bytes", 1024**2),
    "GiB": ("bytes", 1024**3),
    "ns": ("seconds", 1e-9),
    "µs": ("seconds", 1e-6),
    "us": ("seconds", 1e-6),
    "ms": ("seconds", 1e-3),
    "s": ("seconds", 1),
    "%": ("percent", 1),
    "x": ("times", 1),
    "×": ("times", 1),
}
_UNIT_ALT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
# A number then a unit: `54.4 KB`, `12 %`, `26x`; `3 x 10^5` is not
# a unit (x then a digit). The number starts where its digits start and is taken whole
# (an atomic group): no unit begins with a digit, a comma, a point or an e, so giving
# digits back could never let a unit follow, and trying it made the slider data of
# 48-04 (460 KB of numbers) take 3 s to scan, 0.3 s now. Same matches.
NUMBER_UNIT = re.compile(
    r"(?<!\d)(?>(\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?))[ \u00a0]?"
    r"((?:" + _UNIT_ALT + r")(?<![x×])(?![\w.])|[x×](?![\w]|[ \t]*\d))"
)
UNIT_SPAN = re.compile(
    r"^[\s<>=~≈±+\-−]*\d[\d.,eE+\-]*[ \u00a0]?(?:" + _UNIT_ALT + r")"
    r"(?:\s*(?:-|–|to|/)\s*\d[\d.,eE+\-]*[ \u00a0]?(?:" + _UNIT_ALT + r")?)?\s*$"
)


def quoted(md: str) -> list[tuple[str, str, str | None]]:
    """(span, number, unit or None) for each number in a
    backticked number span of prose.

    `md` is prose already (see prose_lines); inline code spans that are not numbers are
    skipped, as are numbers in links and math."""
    found = []
    for m in BACKTICKS.finditer(md):
        span = m.group(1).strip()
        if NUMBER_SPAN.match(span) or UNIT_SPAN.match(span):
            body = span
        elif a := ASSIGNED.match(span):
            body = a.group(1)
        else:
            continue
        units = {u.start(1): u.group(2) for u in NUMBER_UNIT.finditer(body)}
        for n in NUMBER.finditer(body):
            found.append((span, canonical(n.group(0)), units.get(n.start())))
    return found


def output_pairs(text: str) -> set[tuple[str, str | None]]:
    """(number, unit) for each number an output prints; unit None when none follows."""
    pairs = {(canonical(m.group(0)), None) for m in NUMBER.finditer(text)}
    pairs |= {(canonical(m.group(1)), m.group(2)) for m in NUMBER_UNIT.finditer(text)}
    return pairs


_PLOT_CALLS = {
    "set_ylim",
    "set_xlim",
    "set_zlim",
    "ylim",
    "xlim",
    "set_xticks",
    "set_yticks",
    "set_xticklabels",
    "set_yticklabels",
    "axhline",
    "axvline",
    "axhspan",
    "axvspan",
    "text",
    "annotate",
    "legend",
    "figure",
    "subplots",
    "new_figure",
    "show",
    "set_title",
    "suptitle",
    "tick_params",
    "colorbar",
    "set_size_inches",
    "subplots_adjust",
    "margins",
    "grid",
    "set_aspect",
    "set_position",
}
_PLOT_KWARGS = {
    "alpha",
    "lw",
    "linewidth",
    "ms",
    "markersize",
    "fontsize",
    "size",
    "s",
    "zorder",
    "width",
    "height",
    "figsize",
    "dpi",
    "pad",
    "labelpad",
    "ls",
    "linestyle",
    "bottom",
    "top",
    "left",
    "right",
    "xytext",
    "vmin",
    "vmax",
    "aspect",
    "rotation",
    "ncol",
    "bins",
    "capsize",
    "elinewidth",
    "headwidth",
    "shrink",
    "fraction",
    "frameon",
    "loc",
}


def _py(code: str) -> str:
    # IPython magics and shell escapes are not Python.
    return "\n".join(
        "" if re.match(r"^\s*[%!]", line) else line for line in code.splitlines()
    )


def code_inputs(code: str) -> set[float]:
    """The numeric literals a code cell writes as inputs:
    assignments, arguments, expressions.

    Comments and strings are not inputs, and neither are plotting knobs (axis limits,
    line widths, figure sizes, label positions) nor the arguments of new_figure/show."""
    import ast

    try:
        tree = ast.parse(_py(code))
    except SyntaxError:
        return set()
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in _PLOT_CALLS:
                skip |= {id(n) for n in ast.walk(node)}
            for kw in node.keywords:
                if kw.arg in _PLOT_KWARGS:
                    skip |= {id(n) for n in ast.walk(kw.value)}
        if isinstance(node, ast.JoinedStr):
            skip |= {id(n) for n in ast.walk(node)}
    vals = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and id(node) not in skip
            and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)
        ):
            vals.add(float(node.value))
    return vals


class Evidence:
    """What a section may quote: the outputs and literal inputs
    of its code, and earlier."""

    def __init__(self, nb: dict):
        self.sections = sectioned(nb)
        self.pairs: dict[int, set] = {}
        self.inputs: dict[int, set] = {}
        self.out_text: dict[int, list[str]] = {}
        cells = nb["cells"]
        for s, i, kind, text in self.sections:
            self.pairs.setdefault(s, set())
            self.inputs.setdefault(s, set())
            self.out_text.setdefault(s, [])
            if kind == "code":
                out = output_text(cells[i])
                self.pairs[s] |= output_pairs(out)
                self.out_text[s].append(out)
                self.inputs[s] |= code_inputs(text)

    def upto(self, s: int) -> tuple[set, set]:
        pairs, inputs = set(), set()
        for k in self.pairs:
            if k <= s:
                pairs |= self.pairs[k]
                inputs |= self.inputs[k]
        return pairs, inputs


def _decimals(num: str) -> int:
    mant = num.split("e")[0].split("E")[0]
    return len(mant.split(".")[1]) if "." in mant else 0


def _same(num: str, h: str) -> bool:
    if num == h:
        return True
    try:
        return float(num) == float(h)
    except ValueError:
        return False


def supported(num: str, unit: str | None, pairs: set, inputs: set) -> bool:
    """Is a quoted number (with its unit) printed by `pairs`, or written as an input?"""
    try:
        v = float(num)
    except ValueError:
        return False
    if unit is None:
        return any(_same(num, h) for h, _ in pairs) or v in inputs
    fam, factor = UNITS[unit]
    for h, u in pairs:
        if u is None:
            continue
        if u == unit or (UNITS[u] == UNITS[unit]):
            if _same(num, h):
                return True
        if UNITS[u][0] == fam and fam in ("bytes", "seconds"):
            # The output's number converts: 55,700 bytes is `55.7 KB`.
            conv = float(h) * UNITS[u][1] / factor
            if round(conv, _decimals(num)) == v:
                return True
    # An input with a unit: `lr = 3 ms` is rare; only bare-number inputs count.
    return False


def unsupported_numbers(nb: dict) -> list[str]:
    """The backticked numbers of a page that no output (or input) of their section or
    an earlier one supports, each as `span` (section n)."""
    ev = Evidence(nb)
    bad = []
    for s, text in section_prose(nb):
        pairs, inputs = ev.upto(s)
        for span, num, unit in quoted(text):
            if not supported(num, unit, pairs, inputs):
                bad.append(f"`{span}` (section {s})")
    return list(dict.fromkeys(bad))


# --------------------------------------------------------------------------------------
# Numbers typed into figure titles, alt text and slider labels.
# --------------------------------------------------------------------------------------

# Result-like: a decimal, a percentage, a ratio ("34x", "34×") or e-notation.
RESULT_LIKE = re.compile(
    r"(?<![\w.])(\d+(?:,\d{3})*\.\d+(?:[eE][-+]?\d+)?%?|\d+(?:\.\d+)?[eE][-+]?\d+"
    r"|\d+(?:,\d{3})*(?:\.\d+)?\s?%|\d+(?:\.\d+)?[x×](?![\w]))"
)
FIGURE_CALLS = {"new_figure": "title", "show": "alt", "slider": "alt"}


def _literal_parts(node) -> list[str]:
    """The typed text of a string expression: constant strings and the constant parts of
    f-strings (replacement fields are computed, so they are
    left out), through + and ()."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [
            v.value
            for v in node.values
            if isinstance(v, ast.Constant) and isinstance(v.value, str)
        ]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _literal_parts(node.left) + _literal_parts(node.right)
    if isinstance(node, ast.Lambda):
        return _literal_parts(node.body)
    if isinstance(node, ast.IfExp):
        return _literal_parts(node.body) + _literal_parts(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "format":  # "... {d}".format(...): the fields are computed
            return [
                re.sub(r"\{[^{}]*\}", "", p) for p in _literal_parts(node.func.value)
            ]
    return []


def yaml_quote(s: str) -> str:
    """`s` as a double-quoted YAML string (the pending lists' entries)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def figure_text_parts(
    code: str, calls=tuple(FIGURE_CALLS)
) -> list[tuple[str, list[str]]]:
    """(call, typed pieces) for each title of new_figure and alt of show and slider in
    `code` (of the calls named in `calls`): the literal pieces of that one argument."""
    import ast

    try:
        tree = ast.parse(_py(code))
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        if name not in calls:
            continue
        args = []
        if name == "new_figure" and node.args:
            args.append(node.args[0])
        if name in ("show", "slider") and len(node.args) >= 2:
            args.append(node.args[1])
        args += [kw.value for kw in node.keywords if kw.arg in ("title", "alt")]
        out += [(name, _literal_parts(a)) for a in args]
    return out


def figure_text_literals(code: str) -> list[tuple[str, str]]:
    """(call, typed text) for the title of new_figure, the alt of show and slider."""
    out = []
    for name, parts in figure_text_parts(code):
        for text in parts:
            # slider alt is a format string over the knobs: {d} is computed
            text = re.sub(r"\{[^{}]*\}", "", text) if name == "slider" else text
            out.append((name, text))
    return out


def typed_figure_numbers(nb: dict) -> list[tuple[str, str]]:
    """(number, context) for result-like numbers typed into titles, alt text and slider
    labels that are not literal inputs somewhere in the notebook's code."""
    inputs: set[float] = set()
    codes = [source(c) for c in nb["cells"] if c["cell_type"] == "code"]
    for code in codes:
        inputs |= code_inputs(code)
    found = []
    for code in codes:
        for call, text in figure_text_literals(code):
            text = VERSION.sub("", text)  # "Llama 3.1" is a name, not a result
            for m in RESULT_LIKE.finditer(text):
                tok = m.group(1)
                bare = re.sub(r"[%x×\s]", "", tok).replace(",", "")
                try:
                    if float(bare) in inputs:
                        continue
                except ValueError:
                    pass
                ctx = text[max(0, m.start() - 30) : m.end() + 20].replace("\n", " ")
                found.append((tok, f"{call}: ...{ctx}..."))
    return found
