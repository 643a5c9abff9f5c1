"""`check`: a claim in the text, tested by the code that measures it.

Every check prints one line, ``ok <claim>``, so a reader sees which claims a
cell proves, and nbval sees the same line on every run. A claim that fails
raises `ClaimFailed` with both values, so a broken claim fails loudly.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["ClaimFailed", "check"]


class ClaimFailed(AssertionError):
    """A claim the book makes did not hold when the notebook ran."""


def _is_number(x) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, bool)


def _validate_tol(name: str, tol) -> None:
    if tol is None:
        return
    if not _is_number(tol) or not math.isfinite(float(tol)) or float(tol) < 0:
        raise ValueError(f"check: {name} must be a finite number >= 0, got {tol!r}")


def check(claim: str, got, expected=True, *, tol=None, rtol=None) -> None:
    """Print ``ok <claim>`` if `got` matches `expected`, else raise `ClaimFailed`.

    - With no tolerance, values are compared exactly (arrays elementwise, all equal).
    - `tol` is an absolute tolerance, `rtol` a relative one; either or both may be
      given, and the comparison passes if ``|got - expected| <= tol + rtol*|expected|``.
    - `expected=True` (the default) checks that `got` is true.
    A NaN never passes: a claim about a NaN must say so with `np.isnan`.
    """
    if not isinstance(claim, str) or not claim.strip():
        raise ValueError(f"check: claim must be a non-empty string, got {claim!r}")
    if "\n" in claim:
        raise ValueError(f"check: claim must be one line, got {claim!r}")
    _validate_tol("tol", tol)
    _validate_tol("rtol", rtol)

    if tol is None and rtol is None:
        try:
            same = np.array_equal(np.asarray(got), np.asarray(expected))
        except Exception:  # noqa: BLE001 - objects numpy cannot hold
            same = got == expected
        if isinstance(expected, bool) and expected is True:
            same = (
                bool(np.all(np.asarray(got, dtype=bool)))
                if np.ndim(got)
                else bool(got) is True
            )
        ok = bool(same)
    else:
        try:
            g = np.asarray(got, dtype=float)
            e = np.asarray(expected, dtype=float)
        except (TypeError, ValueError) as err:
            raise ValueError(
                f"check {claim!r}: a tolerance needs numbers, got "
                f"{got!r} and {expected!r}"
            ) from err
        if g.shape != e.shape and e.ndim != 0 and g.ndim != 0:
            raise ClaimFailed(
                f"{claim}: shapes differ, got {g.shape}, expected {e.shape}"
            )
        limit = (tol or 0.0) + (rtol or 0.0) * np.abs(e)
        diff = np.abs(g - e)
        ok = bool(np.all(diff <= limit)) and not bool(np.any(np.isnan(g)))
        _log_margin("check", claim, diff, limit)
    if not ok:
        raise ClaimFailed(
            f"claim failed: {claim}\n  got:      {got!r}\n  expected: {expected!r}"
            + (
                f"\n  tol={tol!r} rtol={rtol!r}"
                if tol is not None or rtol is not None
                else ""
            )
        )
    print(f"ok {claim}")


def _log_margin(kind: str, what: str, diff, limit) -> None:
    """With the log on (book.log; workshop/measure/margins.py), note how close a
    tolerance came to failing: a check that uses 80 % of its tolerance here may fail
    on another CPU."""
    from .log import enabled, log

    if not enabled():
        return
    diff, limit = np.broadcast_arrays(np.asarray(diff, float), np.asarray(limit, float))
    with np.errstate(divide="ignore", invalid="ignore"):
        used = np.where(limit > 0, diff / limit, np.where(diff > 0, np.inf, 0.0))
    worst = float(np.nanmax(used)) if used.size else 0.0
    log("margin", kind=kind, what=what, used=worst)
