"""The prose guard catches what a reader would be misled by: one
planted error of each kind.

Each test copies a stored notebook into a temporary folder, plants one error in the copy
(the outputs are not re-run: the error is in the text), and asserts that the guard of
tests/test_notebooks.py flags it. Each also plants the correct version of the same text
and asserts that it passes, so the guard is shown to tell the two
apart rather than flag all.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from workshop.text.notebook_text import (
    NUMBER,
    ROOT,
    UNITS,
    Evidence,
    canonical,
    haystack,
    load,
    numbers_in,
    quoted,
    section_prose,
    source,
    typed_figure_numbers,
    unsupported_numbers,
)

PAGES = ["notebooks/part1/08-attention.ipynb", "notebooks/part1/13-typography.ipynb"]


@pytest.fixture(params=PAGES, ids=[p.split("/")[-1] for p in PAGES])
def page(request, tmp_path):
    dst = tmp_path / request.param.split("/")[-1]
    shutil.copy(ROOT / request.param, dst)
    return dst


def _edit(path, fn):
    nb = load(path)
    fn(nb)
    path.write_text(json.dumps(nb), encoding="utf-8")
    return load(path)


def _md_cells(nb):
    return [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown"]


def _append(nb, i, text):
    nb["cells"][i]["source"] = source(nb["cells"][i]) + text


def _unused(nb, seed="0.7312") -> str:
    """A decimal that appears nowhere in the notebook (outputs or code)."""
    hay = numbers_in(haystack(nb))
    v = seed
    while v in hay:
        v = v[:-1] + str((int(v[-1]) + 1) % 10)
    return v


def _flags(path):
    return unsupported_numbers(load(path))


def test_the_stored_page_has_no_new_flags(page):
    # The unplanted copy is the baseline the plants are measured against.
    before = _flags(page)
    assert all("`" in f for f in before)


def test_one_digit_typo_in_a_backticked_number(page):
    nb = load(page)
    hay = numbers_in(haystack(nb))
    base = set(_flags(page))
    for i in _md_cells(nb):
        text = source(nb["cells"][i])
        for m in re.finditer(r"`(\d+\.\d{2,}|\d{1,3}(?:,\d{3})+|\d{3,})`", text):
            num = m.group(1)
            if f"`{num}`" in " ".join(base):
                continue
            for d in "0123456789":
                typo = num[:-1] + d
                if typo != num and canonical(typo) not in hay:
                    break
            else:
                continue

            def plant(nb, i=i, m=m, typo=typo):
                t = source(nb["cells"][i])
                nb["cells"][i]["source"] = t[: m.start(1)] + typo + t[m.end(1) :]

            after = set(_flags(page))
            assert not any(f"`{num}`" in f for f in after - base)
            _edit(page, plant)
            assert any(f"`{typo}`" in f for f in set(_flags(page)) - base), (
                f"typo {num} -> {typo} not caught"
            )
            return
    pytest.skip("no decimal to mistype")


def test_wrong_unit(page):
    nb = load(page)
    ev = Evidence(nb)
    last = max(ev.pairs)
    pairs, _ = ev.upto(last)
    withunit = sorted((n, u) for n, u in pairs if u is not None and "." in n)
    assert withunit, "the page prints no number with a unit"
    n, u = withunit[0]
    fam = UNITS[u][0]
    # A unit of the same family at another scale, or of another
    # family when there is none.
    wrong = next(
        (w for w, (f, k) in UNITS.items() if f == fam and k != UNITS[u][1]),
        "x" if u != "x" else "%",
    )
    i = _md_cells(nb)[-1]
    base = set(_flags(page))
    _edit(page, lambda nb: _append(nb, i, f"\n\nIt is `{n} {u}`.\n"))
    assert set(_flags(page)) == base, f"the right unit `{n} {u}` was flagged"
    _edit(page, lambda nb: _append(nb, i, f"\n\nIt is `{n} {wrong}`.\n"))
    assert any(f"`{n} {wrong}`" in f for f in _flags(page)), (
        f"`{n} {wrong}` (printed as {n} {u}) not caught"
    )


def test_a_number_inside_a_box(page):
    nb = load(page)
    good = next(
        num for s, t in section_prose(nb) for _, num, _ in quoted(t) if "." in num
    )
    bad = _unused(nb)
    i = _md_cells(nb)[-1]
    box = ":::{{admonition}} The engineer's version\n:class: dropdown\n- It is `{}`.\n:::\n"
    base = set(_flags(page))
    _edit(page, lambda nb: _append(nb, i, "\n\n" + box.format(good)))
    assert set(_flags(page)) == base
    _edit(page, lambda nb: _append(nb, i, "\n\n" + box.format(bad)))
    assert any(f"`{bad}`" in f for f in _flags(page)), (
        "a number in a ::: box not caught"
    )
    fence = "```{{note}}\nIt is `{}`.\n```\n"
    bad2 = _unused(load(page), "0.6184")
    _edit(page, lambda nb: _append(nb, i, "\n\n" + fence.format(bad2)))
    assert any(f"`{bad2}`" in f for f in _flags(page)), (
        "a number in a ``` box not caught"
    )


def test_a_number_only_in_a_code_comment_or_a_plot_limit(page):
    nb = load(page)
    code = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]
    c_comment, c_limit, c_input = _unused(nb, "0.7312"), "1e-11", _unused(nb, "0.5521")
    md = _md_cells(nb)[-1]

    def plant(nb):
        _append(nb, code[-1], f"\n# the share is {c_comment}\n")
        _append(nb, code[-1], f"\nplt.gca().set_ylim({c_limit}, 1)\n")
        _append(nb, code[-1], f"\nrate = {c_input}\n")
        _append(nb, md, f"\n\nShares `{c_comment}`, `{c_limit}` and `{c_input}`.\n")

    _edit(page, plant)
    flags = " ".join(_flags(page))
    assert f"`{c_comment}`" in flags, "a number only in a code comment not caught"
    assert f"`{c_limit}`" in flags, "a number only in a set_ylim call not caught"
    assert f"`{c_input}`" not in flags, "a literal input (an assignment) was flagged"


def test_a_number_quoted_before_the_section_that_prints_it(page):
    nb = load(page)
    ev = Evidence(nb)
    first_seen: dict[str, int] = {}
    for s in sorted(ev.pairs):
        for n, _ in ev.pairs[s]:
            first_seen.setdefault(n, s)
    _, inputs = ev.upto(max(ev.pairs))
    late = [
        (n, s)
        for n, s in first_seen.items()
        if s > 0 and len(n) >= 4 and float(n) not in inputs
    ]
    assert late, "no number printed after the opening"
    n, s = sorted(late, key=lambda t: -t[1])[0]
    # the markdown chunk of section s, and the opening (section 0)
    where = [
        i for i in _md_cells(nb) if source(nb["cells"][i]).lstrip().startswith("## ")
    ]
    opening = _md_cells(nb)[0]
    base = set(_flags(page))
    _edit(page, lambda nb: _append(nb, _md_cells(nb)[-1], f"\n\nIt was `{n}`.\n"))
    assert set(_flags(page)) == base, "a number quoted after it is printed was flagged"
    _edit(page, lambda nb: _append(nb, opening, f"\n\nIt will be `{n}`.\n"))
    assert any(f"`{n}` (section 0)" in f for f in _flags(page)), (
        f"`{n}` quoted in the opening, printed in section {s}, not caught"
    )
    assert where


def test_a_typed_number_in_a_title_or_alt_text(page):
    nb = load(page)
    code = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"][-1]
    before = typed_figure_numbers(nb)

    def plant(nb):
        _append(
            nb,
            code,
            '\nvalue = 0.4321\nfig, ax = new_figure(f"It falls to {value:.4f}")\n'
            'show(fig, alt=f"A line that falls to {value:.4f}, steadily, at d = 64")\n'
            "d = 64\n",
        )

    _edit(page, plant)
    assert typed_figure_numbers(load(page)) == before, "a computed field was flagged"

    def plant_typed(nb):
        _append(
            nb,
            code,
            '\nfig, ax = new_figure("The loss falls to 0.4318 in one step")\n'
            'show(fig, alt="A line that falls 34x, to 12.5% of the start, or 2e-7")\n'
            'slider(draw, "alt text at d={d}: the peak is 0.975", d=[4, 16])\n',
        )

    _edit(page, plant_typed)
    got = {t for t, _ in typed_figure_numbers(load(page))} - {t for t, _ in before}
    assert {"0.4318", "34x", "12.5%", "2e-7", "0.975"} <= got, got


def test_number_regex_reads_the_common_forms():
    assert [canonical(n) for n in NUMBER.findall("8,030,261,248 and 1e-15")] == [
        "8030261248",
        "1e-15",
    ]
