"""Find printed numbers whose sign or last digit is up to the machine.

    python -m workshop.run.zero_audit [notebook.ipynb ...]     (default: every notebook)

A value that is zero in exact arithmetic comes out of a product as a tiny residue of
either sign: ``f"{b:.0f}"`` prints ``-0`` on one CPU and ``0`` on another. A value on a
rounding tie (``0.125`` to two decimals) prints either neighbour. Neither shows on the
machine that stored the outputs, since it prints one of them consistently.

This runs each notebook in a fresh kernel (BOOK_WIDGETS=static, as the build does)
with an IPython AST transformer that sees every f-string field with a float format
(``:.2f``, ``:.1e``, ``:.0%``, ``:g``...). It lists each field that printed a nonzero
value as zero (its sign is the machine's) or a value within 1e-9 of a rounding tie.
The fix for a zero is `book.fixed` or the ``z`` format option (``:z.2f``), which print
no sign on a zero; for a tie, `book.fixed`, which rounds ties one way everywhere.
Exit status 1 when any field is listed.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import nbformat

from workshop.config import ROOT
from workshop.run.execute import run

MARK = "ZERO-AUDIT "

# Runs in the kernel before the notebook's first cell. The transformer wraps each
# f-string field's value in __zero_audit__(value, spec, line); the call records the
# value and hands it back unchanged, so the page prints what it always prints.
SETUP = r"""
import ast as _ast, math as _math, re as _re
_ZA_FOUND = []
_ZA_SPEC = _re.compile(r"^(?:.?[<>=^])?[-+ ]?z?#?0?\d*[,_]?(?:\.(\d+))?([eEfFgG%]?)$")

def __zero_audit__(value, spec, line):
    try:
        import numpy as _np
        if isinstance(value, _np.ndarray) and value.ndim == 0:
            value = value.item()
        is_float = isinstance(value, (float, _np.floating))
    except ImportError:
        is_float = isinstance(value, float)
    m = _ZA_SPEC.match(spec or "")
    if not is_float or not m or not (m.group(1) or m.group(2)):
        return value
    v = float(value)
    if not _math.isfinite(v):
        return value
    text = format(v, spec)
    kind = None
    shown = text.strip().rstrip("%")
    try:
        shown_zero = float(shown.replace(",", "").replace("_", "")) == 0.0
    except ValueError:
        shown_zero = False
    # a residue (nonzero, under 1e-12) prints as zero with the machine's sign; a small
    # value of definite sign only matters if it printed as "-0"
    residue = v != 0.0 and abs(v) < 1e-12
    if shown_zero and (residue or text.lstrip().startswith("-")) and "z" not in spec:
        kind = "zero"
    elif m.group(2) in ("f", "F", "%") and m.group(1) is not None:
        p = int(m.group(1)) + (2 if m.group(2) == "%" else 0)
        scaled = abs(v) * 10**p
        frac = scaled - _math.floor(scaled)
        # within a millionth of the last digit's unit or 1e-13 of the value of a tie;
        # past 12 significant digits every value is that near one, so none is listed
        near = max(1e-9, 1e-13 * scaled)
        if scaled > 0 and near < 0.25 and abs(frac - 0.5) <= near:
            kind = "tie"
    if kind:
        _ZA_FOUND.append({"kind": kind, "line": line, "spec": spec,
                          "value": repr(v), "printed": text})
    return value

class _ZeroAudit(_ast.NodeTransformer):
    def visit_FormattedValue(self, node):
        self.generic_visit(node)
        v = node.value
        if isinstance(v, _ast.Call) and getattr(v.func, "id", "") == "abs":
            return node  # abs() of a residue prints no sign on any machine
        spec = node.format_spec if node.format_spec is not None else _ast.Constant("")
        node.value = _ast.Call(
            _ast.Name("__zero_audit__", _ast.Load()),
            [node.value, spec, _ast.Constant(getattr(node, "lineno", 0))], [])
        return node

get_ipython().ast_transformers.append(_ZeroAudit())
"""

# Fields reviewed and left as they are: (notebook, text of the line), and why.
REVIEWED = {
    (
        "48-12-generation",
        'print(f"{T:4.2f}  " + "  ".join(f"{q:7.4f}" for q in table[T]))',
    ): "softmax probabilities are positive: a tiny one prints 0.0000, never -0.0000",
    (
        "48-13-cost-of-attention",
        'ax.text(wi + ci + 2, i, f"{ci:.1f} GiB cache", va="center", fontsize=8)',
    ): "a whole number of bytes over 2**30 is exact in binary: 0.25 is the same tie on "
    "every machine, and Python rounds it the same way everywhere",
    (
        "48-14-mixture-of-experts",
        'f"{name:18} {date:7.2f} {tot:8.1f} {act:9.1f} {ne:8d} {k:6d} {frac[name]:7.1%}"',
    ): "17 / 400 of two published counts: one correctly rounded division, the same bits "
    "on every machine",
}

REPORT = f"import json as _json; print({MARK!r} + _json.dumps(_ZA_FOUND))"


def audit(path: Path) -> list[dict]:
    """The fields of one notebook that printed a signed residue or a tie, each with
    its cell's index (as stored, first cell 0)."""
    os.environ["BOOK_WIDGETS"] = "static"
    nb = nbformat.read(path, as_version=4)
    cells = nb.cells
    marked = []
    for i, cell in enumerate(cells):
        if cell.cell_type == "code":
            marked += [nbformat.v4.new_code_cell(f"_ZA_CELL = {i}"), cell]
    nb.cells = [
        nbformat.v4.new_code_cell(SETUP),
        *marked,
        nbformat.v4.new_code_cell(""),
    ]
    # Each record needs its cell: the setup wraps the recorder to note _ZA_CELL.
    nb.cells[0].source += (
        "\n_za_inner = __zero_audit__\n"
        "def __zero_audit__(value, spec, line):\n"
        "    n = len(_ZA_FOUND)\n"
        "    out = _za_inner(value, spec, line)\n"
        "    for r in _ZA_FOUND[n:]:\n"
        "        r['cell'] = globals().get('_ZA_CELL')\n"
        "    return out\n"
    )
    nb.cells[-1].source = REPORT
    run(nb, path, timeout=600, record_timing=False)
    for out in nb.cells[-1].outputs:
        text = out.get("text", "")
        if text.startswith(MARK):
            return json.loads(text[len(MARK) :])
    raise RuntimeError(f"zero_audit: {path} printed no report")


def main(argv: list[str]) -> int:
    from workshop.config import notebooks

    paths = [Path(a) for a in argv] or notebooks()
    listed = 0
    for path in paths:
        if path.suffix != ".ipynb" or not path.exists():
            print(f"zero_audit: {str(path)!r} is not a notebook file")
            return 2
        found = audit(path)
        nb = nbformat.read(path, as_version=4)
        seen = set()
        for r in found:
            key = (r["cell"], r["line"], r["spec"], r["kind"])
            text = nb.cells[r["cell"]].source.splitlines()[r["line"] - 1].strip()
            if key in seen or (path.stem, text) in REVIEWED:
                continue
            seen.add(key)
            listed += 1
            print(
                f"{path.relative_to(ROOT) if path.is_absolute() else path}: cell "
                f"{r['cell']} line {r['line']}: {r['kind']}: {r['value']} as "
                f"{{:{r['spec']}}} -> {r['printed']!r}"
            )
        if not seen:
            print(f"{path.name}: none")
    print(f"zero_audit: {listed} field(s) listed")
    return 1 if listed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
