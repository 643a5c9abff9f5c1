"""The first cell and the downloadable copy (workshop/site/downloads.py, workshop/run/colab_cell.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from workshop.config import ROOT, config, notebook_docs, repo_url
from workshop.run import colab_cell  # noqa: E402
from workshop.site import downloads as d


def test_nothing_installs_while_no_repository_is_configured():
    src = colab_cell.cell_source({"repository": {"url": ""}})
    assert "pip" not in src and "http" not in src and "ModuleNotFoundError" in src
    compile(src, "cell", "exec")


def test_a_configured_repository_is_the_only_address():
    src = colab_cell.cell_source(
        {"repository": {"url": "https://github.com/owner/name/", "branch": "b"}}
    )
    assert "git+https://github.com/owner/name@b" in src
    assert src.count("http") == 1
    # anything but an https URL counts as unset
    assert repo_url({"repository": {"url": "measured-book/measured"}}) == ""


def test_config_names_no_placeholder():
    cfg = config()
    assert "measured-book/measured" not in json.dumps(cfg)


def test_roles_become_plain_text():
    bib = d.read_bib(ROOT / "references.bib")
    cited = []
    text = (
        "A {term}`query` and {term}`Temperature <temperature>`, after "
        "{cite:p}`vaswani2017attention`; {cite:t}`vaswani2017attention` wrote "
        "it.\n:::{admonition} The rule\nbody\n:::\n"
    )
    out = d.plain_markdown(text, bib, cited)
    assert "{" not in out and "`" not in out
    assert (
        "A query and Temperature, after (Vaswani et al. 2017); Vaswani "
        "et al. (2017) wrote it." in out
    )
    assert "> **The rule**" in out and "> body" in out
    assert cited == ["vaswani2017attention"]
    assert "Attention Is All You Need" in d.references_markdown(cited, bib)


def test_bib_accents_become_unicode():
    assert d._latex_to_text(r"Lebr{\'o}n") == "Lebrón"
    assert d._latex_to_text(r"{\L}ukasz") == "Łukasz"


def test_carried_cell_imports_book_without_the_package(tmp_path):
    """The carried cell, run by a Python that cannot see the
    repository, imports `book`."""
    src = d.carried_cell_source(d.package_zip())
    hide = (
        # the editable install's finder and the repository leave the path
        "import sys\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f)]\n"
        f"sys.path[:] = [p for p in sys.path if p not in ('', {str(ROOT)!r})]\n"
    )
    (tmp_path / "cell.py").write_text(
        hide + src + "\nprint(book.__file__)\nprint(book.fixed(1.23456, 2))\n"
    )
    r = subprocess.run(
        [sys.executable, "-I", str(tmp_path / "cell.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert str(ROOT) not in r.stdout.splitlines()[0], r.stdout
    assert r.stdout.splitlines()[1] == "1.23"


def test_standalone_copy(tmp_path):
    nb = json.loads(
        (ROOT / "notebooks/part2/19-sampling.ipynb").read_text(encoding="utf-8")
    )
    out = d.standalone(nb, d.read_bib(ROOT / "references.bib"), d.package_zip())
    first = next(c for c in out["cells"] if c["cell_type"] == "code")
    assert d.MARK in first["source"] and "remove-cell" not in first["metadata"]["tags"]
    text = "".join(
        "".join(c["source"]) for c in out["cells"] if c["cell_type"] == "markdown"
    )
    assert "{term}" not in text and "{cite" not in text
    assert out["cells"][-1]["source"].startswith("## References")
    assert nb != out  # the stored notebook is untouched
    ids = [c.get("id") for c in out["cells"]]
    assert None not in ids and len(set(ids)) == len(ids), (
        "nbformat 4.5 wants unique ids"
    )
    import nbformat

    nbformat.validate(nbformat.from_dict(out))


def test_carried_fonts_match_npm():
    """13-typography reads fonts/fontsource where npm's packages are
    absent (Binder): same bytes."""
    from book import page_fonts

    assert (page_fonts.CARRIED / "ibm-plex-sans" / "LICENSE").exists()
    if page_fonts.NODE.is_dir():
        r = subprocess.run(
            [sys.executable, "-m", "workshop.site.vendor_fonts", "--check"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert r.returncode == 0, (
            r.stdout + "\nrun: python -m workshop.site.vendor_fonts"
        )
    assert page_fonts.font_packages() in (page_fonts.NODE, page_fonts.CARRIED)


def test_rewrite_is_idempotent_and_refreshes_book(tmp_path):
    src = tmp_path / "_sources" / "notebooks" / "part2"
    src.mkdir(parents=True)
    shutil.copy2(ROOT / "notebooks/part2/19-sampling.ipynb", src / "19-sampling.ipynb")
    assert len(d.rewrite_sources(tmp_path, ROOT)) == 1
    once = (src / "19-sampling.ipynb").read_text(encoding="utf-8")
    assert d.rewrite_sources(tmp_path, ROOT) == []  # nothing to do
    nb = json.loads(once)
    nb["cells"][1]["source"] = (
        d.MARK + " an older book/"
    )  # a copy an incremental build kept
    (src / "19-sampling.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    d.rewrite_sources(tmp_path, ROOT)
    again = json.loads((src / "19-sampling.ipynb").read_text(encoding="utf-8"))
    assert again == json.loads(once)


def test_a_checkout_only_page_has_no_download_copy(tmp_path):
    """A page that reads the repository's own files (CHECKOUT_ONLY) gets no copy in
    _sources, so no button serves a notebook that cannot run; the others are rewritten."""
    assert d.CHECKOUT_ONLY, "nothing to test"
    doc = next(iter(d.CHECKOUT_ONLY))
    other = "notebooks/part3/48-05-masking"
    for name in (doc, other):
        f = tmp_path / "_sources" / f"{name}.ipynb"
        f.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f"{name}.ipynb", f)
    done = d.rewrite_sources(tmp_path, ROOT)
    assert not (tmp_path / "_sources" / f"{doc}.ipynb").exists()
    assert done == [tmp_path / "_sources" / f"{other}.ipynb"]
    for name in d.CHECKOUT_ONLY:  # each page says why, where a reader looks
        text = (ROOT / f"{name}.md").read_text(encoding="utf-8")
        assert "offers no download of this page" in text, name


def test_a_download_carries_only_the_readers_package():
    """The zip in a download's first cell holds the modules of book/ that the offered
    notebooks import (and what those import), and nothing else: no workshop, no site
    machinery, no module only a checkout-only page needs."""
    import io
    import zipfile

    names = set(zipfile.ZipFile(io.BytesIO(d.package_zip())).namelist())
    # the live slider's drawing module travels with the slider (COMPANIONS)
    assert "book/chart.js" in names
    names.discard("book/chart.js")
    carried = {n.removeprefix("book/").removesuffix(".py") for n in names}
    assert all(n.startswith("book/") and n.count("/") == 1 for n in names), names
    needed = set()
    for doc in notebook_docs():
        if doc in d.CHECKOUT_ONLY:
            continue
        nb = json.loads((ROOT / f"{doc}.ipynb").read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                needed |= d._book_imports("".join(cell["source"]))
    needed = {n for n in needed if (ROOT / "book" / f"{n}.py").exists()}  # modules
    assert needed <= carried, (
        f"a notebook imports what the zip lacks: {needed - carried}"
    )
    assert (
        "page_fonts" not in carried
    )  # only the checkout-only typography page needs it
    # each carried module is needed: imported by a notebook or by a carried module
    by_modules = set().union(
        *(d._book_imports((ROOT / "book" / f"{m}.py").read_text()) for m in carried)
    )
    assert carried <= needed | by_modules, carried - needed - by_modules


def test_the_import_reader_sees_every_form():
    got = d._book_imports(
        "%matplotlib inline\nimport book\nfrom book.taught import softmax\n"
        "from book import fixed\nimport numpy as np\n"
    )
    assert got == {"__init__", "taught", "fixed"}
    assert d._book_imports("from .fmt import table", "book") == {"__init__", "fmt"}
