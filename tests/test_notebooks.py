"""The notebooks as stored: in the table of contents, run top to
bottom, clean, and honest.

Honest means every number quoted in the prose or a box (in backticks) is printed, with
its unit, by an output of its own section or an earlier one, or is a literal input in a
code cell there, so a measured figure cannot drift from what the code prints; and a
result typed into a figure title, alt text or slider label is formatted from the value.
tests/test_prose_mutations.py plants one error of each kind and shows each is caught.
"""

from __future__ import annotations

import re

import pytest

from workshop.text.notebook_text import (
    ROOT,
    all_prose,
    load,
    loose_decimals,
    notebooks,
    number_present,
    numbers_in,
    output_text,
    prose,
    source,
    toc_docs,
    typed_figure_numbers,
    unsupported_numbers,
)

NBS = notebooks()
IDS = [p.relative_to(ROOT).as_posix() for p in NBS]


def test_every_notebook_is_in_the_toc():
    listed = {f"{d}.ipynb" for d in toc_docs()}
    on_disk = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "notebooks").rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts
    }
    assert on_disk <= listed, (
        f"notebooks missing from _toc.yml: {sorted(on_disk - listed)}"
    )


def test_every_toc_entry_exists():
    missing = [
        d
        for d in toc_docs()
        if not any((ROOT / f"{d}{ext}").exists() for ext in (".ipynb", ".md"))
    ]
    assert not missing, f"_toc.yml names files that do not exist: {missing}"


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_executed_top_to_bottom(path):
    nb = load(path)
    counts = [c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} - run the notebook top to "
        f"bottom in a fresh kernel "
        "(make execute NB=...)"
    )


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_no_errors_or_warnings_in_outputs(path):
    nb = load(path)
    for i, c in enumerate(nb["cells"]):
        for out in c.get("outputs", []):
            assert out.get("output_type") != "error", (
                f"{path.name} cell {i}: stored output is an error"
            )
            assert not (
                out.get("output_type") == "stream" and out.get("name") == "stderr"
            ), (
                f"{path.name} cell {i}: writes to stderr: "
                f"{''.join(out.get('text', ''))[:300]!r}"
            )
            text = output_text({"outputs": [out]})
            assert not re.search(r"\b\w*Warning\b:", text), (
                f"{path.name} cell {i}: a warning in the output"
            )


def _pending(kind: str) -> dict[str, list[str]]:
    """Flags the stricter guard raises that are not fixed yet
    (tests/prose_guard_pending.yml).

    Each entry is listed by name: the test fails on any flag not listed, and on any
    listed flag that is gone (so the list only shrinks)."""
    import yaml

    data = (
        yaml.safe_load((ROOT / "tests" / "prose_guard_pending.yml").read_text()) or {}
    )
    return {k: list(v or []) for k, v in (data.get(kind) or {}).items()}


def _ratchet(kind: str, path, flagged: list[str], what: str) -> None:
    rel = path.relative_to(ROOT).as_posix()
    pending = _pending(kind).get(rel, [])
    new = [f for f in flagged if f not in pending]
    gone = [f for f in pending if f not in flagged]
    assert not new, f"{path.name}: {what}: {', '.join(new[:20])}"
    assert not gone, (
        f"{path.name}: fixed, so remove from "
        f"tests/prose_guard_pending.yml ({kind}): {gone}"
    )


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_quoted_numbers_are_printed(path):
    """Every backticked number, with its unit, in the prose and the boxes of a section
    is printed by an output of that section or an earlier one (or is a literal input in
    a code cell there: an assignment or an argument, not a comment, a
    string or a plotting knob)."""
    _ratchet(
        "quoted_numbers",
        path,
        unsupported_numbers(load(path)),
        "numbers quoted in prose that no output (or input) of their section or an "
        "earlier one shows, with that unit",
    )


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_no_unquoted_decimals_in_prose(path):
    nb = load(path)
    loose = loose_decimals(all_prose(nb))
    assert not loose, (
        f"{path.name}: decimals in prose or boxes outside backticks "
        f"(quote them): {loose[:10]}"
    )


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_figure_text_numbers_are_computed(path):
    """A result-like number (a decimal, a percentage, a ratio like 34x, e-notation) in a
    figure title (new_figure), alt text (show) or slider label (slider) is formatted
    from the computed value, an f-string field, unless it is also a literal
    input in the code (d=64)."""
    flagged = [tok for tok, _ in typed_figure_numbers(load(path))]
    where = {tok: ctx for tok, ctx in typed_figure_numbers(load(path))}
    rel = path.relative_to(ROOT).as_posix()
    pending = _pending("figure_numbers").get(rel, [])
    new = [f for f in flagged if f not in pending]
    gone = [f for f in pending if f not in flagged]
    assert not new, (
        f"{path.name}: numbers typed into titles, alt text or slider labels (format "
        f"them from the computed value): "
        + "; ".join(f"{t} in {where[t]}" for t in new[:10])
    )
    assert not gone, (
        f"{path.name}: fixed, so remove from tests/prose_guard_pending.yml "
        f"(figure_numbers): {gone}"
    )


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_figures_have_alt_text(path):
    nb = load(path)
    for i, c in enumerate(nb["cells"]):
        for out in c.get("outputs", []):
            data = out.get("data", {})
            bare = [m for m in data if m.startswith("image/")]
            assert not bare, (
                f"{path.name} cell {i}: a bare {bare[0]} output; draw through "
                f"book.show(fig, alt) instead"
            )
            html = data.get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            for img in re.findall(r"<img[^>]*>", html):
                assert re.search(r'alt="[^"]{15,}"', img), (
                    f"{path.name} cell {i}: an image without alt text"
                )
                assert re.search(r'width="\d+" height="\d+"', img), (
                    f"{path.name} cell {i}: a figure without its displayed size "
                    "(draw through book.show, which sets width and height at 1x)"
                )


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_chapter_shape(path):
    """A finished chapter has a title, checks its claims, and ends with a short 'So'."""
    nb = load(path)
    md = [source(c) for c in nb["cells"] if c["cell_type"] == "markdown"]
    assert md and md[0].lstrip().startswith("# "), (
        f"{path.name}: the first cell is not a '# ' title"
    )
    oks = sum(
        output_text(c).count("\nok ") + output_text(c).startswith("ok ")
        for c in nb["cells"]
        if c["cell_type"] == "code"
    )
    assert oks > 0, f"{path.name}: no `ok` checks printed"
    assert any(re.match(r"^#+\s+So\b", s.strip()) for s in md[-3:]), (
        f"{path.name}: no closing 'So' section"
    )


def _term_refs() -> set[str]:
    refs = set()
    texts = [prose(load(p)) for p in NBS] + [
        p.read_text(encoding="utf-8") for p in ROOT.glob("*.md")
    ]
    for text in texts:
        for m in re.finditer(r"\{term\}`([^`]+)`", text):
            target = m.group(1)
            inner = re.search(r"<([^>]+)>\s*$", target)
            refs.add((inner.group(1) if inner else target).strip().lower())
    return refs


def test_every_glossary_term_is_linked_from_the_text():
    import yaml

    terms = [
        e["term"]
        for e in yaml.safe_load((ROOT / "glossary.yml").read_text(encoding="utf-8"))
        or []
    ]
    refs = _term_refs()  # once: it reads every notebook
    unlinked = sorted(t for t in terms if t.strip().lower() not in refs)
    assert not unlinked, f"glossary terms no page links with {{term}}: {unlinked}"


def test_every_notebook_can_start_on_colab():
    """Each notebook's first code cell makes sure `book`
    imports (workshop/run/colab_cell.py)."""
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, "-m", "workshop.run.colab_cell", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + "\nrun: python -m workshop.run.colab_cell"


# A page must run alone, in an empty folder (a download, Colab): no code cell may read a
# sibling notebook or a repository file. The typography page is the one exception: it
# measures the site's own font files (npm's @fontsource or the
# repository's copy, book.page_fonts).
# 48.99 also checks its ledger against its sibling pages' stored outputs, where they are
# present (a checkout); alone it skips that check and prints the rest unchanged.
READS_FILES = {"notebooks/part3/48-99-summary.ipynb"}
_FILE_READS = re.compile(
    r"\.\./|Path\(\s*[\"']\.[\"']\s*\)|node_modules|_toc\.yml|errata\.yml|glossary\.yml"
    r"|references\.bib|\.ipynb[\"']\)?\.exists|open\("
)


def test_notebooks_read_no_repository_files():
    found = {
        p.relative_to(ROOT).as_posix()
        for p in NBS
        if any(
            _FILE_READS.search("".join(c["source"]))
            for c in load(p)["cells"]
            if c["cell_type"] == "code"
            and "book-bootstrap" not in c["metadata"].get("tags", [])
        )
    }
    assert found <= READS_FILES, (
        f"these notebooks read files beside them: {sorted(found - READS_FILES)}"
    )
    fixed = READS_FILES - found
    assert not fixed, (
        f"these notebooks run alone now; drop them from READS_FILES: {sorted(fixed)}"
    )


def test_the_part3_overview_lists_existing_sections():
    """48-00 lists its sections; the list is checked here, so the page
    itself need not read files."""
    src = "".join(
        "".join(c["source"])
        for c in load(ROOT / "notebooks/part3/48-00-transformer.ipynb")["cells"]
        if c["cell_type"] == "code"
    )
    stems = re.findall(r'\(\s*"48\.\d+",\s*"(48-[0-9a-z-]+)"', src)
    assert len(stems) == 17
    missing = [
        s for s in stems if not (ROOT / "notebooks" / "part3" / f"{s}.ipynb").exists()
    ]
    assert not missing, missing


@pytest.mark.parametrize("listing", ["errata.yml", "confirmed.yml"])
def test_errata_numbers_are_printed_where_they_are_measured(listing):
    """Each correction rests on what its page prints: every number in an entry's
    `measured` text is in an output of the notebook it links to, or is a literal input
    of that notebook's code (a setup value: `lr = 0.01`, `n=201`). A number typed in
    code that prints it (an f-string) is not evidence. Years and section references
    ("section 3.4", "48.7") are citations, not measurements."""
    import yaml

    from workshop.text.notebook_text import NUMBER, canonical, code_inputs

    citation = re.compile(r"\b(?:sections?|table|figure|theorem)\s+\d+(?:\.\d+)*", re.I)
    year_or_section = re.compile(r"^(?:19|20)\d\d$|^48\.\d{1,2}$")
    problems = []
    for e in yaml.safe_load((ROOT / listing).read_text(encoding="utf-8")) or []:
        path = ROOT / f"{e['where'].strip().lstrip('/')}.ipynb"
        assert path.exists(), f"errata entry points at a missing notebook: {e['where']}"
        nb = load(path)
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        printed = numbers_in("\n".join(output_text(c) for c in code))
        inputs = set().union(*(code_inputs(source(c)) for c in code))
        text = citation.sub("", str(e["measured"]))
        missing = [
            n
            for n in map(canonical, NUMBER.findall(text))
            if not year_or_section.match(n)
            and not number_present(n, printed)
            and _as_float(n) not in inputs
        ]
        if missing:
            problems.append(f"{e['where']}: {missing}")
    assert not problems, (
        "errata numbers the linked notebook neither prints nor takes as an input:\n"
        + "\n".join(problems)
    )


def _as_float(num: str) -> float | None:
    try:
        return float(num.rstrip("%"))
    except ValueError:
        return None


def _cells(nb) -> list[tuple[str, str, tuple[str, ...]]]:
    return [
        (
            c["cell_type"],
            source(c).strip(),
            tuple(c.get("metadata", {}).get("tags", [])),
        )
        for c in nb["cells"]
    ]


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_text_source_is_in_sync(path):
    """Each notebook has its MyST text twin, and the two hold the same cells.

    The .md is what a reviewer reads; the .ipynb keeps the outputs. `make sync`
    (jupytext --sync) brings an edited one up to date with the other."""
    import jupytext

    md = path.with_suffix(".md")
    assert md.exists(), f"{path.name}: no paired text file {md.name} (run make sync)"
    text = jupytext.read(md)
    assert _cells(text) == _cells(load(path)), (
        f"{path.name} and {md.name} differ: edit one, then run make sync"
    )


# A line of a cell that draws: a figure shown, or a slider made.
_DRAWS = re.compile(r"^\s*(?:show|slider)\(", re.M)


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_drawing_code_is_folded(path):
    """A cell that draws a figure or a slider folds its code behind "Show code"
    (tag hide-input): the reader sees the figure, and opens the code on request.
    A hidden cell (remove-cell) is not folded as well."""
    shown, both = [], []
    for k, c in enumerate(
        (c for c in load(path)["cells"] if c["cell_type"] == "code"), start=1
    ):
        tags = c.get("metadata", {}).get("tags", [])
        if "remove-cell" in tags:
            if "hide-input" in tags:
                both.append(k)
            continue
        if _DRAWS.search(source(c)) and "hide-input" not in tags:
            shown.append(source(c).strip().splitlines()[0][:60])
    assert not both, f"{path.name}: code cells {both} are both removed and folded"
    assert not shown, (
        f"{path.name}: cells that draw but show their code (add `:tags: [hide-input]` "
        f"in the .md): {shown}"
    )


def test_errata_list_errors_only():
    """A confirmation ("the four values reproduce, but ...")
    belongs in confirmed.yml."""
    import yaml

    confirm = re.compile(
        r"\b(?:values|figures|losses|entries|both values|table) reproduces?\b|"
        r"\breproduces?(?:,| exactly| as printed)|\b(?:arithmetic|trend) holds\b",
        re.I,
    )
    bad = [
        e["where"] + ": " + confirm.search(str(e["measured"])).group(0)
        for e in yaml.safe_load((ROOT / "errata.yml").read_text(encoding="utf-8"))
        if confirm.search(str(e["measured"]))
    ]
    assert not bad, f"errata.yml entries that confirm rather than correct: {bad}"
