"""Finding published facts typed into a page instead of read from book/published.py.

A published fact is a number taken from the outside world: a model's configuration, a
parameter count as its paper prints it, a token count, GPU-hours, a benchmark score, a
release date. It lives once in `book.published`, beside its primary source; a page reads
it from there and prints it "as published". This module finds the ones a page types.

In code: a numeric literal is a typed published fact when the row it stands in names a
model or a source. The row is the innermost tuple or list holding the literal, or else
its statement; its context is the string constants of that row, the names it assigns,
the keyword it is passed as, the function it is passed to, the comment on its line and
the comments just above its statement. A context matches when it names a model (GPT-2,
BERT, Llama, Mixtral, DeepSeek, ...) or a source ("published", "paper", "Table 3",
"config.json", "GPU-hours", "BLEU"). Not counted: 0 and 1, powers of ten (unit
conversions), plotting knobs and f-string fields (as in notebook_text.code_inputs), and
the arguments of `check(...)` unless its claim says "published" or "paper" (a check's
expected value is a computed claim, not an input).

In prose: a number outside backticks that counts parameters, tokens or GPU-hours in
words ("175-billion-parameter", "15 trillion tokens", "2.8 million GPU-hours") is typed;
backticked, the prose guard makes a cell print it, and the register is where that cell
reads it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from workshop.text.notebook_text import (
    _PLOT_CALLS,
    _PLOT_KWARGS,
    _py,
    prose_lines,
    source,
)

MODEL = (
    r"GPT-?\d|GPT-J|gpt-oss|InstructGPT|BERT|RoBERTa|ALBERT|T5\b|Llama|LLaMA|Mixtral|Mistral"
    r"|DeepSeek|Qwen|Chinchilla|Gopher|PaLM|GLaM|Switch-|Switch Transformer|ST-MoE|DBRX"
    r"|Kimi|Gemma|Gemini|MiniLM|Falcon|OPT-|BLOOM|Megatron|Transformer (?:base|big)"
)
SOURCE = (
    r"\b(?:published|paper|Table \d|Table [IVX]+|config\.json|params\.json|released"
    r"|GPU-?hours|BLEU|TriviaQA|MMLU|Voita|Vaswani|as reported)"
)
# In identifiers (llama8b, gpt2_params_B, voita_heads) model names are lower case.
IDENT = r"(?i:llama|gpt\d|bert|mixtral|mistral|deepseek|qwen|chinchilla|voita)"
VOCAB = re.compile(rf"(?:{MODEL})|(?i:{SOURCE})")
# Names of plotting offsets, colours and positions: knobs, not facts.
KNOB_NAMES = re.compile(r"nudge|offset|xytext|colou?r|pos\b|_pos|label_at", re.I)


def _comments(code: str) -> dict[int, str]:
    """Comment text by line number."""
    out: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT:
                out[tok.start[0]] = tok.string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


# Calls whose numbers format text: a wrap width, a rounding's digits.
_FORMAT_CALLS = {"fill", "wrap", "shorten", "round", "ljust", "rjust", "center"}


def _skipped_ids(tree) -> set[int]:
    """Nodes whose literals are not inputs: plotting knobs and f-strings."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in _PLOT_CALLS or name in _FORMAT_CALLS:
                skip |= {id(n) for n in ast.walk(node)}
            for kw in node.keywords:
                if kw.arg in _PLOT_KWARGS:
                    skip |= {id(n) for n in ast.walk(kw.value)}
            if name == "check":
                # Only the expected value of a check that says it is the published
                # number counts; the measured side and a tolerance are not facts.
                label = node.args[0] if node.args else None
                text = (
                    label.value
                    if isinstance(label, ast.Constant) and isinstance(label.value, str)
                    else ""
                )
                keep = node.args[2] if len(node.args) > 2 else None
                if not re.search(r"as published|paper reports|as reported", text, re.I):
                    keep = None
                kept = {id(n) for n in ast.walk(keep)} if keep is not None else set()
                skip |= {id(n) for n in ast.walk(node)} - kept
        if isinstance(node, ast.BinOp) and isinstance(
            node.op, (ast.Mult, ast.Div, ast.FloorDiv, ast.Pow)
        ):
            # 6 * N * D, 2 * bytes: small factors of a formula
            for side in (node.left, node.right):
                if (
                    isinstance(side, ast.Constant)
                    and isinstance(side.value, int)
                    and abs(side.value) < 10
                ):
                    skip.add(id(side))
        if isinstance(node, ast.JoinedStr):
            skip |= {id(n) for n in ast.walk(node)}
        if isinstance(node, ast.Subscript):
            # r[2:4], row[0], shapes["8B"]: an index or a key, not a fact
            skip |= {id(n) for n in ast.walk(node.slice)}
    return skip


def _is_trivial(v: float) -> bool:
    if v in (0, 1):
        return True
    if v >= 10 and float(v) == 10 ** round(__import__("math").log10(v)):
        return True
    return False


def _names(node) -> list[str]:
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.append(n.id)
        elif isinstance(n, ast.Attribute):
            out.append(n.attr)
    return out


def typed_facts_in_code(code: str) -> list[str]:
    """One flag per row that types a published fact: `row name: n1, n2, ...`."""
    try:
        tree = ast.parse(_py(code))
    except SyntaxError:
        return []
    comments = _comments(_py(code))
    lines = _py(code).splitlines()
    parent: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parent[id(child)] = node
    skip = _skipped_ids(tree)
    rows: dict[int, tuple[ast.AST, ast.stmt, list[str]]] = {}
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Constant)
            and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)
        ):
            continue
        if id(node) in skip or _is_trivial(abs(float(node.value))):
            continue
        context: list[str] = [comments.get(node.lineno, "")]
        row, stmt, up = None, None, node
        while id(up) in parent:
            p = parent[id(up)]
            if isinstance(p, ast.keyword) and p.arg:
                context.append(p.arg)
            if isinstance(p, ast.Call):
                f = p.func
                context.append(
                    f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                )
            if isinstance(p, ast.Dict):
                for k, v in zip(p.keys, p.values):
                    if v is up and isinstance(k, ast.Constant):
                        context.append(str(k.value))
            if row is None and isinstance(p, (ast.Tuple, ast.List)):
                row = p
            if isinstance(p, ast.stmt):
                stmt = p
                break
            up = p
        if stmt is None:
            continue
        idents = []
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                idents += _names(t)
                context += [  # sizes["BERT-base"] = ...: the key names the row
                    n.value
                    for n in ast.walk(t)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)
                ]
        if any(KNOB_NAMES.search(i) for i in idents):
            continue
        if isinstance(stmt, ast.FunctionDef):
            idents.append(stmt.name)
        where = row if row is not None else stmt
        keys = {
            id(n)
            for s in ast.walk(where)
            if isinstance(s, ast.Subscript)
            for n in ast.walk(s.slice)
        }
        strings = [
            n.value
            for n in ast.walk(where)
            if isinstance(n, ast.Constant)
            and isinstance(n.value, str)
            and id(n) not in keys
        ]
        context += strings
        first = stmt.lineno
        k = first - 1
        while k >= 1 and lines[k - 1].lstrip().startswith("#"):
            context.append(lines[k - 1])
            k -= 1
        for ln in range(where.lineno, (where.end_lineno or where.lineno) + 1):
            context.append(comments.get(ln, ""))
        if not (
            VOCAB.search(" ".join(context))
            or any(re.search(IDENT, i) for i in idents + context)
        ):
            continue
        name = (
            strings[0]
            if strings
            else " ".join(_names(stmt.targets[0]))
            if isinstance(stmt, ast.Assign)
            else lines[stmt.lineno - 1].strip()[:40]
        )
        key = id(where)
        if key not in rows:
            rows[key] = (where, stmt, [name])
        rows[key][2].append(repr(node.value))
    out = []
    for where, _stmt, (name, *nums) in sorted(
        rows.values(), key=lambda r: (r[0].lineno, r[0].col_offset)
    ):
        out.append(f"{name}: {', '.join(nums)}")
    return out


# "175-billion-parameter", "15 trillion tokens", "2.8 million GPU-hours", "1.5B parameters"
PROSE_FACT = re.compile(
    r"(?<![\w.`$,])(\d+(?:,\d{3})*(?:\.\d+)?)[\s-]*"
    r"(?:(?:million|billion|trillion)\b|[KMBT](?:[\s-]+"
    r"(?:parameters?|params|weights|tokens|GPU-?hours|words))\b)"
    r"|(?<![\w.`$,])(\d+(?:,\d{3})*(?:\.\d+)?)[\s-]+(?:GPU-?hours)\b",
    re.I,
)
# Backticks, maths, links, and quotations (a source's or a wrong idea's words, "...").
_STRIP = re.compile(
    r"``?[^`\n]+?``?|\$\$.*?\$\$|\$[^$\n]+\$|\[[^\]]*\]\([^)]*\)|\"[^\"\n]*\"|“[^”]*”",
    re.S,
)


def typed_facts_in_prose(md: str) -> list[str]:
    """Published counts written in prose outside backticks."""
    text = _STRIP.sub(" X ", prose_lines(md))
    return [m.group(0).strip() for m in PROSE_FACT.finditer(text)]


def typed_published(nb: dict) -> list[str]:
    """Every flag of one notebook: `code: ...` and `prose: ...`."""
    flags = []
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            if "book-bootstrap" in c.get("metadata", {}).get("tags", []):
                continue
            flags += [f"code: {f}" for f in typed_facts_in_code(source(c))]
        elif c["cell_type"] == "markdown":
            flags += [f"prose: {f}" for f in typed_facts_in_prose(source(c))]
    return list(dict.fromkeys(flags))
