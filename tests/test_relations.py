"""Relations are computed: a comparison, a trend, an extreme or a universal that the
prose, a figure title or an alt text states about printed numbers is backed by a printed
line (a `check`'s `ok` line, or a sentence a helper wrote from the numbers) in its
section or an earlier one, or holds by the sentence's own two numbers.
workshop/text/relation_text.py says how claims are found; tests/relation_pending.yml lists by
name what is not fixed yet (it only shrinks). The flips below show that the guard tells
"below" from "above", not only one digit from another.
"""

from __future__ import annotations

import functools
import json
import re
import shutil

import pytest
import yaml

from book.relations import compare, extreme, over, trend, under
from workshop.text.notebook_text import ROOT, Evidence, load, notebooks, source
from workshop.text.relation_text import (
    claim_groups,
    evidence_upto,
    flip,
    holds_by_its_numbers,
    is_backed,
    relation_claims,
    unbacked_relations,
)

NBS = notebooks()
IDS = [p.relative_to(ROOT).as_posix() for p in NBS]


def _pending() -> dict[str, list[str]]:
    data = yaml.safe_load((ROOT / "tests" / "relation_pending.yml").read_text()) or {}
    return {k: list(v or []) for k, v in data.items()}


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_relations_are_backed_by_printed_lines(path):
    rel = path.relative_to(ROOT).as_posix()
    flagged = unbacked_relations(load(path))
    pending = _pending().get(rel, [])
    new = [f for f in flagged if f not in pending]
    gone = [f for f in pending if f not in flagged]
    assert not new, (
        f"{path.name}: relations stated about printed numbers that no printed line "
        f"of their section or an earlier one states (add a check(...) that prints the "
        f"relation, or write the word with book.relations): {new[:10]}"
    )
    assert not gone, (
        f"{path.name}: fixed, so remove from tests/relation_pending.yml: {gone}"
    )


def test_pending_names_only_existing_notebooks():
    assert set(_pending()) <= set(IDS)


@functools.cache
def _claims_and_evidence() -> tuple:
    out = []
    for p in NBS:
        nb = load(p)
        ev = Evidence(nb)
        upto = {}
        for c in relation_claims(nb):
            if c.section not in upto:
                upto[c.section] = evidence_upto(ev, c.section)
            out.append((p, upto[c.section], c))
    return tuple(out)


def _all_claims():
    return _claims_and_evidence()


def test_the_guard_checks_relations_across_the_book():
    claims = list(_all_claims())
    backed = [c for _, lines, c in claims if is_backed(lines, c)]
    print(f"{len(claims)} relation claims, {len(backed)} backed")
    # A floor that catches a finder that silently stops finding: 149 claims, every one
    # backed, on 2026-12-02 (a sentence rephrased without its relation word lowers it).
    assert len(claims) >= 140
    assert len(backed) == len(claims) - sum(len(v) for v in _pending().values())


def test_every_flipped_relation_is_caught():
    """Turn the relation word of each backed claim to its opposite ("below" to
    "above", "fastest" to "slowest", "rises" to "falls"), about the same numbers: the
    flipped claim must not be backed. Counted across the book."""
    planted, caught, missed = 0, 0, []
    for _p, lines, c in _all_claims():
        if not is_backed(lines, c):
            continue  # pending: nothing to flip against
        f = flip(c)
        if f is None:
            continue
        planted += 1
        if is_backed(lines, f):
            missed.append(f.text[:120])
        else:
            caught += 1
    print(f"{planted} flips planted, {caught} caught")
    # The flips missed are claims about a threshold (above or below `1`) in sections
    # that print both relations of it, for different subjects: the guard matches the
    # word and the number, not the subject.
    assert planted >= 80
    assert caught / planted >= 0.85, missed[:10]


PAGE = "notebooks/part1/08-attention.ipynb"


def test_a_flip_planted_in_a_stored_page_is_caught(tmp_path):
    """End to end on a stored page: flip one backed word in the markdown itself."""
    dst = tmp_path / "page.ipynb"
    shutil.copy(ROOT / PAGE, dst)
    nb = load(dst)
    base = set(unbacked_relations(nb))
    ev = Evidence(nb)
    planted = 0
    for c in relation_claims(nb):
        if c.kind != "prose" or not is_backed(evidence_upto(ev, c.section), c):
            continue
        f = flip(c)
        # the sentence's words up to the relation word, as the markdown spells them
        head = re.escape(c.text[: c.end]).replace(r"\ ", r"\s+")
        for cell in nb["cells"]:
            src = source(cell)
            m = re.search(head, src) if cell["cell_type"] == "markdown" else None
            if m:
                word = c.text[c.start : c.end]
                new = f.text[f.start : f.end]
                cell["source"] = src[: m.end() - len(word)] + new + src[m.end() :]
                planted += 1
                break
        if planted:
            break
    assert planted == 1
    dst.write_text(json.dumps(nb), encoding="utf-8")
    after = set(unbacked_relations(load(dst))) - base
    assert any(f.group in a for a in after), f"the flip {f.text[:80]!r} was not caught"


def test_relations_between_a_sentences_own_numbers():
    assert holds_by_its_numbers("The loss falls from `0.62` to `0.16`.", "falls")
    assert not holds_by_its_numbers("The loss rises from `0.62` to `0.16`.", "rises")
    assert holds_by_its_numbers(
        "It counts `335.1`, below the published `340`.", "below"
    )
    assert not holds_by_its_numbers(
        "It counts `335.1`, above the published `340`.", "above"
    )
    assert holds_by_its_numbers("It is the largest, `0.9`.", "most") is None
    assert flip(
        next(
            c
            for c in relation_claims(
                {
                    "cells": [
                        {
                            "cell_type": "markdown",
                            "source": "It runs `2` times "
                            "faster than `3`, the fastest `4`.",
                            "metadata": {},
                        }
                    ]
                }
            )
            if c.group == "fast"
        )
    ).text.startswith("It runs `2` times slower")


def test_what_counts_as_a_claim():
    assert claim_groups("The error stays under `1e-15`.") == ["below"]
    assert claim_groups("The mask sits under the scores at `0.5`.") == []
    assert claim_groups("Summed over the sequence of `64` tokens.") == []
    assert claim_groups("The largest weight is `0.968`.") == ["most"]
    assert claim_groups("Batch `256` ends lowest.") == []
    assert claim_groups("It falls to `0.0465` at `d = 1024`.") == ["falls"]
    assert claim_groups("Its slope never exceeds `0.25`.") == ["above"]
    assert claim_groups("Output `3` never moves when input `4` changes.") == ["never"]


def test_a_typed_word_in_an_alt_text_needs_a_printed_relation():
    code = (
        "fig, ax = new_figure('Loss')\n"
        "show(fig, alt=f'The loss falls to {x:.2f} after {n} steps')\n"
    )
    out_typed = "[figure: The loss falls to 0.16 after 30 steps]\nfigure title: Loss\n"
    nb = {
        "cells": [
            {"cell_type": "markdown", "source": "# T\n", "metadata": {}},
            {
                "cell_type": "code",
                "source": code,
                "metadata": {},
                "outputs": [
                    {"output_type": "stream", "name": "stdout", "text": out_typed}
                ],
            },
        ]
    }
    assert any(f.startswith("figure falls") for f in unbacked_relations(nb))
    nb["cells"][1]["outputs"][0]["text"] = "ok the loss falls to 0.16\n" + out_typed
    assert unbacked_relations(nb) == []
    # the word from a field is computed, not a claim
    nb["cells"][1]["source"] = code.replace("falls", "{trend(losses)}")
    nb["cells"][1]["outputs"][0]["text"] = out_typed
    assert unbacked_relations(nb) == []


def test_the_helpers_write_the_word_from_the_numbers():
    assert compare(335.1, 340) == "below"
    assert compare(341, 340, "under", "over") == "over"
    assert compare(1.0, 1.0 + 1e-12, tol=1e-9) == "equal to"
    assert trend([24.9, 25.5, 25.8]) == "rises"
    assert trend([25.8, 25.4]) == "falls"
    assert extreme({"base": 27.3, "big": 28.4}) == "big"
    assert extreme({"base": 27.3, "big": 28.4}, largest=False) == "base"
    assert under(0.063, 2) == "below 0.07"
    assert under(0.07, 2) == "below 0.08"
    assert over(0.968, 1) == "above 0.9"
    for bad in (float("nan"), "x", None):
        with pytest.raises(ValueError, match="compare"):
            compare(bad, 1)
    with pytest.raises(ValueError, match="tie"):
        extreme({"a": 1, "b": 1})
    with pytest.raises(ValueError, match="two values"):
        trend([1])
    with pytest.raises(ValueError, match="digits"):
        under(0.5, -1)


def test_a_bound_does_not_back_an_extreme():
    """A bound ("at most `0.25`") backs "below"; "the largest" needs a line that
    says which is the largest."""
    nb = {
        "cells": [
            {"cell_type": "markdown", "source": "# T\n\n## A\n", "metadata": {}},
            {
                "cell_type": "code",
                "source": "print('ok the slope is at most 0.25')\n",
                "metadata": {},
                "outputs": [
                    {
                        "output_type": "stream",
                        "name": "stdout",
                        "text": "ok the slope is at most 0.25\n",
                    }
                ],
            },
            {
                "cell_type": "markdown",
                "source": "The largest slope is `0.25`.\n",
                "metadata": {},
            },
        ]
    }
    claims = [c for c in relation_claims(nb) if c.group == "most"]
    assert claims, "the extreme is a claim"
    lines = ["ok the slope is at most 0.25"]
    assert not is_backed(lines, claims[0])
    assert is_backed(lines + ["ok the largest slope is 0.25"], claims[0])
