"""tools/wrap_lines.py on small sources: each long line fits, and the code is the
same."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "wrap_lines", Path(__file__).resolve().parents[1] / "tools" / "wrap_lines.py"
)
wl = importlib.util.module_from_spec(_spec)
sys.modules["wrap_lines"] = wl
_spec.loader.exec_module(wl)

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi"


def widest(src: str) -> int:
    return max(wl.width(line) for line in src.split("\n"))


def wrapped(src: str) -> str:
    r = wl.wrap_source(src)
    assert not r.error
    assert wl.same_code(src, r.source)
    return r.source


def test_trailing_comment_moves_above_the_statement():
    src = f"def f(x):\n    y = x + 1  # {WORDS} {WORDS}\n    return y\n"
    out = wrapped(src)
    assert widest(out) <= 88
    lines = out.split("\n")
    assert lines[1].startswith("    # alpha beta")
    assert lines[2].startswith("    # ")
    assert lines[3] == "    y = x + 1"
    assert wl.comment_words(out) == wl.comment_words(src)


def test_long_comment_is_rewrapped_with_its_paragraph():
    src = f"# {WORDS} {WORDS}\n# and the end of it.\nx = 1\n"
    out = wrapped(src)
    assert widest(out) <= 88
    assert "\n# and the end of it.\n" not in out  # reflowed with the long line
    assert (
        " ".join(out.replace("#", " ").split()[:-3])
        == f"{WORDS} {WORDS} and the end of it."
    )


def test_fstring_splits_at_spaces_never_inside_a_field():
    field = "{value:.4f} {'quoted text with spaces':>40s}"
    src = (
        "value = 1.0\nprint(\n"
        f'    f"the value {field} and then {WORDS} {{literal}} {WORDS}"\n)\n'
    )
    out = wrapped(src)
    assert widest(out) <= 88
    pieces = [line.strip() for line in out.split("\n") if line.strip().startswith('f"')]
    assert len(pieces) >= 2
    assert all(p.startswith('f"') and p.endswith('"') for p in pieces)
    assert any("{'quoted text with spaces':>40s}" in p for p in pieces)
    assert ast.dump(ast.parse(src)) == ast.dump(ast.parse(out))


def test_plain_string_value_is_unchanged():
    src = f'check(\n    "{WORDS} {WORDS}",\n    1,\n)\n'
    out = wrapped(src)
    assert widest(out) <= 88
    arg = ast.parse(out).body[0].value.args[0]
    assert arg.value == f"{WORDS} {WORDS}"
    assert out.count('"') == 4  # two pieces


def test_string_outside_brackets_is_left_alone_and_reported():
    src = f'message = "{WORDS} {WORDS}"\n'
    r = wl.wrap_source(src)
    assert r.source == src
    assert r.unfixed == [(1, "long string outside brackets")]


def test_docstring_is_rewrapped():
    src = f'def f():\n    """{WORDS.capitalize()} {WORDS}."""\n    return 1\n'
    out = wrapped(src)
    assert widest(out) <= 88
    assert out.split("\n")[2].startswith("    ")
    doc = ast.get_docstring(ast.parse(out).body[0])
    assert " ".join(doc.split()) == f"{WORDS.capitalize()} {WORDS}."


def test_split_refuses_what_would_change_the_value():
    assert wl.split_string('"nospacesatallinthisone"', 10, 10, 0) is None
    assert wl.split_string('f"{a + b}"', 5, 5, 0) is None
    assert wl.split_string("f'{a}{b:>9}'", 9, 9, 0) == ["f'{a}'", "f'{b:>9}'"]
    pieces = wl.split_string('rb"one two three four"', 12, 12, 0)
    assert pieces and all(p.startswith('rb"') for p in pieces)
    assert b"".join(ast.literal_eval(p) for p in pieces) == b"one two three four"


@pytest.mark.parametrize(
    "src",
    [
        f"def f(x):\n    y = x + 1  # {WORDS} {WORDS}\n    return y\n",
        f'value = 1\nprint(\n    f"the value {{value}} {WORDS} {WORDS} {WORDS}"\n)\n',
        f'def f():\n    """{WORDS} {WORDS}."""\n',
        f"x = [\n    1,  # {WORDS} {WORDS}\n    2,\n]\n",
        f"# {WORDS} {WORDS} {WORDS}\n",
    ],
)
def test_a_second_run_changes_nothing(src):
    once = wrapped(src)
    assert wrapped(once) == once


def test_the_safety_check_catches_a_changed_program():
    assert wl.same_code('f(\n    "a b"\n)\n', 'f(\n    "a "\n    "b"\n)\n')
    assert not wl.same_code('f("a b")\n', 'f("a  b")\n')
    assert not wl.same_code('f(f"{a}b")\n', 'f(f"{a}" "{b}")\n')
    assert not wl.same_code("x = 1  # one two\n", "x = 1  # one\n")
    assert wl.same_code(
        'def f():\n    """One two."""\n', 'def f():\n    """One\n    two."""\n'
    )
