"""Oracles for sampling: lesson 19 (19-sampling, plain lists) and 48.12
(48-12-generation, numpy) against transformers' logits processors, float64 scores.

Reference: `TemperatureLogitsWarper`, `TopKLogitsWarper`, `TopPLogitsWarper`,
`MinPLogitsWarper`, `RepetitionPenaltyLogitsProcessor` (transformers 5.17). A warper
sets removed logits to -inf; its distribution is the softmax of what it returns, and
its kept set the finite entries. The book's functions return the renormalised
distribution, kept set = the nonzero entries. Kept sets must be equal; distributions
agree to 1e-12 (float64; measured near 1e-16).

Conventions, where they differ:
- top-k ties. The book keeps exactly k (a stable sort: among equal probabilities the
  lower index wins); TopKLogitsWarper keeps every token whose logit equals the k-th
  largest, so more than k on a tie at the boundary. They agree when the k-th and
  (k+1)-th differ (tested), and the tie case is tested as a difference.
- top-p. Both keep a token when the mass ranked above it is below p; transformers
  computes it as 1 - (ascending cumulative sum), the book as a descending sum, so a p
  within rounding of a partial sum could fall either way. Test values of p stay
  clear of every partial sum (by 1e-6 at least, asserted).
- min_tokens_to_keep (transformers' default 1): the book's filters always keep the
  top token, which is the same thing.
- repetition penalty: both divide a seen positive logit by the penalty and multiply
  a seen negative one (CTRL's rule); 0 stays 0 either way. 48.12's frequency and
  presence penalties (OpenAI's) have no transformers processor: not compared.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from oracle_helpers import agree, gap, page

torch = pytest.importorskip("torch", reason="oracle tests: requirements-oracle.txt")
pytest.importorskip("transformers", reason="oracle tests: requirements-oracle.txt")
from transformers import (  # noqa: E402
    LogitsProcessorList,
    MinPLogitsWarper,
    RepetitionPenaltyLogitsProcessor,
    TemperatureLogitsWarper,
    TopKLogitsWarper,
    TopPLogitsWarper,
)

TOL = 1e-12
NO_IDS = torch.zeros((1, 0), dtype=torch.long)


def _hf(processors, logits, ids=NO_IDS):
    scores = torch.tensor([list(logits)], dtype=torch.float64)
    out = LogitsProcessorList(processors)(ids, scores)
    return torch.softmax(out, dim=-1)[0].numpy(), set(
        np.flatnonzero(torch.isfinite(out[0]).numpy())
    )


def _kept(dist):
    return set(np.flatnonzero(np.asarray(dist) > 0))


def _logits(seed, n=12):
    return np.random.default_rng(seed).standard_normal(n) * 2


def _clear_of_partial_sums(probs, p):
    sums = np.cumsum(np.sort(probs)[::-1])
    return np.abs(sums - p).min() > 1e-6


@pytest.mark.parametrize("T", [0.3, 1.0, 2.5])
def test_temperature(T):
    """Lesson 19 `softmax(logits, temperature)` and 48.12 (part 8's softmax of
    z / T) against `TemperatureLogitsWarper(T)` then softmax."""
    from book.taught import softmax

    z = _logits(30)
    ref, kept = _hf([TemperatureLogitsWarper(T)], z)
    assert kept == set(range(z.size))
    agree(
        f"lesson 19 temperature {T}",
        gap(page("19-sampling").softmax(list(z), T), ref),
        TOL,
    )
    agree(f"48.12 temperature {T}", gap(softmax(z / T), ref), TOL)


@pytest.mark.parametrize("k", [1, 2, 5, 12])
def test_top_k_without_ties(k):
    """Lesson 19 `top_k(probs, k)` and 48.12 `top_k(p, k)` against
    `TopKLogitsWarper(k)`: same kept set, same renormalised distribution."""
    from book.taught import softmax

    for seed in range(31, 36):
        z = _logits(seed)
        probs = softmax(z)
        ref, kept = _hf([TopKLogitsWarper(k)], z)
        for name, dist in (
            ("lesson 19", page("19-sampling").top_k(list(probs), k)),
            ("48.12", page("48-12-generation").top_k(probs, k)),
        ):
            assert _kept(dist) == kept, (name, seed, k)
            agree(f"{name} top-k {k} seed {seed}", gap(dist, ref), TOL)


def test_top_k_tie_at_the_boundary_is_a_difference():
    """Logits (2, 1, 1, 0), k = 2: the book keeps tokens 0 and 1 (exactly k, lower
    index first), TopKLogitsWarper keeps 0, 1 and 2 (every token tied with the k-th)."""
    from book.taught import softmax

    z = np.array([2.0, 1.0, 1.0, 0.0])
    _, kept = _hf([TopKLogitsWarper(2)], z)
    assert kept == {0, 1, 2}
    assert _kept(page("48-12-generation").top_k(softmax(z), 2)) == {0, 1}
    assert _kept(page("19-sampling").top_k(list(softmax(z)), 2)) == {0, 1}


@pytest.mark.parametrize("p", [0.05, 0.3, 0.5, 0.75, 0.9, 0.99])
def test_top_p(p):
    """Lesson 19 `top_p(probs, p)` and 48.12 `top_p(p, mass)` against
    `TopPLogitsWarper(p)` (min_tokens_to_keep=1) on five logit vectors."""
    from book.taught import softmax

    for seed in range(40, 45):
        z = _logits(seed)
        probs = softmax(z)
        assert _clear_of_partial_sums(probs, p)
        ref, kept = _hf([TopPLogitsWarper(p)], z)
        for name, dist in (
            ("lesson 19", page("19-sampling").top_p(list(probs), p)),
            ("48.12", page("48-12-generation").top_p(probs, p)),
        ):
            assert _kept(dist) == kept, (name, seed, p)
            agree(f"{name} top-p {p} seed {seed}", gap(dist, ref), TOL)


@pytest.mark.parametrize("frac", [0.0, 0.05, 0.2, 0.6])
def test_min_p(frac):
    """48.12 `min_p(p, frac)` (keep p >= frac * max p) against `MinPLogitsWarper`."""
    from book.taught import softmax

    for seed in range(50, 55):
        z = _logits(seed)
        ref, kept = _hf([MinPLogitsWarper(frac)], z)
        dist = page("48-12-generation").min_p(softmax(z), frac)
        assert _kept(dist) == kept
        agree(f"48.12 min-p {frac} seed {seed}", gap(dist, ref), TOL)


@pytest.mark.parametrize("penalty", [1.0, 1.3, 2.0])
def test_repetition_penalty_positive_negative_and_zero_logits(penalty):
    """Lesson 19 `penalise(scores, used, penalty)` (a dict of logits and a set of used
    tokens) and 48.12 `penalise(z, counts, repetition=...)` against
    `RepetitionPenaltyLogitsProcessor(penalty)` with the used tokens as input_ids
    (one token twice): logits compared directly, positive, negative and zero ones."""
    z = np.array([2.5, -1.0, 0.0, 0.7, -3.2, 1.9, 0.0, -0.4])
    used = [0, 1, 2, 4, 1]
    ids = torch.tensor([used])
    scores = torch.from_numpy(z[None].copy())
    ref = RepetitionPenaltyLogitsProcessor(penalty)(ids, scores.clone())[0].numpy()
    lesson = page("19-sampling").penalise(dict(enumerate(z)), set(used), penalty)
    agree(
        f"lesson 19 repetition {penalty}",
        gap([lesson[i] for i in range(z.size)], ref),
        TOL,
    )
    counts = np.bincount(used, minlength=z.size)
    mine = page("48-12-generation").penalise(z, counts, repetition=penalty)
    agree(f"48.12 repetition {penalty}", gap(mine, ref), TOL)


def test_lesson_19_decode_step_pipeline():
    """Lesson 19 `decode_step`: temperature, then top-k, then top-p, on one
    distribution; the same three warpers in that order as one LogitsProcessorList."""
    import random

    for seed, (T, k, p) in enumerate(
        itertools.product((0.7, 1.4), (3, 8), (0.6, 0.95))
    ):
        z = _logits(60 + seed)
        _, dist = page("19-sampling").decode_step(
            list(z), random.Random(0), k=k, p=p, temperature=T
        )
        ref, kept = _hf(
            [TemperatureLogitsWarper(T), TopKLogitsWarper(k), TopPLogitsWarper(p)], z
        )
        assert _kept(dist) == kept
        agree(f"lesson 19 decode_step T={T} k={k} p={p}", gap(dist, ref), TOL)


def test_48_12_sampling_distribution_order_is_transformers_order():
    """48.12 says the processors run as penalties, temperature, top-k, top-p, min-p.
    `GenerationMixin._get_logits_processor` builds them in that order (read from its
    source), and 48.12's `sampling_distribution` with repetition-free settings equals
    the chain Temperature, TopK, TopP, MinP."""
    import inspect

    from transformers.generation.utils import GenerationMixin

    src = inspect.getsource(GenerationMixin._get_logits_processor)
    names = [
        "RepetitionPenaltyLogitsProcessor(",
        "TemperatureLogitsWarper(",
        "TopKLogitsWarper(",
        "TopPLogitsWarper(",
        "MinPLogitsWarper(",
    ]
    where = [src.index(n) for n in names]
    assert where == sorted(where)

    ns = page("48-12-generation", ("logits", "twice"))
    for T, k, p, mp in itertools.product(
        (0.5, 1.0, 2.0), (2, 4, 5), (0.8, 1.0), (0.0, 0.1)
    ):
        dist = ns.sampling_distribution(T=T, k=k, p=p, mp=mp, penalty=0.0)
        chain = [TemperatureLogitsWarper(T), TopKLogitsWarper(k)]
        chain += [TopPLogitsWarper(p)] if p < 1 else []
        chain += [MinPLogitsWarper(mp)] if mp > 0 else []
        ref, kept = _hf(chain, ns.logits)
        assert _kept(dist) == kept, (T, k, p, mp)
        agree(
            f"48.12 sampling_distribution T={T} k={k} p={p} mp={mp}",
            gap(dist, ref),
            TOL,
        )
    assert math.isclose(ns.softmax(ns.logits).sum(), 1.0)
