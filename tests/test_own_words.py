"""Own words: no run of 12 words in a page's prose is copied from a source text.

The sources (../shared/seeds/, beside the repository in a full checkout and in CI) are
claims to reproduce, not text to reuse. Quotations are allowed when marked as quotations
(inside "..." or a > block); everything else is written anew. Skipped where the sources
are not present (a reader's download).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from workshop.text.notebook_text import ROOT, load, notebooks, prose

SEEDS = ROOT.parent / "shared" / "seeds"
N = 12


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower())


def _grams(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + N]) for i in range(len(words) - N + 1)}


def _unquoted(text: str) -> str:
    text = re.sub(r"^>.*$", " ", text, flags=re.M)  # block quotes
    return re.sub(r"[\"“][^\"”]{0,400}[\"”]", " ", text)  # inline quotations


@pytest.fixture(scope="module")
def source_grams():
    files = sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []
    if not files:
        pytest.skip(f"no source texts at {SEEDS}")
    grams = set()
    for f in files:
        grams |= _grams(_words(f.read_text(encoding="utf-8", errors="replace")))
    return grams


NBS = notebooks()


@pytest.mark.parametrize("path", NBS, ids=[p.relative_to(ROOT).as_posix() for p in NBS])
def test_no_twelve_words_copied_from_a_source(path: Path, source_grams):
    shared = _grams(_words(_unquoted(prose(load(path))))) & source_grams
    runs = sorted(" ".join(g) for g in shared)
    assert not runs, (
        f"{path.name}: {len(runs)} 12-word runs copied from a source: {runs[:3]}"
    )
