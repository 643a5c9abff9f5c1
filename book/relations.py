"""Relation words written from the numbers, so a sentence cannot say "below" of a
number that is above.

A page that states a relation between printed numbers in a title, an alt text or a
printed sentence writes the word with one of these, from the same values it prints:

    from book.relations import compare, trend, under

    f"the count is {compare(n, published, 'below', 'above')} the published {published}"
    f"BLEU {trend([bleu[1], bleu[8]])} to 8 heads"
    f"the other cells are dark, {under(0.063, 2)}"    # 'below 0.07', not 'below 0.06'

workshop/text/relation_text.py checks the relations typed in prose against printed
lines; a word these helpers write comes from an f-string field, so it is computed, not
typed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def _number(name: str, v) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: not a number: {v!r}") from None
    if not math.isfinite(x):
        raise ValueError(f"{name}: not a finite number: {v!r}")
    return x


def compare(
    a, b, less: str = "below", more: str = "above", same: str = "equal to", tol=0.0
) -> str:
    """`less` if a < b, `more` if a > b, `same` within `tol` (absolute)."""
    x, y = _number("compare: a", a), _number("compare: b", b)
    t = _number("compare: tol", tol)
    if t < 0:
        raise ValueError(f"compare: tol must be >= 0, got {tol!r}")
    if abs(x - y) <= t:
        return same
    return less if x < y else more


def trend(
    values: Sequence, up: str = "rises", down: str = "falls", flat: str = "stays level"
) -> str:
    """How a sequence goes from its first value to its last: `up`, `down` or `flat`."""
    vals = [_number(f"trend: values[{i}]", v) for i, v in enumerate(values)]
    if len(vals) < 2:
        raise ValueError(f"trend: needs two values or more, got {list(values)!r}")
    return compare(vals[-1], vals[0], down, up, flat)


def extreme(values: Mapping, largest: bool = True):
    """The key of the largest value (or the smallest); a tie raises, since 'the
    largest' of two equal values is not a fact."""
    if not values:
        raise ValueError("extreme: no values")
    items = [(k, _number(f"extreme: values[{k!r}]", v)) for k, v in values.items()]
    best = max(v for _, v in items) if largest else min(v for _, v in items)
    keys = [k for k, v in items if v == best]
    if len(keys) > 1:
        raise ValueError(f"extreme: a tie between {keys!r} at {best!r}")
    return keys[0]


def under(x, digits: int, word: str = "below") -> str:
    """`word` and x rounded *up* at `digits` decimals, so the bound holds as printed:
    under(0.063, 2) is 'below 0.07' (rounding to nearest would print 0.06)."""
    v = _number("under: x", x)
    if not isinstance(digits, int) or isinstance(digits, bool) or digits < 0:
        raise ValueError(f"under: digits must be an int >= 0, got {digits!r}")
    scale = 10**digits
    up = (math.floor(round(v * scale, 9)) + 1) / scale
    return f"{word} {up:.{digits}f}"


def over(x, digits: int, word: str = "above") -> str:
    """`word` and x rounded *down* at `digits`: over(0.968, 1) is 'above 0.9'."""
    v = _number("over: x", x)
    if not isinstance(digits, int) or isinstance(digits, bool) or digits < 0:
        raise ValueError(f"over: digits must be an int >= 0, got {digits!r}")
    scale = 10**digits
    down = (math.ceil(round(v * scale, 9)) - 1) / scale
    return f"{word} {down:.{digits}f}"
