"""workshop/run/zero_audit.py's watcher, run on a few lines without a kernel: it lists a
residue printed as zero and a value on a tie, and leaves every printed text as it was."""

import ast
import types
from pathlib import Path

from workshop.run import zero_audit

TOOL = Path(zero_audit.__file__)


def _setup_source() -> str:
    for node in ast.parse(TOOL.read_text()).body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "SETUP":
            return ast.literal_eval(node.value)
    raise AssertionError("zero_audit.py has no SETUP")


def _watch(code: str):
    """Run `code` as the audited kernel would; return what it printed and found."""
    shell = types.SimpleNamespace(ast_transformers=[])
    ns = {"get_ipython": lambda: shell}
    exec(_setup_source(), ns)
    tree = ast.parse(code)
    for t in shell.ast_transformers:
        tree = ast.fix_missing_locations(t.visit(tree))
    out = []
    ns["print"] = out.append
    exec(compile(tree, "<cell>", "exec"), ns)
    return out, [(r["kind"], r["printed"]) for r in ns["_ZA_FOUND"]]


def test_a_residue_printed_as_zero_is_listed_and_printed_unchanged():
    out, found = _watch('b = -2.3e-16\nprint(f"({1.9:.1f}, {b:.0f})")')
    assert out == ["(1.9, -0)"]
    assert found == [("zero", "-0")]


def test_a_tie_is_listed_and_plain_values_are_not():
    out, found = _watch('print(f"{0.125:.2f} {0.1234:.2f} {3:d} {2.5e-7:.1e}")')
    assert out == ["0.12 0.12 3 2.5e-07"]
    assert found == [("tie", "0.12")]


def test_abs_the_z_option_and_small_values_of_definite_sign_are_not_listed():
    code = 'b = -2.3e-16\nprint(f"{abs(b):.4f} {b:z.4f} {1e-8:.4f}")'
    out, found = _watch(code)
    assert out == ["0.0000 0.0000 0.0000"]
    assert found == []
