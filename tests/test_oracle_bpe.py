"""Oracles for lesson 17's BPE (17-tokenization) against Hugging Face `tokenizers`
(version in requirements-oracle.txt): training against `trainers.BpeTrainer`,
encoding against `models.BPE` given the book's merges.

Conventions:
- The end of a word. The book spells a word as its characters plus a separate end
  symbol "_"; BpeTrainer's `end_of_word_suffix` would glue the suffix to the last
  character instead. So the reference is fed the words with a literal "_" appended
  and split on whitespace, which gives it the book's symbols.
- Counting and merging agree exactly: the most frequent adjacent pair, counted with
  each word's weight, merged left to right without overlap.
- Ties do not always agree. The book takes the alphabetically first of the tied
  pairs (comparing symbol strings). BpeTrainer takes the pair with the lowest ids,
  and ids are the alphabet in code-point order followed by the merged symbols in the
  order they were made. The two orders agree on single characters and differ when a
  merged symbol is compared with a character it sorts before ("ab" < "b", but "ab"
  has the larger id). On the page's corpus the ten merges the page prints are
  BpeTrainer's; run on, the tables part at round 13 on such a tie. On seeded random corpora,
  the book's own `count_pairs` and `merge_pair` with BpeTrainer's tie rule give
  BpeTrainer's merges exactly, and wherever the book's table differs, the first
  difference is such a tie.
"""

from __future__ import annotations

import json
import random
import string

import pytest
from oracle_helpers import page

tokenizers = pytest.importorskip(
    "tokenizers", reason="oracle tests: requirements-oracle.txt"
)
from tokenizers import Tokenizer, models, pre_tokenizers, trainers  # noqa: E402


def _ns():
    return page("17-tokenization", ("WORD_COUNTS", "END"))


def _trainer_merges(word_counts, rounds):
    """BpeTrainer's merges after `rounds` rounds (fewer if every word is one symbol)."""
    end = _ns().END
    alphabet = {c for w in word_counts for c in w + end}
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        vocab_size=len(alphabet) + rounds,
        min_frequency=0,
        show_progress=False,
        special_tokens=[],
    )
    tok.train_from_iterator(
        (" ".join([w + end] * n) for w, n in word_counts.items()), trainer
    )
    merges = json.loads(tok.to_str())["model"]["merges"]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in merges]


def _book_merges(word_counts, rounds):
    history, _ = _ns().learn_merges(word_counts, rounds)
    return [pair for pair, _, _ in history], history


def _lowest_id_rule(word_counts, rounds):
    """The book's `spell`, `count_pairs` and `merge_pair`, with ties broken the way
    BpeTrainer breaks them: the lowest (left id, right id)."""
    ns = _ns()
    table = {ns.spell(w): n for w, n in word_counts.items()}
    ids = {c: i for i, c in enumerate(sorted({c for s in table for c in s}))}
    merges = []
    for _ in range(rounds):
        pairs = ns.count_pairs(table)
        if not pairs:
            break
        top = max(pairs.values())
        tied = [p for p, n in pairs.items() if n == top]
        best = min(tied, key=lambda p: (ids[p[0]], ids[p[1]]))
        merges.append(best)
        ids.setdefault(best[0] + best[1], len(ids))
        table = {ns.merge_pair(s, best): n for s, n in table.items()}
    return merges


def test_the_pages_merges_are_bpe_trainers():
    """The page's corpus (WORD_COUNTS): the ten merges it prints equal BpeTrainer's.
    Run on to the end (every word one symbol), the tables part at round 13, a tie at
    count 2 between ("es", "t") and ("t", "_"): "es" < "t" alphabetically, but "es"
    was made in round 11 and has the larger id. The lowest-id rule on the book's
    counting reproduces BpeTrainer's whole table."""
    ns = _ns()
    book, history = _book_merges(ns.WORD_COUNTS, 10)
    assert book == _trainer_merges(ns.WORD_COUNTS, 10)
    book, history = _book_merges(ns.WORD_COUNTS, 40)
    theirs = _trainer_merges(ns.WORD_COUNTS, 40)
    assert len(book) == len(theirs) < 40  # the run did reach the end
    assert _lowest_id_rule(ns.WORD_COUNTS, 40) == theirs
    r = next(i for i, (a, b) in enumerate(zip(book, theirs)) if a != b)
    assert (r + 1, book[r], theirs[r]) == (13, ("es", "t"), ("t", "_"))
    assert {book[r], theirs[r]} <= set(history[r][2])


def _corpora(n):
    rng = random.Random(17)
    for _ in range(n):
        letters = string.ascii_lowercase[: rng.randint(3, 6)]
        yield {
            "".join(rng.choice(letters) for _ in range(rng.randint(2, 6))): rng.randint(
                1, 5
            )
            for _ in range(rng.randint(2, 6))
        }


def test_the_tie_rule_is_the_only_difference():
    """On 120 seeded random corpora (3 to 6 letters, 2 to 6 words, counts 1 to 5, 15
    rounds): the book's counting and merging with BpeTrainer's tie rule reproduce
    BpeTrainer's merges exactly. Where the book's table (alphabetical ties) differs,
    the first difference is a tie between the two choices, in which the pair the book
    takes starts with (or continues after the same left symbol with) a merged symbol
    that sorts before the other's symbol but was made after it."""
    differ = 0
    for wc in _corpora(120):
        theirs = _trainer_merges(wc, 15)
        assert _lowest_id_rule(wc, 15) == theirs, wc
        book, history = _book_merges(wc, 15)
        if book == theirs:
            continue
        differ += 1
        r = next(i for i, (a, b) in enumerate(zip(book, theirs)) if a != b)
        _, _, tied = history[r]
        assert theirs[r] in tied and book[r] in tied  # same count: a tie
        assert book[r] < theirs[r]  # the book's rule: alphabetical
        merged = {a + b for a, b in book[:r]}
        side = 0 if book[r][0] != theirs[r][0] else 1
        assert book[r][side] in merged  # a merged symbol, alphabetically first
    assert 0 < differ < 120  # both outcomes occur in the sample


def test_encoding_matches_models_bpe_with_the_books_merges():
    """`encode_word` (replay the merges in training order) against `models.BPE`
    given the page's ten merges in that order (rank = order) and a vocabulary of
    every letter, the end symbol and each merged symbol: the same tokens, for the
    page's words, its unseen words and every corpus word."""
    ns = _ns()
    merges, _ = _book_merges(ns.WORD_COUNTS, 10)
    symbols = [*string.ascii_lowercase, ns.END] + [a + b for a, b in merges]
    vocab = {s: i for i, s in enumerate(dict.fromkeys(symbols))}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    words = ["newer", "low", "lower", "glow", "newest", "widen", "wider", "lowest"]
    words += ["newnewer", "aaaa", "erer", "z"]
    for w in words + list(ns.WORD_COUNTS):
        assert tok.encode(w + ns.END).tokens == ns.encode_word(w, merges), w


# -- byte-level BPE -------------------------------------------------------------------
def _bytes_to_unicode():
    """GPT-2's printable stand-in for each byte, which tokenizers' ByteLevel uses:
    printable Latin-1 bytes stand for themselves, the rest (space among them) move
    to U+0100 and up."""
    keep = [*range(33, 127), *range(161, 173), *range(174, 256)]
    moved = [b for b in range(256) if b not in keep]
    return {
        **{b: chr(b) for b in keep},
        **{b: chr(256 + i) for i, b in enumerate(moved)},
    }


def _bytes_ns():
    return page("17-tokenization", ("HAT_LINE", "SAND_LINE", "ENGLISH", "SENTENCES"))


def test_byte_level_encoding_matches_models_bpe():
    """`byte_encode(text, merges)` with the page's BYTE_MERGES (from
    `learn_byte_merges(ENGLISH, 40)`) against `models.BPE` given those merges,
    written in ByteLevel's byte alphabet, with the `ByteLevel` pre-tokenizer
    (no prefix space, no regex) on each of the book's `byte_chunks`: the same
    tokens, byte for byte, for the page's English, Greek and Japanese sentences and
    its English corpus."""
    ns = _bytes_ns()
    b2u = _bytes_to_unicode()
    assert set(b2u.values()) == set(pre_tokenizers.ByteLevel.alphabet())
    as_text = lambda bs: "".join(b2u[b] for b in bs)  # noqa: E731
    raw = ns.learn_byte_merges(ns.ENGLISH, 40)  # the page's BYTE_MERGES
    merges = [(as_text(a), as_text(b)) for a, b in raw]
    vocab = {c: i for i, c in enumerate(sorted(b2u.values()))}
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(
        add_prefix_space=False, use_regex=False
    )
    for text in [*ns.SENTENCES.values(), ns.ENGLISH]:
        mine = [as_text(t) for t in ns.byte_encode(text, raw)]
        theirs = [t for chunk in ns.byte_chunks(text) for t in tok.encode(chunk).tokens]
        assert mine == theirs, text[:20]


def test_byte_level_training_differs_only_in_its_tie_rule():
    """`learn_byte_merges` (ties: the smallest pair of byte strings) against
    BpeTrainer with ByteLevel's 256-symbol initial alphabet, on the page's English
    corpus cut by `byte_chunks`. Both stop after 21 merges (every chunk one token).
    The book's counting and merging with BpeTrainer's tie rule (lowest ids; the
    alphabet's ids in code-point order of the stand-ins) give BpeTrainer's table.
    The book's own table parts at round 6, a tie at count 32: the book takes
    (" ", "o") because the space byte 0x20 sorts first; BpeTrainer takes ("o", "n"),
    because the space's stand-in "Ġ" (U+0120) has a larger id than "o"."""
    ns = _bytes_ns()
    b2u = _bytes_to_unicode()
    chunks = ns.byte_chunks(ns.ENGLISH)
    level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = level
    trainer = trainers.BpeTrainer(
        vocab_size=256 + 40,
        min_frequency=0,
        show_progress=False,
        special_tokens=[],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(chunks, trainer)
    theirs = [
        tuple(m) if isinstance(m, list) else tuple(m.split(" "))
        for m in json.loads(tok.to_str())["model"]["merges"]
    ]
    table = {}
    for chunk in chunks:
        key = tuple(b2u[b] for b in chunk.encode("utf-8"))
        table[key] = table.get(key, 0) + 1
    ids = {c: i for i, c in enumerate(sorted(b2u.values()))}
    lowest, counts, ties = [], [], []
    while pairs := ns.count_pairs(table):
        top = max(pairs.values())
        tied = [p for p, n in pairs.items() if n == top]
        best = min(tied, key=lambda p: (ids[p[0]], ids[p[1]]))
        lowest.append(best)
        counts.append(top)
        ties.append(tied)
        ids.setdefault(best[0] + best[1], len(ids))
        new = {}
        for s, n in table.items():
            m = ns.merge_pair(s, best)
            new[m] = new.get(m, 0) + n
        table = new
    assert lowest == theirs and len(theirs) == 21

    book = ns.learn_byte_merges(ns.ENGLISH, 40)
    as_text = lambda bs: "".join(b2u[b] for b in bs)  # noqa: E731
    book = [(as_text(a), as_text(b)) for a, b in book]
    assert len(book) == 21 and book[:5] == theirs[:5]
    assert (book[5], theirs[5], counts[5]) == (("Ġ", "o"), ("o", "n"), 32)
    assert book[5] in ties[5]
