"""Fit every code line of the notebooks and the .py files into 88 columns, same code.

Run it from the repository root, on any state of the repository, as often as you like
(a second run changes nothing):

    .venv/bin/python tools/wrap_lines.py && .venv/bin/ruff format . && make sync

`make fmt` does the same (it runs this tool first). Give paths to limit it to some
files: `python tools/wrap_lines.py notebooks/part1/08-attention.ipynb book/fmt.py`. If
you edited a MyST twin (notebooks/**/*.md), run `make sync` before, so the .ipynb holds
your edit.
The `# @save` cells and the book/taught*.py that tools/save.py makes of them get the
same wrapping; `python tools/save.py --check` confirms it (`make save` if it complains).

Only lines wider than 88 columns (ruff's line-length, as wide as ruff counts) are
touched, and only in the code cells of the .ipynb files (the .md twins follow through
`make sync`) and in the .py files git knows:

- a trailing comment moves to its own line(s) above the statement, same indent, wrapped;
- a full-line comment is re-wrapped with the comment lines of its paragraph, same
  indent; a rule of dashes (`# fmt -----`) is shortened;
- a string literal inside brackets (any prefix; f-strings too, which Python 3.11 reads
  as one token) is split into adjacent literals at spaces, each with the same prefix,
  never inside an f-string replacement field {...}: implicit concatenation gives the
  same value;
- a docstring paragraph is re-wrapped (whitespace inside the docstring changes, nothing
  else).

Then ruff format (run here on the files it changed, round after round until nothing
moves) lays the pieces out. Every change proves itself: each split string must evaluate
(ast.literal_eval) or parse (ast.dump) to the same thing as the original literal, and
each whole cell or file must give the same ast.dump as before (docstrings compared with
their whitespace collapsed) and carry the same comment words; otherwise that cell or
file is left as it was and reported. Outputs and cell ids are never touched. Lines it
cannot fit (a long string outside brackets, a long line inside a multi-line string, a
word wider than the line) are listed as file:line at the end, for a person to fix.

    python tools/wrap_lines.py --verify REV   # compare every cell and file with git REV

--verify repeats the proof for the whole working tree against a git revision (the code
of every .py file and notebook code cell, the cell ids and the stored outputs) and exits
1 on any difference.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import shutil
import subprocess
import sys
import tokenize
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 88
PRAGMA = re.compile(r"#\s*(noqa|type:|fmt:|pragma|pylint:|nosec|isort:|ruff:|mypy:)")
LIST_ITEM = re.compile(r"([-*+]|\d+[.)])\s")
RULE = re.compile(r"([-=*#~_+.])\1{7,}$")
SKIP = (
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.ENDMARKER,
    tokenize.INDENT,
    tokenize.DEDENT,
)
STRING_START = re.compile(r"([A-Za-z]*)('''|\"\"\"|'|\")")


def width(s: str) -> int:
    """Columns as ruff counts them: wide East Asian characters take two."""
    n = 0
    for c in s:
        if unicodedata.combining(c):
            continue
        n += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return n


def too_wide(line: str) -> bool:
    """What ruff calls too long: wider than the limit and more than one word (a lone
    word may run on). The tool tries to fit every wider line, and reports these."""
    return width(line) > LIMIT and len(line.split()) > 1


# fingerprints: what must not change ---------------------------------------------------


def _is_docstring_holder(node: ast.AST) -> bool:
    return isinstance(
        node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    )


def _docstring(node: ast.AST) -> ast.Constant | None:
    body = getattr(node, "body", None)
    if (
        _is_docstring_holder(node)
        and body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        return body[0].value
    return None


def code_fingerprint(src: str) -> str:
    """ast.dump of the source with adjacent string parts joined and docstring whitespace
    collapsed: equal fingerprints mean the same program."""
    tree = ast.parse(src)
    for node in ast.walk(tree):
        doc = _docstring(node)
        if doc is not None:
            doc.value = " ".join(doc.value.split())
        if isinstance(node, ast.JoinedStr):
            values: list[ast.expr] = []
            for v in node.values:
                if (
                    values
                    and isinstance(v, ast.Constant)
                    and isinstance(values[-1], ast.Constant)
                ):
                    values[-1] = ast.Constant(values[-1].value + v.value)
                else:
                    values.append(v)
            node.values = values
    return ast.dump(tree)


def comment_words(src: str) -> list[str]:
    """The words of every comment, in order (a rule of dashes counts as four dashes)."""
    words = []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            for w in tok.string.lstrip("#").split():
                words.append(re.sub(r"([-=*#~_+.])\1{3,}", r"\1\1\1\1", w))
    return words


def same_code(old: str, new: str) -> bool:
    try:
        return code_fingerprint(old) == code_fingerprint(new) and comment_words(
            old
        ) == comment_words(new)
    except (SyntaxError, tokenize.TokenError, ValueError):
        return False


# wrapping words -----------------------------------------------------------------------


def wrap_words(words: list[str], first: int, rest: int, last_reserve: int = 0):
    """Greedy: lines of words, the first at most `first` columns wide, the others
    `rest`, the last leaving `last_reserve` columns free (for closing quotes). None if a
    word alone is too wide."""
    lines: list[list[str]] = [[]]
    for w in words:
        cur = lines[-1]
        avail = first if len(lines) == 1 else rest
        if cur and width(" ".join([*cur, w])) > avail:
            lines.append([w])
        else:
            cur.append(w)
    while True:
        avail = first if len(lines) == 1 else rest
        if width(" ".join(lines[-1])) + last_reserve <= avail or len(lines[-1]) < 2:
            break
        lines.append([lines[-1].pop()])
    out = [" ".join(ws) for ws in lines]
    for i, s in enumerate(out):
        avail = first if i == 0 else rest
        if width(s) + (last_reserve if i == len(out) - 1 else 0) > avail:
            return None
    return out


MIN_LAST = 24  # a wrapped last line (or last string piece) this wide is no orphan


def even_tail(wrap, first: int, rest: int, last_width):
    """wrap(first, rest), the widths cut just enough that its last line is no orphan
    (MIN_LAST columns wide) in as few lines; as even as it gets if none is."""
    lines = wrap(first, rest)
    if lines is None or len(lines) < 2 or last_width(lines) >= MIN_LAST:
        return lines
    best = lines
    for cut in range(1, min(first, rest)):
        tighter = wrap(first - cut, rest - cut)
        if tighter is None or len(tighter) > len(lines):
            break
        best = tighter
        if last_width(best) >= MIN_LAST:
            break
    return best


def wrap_text(words: list[str], first: int, rest: int, last_reserve: int = 0):
    """wrap_words, then the last two lines evened out if the last is an orphan."""
    lines = wrap_words(words, first, rest, last_reserve)
    if lines is None or len(lines) < 2 or width(lines[-1]) >= MIN_LAST:
        return lines
    tail = " ".join(lines[-2:]).split()
    even = even_tail(
        lambda f, r: wrap_words(tail, f, r, last_reserve),
        first if len(lines) == 2 else rest,
        rest,
        lambda ls: width(ls[-1]),
    )
    return lines[:-2] + even


def comment_lines(text: str, indent: str, lead: str = "# ", cont: str | None = None):
    cont = lead if cont is None else cont
    avail_first = LIMIT - width(indent + lead)
    avail_rest = LIMIT - width(indent + cont)
    lines = wrap_text(text.split(), avail_first, avail_rest)
    if lines is None:
        return None
    return [indent + (lead if i == 0 else cont) + s for i, s in enumerate(lines)]


# splitting string literals ------------------------------------------------------------


def split_points(body: str, is_f: bool, is_raw: bool) -> list[int] | None:
    """Offsets in the literal's body where a new piece may start: after a space and
    before a non-space, or between two f-string replacement fields (`{a}{b}`); never
    inside a field or an escape. None if unreadable."""
    points = []
    i, n = 0, len(body)
    field_end = -1
    while i < n:
        c = body[i]
        if c != " " and i > 0 and body[i - 1] == " ":
            points.append(i)
        if c == "\\" and not is_raw:
            if body.startswith("N{", i + 1):
                j = body.find("}", i)
                if j < 0:
                    return None
                i = j + 1
            else:
                i += 2
            continue
        if is_f and c in "{}":
            if body.startswith(c * 2, i):
                i += 2
                continue
            if c == "}":
                return None
            if i == field_end and body[i - 1] != " ":
                points.append(i)
            i = field_end = _skip_field(body, i)
            if i is None:
                return None
            continue
        i += 1
    return points


def _skip_field(body: str, i: int) -> int | None:
    """From the `{` opening a replacement field, the offset just past its `}`."""
    depth = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c in "'\"":
            q = body[i : i + 3] if body.startswith(c * 3, i) else c
            j = body.find(q, i + len(q))
            if j < 0:
                return None
            i = j + len(q)
            continue
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def split_string(
    tok: str, first: int, rest: int, last_reserve: int
) -> list[str] | None:
    """The literal `tok` as adjacent literals, the first at most `first` columns wide,
    the others `rest`; the last leaves `last_reserve` free. None if it cannot be split
    or the pieces would not mean exactly the same."""
    m = STRING_START.match(tok)
    if not m or len(m.group(2)) == 3 or "\n" in tok or tok[-1] != m.group(2):
        return None
    prefix, q = m.groups()
    body = tok[len(prefix) + 1 : -1]
    points = split_points(body, "f" in prefix.lower(), "r" in prefix.lower())
    if not points:
        return None
    extra = len(prefix) + 2

    def greedy(start: int, first: int, rest: int) -> list[str]:
        pieces, avail = [], first
        while True:
            if width(body[start:]) + extra + last_reserve <= avail:
                pieces.append(body[start:])
                return pieces
            later = [p for p in points if p > start]
            if not later:
                pieces.append(body[start:])
                return pieces
            fits = [p for p in later if width(body[start:p]) + extra <= avail]
            cut = fits[-1] if fits else later[0]
            pieces.append(body[start:cut])
            start, avail = cut, rest

    pieces = greedy(0, first, rest)
    if len(pieces) >= 2 and width(pieces[-1]) + extra < MIN_LAST:  # even the last two
        head = pieces[:-2]
        start = sum(len(p) for p in head)
        pieces = head + even_tail(
            lambda f, r: greedy(start, f, r),
            first if not head else rest,
            rest,
            lambda ps: width(ps[-1]) + extra,
        )
    if len(pieces) < 2:
        return None
    out = [f"{prefix}{q}{p}{q}" for p in pieces]
    return out if same_literal(tok, out) else None


def same_literal(tok: str, pieces: list[str]) -> bool:
    """Do the adjacent literals `pieces` mean what `tok` (one or more literals) does?"""
    old, new = f"({tok})", "(" + " ".join(pieces) + ")"
    try:
        if "f" not in STRING_START.match(tok).group(1).lower():
            return ast.literal_eval(old) == ast.literal_eval(new)
        return ast.dump(ast.parse(old, mode="eval")) == ast.dump(
            ast.parse(new, mode="eval")
        )
    except (SyntaxError, ValueError):
        return False


# one source ---------------------------------------------------------------------------


@dataclass
class Result:
    source: str
    fixed: int = 0  # long lines fixed
    unfixed: list[tuple[int, str]] = field(default_factory=list)  # (line, why)
    error: str = ""


class _Lines:
    """Tokens of one source, indexed by line."""

    def __init__(self, src: str):
        self.lines = src.split("\n")
        self.toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
        self.on_row: dict[int, list[tuple[tokenize.TokenInfo, int]]] = {}
        self.inside_string: set[int] = set()  # rows a multi-line token runs into
        depth = 0
        for t in self.toks:
            if t.type == tokenize.OP and t.string in "([{":
                depth += 1
            elif t.type == tokenize.OP and t.string in ")]}":
                depth -= 1
            if t.type in SKIP:
                continue
            self.on_row.setdefault(t.start[0], []).append((t, depth))
            self.inside_string.update(range(t.start[0] + 1, t.end[0] + 1))
        self.docstrings: set[tuple[int, int]] = set()
        for node in ast.walk(ast.parse(src)):
            doc = _docstring(node)
            if doc is not None:
                self.docstrings.add((doc.lineno, doc.end_lineno))

    def clean(self, row: int) -> bool:
        """Can a comment line go just above this row?"""
        if row in self.inside_string:
            return False
        prev = self.on_row.get(row - 1, [])
        text = self.lines[row - 2] if row >= 2 else ""
        ends_code = not prev or prev[-1][0].type != tokenize.COMMENT
        return not (text.rstrip().endswith("\\") and ends_code)

    def long(self, row: int) -> bool:
        return width(self.lines[row - 1]) > LIMIT


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _comment_paragraph(lx: _Lines, row: int, col: int):
    """Rows a..b and new lines for the comment paragraph holding the long comment at
    row."""
    lines = lx.lines
    indent = lines[row - 1][:col]

    def para_text(r: int) -> str | None:
        if not 1 <= r <= len(lines) or r in lx.inside_string:
            return None
        toks = lx.on_row.get(r, [])
        if len(toks) != 1 or toks[0][0].type != tokenize.COMMENT:
            return None
        if toks[0][0].start[1] != col or lines[r - 1][:col] != indent:
            return None
        m = re.match(r"# (\S.*)$", lines[r - 1][col:])
        if not m or PRAGMA.match(lines[r - 1][col:]) or RULE.search(m.group(1)):
            return None
        return m.group(1)

    text = lines[row - 1][col:]
    rule = RULE.search(text)
    if rule:  # `# name ------`: shorten the rule
        keep = LIMIT - width(lines[row - 1][: col + rule.start()])
        if keep >= 3:
            return (
                row,
                row,
                [lines[row - 1][: col + rule.start()] + rule.group(1) * keep],
            )
    if para_text(row) is None:  # `#text`, `#   indented`: wrap this line alone
        m = re.match(r"(#+\s*)(.*)$", text)
        new = comment_lines(m.group(2), indent, m.group(1))
        return (row, row, new) if new else None
    a = b = row
    while para_text(a - 1) is not None and not LIST_ITEM.match(para_text(a)):
        a -= 1
    while para_text(b + 1) is not None and not LIST_ITEM.match(para_text(b + 1)):
        b += 1
    texts = [para_text(r) for r in range(a, b + 1)]
    item = LIST_ITEM.match(texts[0])
    cont = "# " + " " * (len(item.group(0)) if item else 0)
    new = comment_lines(" ".join(texts), indent, "# ", cont)
    return (a, b, new) if new else None


def _trailing_comment(lx: _Lines, row: int, tok: tokenize.TokenInfo):
    if PRAGMA.match(tok.string):
        return None
    above = row
    while not lx.clean(above):
        above -= 1
    indent = _indent(lx.lines[above - 1])
    new = comment_lines(tok.string.lstrip("#").strip(), indent)
    if not new:
        return None
    code = lx.lines[row - 1][: tok.start[1]].rstrip()
    return above, row, new + lx.lines[above - 1 : row - 1] + [code]


def _docstring_fix(lx: _Lines, tok: tokenize.TokenInfo):
    (a, c), (b, e) = tok.start, tok.end
    lines = lx.lines
    lead = lines[a - 1][:c]
    if lead.strip():
        return None
    m = STRING_START.match(tok.string)
    prefix, q = m.groups()
    if len(q) != 3:
        return None
    opening = lead + prefix + q
    body = tok.string[len(prefix) + 3 : -3].split("\n")
    suffix = q + lines[b - 1][e:]
    n = len(body)

    def full(k: int) -> str:
        s = (opening if k == 0 else "") + body[k]
        return s + suffix if k == n - 1 else s

    special = re.compile(r"(>>>|\.\. |[|]|:\w+:)")

    def text(k: int) -> str | None:
        """Line k without the docstring's indent; None unless it is text at that
        indent."""
        s = body[k]
        if k > 0:
            if _indent(s) != lead:
                return None
            s = s[len(lead) :]
        if not s.strip() or s != s.lstrip() or special.match(s) or s.endswith("\\"):
            return None
        return s

    new_body: list[str] = []
    k = 0
    changed = False
    while k < n:
        t = text(k)
        if t is None:  # blank, indented, code example, table: kept as it is
            new_body.append(body[k])
            k += 1
            continue
        item = LIST_ITEM.match(t)
        hang = lead + " " * len(item.group(0)) if item else lead
        j = k
        while j + 1 < n:
            nxt = body[j + 1]
            if item:
                ok = _indent(nxt) == hang and text(j + 1) is None and nxt.strip()
                ok = ok and not special.match(nxt.strip()) and not nxt.endswith("\\")
            else:
                ok = text(j + 1) is not None and not LIST_ITEM.match(text(j + 1))
            if not ok:
                break
            j += 1
        if any(width(full(i)) > LIMIT for i in range(k, j + 1)):
            words = " ".join(body[i].strip() for i in range(k, j + 1)).split()
            first = LIMIT - width(opening if k == 0 else lead)
            reserve = width(suffix) if j == n - 1 else 0
            wrapped = wrap_text(words, first, LIMIT - width(hang), reserve)
            if wrapped is None:
                return None
            new_body += [
                s if k == 0 and i == 0 else (lead if i == 0 else hang) + s
                for i, s in enumerate(wrapped)
            ]
            changed = True
        else:
            new_body += body[k : j + 1]
        k = j + 1
    if not changed:
        return None
    text = opening + "\n".join(new_body) + suffix
    return a, b, text.split("\n")


def _flowing_group(lx: _Lines, t: tokenize.TokenInfo) -> list[tokenize.TokenInfo]:
    """`t` and the literals after it that continue its text: each alone on the start of
    the next line, same prefix and quotes, the one before ending in a space."""
    group = [t]
    i = lx.toks.index(t)
    m = STRING_START.match(t.string)
    while True:
        j = i + 1
        while j < len(lx.toks) and lx.toks[j].type == tokenize.NL:
            j += 1
        if j >= len(lx.toks):
            return group
        nxt, last = lx.toks[j], group[-1]
        row = nxt.start[0]
        if (
            nxt.type != tokenize.STRING
            or row != last.end[0] + 1
            or nxt.end[0] != row
            or lx.lines[row - 1][: nxt.start[1]].strip()
            or STRING_START.match(nxt.string).groups() != m.groups()
            or len(m.group(2)) == 3
            or not last.string[len(m.group(1)) + 1 : -1].endswith(" ")
        ):
            return group
        group.append(nxt)
        i = j


def _string_fix(lx: _Lines, row: int):
    """Split the long literal on this row, reflowing the literals that continue it."""
    line = lx.lines[row - 1]
    cands = [
        t
        for t, depth in lx.on_row.get(row, [])
        if t.type == tokenize.STRING and depth > 0 and t.end[0] == row
    ]
    cands.sort(key=lambda t: (width(line[: t.end[1]]) <= LIMIT, -len(t.string)))
    cont = _indent(line)
    for t in cands:
        c = t.start[1]
        group = _flowing_group(lx, t)
        m = STRING_START.match(t.string)
        n = len(m.group(0))
        merged = m.group(0) + "".join(g.string[n:-1] for g in group) + m.group(2)
        end_row, e = group[-1].end
        tail = lx.lines[end_row - 1][e:]
        pieces = split_string(
            merged, LIMIT - width(line[:c]), LIMIT - width(cont), width(tail.rstrip())
        )
        if pieces and same_literal(" ".join(g.string for g in group), pieces):
            new = line[:c] + ("\n" + cont).join(pieces) + tail
            return row, end_row, new.split("\n")
    return None


def _fix_row(lx: _Lines, row: int):
    """(first row, last row, new lines) for one long row, or a reason it stays."""
    toks = lx.on_row.get(row, [])
    if row in lx.inside_string and not toks:
        for a, b in lx.docstrings:
            if a < row <= b:
                t = next(t for t, _ in lx.on_row[a] if t.type == tokenize.STRING)
                return _docstring_fix(lx, t) or "docstring paragraph that is not prose"
        return "inside a multi-line string"
    for t, _ in toks:
        if t.type == tokenize.COMMENT:
            if lx.lines[row - 1][: t.start[1]].strip() == "":
                fix = _comment_paragraph(lx, row, t.start[1])
                return fix or "a word of the comment is wider than the line"
            fix = _trailing_comment(lx, row, t)
            if fix:
                return fix
    for t, _ in toks:
        if t.type == tokenize.STRING and (t.start[0], t.end[0]) in lx.docstrings:
            return _docstring_fix(lx, t) or "docstring paragraph that is not prose"
    fix = _string_fix(lx, row)
    if fix:
        return fix
    if any(t.type == tokenize.STRING and d == 0 for t, d in toks):
        return "long string outside brackets"
    if any(t.type == tokenize.STRING for t, _ in toks):
        return "long string with no space to split at"
    return "long code (ruff format may fit it)"


def wrap_source(src: str) -> Result:
    """Fit the long lines of one Python source; the new source means the same."""
    try:
        ast.parse(src)
    except SyntaxError as e:
        return Result(src, error=f"not Python: {e.msg} (line {e.lineno})")
    cur = src
    fixed_rows = 0
    for _ in range(50):
        lx = _Lines(cur)
        edits, why = [], {}
        for row in range(1, len(lx.lines) + 1):
            if not lx.long(row):
                continue
            fix = _fix_row(lx, row)
            if isinstance(fix, str):
                why[row] = fix
            elif not edits or fix[0] > edits[-1][1]:
                edits.append(fix)  # (one that overlaps the last edit waits a pass)
        if not edits:
            break
        lines = lx.lines
        for a, b, new in reversed(edits):
            lines[a - 1 : b] = new
        new_src = "\n".join(lines)
        if not same_code(cur, new_src):  # cannot happen; if it does, stop here
            return Result(src, error="a rewrite changed the code; nothing written")
        fixed_rows += len(edits)
        cur = new_src
    lx = _Lines(cur)
    unfixed = []
    for row in range(1, len(lx.lines) + 1):
        if too_wide(lx.lines[row - 1]):
            fix = _fix_row(lx, row)
            unfixed.append((row, fix if isinstance(fix, str) else "still long"))
    if not same_code(src, cur):
        return Result(src, error="a rewrite changed the code; nothing written")
    return Result(cur, fixed_rows, unfixed)


# files --------------------------------------------------------------------------------


def _git_files(patterns: list[str]) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *patterns],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return sorted({ROOT / p for p in out if (ROOT / p).is_file()})


def files(args: list[str]) -> list[Path]:
    if args:
        return [Path(a).resolve() for a in args]
    return _git_files(["*.py", "*.ipynb"])


def _nb_dump(nb: dict) -> str:
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def code_units(path: Path, text: str):
    """(label, source) of each code unit: the file, or each code cell of a notebook."""
    if path.suffix != ".ipynb":
        yield "", text
        return
    for i, cell in enumerate(json.loads(text)["cells"]):
        if cell["cell_type"] == "code":
            s = cell["source"]
            yield f"cell {i}", "".join(s) if isinstance(s, list) else s


def _cell_lines(src: str) -> list[str]:
    """A cell's source as notebook JSON stores it: lines that keep their newline."""
    parts = src.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def long_lines(path: Path) -> int:
    text = path.read_text(encoding="utf-8")
    return sum(
        too_wide(x) for _, src in code_units(path, text) for x in src.split("\n")
    )


def wrap_file(path: Path) -> tuple[bool, list[str]]:
    """Rewrite one file in place: (changed, what is left for a person)."""
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    report = []
    if path.suffix != ".ipynb":
        r = wrap_source(text)
        new = r.source
        report += [f"{rel}: {r.error}"] if r.error else []
        report += [f"{rel}:{row}: {why}" for row, why in r.unfixed]
    else:
        nb = json.loads(text)
        edited = False
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code":
                continue
            s = cell["source"]
            src = "".join(s) if isinstance(s, list) else s
            if not any(width(x) > LIMIT for x in src.split("\n")):
                continue
            r = wrap_source(src)
            # cells counted from 1, markdown ones too, as ruff counts them
            report += [f"{rel}:cell {i + 1}: {r.error}"] if r.error else []
            report += [f"{rel}:cell {i + 1}:{row}: {why}" for row, why in r.unfixed]
            if r.source != src:
                cell["source"] = _cell_lines(r.source)
                edited = True
        new = _nb_dump(nb) if edited else text
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text, report


def ruff() -> str:
    here = ROOT / ".venv" / "bin" / "ruff"
    return str(here) if here.exists() else (shutil.which("ruff") or "ruff")


def run(paths: list[Path], fmt: bool = True) -> tuple[int, int, list[str]]:
    """Wrap, ruff format what changed, again until nothing changes.
    (long lines before, after, what is left for a person)."""
    before = sum(long_lines(p) for p in paths)
    reports: dict[Path, list[str]] = {}
    pending = paths
    for _ in range(6):
        changed = []
        for p in pending:
            did, reports[p] = wrap_file(p)
            if did:
                changed.append(p)
        if not changed or not fmt:
            break
        subprocess.run([ruff(), "format", "--quiet", *map(str, changed)], cwd=ROOT)
        pending = changed
    after = sum(long_lines(p) for p in paths)
    return before, after, [line for p in paths for line in reports.get(p, [])]


# --verify REV -------------------------------------------------------------------------


def verify(rev: str, paths: list[Path]) -> int:
    bad = 0
    for p in paths:
        rel = p.relative_to(ROOT).as_posix()
        old = subprocess.run(
            ["git", "show", f"{rev}:{rel}"], cwd=ROOT, capture_output=True, text=True
        )
        if old.returncode != 0:
            continue  # new since REV
        new = p.read_text(encoding="utf-8")
        if old.stdout == new:
            continue
        units_old = list(code_units(p, old.stdout))
        units_new = list(code_units(p, new))
        if len(units_old) != len(units_new):
            print(f"{rel}: {len(units_old)} code cells at {rev}, {len(units_new)} now")
            bad += 1
            continue
        for (label, a), (_, b) in zip(units_old, units_new):
            if a != b and not same_code(a, b):
                print(f"{rel} {label}: the code differs from {rev}")
                bad += 1
        if p.suffix == ".ipynb":
            keep = [
                [(c.get("id"), c.get("outputs")) for c in json.loads(t)["cells"]]
                for t in (old.stdout, new)
            ]
            if keep[0] != keep[1]:
                print(f"{rel}: cell ids or outputs differ from {rev}")
                bad += 1
    print(f"verify against {rev}: {len(paths)} files, {bad} difference(s)")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help=".py and .ipynb files (default: all)")
    ap.add_argument("--no-format", action="store_true", help="do not run ruff format")
    ap.add_argument("--verify", metavar="REV", help="only compare with git REV")
    args = ap.parse_args(argv)
    paths = files(args.paths)
    if args.verify:
        return verify(args.verify, paths)
    before, after, report = run(paths, fmt=not args.no_format)
    for line in report:
        print(line)
    print(
        f"wrap_lines: {before} code line(s) too long for ruff (E501) before, {after} "
        "now" + (" (listed above, for a person)" if after else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
