"""Bibliography labels that match the citations in the text.

The text cites author-year (``bibtex_reference_style: author_year``): "Vaswani et al.,
2017". pybtex's plain style numbers the list instead ([1]-[115]), so a reader who meets
"Vaswani et al., 2017" on a page cannot find it by eye. This label style gives each
entry the citation's own words, with a, b, ... where two entries would read alike.
"""

from __future__ import annotations

import string
from collections import Counter

from pybtex.richtext import Text
from pybtex.style.labels import BaseLabelStyle


def _last(person) -> str:
    parts = person.rich_prelast_names + person.rich_last_names
    return " ".join(
        str(Text.from_latex(str(p)) if not isinstance(p, Text) else p) for p in parts
    )


def author_year(entry) -> str:
    """'Vaswani et al., 2017', 'Ba and Kiros, 2016', 'Elman, 1990'
    (editors, then title, stand in)."""
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [_last(p) for p in people]
    if not names:
        who = str(Text.from_latex(entry.fields.get("title", entry.key)))
        who = " ".join(who.split()[:4])
    elif len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    year = entry.fields.get("year", "n.d.")
    return f"{who}, {year}"


class AuthorYearLabelStyle(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        entries = list(sorted_entries)
        labels = [author_year(e) for e in entries]
        counts, seen = Counter(labels), Counter()
        for label in labels:
            if counts[label] > 1:
                yield label + string.ascii_lowercase[seen[label]]
                seen[label] += 1
            else:
                yield label
