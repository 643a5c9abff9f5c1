"""Number formatting: printed at the precision the text claims.

Float noise (a difference that is zero in exact arithmetic) is printed as a
bound, never as raw digits that change with the BLAS or the numpy version.
"""

from __future__ import annotations

import math
import numbers
import re

__all__ = [
    "bound",
    "counted",
    "fixed",
    "matrix_markdown",
    "order",
    "sig",
    "table",
    "unsigned_zero",
]

_FLOORS = {10.0**-k for k in range(1, 31)}
_NEGATIVE_ZERO = re.compile(r"^(\s*)-(0(?:\.0*)?(?:e[-+]?\d+)?%?)(\s*)$")


def unsigned_zero(text: str) -> str:
    """A formatted number that reads as zero, without the sign the last bits gave it.

    ``format(-2e-16, ".0f")`` is ``'-0'`` on a CPU whose product left a negative residue
    and ``'0'`` on one that left a positive one; the exact value is 0 on both. Any other
    text comes back as it is: ``'-0.01'`` is a value, not a zero.
    """
    if not isinstance(text, str):
        raise TypeError(f"unsigned_zero: text must be a str, got {text!r}")
    m = _NEGATIVE_ZERO.match(text)
    if not m:
        return text
    lead, zero, trail = m.groups()
    # An aligned field keeps its width: the sign's place becomes a space.
    return f"{lead} {zero}{trail}" if lead else f"{zero}{trail} " if trail else zero


def _real(name: str, x) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        try:
            import numpy as np

            if isinstance(x, np.ndarray) and x.ndim == 0:
                x = x.item()
            elif isinstance(x, np.generic):
                x = x.item()
        except ImportError:  # pragma: no cover
            pass
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {x!r}")
    x = float(x)
    if math.isnan(x):
        raise ValueError(f"{name} is NaN; a NaN has no bound")
    return x


_PLURAL = re.compile(r"[a-z]{2,}[^s]s")


def counted(n, noun: str) -> str:
    """`n` (a number, or its text as printed) and a plural noun, the noun singular after
    exactly one: '1 token', '3 tokens', '0.5 tokens'. The singular drops the final s of
    a plural that is one lowercase word of four letters or more ('tokens', 'steps');
    any other noun ('ms', 'class', 'per step') stays as it is."""
    if not isinstance(noun, str):
        raise TypeError(f"counted: noun must be a string, got {noun!r}")
    text = str(n)
    if text == "1" and _PLURAL.fullmatch(noun):
        noun = noun[:-1]
    return f"{text} {noun}" if noun else text


def bound(x, floor: float = 1e-15) -> str:
    """The size of a value that should be zero, as a bound: ``'< 1e-15'``.

    `floor` must be a power of ten (``1e-12``, ``1e-15``...). If ``|x|`` is not
    below it, `bound` raises: noise that large is a result, not noise.
    """
    x = _real("bound: x", x)
    floor = _real("bound: floor", floor)
    if not any(math.isclose(floor, f, rel_tol=1e-9) for f in _FLOORS):
        raise ValueError(
            f"bound: floor must be a power of ten such as 1e-15, got {floor!r}"
        )
    from .checks import _log_margin

    _log_margin("bound", f"{floor:g}", abs(x), floor)
    if not abs(x) < floor:
        raise ValueError(
            f"bound: |x| = {abs(x)!r} is not below the floor {floor:g}; it is not noise"
        )
    return f"< {floor:.0e}".replace("e-0", "e-")


def order(x) -> str:
    """A value whose digits depend on the machine, as its power
    of ten: ``'about 1e13'``.

    For the end of a chaotic product, where rounding errors grow as fast as the value
    and even the first digit moves between CPUs; the nearest power of ten still holds.
    """
    x = _real("order: x", x)
    if x == 0 or math.isinf(x):
        raise ValueError(f"order: x must be finite and nonzero, got {x!r}")
    sign = "-" if x < 0 else ""
    return f"about {sign}1e{round(math.log10(abs(x)))}"


def fixed(x, digits: int = 3) -> str:
    """`x` with `digits` decimals, the same on every machine.

    A value that is a tie in exact arithmetic (``0.54625`` to four decimals) lands a
    hair above or below it depending on the order a machine summed in, and plain
    formatting would print ``0.5462`` on one CPU and ``0.5463`` on another. `fixed`
    treats anything within 1e-9 of a tie as the tie and rounds it away from zero.
    ``-0.000`` prints as ``0.000``.
    """
    x = _real("fixed: x", x)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 15:
        raise ValueError(f"fixed: digits must be an int in 0..15, got {digits!r}")
    if math.isinf(x):
        raise ValueError(f"fixed: x is infinite ({x!r})")
    n = _half_away(abs(x) * 10**digits)
    return unsigned_zero(f"{math.copysign(n, x) / 10**digits:.{digits}f}")


def _half_away(scaled: float) -> int:
    """`scaled` (not negative) to a whole number; within 1e-9 of a tie it is the tie,
    rounded away from zero, so that a last digit does not depend on a last bit."""
    whole = math.floor(scaled)
    if abs(scaled - whole - 0.5) <= 1e-9 * max(1.0, scaled):
        return whole + 1
    return round(scaled)


def sig(x, digits: int = 4) -> str:
    """`x` to `digits` significant digits, the shortest text that reads back as that
    rounded value: ``sig(0.123456)`` is ``'0.1235'``, ``sig(1234567)`` is
    ``'1235000'``, ``sig(2.5e-7)`` is ``'2.5e-07'``. The one formatter of chart data
    (book/chartdata.py): what a reader hovers is this text. A tie in exact arithmetic
    rounds away from zero on every machine, as in `fixed`.
    """
    x = _real("sig: x", x)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 15:
        raise ValueError(f"sig: digits must be an int in 1..15, got {digits!r}")
    if math.isinf(x):
        raise ValueError(f"sig: x is infinite ({x!r})")
    if x == 0:
        return "0"
    exp = math.floor(math.log10(abs(x)))
    if abs(x) >= 10.0 ** (exp + 1):  # log10 rounded up across a power of ten
        exp += 1
    decimals = digits - 1 - exp
    n = _half_away(abs(x) * 10.0**decimals)
    value = math.copysign(n * 10.0**-decimals if decimals <= 0 else n / 10**decimals, x)
    text = repr(float(value))
    if text.endswith(".0"):
        text = text[:-2]
    return text


def matrix_markdown(M, name: str, rows, cols, digits: int = 4) -> str:
    """A matrix as a markdown table: `name` in the corner, labelled rows and columns.

    Entries print with `digits` decimals; -inf (a masked score) prints as ``-inf``.
    """
    import numpy as np

    M = np.asarray(M, dtype=float)
    rows, cols = [str(r) for r in rows], [str(c) for c in cols]
    if M.ndim != 2 or M.shape != (len(rows), len(cols)):
        raise ValueError(
            f"matrix_markdown: matrix of shape {M.shape} does not match "
            f"{len(rows)} row and {len(cols)} column labels"
        )
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 15:
        raise ValueError(
            f"matrix_markdown: digits must be an int in 0..15, got {digits!r}"
        )
    if np.isnan(M).any():
        raise ValueError(
            "matrix_markdown: the matrix holds NaN; say what it "
            "means before tabulating it"
        )

    def cell(v):
        return "-inf" if np.isneginf(v) else unsigned_zero(f"{v:.{digits}f}")

    return Table(
        [name, *cols], [[r, *(cell(v) for v in row)] for r, row in zip(rows, M)]
    )._repr_markdown_()


class Table:
    """A table a cell displays: Markdown for the site, JupyterLab and Colab (columns
    of numbers right-aligned), aligned text where only text is shown. nbval compares
    both."""

    def __init__(self, header, rows, title=None):
        if title is not None and (not isinstance(title, str) or not title.strip()):
            raise ValueError(f"table: title must be a non-empty string, got {title!r}")
        self.title = title
        header = [str(h) for h in header]
        rows = [[str(c) for c in row] for row in rows]
        if not header or not rows:
            raise ValueError(
                f"table: needs a header and rows, got {len(header)} and {len(rows)}"
            )
        bad = [i for i, row in enumerate(rows) if len(row) != len(header)]
        if bad:
            raise ValueError(
                f"table: row {bad[0]} has {len(rows[bad[0]])} cells, the header has "
                f"{len(header)}"
            )
        self.header, self.rows = header, rows
        self.numeric = [
            all(_NUMERIC.match(row[i]) for row in rows) for i in range(len(header))
        ]

    def _repr_markdown_(self) -> str:
        def line(cells):
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

        rule = "| " + " | ".join("---:" if n else "---" for n in self.numeric) + " |"
        above = [f"**{self.title}**", ""] if self.title else []
        return "\n".join(
            above + [line(self.header), rule] + [line(r) for r in self.rows]
        )

    def __repr__(self) -> str:
        columns = zip(self.header, *self.rows, strict=True)
        widths = [max(len(c) for c in col) for col in columns]

        def line(cells):
            return "  ".join(
                c.rjust(w) if n else c.ljust(w)
                for c, w, n in zip(cells, widths, self.numeric, strict=True)
            ).rstrip()

        above = [self.title] if self.title else []
        return "\n".join(above + [line(self.header)] + [line(r) for r in self.rows])


_NUMBER = r"[-+]?[\d,]*\.?\d+(?:e[-+]?\d+)?"
#: A cell of numbers: a number (with a %, or a K/M/G/T/B suffix), a range of two
# ("0.489-0.722"), "-" for none, or inf. Such columns are right-aligned, and the site
# keeps each of their cells on one line.
_NUMERIC = re.compile(rf"^{_NUMBER}%?[KMGTB]?$|^{_NUMBER}-{_NUMBER}$|^-$|^[-+]?inf$")


def table(header, rows, title=None) -> Table:
    """`display(table(["model", "weights"], [["base", "63.1M"], ...]))`: one row per
    list, every cell already formatted as the page prints it. `title`, if given, is a
    line above the table that says what its numbers are (a printed line would not stay
    beside it: the site gathers a cell's printed lines into one block)."""
    return Table(header, rows, title)
