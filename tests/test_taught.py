"""Reuse by import: what a page teaches is written once, and later pages import it.

`# @save` cells are collected into book/taught.py (workshop/text/save.py); these tests fail when
the generated modules lag behind the notebooks, or when a function is copied from one
notebook into another instead of imported.
"""

from __future__ import annotations

import ast
import importlib
import json
from collections import defaultdict
from pathlib import Path

import pytest

from workshop.config import ROOT, notebooks
from workshop.text import save

NOTEBOOKS = notebooks()


def _code(nb: Path) -> list[str]:
    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    return [
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in cells
        if c["cell_type"] == "code"
    ]


def _body(fn: ast.FunctionDef) -> str:
    """The function without its docstring, as text: two copies compare equal."""
    body = fn.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
    ):
        body = body[1:]
    return ast.dump(ast.Module(body=[*body], type_ignores=[])) + ast.dump(fn.args)


def test_generated_modules_are_up_to_date():
    for module, text in save.render(ROOT).items():
        path = ROOT / "book" / f"{module}.py"
        assert path.exists() and path.read_text(encoding="utf-8") == text, (
            f"book/{module}.py is out of date with the notebooks' @save cells: "
            "run `make save`"
        )


def test_no_function_is_copied_between_notebooks():
    """The same function body in two notebooks is a copy: the later page imports it."""
    where = defaultdict(list)
    for nb in NOTEBOOKS:
        for src in _code(nb):
            if src.startswith("%") or src.startswith("!"):
                continue
            try:
                tree = ast.parse(src)
            except SyntaxError:
                continue
            for node in tree.body:
                if isinstance(node, ast.FunctionDef) and len(node.body) > 0:
                    where[_body(node)].append(f"{nb.stem}:{node.name}")
    copies = [
        sorted(set(v)) for v in where.values() if len({p.split(":")[0] for p in v}) > 1
    ]
    assert not copies, f"functions copied between notebooks (import them): {copies}"


@pytest.mark.parametrize("module", sorted(save.MODULES))
def test_every_imported_name_is_taught(module):
    taught = importlib.import_module(f"book.{module}")
    for nb in NOTEBOOKS:
        for src in _code(nb):
            for node in ast.walk(ast.parse(src)) if "book." in src else ():
                if isinstance(node, ast.ImportFrom) and node.module == f"book.{module}":
                    missing = [
                        a.name for a in node.names if not hasattr(taught, a.name)
                    ]
                    assert not missing, (
                        f"{nb.name} imports {missing} from book.{module}"
                    )


def test_a_name_saved_twice_is_refused(tmp_path):
    (tmp_path / "_config.yml").write_text("repository:\n  url: https://example.org/r\n")
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nparts:\n  - chapters:\n"
        "      - file: a\n      - file: b\n"
    )
    for name in ("a", "b"):
        nb = {
            "cells": [
                {
                    "cell_type": "code",
                    "source": "# @save\ndef f(x):\n    return x\n",
                    "metadata": {},
                }
            ]
        }
        (tmp_path / f"{name}.ipynb").write_text(json.dumps(nb))
    with pytest.raises(ValueError, match="'f' is saved twice.*by a and by b"):
        save.render(tmp_path)


def test_a_save_cell_with_other_statements_is_refused(tmp_path):
    (tmp_path / "_config.yml").write_text("repository:\n  url: https://example.org/r\n")
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nparts:\n  - chapters:\n      - file: a\n"
    )
    nb = {
        "cells": [
            {"cell_type": "code", "source": "# @save\nprint(1)\n", "metadata": {}}
        ]
    }
    (tmp_path / "a.ipynb").write_text(json.dumps(nb))
    with pytest.raises(ValueError, match="print"):
        save.render(tmp_path)


def test_attention_names_shapes_that_do_not_fit():
    import numpy as np
    import pytest

    from book.taught import attention

    with pytest.raises(ValueError, match=r"Q \(2, 3\), K \(2, 4\)"):
        attention(np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 4)))
    with pytest.raises(ValueError, match=r"V \(3, 4\)"):
        attention(np.ones((2, 4)), np.ones((2, 4)), np.ones((3, 4)))


def test_attention_mask_blocks_keys_and_leading_axes_broadcast():
    import numpy as np

    from book.taught import attention

    rng = np.random.default_rng(0)
    Q, K, V = rng.standard_normal((3, 2, 4, 5))
    out, w = attention(Q, K, V, mask=np.triu(np.ones((4, 4), bool), k=1))
    assert out.shape == (2, 4, 5) and np.allclose(w.sum(-1), 1)
    assert (np.triu(w[0], k=1) == 0).all() and w[1, 0, 0] == 1.0
    one, _ = attention(Q[1], K[1], V[1])
    assert np.array_equal(attention(Q, K, V)[0][1], one)
