"""Relations between printed numbers: found in the text, backed by the outputs.

The prose guard (notebook_text.py) checks that a backticked number is printed. A sentence
can print every digit right and still mislead: "`0.41` is below `0.39`", "the fastest
of the three", "every head scores above `25`". This module finds the relations a page
states about printed numbers and asks that the outputs state them too.

A relation claim is one relation word in a sentence of prose (running text or a box),
or in the typed text of a figure title or alt text (`new_figure`, `show`), together with
the number it is about: the number a few words after it (backticked in prose).

- comparisons: below, under, less than, smaller than, lower than, at most / above,
  more than, greater than, larger than, higher than, at least, exceeds; only a few
  filler words may stand between the word and its number ("below the published `340`"),
  so "under a mask" and "over the sequence" are no claims ("over" only backs one);
- trends, with "to", "from" or "by" and a number: rises, grows, increases, climbs /
  falls, drops, decreases, shrinks, declines;
- extremes, with a number close after: largest, highest, most, longest, widest / smallest,
  lowest, least, shortest, fewest; fastest, faster / slowest, slower;
- universals, with a number close after: always / never, none ("every" and "all" only
  back one: "every layer is `256` wide" claims no relation).

A claim is backed when a printed line of its own section (for the closing section, the
summary, of any section; an `ok` line of a `check`, or any printed line; not a figure's
own text) has a clause holding a word of
the same group (or the sign: `<` for below, `>` for above), the claim's number and,
where the clause names anything, a word of what the claim is about (its clause or its
sentence's first clause: "the tanh slope", not only "`1`"). So
the relation is printed where the number is: by a `check` that tests it, or by a line a
helper wrote from the numbers (book.relations). A prose claim is also backed when its
own two numbers bear it out: "falls from `a` to `b`" with b < a, "`a`, below `b`" with
a < b (a a few words before the word). A flipped word ("below" for "above") finds no
printed line of its group and is flagged. A word an f-string field writes
(`f"{compare(a, b)}"`) is not typed, so it is no claim.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from workshop.text.notebook_text import (
    NUMBER,
    Evidence,
    canonical,
    figure_text_parts,
    output_text,
    sectioned,
)

GROUPS: dict[str, tuple[str, ...]] = {
    "below": (
        "below",
        "under",
        "less than",
        "fewer than",
        "smaller than",
        "lower than",
        "beneath",
        "at most",
        "<",
        "≤",
        "<=",
    ),
    "above": (
        "above",
        "over",
        "more than",
        "greater than",
        "larger than",
        "higher than",
        "bigger than",
        "at least",
        "exceeds",
        "exceed",
        ">",
        "≥",
        ">=",
    ),
    "rises": ("rises", "rise", "grows", "grow", "increases", "climbs", "climb"),
    "falls": ("falls", "fall", "drops", "decreases", "shrinks", "declines", "decays"),
    "most": (
        "largest",
        "highest",
        "most",
        "longest",
        "widest",
        "biggest",
        "greatest",
        "maximum",
        "peak",
        "peaks",
    ),
    "least": ("smallest", "lowest", "least", "shortest", "fewest", "minimum"),
    "fast": ("fastest", "faster", "quickest", "quicker"),
    "slow": ("slowest", "slower"),
    "every": ("every", "always", "all"),
    "never": ("never", "none", "no"),
}
OPPOSITE = {
    "below": "above",
    "above": "below",
    "rises": "falls",
    "falls": "rises",
    "most": "least",
    "least": "most",
    "fast": "slow",
    "slow": "fast",
    "every": "never",
    "never": "every",
}
# The words that make a claim in text (the signs, "all", "no" and the nouns only back
# one: "next to the minimum" claims nothing about a number).
CLAIM_WORDS: dict[str, tuple[str, ...]] = {
    g: tuple(
        w
        for w in ws
        if w[0].isalpha()
        and w
        not in ("all", "no", "none", "peak", "minimum", "maximum", "over", "every")
    )
    for g, ws in GROUPS.items()
}
COMPARATIVE = {"below", "above"}
UNIVERSAL = {"every", "never"}
TREND = {"rises", "falls"}
EXTREME = {"most", "least", "fast", "slow"}
# Words that may stand between a comparative and its number: "below the published `340`",
# "under a threshold of `1e-8`", "above about `6e-06`".
_FILLER = (
    r"(?:the|a|an|about|roughly|nearly|almost|just|only|even|still|well|far|published"
    r"|printed|source's|paper's|its|their|threshold|bound|ceiling|limit|of|at|that"
    r"|some|exactly|by|to)"
)
_NEAR = rf"(?:\s+(?:{_FILLER}\s+){{0,3}})"


def _word_re(words) -> re.Pattern:
    alts = "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))
    return re.compile(rf"(?<![\w<>=≤≥-])(?:{alts})(?![\w-])", re.I)


_CLAIM_RE = {g: _word_re(ws) for g, ws in CLAIM_WORDS.items()}
_BACK_RE = {g: _word_re([w for w in ws if w[0].isalpha()]) for g, ws in GROUPS.items()}
_SIGNS = {
    "below": re.compile(r"(?:^|\s)(?:<|≤|<=)\s*[-−]?\d"),
    "above": re.compile(r"(?:^|\s)(?:>|≥|>=)\s*[-−]?\d"),
}
_BACKTICK_NUM = re.compile(r"`[^`\n]*\d[^`\n]*`")
SENTENCE = re.compile(r"(?<=[.!?;:])\s+(?=[A-Z`(\"“*])|\n\s*\n|\n(?=\s*[-*] )")


def _numbers(text: str) -> set[float]:
    out = set()
    for m in NUMBER.finditer(text):
        try:
            out.add(float(canonical(m.group(0))))
        except ValueError:
            pass
    return out


class Claim(NamedTuple):
    """One relation word of a text, the group it claims and the numbers it is about."""

    section: int
    kind: str  # "prose" or "figure"
    group: str
    text: str
    start: int  # the word's place in text
    end: int
    nums: frozenset


def _tail_number(g: str, tail: str, backticked: bool) -> str | None:
    """The number a relation word is about, from the text after it, or None."""
    num = r"`([^`\n]*\d[^`\n]*)`" if backticked else r"([-−]?\d[\d.,]*(?:e[-+]?\d+)?)"
    if g in COMPARATIVE:
        m = re.match(rf"{_NEAR}{num}", tail)
    elif g in UNIVERSAL:
        m = re.match(rf"(?:\s+\S+){{0,5}}?\s+\(?{num}", tail)
    elif g in TREND:
        m = re.match(
            rf"(?:\s+\S+){{0,2}}?\s+(?:to|from|by|past|above|below)\s+{num}", tail
        )
    else:  # EXTREME
        m = re.match(rf"(?:\s+[\w'-]+,?){{0,3}}?\s+\(?{num}", tail)
    return m.group(1) if m else None


def claim_occurrences(sentence: str, backticked: bool = True) -> list[tuple]:
    """(group, start, end, numbers) for each relation word of a sentence that is about a
    number (backticked in prose) a few words after it."""
    found = []
    for g, rx in _CLAIM_RE.items():
        for m in rx.finditer(sentence):
            if g in EXTREME and re.search(r"\bat\s+$", sentence[: m.start()], re.I):
                continue  # "at least", "at most": a bound, counted as below/above
            tail = sentence[m.end() : m.end() + 100]
            span = _tail_number(g, tail, backticked)
            if span is None:
                continue
            if g in UNIVERSAL:
                # "never exceeds `0.25`", "never fall below `1.111`": the comparison
                # after it is the claim, counted in its own group
                head = tail[: tail.find(span)]
                if any(_CLAIM_RE[h].search(head) for h in COMPARATIVE | TREND):
                    continue
            nums = _numbers(span)
            if g in TREND:  # "falls from `a` to `b`": both ends
                t = re.match(_FROM_TO, sentence[m.end() :])
                if t:
                    nums |= _numbers(t.group(1)) | _numbers(t.group(2))
            if nums:
                found.append((g, m.start(), m.end(), frozenset(nums)))
    return found


def claim_groups(sentence: str, backticked: bool = True) -> list[str]:
    """The relation groups a sentence claims, in GROUPS order."""
    got = {g for g, *_ in claim_occurrences(sentence, backticked)}
    return [g for g in GROUPS if g in got]


_PAIR = re.compile(r"`([^`\n]+)`")
_FROM_TO = r"(?:\s+\S+){0,4}?\s+from\s+`([^`\n]+)`\s+(?:\S+\s+){0,6}?to\s+`([^`\n]+)`"
# the same in a figure's rendered text, where numbers stand bare
_FROM_TO_BARE = (
    r"(?:\s+\S+){0,4}?\s+from\s+([-−]?\d[\d.,]*\d|\d)\S*\s+(?:\S+\s+){0,6}?"
    r"to\s+([-−]?\d[\d.,]*\d|\d)"
)


def _first_number(span: str) -> float | None:
    m = NUMBER.search(span)
    if not m:
        return None
    try:
        return float(canonical(m.group(0)))
    except ValueError:
        return None


def holds_by_its_numbers(
    sentence: str, group: str, at: tuple[int, int] | None = None, bare: bool = False
) -> bool | None:
    """Where the sentence states the relation between two of its own backticked numbers,
    whether it holds: "falls from `a` to `b`" needs b < a; "`a` is below `b`" needs
    a < b. None when the sentence does not pair two numbers that way. `at` picks one
    word (start, end); by default the first that pairs two numbers."""
    spans = [at] if at else [m.span() for m in _CLAIM_RE[group].finditer(sentence)]
    for start, end in spans:
        if group in TREND:
            # an aside without numbers does not break "from `a` (...) to `b`"
            t = re.match(
                _FROM_TO_BARE if bare else _FROM_TO,
                re.sub(r"\s*\([^()`]*\)", "", sentence[end:]),
            )
            if t:
                a, b = _first_number(t.group(1)), _first_number(t.group(2))
                if a is not None and b is not None and a != b:
                    return (b > a) == (group == "rises")
        if group in COMPARATIVE and not bare:
            # the number just before the word, a few words back in the same clause
            before = re.search(r"`([^`\n]+)`(?:[^`;:()]*?)$", sentence[:start])
            gap = sentence[before.end() : start].split() if before else []
            after = re.match(rf"{_NEAR}`([^`\n]+)`", sentence[end:])
            # "`335.1` million, a little under `340`"; not "`6` it is at most `4.41`",
            # where the subject is another
            pronoun = {"it", "its", "they", "this", "that", "which", "is", "are"}
            if before and after and len(gap) <= 6 and not pronoun & set(gap):
                a, b = _first_number(before.group(1)), _first_number(after.group(1))
                if a is not None and b is not None and a != b:
                    return (a < b) == (group == "below")
    return None


def _sentences(text: str) -> list[str]:
    text = re.sub(r"(?<!\n)\n(?!\n|\s*[-*] )", " ", text)
    return [s.strip() for s in SENTENCE.split(text) if s and s.strip()]


_STOP = set(
    "the and that this with from into over under than then there their them they its"
    " it is are was were be been has have had does do did not no only one two all each"
    " every some more most less least very much also both which when where what who"
    " at by for in of on or to as an a ok per".split()
)
_ALL_RELATION_WORDS = {w for ws in GROUPS.values() for w in ws}


def _content(text: str) -> set[str]:
    """The words of a text that name what it is about (not numbers, not relation or
    stop words), lower case, a plural's s dropped."""
    text = re.sub(r"`[^`]*`", " ", text)
    words = re.findall(r"[A-Za-z][A-Za-z'-]{2,}", text)
    out = set()
    for w in words:
        w = w.lower().strip("'-")
        if w in _STOP or w in _ALL_RELATION_WORDS or len(w) < 3:
            continue
        out.add(w[:-1] if w.endswith("s") and len(w) > 3 else w)
    return out


_AT_BOUND = re.compile(r"\bat\s+(?:most|least)\b", re.I)


def _backs(line: str, group: str, nums, about: set[str] | None = None) -> bool:
    """A clause of the line holds a word (or sign) of the group and one of the numbers
    (and, when `about` is given, a word of what the claim is about, where the clause
    names anything)."""
    for clause in re.split(r"[;:]\s|,\s|\s\|\s", line):
        # "at most `0.25`" is a bound (it backs "below"), not "the most", an extreme
        words = _AT_BOUND.sub(" ", clause) if group in EXTREME else clause
        if not (
            _BACK_RE[group].search(words)
            or (group in _SIGNS and _SIGNS[group].search(clause))
        ):
            continue
        if not nums & _numbers(clause):
            continue
        if about is not None:
            names = _content(clause)
            if names and not names & about:
                continue
        return True
    return False


_FIGURE_LINE = re.compile(r"^(?:\[figure: .*\]|figure title: .*|<img .*)$")


def _evidence_lines(ev_text: list[str]) -> list[str]:
    lines = []
    for out in ev_text:
        for line in out.splitlines():
            if line.strip() and not _FIGURE_LINE.match(line.strip()):
                lines.append(line)
    return lines


def _strip_for_claims(text: str) -> str:
    # an exercise asks, it does not claim: its question paragraph is left out
    text = "\n\n".join(p for p in text.split("\n\n") if "**Exercise `" not in p)
    # links, roles and maths are not the claim; keep backticks (they mark numbers)
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$", " ", text, flags=re.S)
    text = re.sub(r"\{[a-z:]+\}`[^`]*`", " ", text)
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)


def relation_claims(nb: dict) -> list[Claim]:
    """Every relation claim of a page, one per relation word."""
    claims = []
    for s, i, kind, text in sectioned(nb):
        if kind == "markdown":
            for sent in _sentences(_strip_for_claims(text)):
                if not _BACKTICK_NUM.search(sent):
                    continue
                for g, a, b, nums in claim_occurrences(sent):
                    claims.append(Claim(s, "prose", g, sent, a, b, nums))
        else:
            cell = nb["cells"][i]
            for typed, rendered in _figure_texts(text, output_text(cell)):
                typed_groups = {g for g, *_ in claim_occurrences(typed, False)} | {
                    g for g, rx in _CLAIM_RE.items() if rx.search(typed)
                }
                for g, a, b, nums in claim_occurrences(rendered, backticked=False):
                    if g in typed_groups:  # a word from a field is not typed
                        claims.append(Claim(s, "figure", g, rendered, a, b, nums))
    return claims


def _figure_texts(code: str, out: str) -> list[tuple[str, str]]:
    """(typed text, rendered text) of the titles and alt texts a cell draws."""
    rendered = [
        r
        for m in re.finditer(r"^\[figure: (.*)\]$|^figure title: (.*)$", out, re.M)
        for r in m.groups()
        if r
    ]
    pairs = []
    for _, parts in figure_text_parts(code, ("new_figure", "show")):
        typed = " … ".join(parts)
        if not typed.strip():
            continue
        # the rendered text that holds the typed pieces in order
        probe = [p.strip() for p in parts if len(p.strip()) >= 4]
        match = next((r for r in rendered if all(p in r for p in probe[:3])), typed)
        pairs.append((typed, match))
    return pairs


def is_backed(lines: list[str], c: Claim) -> bool:
    """Does the claim hold by its own two numbers, or does a printed line state it?"""
    direct = holds_by_its_numbers(
        c.text, c.group, (c.start, c.end), bare=c.kind != "prose"
    )
    if direct:
        return True
    return any(_backs(line, c.group, c.nums, _about(c)) for line in lines)


def _about(c: Claim) -> set[str] | None:
    """What a claim is about: the content words of its clause and of its sentence's
    first clause, or of the whole sentence when those name nothing ("Below `1`, the
    signal shrinks"); None if nothing is named."""
    parts = re.split(r"[;:]\s|,\s", c.text)
    pos = 0
    for part in parts:
        start = c.text.find(part, pos)
        if start <= c.start < start + len(part) + 2:
            # the clause, and the sentence's first clause, which often holds the subject
            return _content(part) | _content(parts[0]) or _content(c.text) or None
        pos = start + len(part)
    return _content(c.text) or None


def evidence_upto(ev: Evidence, s: int) -> list[str]:
    """The printed lines that may back a claim of section s, figure text left out: those
    of section s itself; for the page's last section (the closing "So", a summary of
    the page), those of every section."""
    last = max(ev.out_text)
    return _evidence_lines(
        [t for k in ev.out_text if k == s or s == last for t in ev.out_text[k]]
    )


def unbacked_relations(nb: dict) -> list[str]:
    """The relation claims no output of their section or an earlier one backs."""
    ev = Evidence(nb)
    bad = []
    for c in relation_claims(nb):
        if is_backed(evidence_upto(ev, c.section), c):
            continue
        bad.append(claim_id(c))
    return list(dict.fromkeys(bad))


def claim_id(c: Claim) -> str:
    short = re.sub(r"\s+", " ", c.text)
    short = short if len(short) <= 120 else short[:117] + "..."
    return f"{c.kind} {c.group} (section {c.section}): {short}"


# One word of each claim, flipped to its opposite: what the mutation test plants.
FLIP = {
    "below": "above",
    "under": "above",
    "less than": "more than",
    "fewer than": "more than",
    "smaller than": "larger than",
    "lower than": "higher than",
    "at most": "at least",
    "above": "below",
    "more than": "less than",
    "greater than": "less than",
    "larger than": "smaller than",
    "higher than": "lower than",
    "at least": "at most",
    "exceeds": "below",
    "rises": "falls",
    "rise": "fall",
    "grows": "shrinks",
    "grow": "shrink",
    "increases": "decreases",
    "climbs": "drops",
    "climb": "drop",
    "falls": "rises",
    "fall": "rise",
    "drops": "climbs",
    "decreases": "increases",
    "shrinks": "grows",
    "declines": "climbs",
    "decays": "grows",
    "largest": "smallest",
    "highest": "lowest",
    "most": "least",
    "longest": "shortest",
    "widest": "narrowest",
    "biggest": "smallest",
    "greatest": "least",
    "smallest": "largest",
    "lowest": "highest",
    "least": "most",
    "shortest": "longest",
    "fewest": "most",
    "fastest": "slowest",
    "faster": "slower",
    "quickest": "slowest",
    "quicker": "slower",
    "slowest": "fastest",
    "slower": "faster",
    "never": "always",
    "always": "never",
}


def flip(c: Claim) -> Claim | None:
    """The claim with its relation word turned to the opposite ("below" to "above",
    "fastest" to "slowest"), about the same numbers; None if the word has none."""
    w = c.text[c.start : c.end]
    new = FLIP.get(w.lower())
    if new is None:
        return None
    if w[0].isupper():
        new = new[0].upper() + new[1:]
    text = c.text[: c.start] + new + c.text[c.end :]
    group = OPPOSITE[c.group]
    return c._replace(group=group, text=text, end=c.start + len(new))
