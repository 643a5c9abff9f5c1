"""The register of published facts (book/published.py) and the pages that read it.

Every number the book takes from the outside world (a model's configuration, a parameter
count as published, token counts, GPU-hours, benchmark scores, dates) lives once in the
register, beside its primary source. A page imports it and prints it "as published". The
per-notebook test fails when a page types such a number instead (workshop/text/published_text.py
says how it is found); what is not fixed yet is listed by name in
tests/published_pending.yml, which only shrinks.
"""

from __future__ import annotations

import re

import pytest
import yaml

from book import published
from workshop.text.notebook_text import ROOT, load, notebooks, source
from workshop.text.published_text import (
    typed_facts_in_code,
    typed_facts_in_prose,
    typed_published,
)

NBS = notebooks()
IDS = [p.relative_to(ROOT).as_posix() for p in NBS]
STEMS = {p.stem for p in NBS}


def test_every_fact_names_a_primary_source():
    """A paper with its table or section, a released config file, or for a library's
    behaviour the pull request that changed it: never the textbook chapter the book
    measures, which is a claim, not a source."""
    assert len(published.FACTS) >= 25
    bad = []
    for name, f in published.FACTS.items():
        src = f.source
        if not re.search(
            r"Table|section|abstract|config\.json|params\.json|datasheet"
            r"|hparams|model card|bibliography key|pull request #\d+",
            src,
            re.I,
        ):
            bad.append(f"{name}: no table, section or config named: {src!r}")
        if re.search(r"shared/seeds|the source text|textbook|the chapter", src, re.I):
            bad.append(f"{name}: the textbook is not a primary source: {src!r}")
    assert not bad, "\n".join(bad)


def test_every_fact_is_printed_by_the_pages_it_names():
    """`where` lists real pages, and each of them reads the register."""
    bad = []
    for name, f in published.FACTS.items():
        assert f.where, f"{name}: no page prints it"
        for stem in f.where:
            if stem not in STEMS:
                bad.append(f"{name}: no notebook {stem}")
                continue
            path = next(p for p in NBS if p.stem == stem)
            code = "\n".join(
                source(c) for c in load(path)["cells"] if c["cell_type"] == "code"
            )
            if "book.published" not in code:
                bad.append(f"{name}: {stem} does not import book.published")
    assert not bad, "\n".join(bad)


def test_the_old_names_still_work():
    assert published.LLAMA_3_1["8B"]["d_ff"] == 14336
    assert published.table2_row("Transformer (big)")["bleu_de"] == 28.4
    assert published.fact("transformer.table2") is published.TRANSFORMER_TABLE2
    with pytest.raises(KeyError, match="no fact 'gpt-5'"):
        published.fact("gpt-5")
    with pytest.raises(KeyError, match="no model"):
        published.table2_row("LSTM")


def _pending() -> dict[str, list[str]]:
    data = yaml.safe_load((ROOT / "tests" / "published_pending.yml").read_text()) or {}
    return {k: list(v or []) for k, v in data.items()}


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_published_facts_come_from_the_register(path):
    """No page types a published fact: it reads it from book.published and prints it."""
    rel = path.relative_to(ROOT).as_posix()
    flagged = typed_published(load(path))
    pending = _pending().get(rel, [])
    new = [f for f in flagged if f not in pending]
    gone = [f for f in pending if f not in flagged]
    assert not new, (
        f"{path.name}: published facts typed on the page; register them in "
        f"book/published.py with their source and print them from there: {new[:10]}"
    )
    assert not gone, (
        f"{path.name}: fixed, so remove from tests/published_pending.yml: {gone}"
    )


def test_pending_names_only_existing_notebooks():
    assert set(_pending()) <= set(IDS)


# --------------------------------------------------------------------------------------
# The detector itself: what it flags and what it leaves.
# --------------------------------------------------------------------------------------


def test_a_typed_configuration_row_is_flagged():
    code = (
        "CONFIGS = [\n"
        '    ("GPT-2 small", 768, 12, 12, 12),\n'
        '    ("toy", 16, 2, 2, 1),\n'
        "]\n"
        "bert_large = (24, 1024, 340e6)\n"
        "# layers, d, heads (Llama 3 paper, Table 3)\n"
        "shape = (32, 4096, 32)\n"
        'check("active 12.9 billion, as published", round(a / 1e9, 1), 12.9)\n'
    )
    flags = typed_facts_in_code(code)
    assert "GPT-2 small: 768, 12, 12, 12" in flags
    assert not any(f.startswith("toy") for f in flags), flags
    assert "bert_large: 24, 1024, 340000000.0" in flags
    assert "shape: 32, 4096, 32" in flags
    assert "active 12.9 billion, as published: 12.9" in flags


def test_register_reads_knobs_and_computed_checks_are_not_flagged():
    code = (
        "from book.published import LLAMA_3_1, fact\n"
        'c = LLAMA_3_1["8B"]\n'
        'rows = [("Llama 3.1 8B", c["d"], c["heads"])]\n'
        'nudge = {"Mixtral 8x7B": (-30, 6)}\n'
        'ax.annotate("GPT-3", (175, 3), xytext=(4, 4))\n'
        'check("Llama 3.1 8B attention: 41,943,040 per layer", total, 41_943_040)\n'
        "print(f\"GPT-3 {fact('gpt3.175b')['params'] / 1e9:.0f}B\")\n"
        "flops = 6 * n_params * tokens  # Chinchilla's 6ND\n"
    )
    assert typed_facts_in_code(code) == []


def test_typed_counts_in_prose_are_flagged():
    md = (
        "GPT-3, the 175-billion-parameter model, read 300 billion tokens over "
        "3.14 million GPU-hours. The printed `175` billion is fine, and so is the "
        'source\'s "22 million", a quotation. Llama 3.1 8B is a name.'
    )
    assert typed_facts_in_prose(md) == ["175-billion", "300 billion", "3.14 million"]


def test_a_planted_fact_on_a_real_page_is_caught():
    """Type a register value back into a page that reads it: the test catches it."""
    path = ROOT / "notebooks/part3/48-11-three-architectures.ipynb"
    nb = load(path)
    before = typed_published(nb)
    i = next(
        k
        for k, c in enumerate(nb["cells"])
        if c["cell_type"] == "code" and "bert_params(" in source(c)
    )
    nb["cells"][i]["source"] = source(nb["cells"][i]) + (
        '\nsizes["BERT-base"] = (12, 768, 110e6)\n'
    )
    j = next(k for k, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown")
    nb["cells"][j]["source"] = (
        source(nb["cells"][j]) + "\n\nT5 has 11 billion weights.\n"
    )
    after = set(typed_published(nb)) - set(before)
    assert "prose: 11 billion" in after, after
    assert any(f.startswith("code: sizes") and "110000000.0" in f for f in after), after
