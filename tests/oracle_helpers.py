"""What the oracle tests share: a page's own functions, loaded from its notebook.

Most of what the book teaches lives in the notebooks, not in `book/`: a page writes its
function in a code cell and uses it there. `page(name)` runs, in one namespace and in
the notebook's order, every top-level `def` and `class` of that notebook's code cells,
its imports of numpy, the standard library and `book`, and the module-level constants
asked for by name, nothing else: no printing, no figures, no checks. A later definition
replaces an earlier one, as in the kernel, so a function sees the globals the page gave
it when it ran. What `book.taught` exports is imported from there instead.
"""

from __future__ import annotations

import ast
import functools
import json
import types
from pathlib import Path

import numpy as np

from workshop.config import ROOT

SAFE_IMPORTS = {"numpy", "math", "itertools", "random", "book", "functools"}


def _cells(name: str) -> tuple[Path, list[str]]:
    found = sorted(ROOT.glob(f"notebooks/*/{name}.ipynb"))
    if len(found) != 1:
        raise FileNotFoundError(f"page {name!r}: found {found}")
    cells = json.loads(found[0].read_text(encoding="utf-8"))["cells"]
    return found[0], [
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in cells
        if c["cell_type"] == "code"
    ]


def _kept(node: ast.stmt, constants: frozenset) -> bool:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return True
    if isinstance(node, ast.Import):
        return all(a.name.split(".")[0] in SAFE_IMPORTS for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] in SAFE_IMPORTS
    if isinstance(node, ast.Assign):  # NAME = ... or A, B = ..., one of them asked for
        names = set()
        for t in node.targets:
            for e in t.elts if isinstance(t, ast.Tuple) else [t]:
                if not isinstance(e, ast.Name):
                    return False
                names.add(e.id)
        return bool(names & constants)
    return False


@functools.cache
def page(name: str, constants: tuple[str, ...] = ()) -> types.SimpleNamespace:
    """The functions (and the named constants) notebook `name` defines, run in order."""
    path, cells = _cells(name)
    wanted = frozenset(constants)
    ns: dict = {"__name__": f"page_{name.replace('-', '_')}"}
    for src in cells:
        lines = [
            ln for ln in src.splitlines() if not ln.lstrip().startswith(("%", "!"))
        ]
        tree = ast.parse("\n".join(lines))
        for node in (n for n in tree.body if _kept(n, wanted)):
            code = compile(ast.Module(body=[node], type_ignores=[]), str(path), "exec")
            try:
                exec(code, ns)
            except NameError:  # a default argument names a constant not loaded
                if not isinstance(node, ast.FunctionDef):
                    raise
    missing = wanted - set(ns)
    if missing:
        raise KeyError(f"page {name!r} defines no {sorted(missing)} at top level")
    return types.SimpleNamespace(**ns)


def gap(a, b) -> float:
    """Largest elementwise |a - b|; a NaN must face a NaN (else the gap is inf)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    if (np.isnan(a) != np.isnan(b)).any():
        return float("inf")
    both = ~np.isnan(a)
    return float(np.abs(a[both] - b[both]).max(initial=0.0))


def rel_gap(a, b) -> float:
    """Largest |a - b| over the largest |b|: a difference on the scale of the values."""
    b = np.asarray(b, dtype=float)
    return gap(a, b) / max(float(np.abs(b).max()), 1e-300)


def agree(case: str, measured: float, tol: float) -> None:
    """Assert `measured <= tol`; with ORACLE_REPORT=path set, append the pair there."""
    import os

    out = os.environ.get("ORACLE_REPORT")
    if out:
        with open(out, "a", encoding="utf-8") as f:
            f.write(f"{case}\t{measured:.3e}\t{tol:.0e}\n")
    assert measured <= tol, f"{case}: measured {measured:.3e} > tolerance {tol:.0e}"
