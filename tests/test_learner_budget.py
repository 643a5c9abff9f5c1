"""Budgets on what a learner reads and what a maintainer writes, over the chapters' MyST twins.

Issue 29 (written for the learner): "the source" at most 60 times in teaching prose, and at
most 40 `check(...)` lines in visible code. What the sources said, lost or got wrong goes in
one folded note per page, written as

    ```{admonition} Against the source
    :class: dropdown
    ...
    ```

and text inside such a note is not teaching prose. A code cell is folded when it carries
one of the tags in FOLDED.

Issue 26 (chapters shaped by their author): bracket-only lines at most 3 % of chapter code,
the median code cell at most 15 lines and none over 60.

Run it as a script to see the counts per page: python tests/test_learner_budget.py
(at the end of the 2026-12-02 session: 1, 0, 2.98 %, 11 and 60).
"""

import re
import statistics

import jupytext
import pytest

from workshop.config import ROOT

CHAPTERS = sorted(ROOT.glob("notebooks/part*/*.md"))
FOLDED = {"hide-input", "remove-input", "hide-cell", "remove-cell"}
SOURCE = re.compile(r"\bthe sources?\b", re.I)
NOTE = re.compile(
    r"^(`{3,}|:{3,})\{admonition\}\s*Against the source.*?^\1\s*$", re.M | re.S
)
BRACKET_ONLY = re.compile(r"\s*[)\]}]+[,:]?\s*(#.*)?")
CHECK_LINE = re.compile(r"\s*check\(")


def page_counts(path):
    """Counts for one chapter: 'the source' in teaching prose, visible check lines, code lines,
    bracket-only code lines, and the length of each code cell."""
    nb = jupytext.read(path)
    source = visible_checks = lines = brackets = 0
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            source += len(SOURCE.findall(NOTE.sub("", cell.source)))
            continue
        if cell.cell_type != "code":
            continue
        code = cell.source.splitlines()
        cells.append(len(code))
        lines += len(code)
        brackets += sum(1 for line in code if BRACKET_ONLY.fullmatch(line))
        if not FOLDED & set(cell.metadata.get("tags", [])):
            visible_checks += sum(1 for line in code if CHECK_LINE.match(line))
    return dict(
        source=source,
        checks=visible_checks,
        lines=lines,
        brackets=brackets,
        cells=cells,
    )


def book_counts():
    per_page = {p.stem: page_counts(p) for p in CHAPTERS}
    cells = [n for c in per_page.values() for n in c["cells"]]
    lines = sum(c["lines"] for c in per_page.values())
    return per_page, dict(
        source=sum(c["source"] for c in per_page.values()),
        checks=sum(c["checks"] for c in per_page.values()),
        bracket_share=sum(c["brackets"] for c in per_page.values()) / lines,
        median_cell=statistics.median(cells),
        largest_cell=max(cells),
    )


@pytest.fixture(scope="module")
def totals():
    return book_counts()[1]


def test_the_source_in_teaching_prose(totals):
    assert totals["source"] <= 60, totals


def test_visible_checks(totals):
    assert totals["checks"] <= 40, totals


def test_chapter_code_shape(totals):
    assert totals["bracket_share"] <= 0.03, totals
    assert totals["median_cell"] <= 15, totals
    assert totals["largest_cell"] <= 60, totals


if __name__ == "__main__":
    per_page, total = book_counts()
    print(
        f"{'page':32s} {'source':>6s} {'checks':>6s} {'lines':>6s} {'brkt%':>6s} {'maxcell':>7s}"
    )
    for name, c in per_page.items():
        share = 100 * c["brackets"] / max(c["lines"], 1)
        print(
            f"{name:32s} {c['source']:6d} {c['checks']:6d} {c['lines']:6d} {share:6.1f} "
            f"{max(c['cells'], default=0):7d}"
        )
    print(total)
