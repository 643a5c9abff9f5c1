"""The notebooks as stored: in the table of contents, run top to bottom, clean, and honest.

Honest means every number quoted in the prose (in backticks) is printed by an
output of the same notebook, or is an input written in one of its code cells,
so a measured figure cannot drift from what the code prints.
"""
from __future__ import annotations

import re

import pytest

from notebook_text import (ROOT, haystack, load, loose_decimals, notebooks, numbers_in, output_text,
                           prose, quoted_numbers, number_present, source, toc_docs)

NBS = notebooks()
IDS = [p.relative_to(ROOT).as_posix() for p in NBS]


def test_every_notebook_is_in_the_toc():
    listed = {f"{d}.ipynb" for d in toc_docs()}
    on_disk = {p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").rglob("*.ipynb")
               if ".ipynb_checkpoints" not in p.parts}
    assert on_disk <= listed, f"notebooks missing from _toc.yml: {sorted(on_disk - listed)}"


def test_every_toc_entry_exists():
    missing = [d for d in toc_docs() if not any((ROOT / f"{d}{ext}").exists() for ext in (".ipynb", ".md"))]
    assert not missing, f"_toc.yml names files that do not exist: {missing}"


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_executed_top_to_bottom(path):
    nb = load(path)
    counts = [c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} - run the notebook top to bottom in a fresh kernel "
        "(make execute NB=...)")


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_no_errors_or_warnings_in_outputs(path):
    nb = load(path)
    for i, c in enumerate(nb["cells"]):
        for out in c.get("outputs", []):
            assert out.get("output_type") != "error", f"{path.name} cell {i}: stored output is an error"
            assert not (out.get("output_type") == "stream" and out.get("name") == "stderr"), (
                f"{path.name} cell {i}: writes to stderr: {''.join(out.get('text', ''))[:300]!r}")
            text = output_text({"outputs": [out]})
            assert not re.search(r"\b\w*Warning\b:", text), f"{path.name} cell {i}: a warning in the output"


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_quoted_numbers_are_printed(path):
    nb = load(path)
    hay = numbers_in(haystack(nb))
    missing = sorted({f"`{span}`" for span, num in quoted_numbers(prose(nb)) if not number_present(num, hay)})
    assert not missing, (f"{path.name}: numbers quoted in prose that no output or code cell shows: "
                         f"{', '.join(missing[:20])}")


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_no_unquoted_decimals_in_prose(path):
    nb = load(path)
    loose = loose_decimals(prose(nb))
    assert not loose, f"{path.name}: decimals in prose outside backticks (quote them): {loose[:10]}"


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_figures_have_alt_text(path):
    nb = load(path)
    for i, c in enumerate(nb["cells"]):
        for out in c.get("outputs", []):
            data = out.get("data", {})
            assert "image/png" not in data, (
                f"{path.name} cell {i}: a bare PNG output; draw through book.show(fig, alt) instead")
            html = data.get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            for img in re.findall(r"<img[^>]*>", html):
                assert re.search(r'alt="[^"]{15,}"', img), f"{path.name} cell {i}: an image without alt text"


@pytest.mark.parametrize("path", NBS, ids=IDS)
def test_chapter_shape(path):
    """A finished chapter has a title, checks its claims, and ends with a short 'So'."""
    nb = load(path)
    md = [source(c) for c in nb["cells"] if c["cell_type"] == "markdown"]
    assert md and md[0].lstrip().startswith("# "), f"{path.name}: the first cell is not a '# ' title"
    if nb.get("metadata", {}).get("book", {}).get("stub"):
        pytest.skip("chapter not written yet")
    oks = sum(output_text(c).count("\nok ") + output_text(c).startswith("ok ")
              for c in nb["cells"] if c["cell_type"] == "code")
    assert oks > 0, f"{path.name}: no `ok` checks printed"
    assert any(re.match(r"^#+\s+So\b", s.strip()) for s in md[-3:]), f"{path.name}: no closing 'So' section"


def _term_refs() -> set[str]:
    refs = set()
    texts = [prose(load(p)) for p in NBS] + [p.read_text(encoding="utf-8") for p in ROOT.glob("*.md")]
    for text in texts:
        for m in re.finditer(r"\{term\}`([^`]+)`", text):
            target = m.group(1)
            inner = re.search(r"<([^>]+)>\s*$", target)
            refs.add((inner.group(1) if inner else target).strip().lower())
    return refs


def test_every_glossary_term_is_linked_from_the_text():
    import yaml

    terms = [e["term"] for e in yaml.safe_load((ROOT / "glossary.yml").read_text(encoding="utf-8")) or []]
    unlinked = sorted(t for t in terms if t.strip().lower() not in _term_refs())
    assert not unlinked, f"glossary terms no page links with {{term}}: {unlinked}"


def test_every_notebook_can_start_on_colab():
    """Each notebook's first code cell makes sure `book` imports (tools/colab_cell.py)."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, str(ROOT / "tools" / "colab_cell.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + "\nrun: python tools/colab_cell.py"


# A page must run alone, in an empty folder (a download, Colab): no code cell may read a sibling
# notebook or a repository file. These two still do, until their cells change (see make paths).
READS_FILES = {"notebooks/part1/13-typography.ipynb", "notebooks/part3/48-00-transformer.ipynb"}
_FILE_READS = re.compile(r"\.\./|Path\(\s*[\"']\.[\"']\s*\)|node_modules|_toc\.yml|errata\.yml|glossary\.yml"
                         r"|references\.bib|\.ipynb[\"']\)?\.exists|open\(")


def test_notebooks_read_no_repository_files():
    found = {p.relative_to(ROOT).as_posix() for p in NBS
             if any(_FILE_READS.search("".join(c["source"])) for c in load(p)["cells"]
                    if c["cell_type"] == "code" and "book-bootstrap" not in c["metadata"].get("tags", []))}
    assert found <= READS_FILES, f"these notebooks read files beside them: {sorted(found - READS_FILES)}"
    fixed = READS_FILES - found
    assert not fixed, f"these notebooks run alone now; drop them from READS_FILES: {sorted(fixed)}"


def test_the_part3_overview_lists_existing_sections():
    """48-00 lists its sections; the list is checked here, so the page itself need not read files."""
    src = "".join("".join(c["source"]) for c in load(ROOT / "notebooks/part3/48-00-transformer.ipynb")["cells"]
                  if c["cell_type"] == "code")
    stems = re.findall(r'\(\s*"48\.\d+",\s*"(48-[0-9a-z-]+)"', src)
    assert len(stems) == 17
    missing = [s for s in stems if not (ROOT / "notebooks" / "part3" / f"{s}.ipynb").exists()]
    assert not missing, missing


def test_errata_numbers_are_printed_where_they_are_measured():
    """The errata page quotes measured values; each must be printed by the notebook it links to."""
    import yaml

    from notebook_text import NUMBER, canonical

    year_or_section = re.compile(r"^(?:19|20)\d\d$|^48\.\d{1,2}$")
    problems = []
    for e in yaml.safe_load((ROOT / "errata.yml").read_text(encoding="utf-8")) or []:
        path = ROOT / f"{e['where'].strip().lstrip('/')}.ipynb"
        assert path.exists(), f"errata entry points at a missing notebook: {e['where']}"
        hay = numbers_in(haystack(load(path)))
        missing = [n for n in map(canonical, NUMBER.findall(str(e["measured"])))
                   if not year_or_section.match(n) and not number_present(n, hay)]
        if missing:
            problems.append(f"{e['where']}: {missing}")
    assert not problems, "errata numbers no output of the linked notebook shows:\n" + "\n".join(problems)
