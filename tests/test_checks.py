"""book.checks: a claim prints `ok` or fails loudly with both values; bad input is named."""

from __future__ import annotations

import re

import numpy as np
import pytest

from book import ClaimFailed, check


def test_check_prints_ok(capsys):
    check("one plus one is two", 1 + 1, 2)
    check("close enough", 0.1 + 0.2, 0.3, tol=1e-12)
    check("arrays match", np.ones(3), [1, 1, 1])
    check("a true claim", True)
    assert capsys.readouterr().out.splitlines() == [
        "ok one plus one is two",
        "ok close enough",
        "ok arrays match",
        "ok a true claim",
    ]


def test_check_fails_loudly_with_both_values():
    with pytest.raises(
        ClaimFailed, match=r"(?s)claim failed: wrong.*got:\s+3.*expected: 4"
    ):
        check("wrong", 3, 4)
    with pytest.raises(ClaimFailed):
        check("not true", False)
    with pytest.raises(ClaimFailed):
        check("relative", 1.1, 1.0, rtol=0.05)


def test_check_nan_never_passes():
    with pytest.raises(ClaimFailed):
        check("nan is not close to anything", float("nan"), 0.0, tol=1.0)


@pytest.mark.parametrize("claim", ["", "   ", None, 3, "two\nlines"])
def test_check_rejects_bad_claims(claim):
    with pytest.raises(ValueError, match="claim"):
        check(claim, 1, 1)


@pytest.mark.parametrize("tol", [-1e-3, float("nan"), float("inf"), "0.1", True])
def test_check_rejects_bad_tolerance(tol):
    with pytest.raises(ValueError, match=re.escape(repr(tol))):
        check("x", 1.0, 1.0, tol=tol)


def test_check_tolerance_needs_numbers():
    with pytest.raises(ValueError, match="needs numbers"):
        check("strings", "a", "b", tol=0.1)
