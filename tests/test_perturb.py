"""workshop/run/perturb.py: its generator moves float draws by at most one ulp, reproducibly,
and leaves integer draws and the plain generator's stream alone."""

from __future__ import annotations

import numpy as np
import pytest

from workshop.run import perturb  # noqa: E402


@pytest.fixture
def perturbed(monkeypatch):
    monkeypatch.setenv("BOOK_PERTURB", "1")
    plain = np.random.default_rng
    names: dict = {}
    exec(perturb.STARTUP, names)  # noqa: S102
    yield names["default_rng"]
    np.random.default_rng = plain


def test_float_draws_move_by_at_most_one_ulp(perturbed):
    a = perturbed(0).standard_normal(10_000)
    b = np.random.Generator(np.random.PCG64(0)).standard_normal(10_000)
    ulps = (a / b - 1) / 2.0**-52
    assert np.abs(ulps).max() <= 1.5
    assert (np.abs(ulps) > 0.5).mean() > 0.5  # most of them do move


def test_the_noise_is_the_same_on_every_run(monkeypatch):
    """The n-th generator a kernel makes gets the n-th noise stream: a notebook run
    twice under one perturbation seed draws the same numbers."""
    monkeypatch.setenv("BOOK_PERTURB", "1")
    plain, runs = np.random.default_rng, []
    for _ in range(2):
        names: dict = {}
        exec(perturb.STARTUP, names)  # noqa: S102
        rng = names["default_rng"]
        runs.append([rng(3).uniform(-1, 1, 50), rng(3).uniform(-1, 1, 50)])
        np.random.default_rng = plain
    assert all(np.array_equal(a, b) for a, b in zip(*runs))
    assert not np.array_equal(*runs[0])  # a second generator gets other noise


def test_integer_draws_are_left_alone(perturbed):
    a, b = perturbed(0), np.random.Generator(np.random.PCG64(0))
    assert np.array_equal(a.integers(0, 100, 20), b.integers(0, 100, 20))
    assert np.array_equal(a.permutation(9), b.permutation(9))


def test_a_scalar_draw_stays_a_scalar(perturbed):
    x = perturbed(0).random()
    assert isinstance(x, float)


def test_bad_seeds_are_named(capsys):
    assert perturb.main(["one"]) == 2
    assert "['one']" in capsys.readouterr().out
