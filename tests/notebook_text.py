"""Reading notebooks for the prose tests: the numbers a page quotes and the text its cells print."""

from __future__ import annotations

import json
import re
from pathlib import Path

import book.toc

ROOT = Path(__file__).resolve().parents[1]

# A backticked span counts as a quoted number when it is made of numbers and the few signs
# that go with them: `0.389`, `< 1e-15`, `26x`, `0.81`-`0.90`, `2/3`, `12.5%`, `3 x 10^5`.
NUMBER_SPAN = re.compile(
    r"^[\s<>=~≈±+\-−×x*/^()%,.:0-9eE]*\d[\s<>=~≈±+\-−×x*/^()%,.:0-9eE]*$"
)
NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?")
BACKTICKS = re.compile(r"``?([^`\n]+?)``?")
FENCE = re.compile(r"^(```|~~~|:::).*?^\1\s*$", re.S | re.M)
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
LINK = re.compile(
    r"\[[^\]]*\]\([^)]*\)|\b48\.\d{1,2}\b|\{[a-z:]+\}`[^`]*`|<[^>]+>|\[[^\]]*\]\{[^}]*\}"
)
DATA_URI = re.compile(r"data:image/[a-z+]+;base64,[A-Za-z0-9+/=]+")
# A product or version name is not a measured number: "Llama 3.1", "Python 3.11", "version 2.0".
VERSION = re.compile(r"\b(?:[A-Z][A-Za-z]*|version|v)[ -]?\d+(?:\.\d+)+\b")
LOOSE_DECIMAL = re.compile(r"(?<![\w.`/-])\d+\.\d+(?![\w.`])")


def toc_docs() -> list[str]:
    return book.toc.toc_docs(ROOT)


def notebooks() -> list[Path]:
    return [ROOT / f"{d}.ipynb" for d in toc_docs() if (ROOT / f"{d}.ipynb").exists()]


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def output_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if "text" in out:
            parts.append(
                "".join(out["text"]) if isinstance(out["text"], list) else out["text"]
            )
        data = out.get("data", {})
        for mime in ("text/plain", "text/html", "text/markdown", "text/latex"):
            if mime in data:
                v = data[mime]
                parts.append("".join(v) if isinstance(v, list) else v)
    return DATA_URI.sub("data:", "\n".join(parts))


def haystack(nb: dict) -> str:
    """Everything a quoted number may come from: outputs, and code cells (for given inputs)."""
    chunks = []
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            chunks.append(source(c))
            chunks.append(output_text(c))
    return "\n".join(chunks)


def prose(nb: dict) -> str:
    return "\n".join(source(c) for c in nb["cells"] if c["cell_type"] == "markdown")


def canonical(tok: str) -> str:
    return tok.replace(",", "")


def numbers_in(text: str) -> set[str]:
    return {canonical(m.group(0)) for m in NUMBER.finditer(text)}


# `d = 1024`, `w = 1.8904`, `max p ≈ 0.968`: a name given a number counts as a quoted number too.
ASSIGNED = re.compile(
    r"^[A-Za-z_][\w\s,()/.]*?\s*(?:=|≈|<=|>=|<|>)\s*([-−+]?[\d.,]+(?:[eE][-+]?\d+)?%?)$"
)


def quoted_numbers(md: str) -> list[tuple[str, str]]:
    """(span, number) for each number inside a backticked number span of the prose."""
    md = FENCE.sub("", md)
    found = []
    for m in BACKTICKS.finditer(md):
        span = m.group(1).strip()
        if NUMBER_SPAN.match(span):
            found += [(span, canonical(n)) for n in NUMBER.findall(span)]
        elif a := ASSIGNED.match(span):
            found += [(span, canonical(n)) for n in NUMBER.findall(a.group(1))]
    return found


def loose_decimals(md: str) -> list[str]:
    """Decimals in running prose that are not in backticks, math, links or code."""
    md = FENCE.sub("", md)
    md = BACKTICKS.sub("", md)
    md = MATH.sub("", md)
    md = LINK.sub("", md)
    md = VERSION.sub("", md)
    return LOOSE_DECIMAL.findall(md)


def number_present(num: str, hay_numbers: set[str]) -> bool:
    if num in hay_numbers:
        return True
    # `0.50` in prose may be printed as 0.5, and `1e-15` as 1e-15 or 1.0e-15.
    try:
        v = float(num)
    except ValueError:
        return False
    return any(_close_repr(v, h) for h in hay_numbers)


def _close_repr(v: float, h: str) -> bool:
    try:
        return float(h) == v
    except ValueError:
        return False
