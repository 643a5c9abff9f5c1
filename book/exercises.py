"""Exercises: an answer key computed by the page, and a checker for the reader's answer.

A chapter's `## Exercises` section asks a question in prose, then runs one cell that
computes the key from the page's own code and ends with ``exercise(...)``::

    exercise("08.1", "predict", A[0, 3], tol=0.005)
    exercise("08.2", "change", tokens[int(A[3].argmax())], choices=tokens)

The cell's output is the answer box. On the built site a small script (book.js) turns it
into an input that says right or wrong from the key the output carries; the solution is
folded under it. In a kernel (JupyterLab, Colab, a downloaded notebook) the reader calls
``book.answer("08.1", 0.39)`` after the key cell has run. No numpy is needed here.
"""

from __future__ import annotations

import html
import math
import numbers
import re

from .fmt import counted

__all__ = ["KINDS", "COUNTS", "answer", "exercise", "verdict"]

#: The three kinds, as a reader reads them.
KINDS = {
    "predict": "predict, then measure",
    "change": "change the code",
    "derive": "derive",
}

#: How many exercises each chapter has (tests/test_exercises.py keeps it in step with
#: the notebooks), so that a bad id is told apart from a key not yet computed.
COUNTS = {
    "01": 4,
    "02": 3,
    "03": 4,
    "04": 3,
    "05": 3,
    "06": 3,
    "07": 3,
    "08": 4,
    "09": 3,
    "10": 3,
    "11": 3,
    "12": 3,
    "17": 3,
    "18": 3,
    "19": 3,
    "20": 3,
    "21": 3,
    "48.01": 3,
    "48.02": 3,
    "48.03": 3,
    "48.04": 3,
    "48.05": 3,
    "48.06": 3,
    "48.07": 3,
    "48.08": 3,
    "48.09": 3,
    "48.10": 3,
    "48.11": 3,
    "48.12": 3,
    "48.13": 3,
    "48.14": 3,
    "48.15": 3,
}

_ID = re.compile(r"^(\d\d(?:\.\d\d)?)\.(\d)$")
_KEYS: dict[str, dict] = {}


def _number(name: str, x) -> float:
    if isinstance(x, bool):
        raise TypeError(f"{name} must be a number, got {x!r}")
    if not isinstance(x, numbers.Real):
        item = getattr(x, "item", None)  # a numpy scalar or 0-d array
        if item is not None and getattr(x, "ndim", 0) == 0:
            x = item()
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a number, got {x!r}")
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number, got {x!r}")
    return x


def _check_id(ex_id) -> tuple[str, int]:
    m = _ID.match(ex_id) if isinstance(ex_id, str) else None
    if not m:
        raise ValueError(
            f"no exercise {ex_id!r}: an exercise id is a string such as '08.1' "
            "(part I and II chapters) or '48.04.2' (part III)"
        )
    chapter, n = m.group(1), int(m.group(2))
    if COUNTS and (chapter not in COUNTS or not 1 <= n <= COUNTS[chapter]):
        have = (
            f"chapter {chapter} has exercises {chapter}.1 to "
            f"{chapter}.{COUNTS[chapter]}"
            if chapter in COUNTS
            else f"chapters with exercises: {', '.join(sorted(COUNTS))}"
        )
        raise ValueError(f"no exercise {ex_id!r}: {have}")
    return chapter, n


def _decimals(tol: float) -> int:
    """Decimals that show a key at its tolerance's place (0 for a count)."""
    return 0 if tol >= 1 or tol == 0 else -math.floor(math.log10(tol))


def _spec(ex_id, kind, key, tol, choices, unit) -> dict:
    _check_id(ex_id)
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
    if choices is not None:
        choices = [str(c) for c in choices]
        if len(choices) < 2 or len(set(choices)) != len(choices):
            raise ValueError(f"choices must be two or more distinct names: {choices}")
        if str(key) not in choices:
            raise ValueError(f"the key {key!r} is not one of the choices {choices}")
        return {"id": ex_id, "kind": kind, "key": str(key), "choices": choices}
    key = _number("key", key)
    if tol is None:
        raise ValueError(f"exercise {ex_id}: a numeric key needs tol= (0 for a count)")
    tol = _number("tol", tol)
    if tol < 0:
        raise ValueError(f"tol must be >= 0, got {tol!r}")
    digits = _decimals(tol)
    shown = f"{key:.{digits}f}"
    if re.fullmatch(r"-0\.?0*", shown):  # a residue's sign is the machine's
        shown = shown[1:]
    return {
        "id": ex_id,
        "kind": kind,
        "key": shown,
        "tol": f"{tol:g}",
        "unit": str(unit),
    }


def verdict(spec: dict, value) -> tuple[bool, str]:
    """Right or wrong, and by how much: the same sentence the site's script writes."""
    if "choices" in spec:
        given = str(value).strip()
        if given not in spec["choices"]:
            raise ValueError(
                f"exercise {spec['id']}: {value!r} is not one of the choices "
                f"{spec['choices']}"
            )
        if given == spec["key"]:
            return True, f"right: {given}"
        return False, f"wrong: {given} is not the answer"
    v = _number(f"the answer to exercise {spec['id']}", value)
    key, tol = float(spec["key"]), float(spec["tol"])
    off = v - key

    def n(x):  # a number with the unit: '3 tokens', '1 token'
        return counted(x, spec.get("unit", ""))

    given = n(f"{v:g}")
    # A hair over the tolerance still counts: the key itself is rounded.
    if abs(off) <= tol * (1 + 1e-9) + 1e-12:
        if not tol:
            return True, f"right: {given} is the key, exactly"
        return True, f"right: {given} is within ± {n(spec['tol'])} of the key"
    side = "above" if off > 0 else "below"
    acc = f"right within ± {n(spec['tol'])}" if tol else "right only exactly"
    return False, f"wrong: {given} is {n(f'{abs(off):.3g}')} {side} the key ({acc})"


def answer(ex_id, value) -> bool:
    """Check an answer in a kernel: prints right or wrong and by how much, and returns
    True when it is right. Run the cell that computes the key first."""
    _check_id(ex_id)
    spec = _KEYS.get(ex_id)
    if spec is None:
        raise LookupError(
            f"run the cell that computes key {ex_id} first (the cell just below the "
            "question), then call answer again"
        )
    ok, text = verdict(spec, value)
    print(text)
    return ok


class Exercise:
    """The answer box a key cell displays: HTML for the site and JupyterLab, the same
    facts as text for nbval and a terminal."""

    def __init__(self, spec: dict, note: str):
        self.spec, self.note = spec, note

    def _answer_text(self) -> str:
        s = self.spec
        if "choices" in s:
            return f"{s['key']} (one of {', '.join(s['choices'])})"
        unit = s.get("unit", "")
        if not float(s["tol"]):
            return f"{counted(s['key'], unit)}, exactly"
        return f"{counted(s['key'], unit)} ± {counted(s['tol'], unit)}"

    def __repr__(self) -> str:
        s = self.spec
        lines = [
            f"Exercise {s['id']} ({KINDS[s['kind']]}): key {self._answer_text()}",
            f'Check an answer in a kernel: book.answer("{s["id"]}", your_answer)',
        ]
        return "\n".join(lines + ([self.note] if self.note else []))

    def _repr_html_(self) -> str:
        s = self.spec
        e = html.escape
        attrs = {"data-id": s["id"], "data-kind": s["kind"], "data-key": s["key"]}
        if "choices" in s:
            attrs["data-choices"] = "|".join(s["choices"])
        else:
            attrs["data-tol"] = s["tol"]
            attrs["data-unit"] = s["unit"]
        attr = " ".join(f'{k}="{e(v)}"' for k, v in attrs.items())
        note = f"<p>{e(self.note)}</p>" if self.note else ""
        return (
            f'<div class="book-exercise" id="exercise-{s["id"].replace(".", "-")}" '
            f"{attr}>"
            f'<p class="book-exercise-kernel">Check an answer in a kernel: '
            f'<code>book.answer("{e(s["id"])}", your_answer)</code></p>'
            f'<details class="book-solution"><summary>Solution to exercise '
            f"{e(s['id'])}</summary><p>Key: <strong>{e(self._answer_text())}"
            f"</strong>, computed by the cell above (Show code).</p>{note}</details>"
            f'<p class="book-exercise-print">The answer to exercise {e(s["id"])} is in '
            "the exercises appendix.</p></div>"
        )


def exercise(ex_id, kind, key, *, tol=None, choices=None, unit="", note=""):
    """Record the key of exercise `ex_id` (computed by the calling cell) and return the
    answer box. `tol` is the absolute tolerance of a numeric key (0 for a count);
    `choices` names the options of a choice. `note` is a computed line for the
    folded solution."""
    spec = _spec(ex_id, kind, key, tol, choices, unit)
    _KEYS[ex_id] = spec
    return Exercise(spec, str(note))
