"""Exercises (book/exercises.py): every teaching chapter has them, every key is
computed by a cell, and the checker takes the key and refuses a wrong answer.

The keys are read from the stored outputs, as the site and the index page read them;
nbval re-executes the cells that print them.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from book import exercises
from workshop.config import ROOT
from workshop.site.sphinxext import exercise_boxes

#: The teaching chapters: Part I 01-12, Part II 17-21, Part III 48.1-48.15.
TEACHING = (
    sorted(p for p in (ROOT / "notebooks/part1").glob("*.ipynb") if p.stem[:2] <= "12")
    + sorted((ROOT / "notebooks/part2").glob("*.ipynb"))
    + sorted(
        p
        for p in (ROOT / "notebooks/part3").glob("48-*.ipynb")
        if "01" <= p.stem[3:5] <= "15"
    )
)


def chapter_id(path: Path) -> str:
    """'08' for 08-attention, '48.04' for 48-04-scaled-dot-product."""
    return path.stem[:2] if path.stem[:2] != "48" else f"48.{path.stem[3:5]}"


def key_cells(path: Path) -> list[dict]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [
        c
        for c in nb["cells"]
        if c["cell_type"] == "code" and "exercise(" in "".join(c["source"])
    ]


def test_the_teaching_chapters_are_all_found():
    assert len(TEACHING) == 12 + 5 + 15, [p.stem for p in TEACHING]


@pytest.mark.parametrize("path", TEACHING, ids=[p.stem for p in TEACHING])
def test_each_chapter_has_three_to_five_exercises_of_every_kind(path):
    boxes = exercise_boxes(path)
    ch = chapter_id(path)
    ids = [b["id"] for b in boxes]
    assert 3 <= len(boxes) <= 5, f"{path.name}: {len(boxes)} exercises"
    assert ids == [f"{ch}.{n}" for n in range(1, len(ids) + 1)], ids
    assert {b["kind"] for b in boxes} == set(exercises.KINDS), (
        f"{path.name}: kinds {sorted({b['kind'] for b in boxes})}"
    )
    assert exercises.COUNTS.get(ch) == len(boxes), (
        f"book/exercises.py COUNTS[{ch!r}] should be {len(boxes)}"
    )
    for b in boxes:
        assert b["question"], (
            f"{path.name}: exercise {b['id']} has no (ex-...)= question"
        )
        label = f"**Exercise `{b['id']}` · {exercises.KINDS[b['kind']]}.**"
        assert b["question"].startswith(label), (
            f"{path.name}: question {b['id']} should open with {label}"
        )


def test_counts_name_only_chapters_that_exist():
    assert set(exercises.COUNTS) == {chapter_id(p) for p in TEACHING}


@pytest.mark.parametrize("path", TEACHING, ids=[p.stem for p in TEACHING])
def test_every_key_is_computed_by_a_folded_cell(path):
    cells = key_cells(path)
    assert cells, f"{path.name}: no key cells"
    for c in cells:
        tags = c.get("metadata", {}).get("tags", [])
        assert "hide-input" in tags and "exercise-key" in tags, (
            f"{path.name}: a key cell is not tagged [hide-input, exercise-key]"
        )
        tree = ast.parse("".join(c["source"]))
        calls = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "exercise"
        ]
        assert len(calls) == 1, f"{path.name}: one exercise(...) per key cell"
        key = calls[0].args[2] if len(calls[0].args) > 2 else None
        assert key is not None, f"{path.name}: exercise(id, kind, key) lacks its key"
        # The key is an expression of the page's names, never a literal typed in.
        literal = not any(isinstance(n, ast.Name) for n in ast.walk(key))
        assert not literal, (
            f"{path.name}: the key of {ast.unparse(calls[0].args[0])} is typed "
            f"({ast.unparse(key)}); compute it from the page's code"
        )


def _wrong(spec: dict):
    if "choices" in spec:
        return next(c for c in spec["choices"] if c != spec["key"])
    key, tol = float(spec["key"]), float(spec["tol"])
    return key + max(2 * tol, abs(key) * 0.5, 1.0)


@pytest.mark.parametrize("path", TEACHING, ids=[p.stem for p in TEACHING])
def test_every_key_passes_its_checker_and_a_wrong_answer_fails(path):
    for spec in exercise_boxes(path):
        ok, text = exercises.verdict(
            spec, spec["key"] if "choices" in spec else float(spec["key"])
        )
        assert ok and text.startswith("right"), (spec, text)
        ok, text = exercises.verdict(spec, _wrong(spec))
        assert not ok and text.startswith("wrong"), (spec, text)
        if "tol" in spec and float(spec["tol"]):
            edge = float(spec["key"]) + 0.99 * float(spec["tol"])
            assert exercises.verdict(spec, edge)[0], (spec, "inside the tolerance")


def test_answer_in_a_kernel():
    box = exercises.exercise("08.1", "predict", 0.3891, tol=0.01)
    assert 'data-key="0.39"' in box._repr_html_() and 'data-tol="0.01"' in repr(
        box._repr_html_()
    )
    assert "key 0.39 ± 0.01" in repr(box)
    assert exercises.answer("08.1", 0.395) is True
    assert exercises.answer("08.1", 0.45) is False
    ok, text = exercises.verdict(exercises._KEYS["08.1"], 0.45)
    assert text == "wrong: 0.45 is 0.06 above the key (right within ± 0.01)"
    exercises.exercise("08.2", "change", "t0", choices=["t0", "t3"])
    assert exercises.answer("08.2", "t0") is True
    assert exercises.answer("08.2", "t3") is False
    exercises._KEYS.pop("08.3", None)
    with pytest.raises(LookupError, match="run the cell that computes key 08.3 first"):
        exercises.answer("08.3", 1)
    with pytest.raises(ValueError, match="no exercise '8.1'"):
        exercises.answer("8.1", 1)
    with pytest.raises(ValueError, match=r"no exercise '08\.9': chapter 08 has"):
        exercises.answer("08.9", 1)
    with pytest.raises(ValueError, match="no exercise '99.1'"):
        exercises.answer("99.1", 1)
    with pytest.raises(TypeError, match="must be a number, got 'abc'"):
        exercises.answer("08.1", "abc")
    with pytest.raises(ValueError, match="not one of the choices"):
        exercises.answer("08.2", "t9")
    with pytest.raises(ValueError, match="needs tol="):
        exercises.exercise("08.1", "predict", 1.0)
    with pytest.raises(ValueError, match="kind must be one of"):
        exercises.exercise("08.1", "guess", 1.0, tol=0)


def test_a_count_is_exact_and_a_residue_prints_no_sign():
    box = exercises.exercise("08.3", "derive", 64.0, tol=0)
    assert box.spec["key"] == "64" and exercises.answer("08.3", 64)
    assert not exercises.answer("08.3", 65)
    assert exercises.exercise("08.3", "derive", -1e-9, tol=0.01).spec["key"] == "0.00"


def test_the_module_needs_no_numpy():
    src = (ROOT / "book" / "exercises.py").read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import numpy|from numpy)", src, re.M)


def test_the_index_page_lists_every_exercise():
    from workshop.site.sphinxext import exercises_text

    text = exercises_text(ROOT)
    total = sum(len(exercise_boxes(p)) for p in TEACHING)
    assert f"The chapters end with {total} exercises" in text
    for p in TEACHING:
        for b in exercise_boxes(p):
            label = b["id"].replace(".", "-")
            assert f"{{ref}}`{b['id']} <ex-{label}>`" in text


def test_a_downloaded_notebook_carries_the_checker():
    """book.answer works in a download: the zip in its first cell holds the module."""
    import io
    import zipfile

    from workshop.site.downloads import package_zip

    names = zipfile.ZipFile(io.BytesIO(package_zip())).namelist()
    assert "book/exercises.py" in names, names


def test_a_verdict_counts_one_in_the_singular():
    """The same words as the site's verdict (tests/test_site.py types them there)."""
    spec = exercises._spec("17.2", "change", 1, 0, None, "tokens")
    assert exercises.verdict(spec, 1) == (True, "right: 1 token is the key, exactly")
    ok, text = exercises.verdict(spec, 3)
    assert not ok and text.startswith("wrong: 3 tokens is 2 tokens above the key")
