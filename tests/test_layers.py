"""The house's floor plan (CONTRIBUTING.md, "The house"): imports run one way, and each
shared fact has one home, workshop/config.py.

    book  <-  workshop.config  <-  workshop.{run,text,site,print,measure}  <-  tests

A test here fails when an import breaks the layers, when a second reader of
_config.yml or _toc.yml appears, or when a fact (the root, the notebooks in book
order, the repository's URL and branch, the BLAS thread variables, the nbval
arguments) is spelled a second time.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

from workshop.config import ROOT

HERE = Path(__file__).resolve()
CONFIG = ROOT / "workshop" / "config.py"
#: What the checks read: the tracked code and build files, and new ones not yet added.
CODE = (".py", ".mjs", ".yml", ".yaml", ".toml", ".cfg", ".sh")


def _tracked() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return sorted({ROOT / p for p in out if (ROOT / p).is_file()})


def _code_files() -> list[Path]:
    names = ("Makefile", "run")
    return [
        p
        for p in _tracked()
        if p != HERE
        and not p.is_relative_to(ROOT / "notebooks")
        and (p.suffix in CODE or p.name in names)
    ]


def _py(under: str | None = None) -> list[Path]:
    return [
        p
        for p in _code_files()
        if p.suffix == ".py" and (under is None or p.is_relative_to(ROOT / under))
    ]


def _strings(path: Path) -> list[tuple[int, str]]:
    """(line, value) of every string literal of a Python file, docstrings and
    comments left out."""
    out, prev = [], None
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type == tokenize.STRING and prev not in (
            tokenize.INDENT,
            tokenize.NEWLINE,
            tokenize.NL,
            None,
        ):
            try:
                out.append((tok.start[0], str(ast.literal_eval(tok.string))))
            except (ValueError, SyntaxError):
                out.append((tok.start[0], tok.string))
        if tok.type not in (tokenize.COMMENT,):
            prev = tok.type
    return out


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found.add(base)
    return found


# ---------------------------------------------------------------- layers
def test_no_sys_path_insert_anywhere():
    needle = "sys.path" + ".insert"
    hits = [
        p.relative_to(ROOT).as_posix()
        for p in _tracked()
        if p != HERE
        and (p.suffix in (*CODE, ".ipynb") or p.name in ("Makefile", "run"))
        and needle in p.read_text(encoding="utf-8", errors="replace")
    ]
    assert not hits, f"import by package, not by {needle}: {hits}"


def test_book_imports_nothing_of_the_workshop_or_the_tests():
    tests = {p.stem for p in (ROOT / "tests").glob("*.py")}
    bad = {
        p.relative_to(ROOT).as_posix(): sorted(
            m for m in _imports(p) if m.split(".")[0] in {"workshop", "tools", *tests}
        )
        for p in _py("book")
    }
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, f"book/ is the bottom layer: {bad}"


def test_workshop_imports_no_test_and_config_no_other_workshop_module():
    tests = {p.stem for p in (ROOT / "tests").glob("*.py")} | {"tests", "tools"}
    bad = {}
    for p in _py("workshop"):
        got = _imports(p)
        wrong = {m for m in got if m.split(".")[0] in tests}
        if p == CONFIG:
            wrong |= {m for m in got if m.startswith("workshop")}
            wrong |= {m for m in got if m.startswith("book") and m != "book.parallel"}
        if wrong:
            bad[p.relative_to(ROOT).as_posix()] = sorted(wrong)
    assert not bad, f"imports against the layers: {bad}"


def test_an_import_against_the_layers_is_caught(tmp_path):
    """The check reads what it should: a planted upward import is found."""
    planted = ROOT / "book" / "_planted_for_test.py"
    planted.write_text("from workshop.config import ROOT\n")
    try:
        assert "workshop.config" in _imports(planted)
    finally:
        planted.unlink()


def test_every_workshop_folder_is_a_declared_package():
    import tomllib

    declared = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
            "packages"
        ]
    )
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in [*(ROOT / "workshop").rglob("__init__.py"), ROOT / "book/__init__.py"]
    }
    assert on_disk == declared, on_disk ^ declared


# ---------------------------------------------------------------- one home per fact
def _rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix() if p.is_relative_to(ROOT) else str(p)


def _outside_config(pattern: str, files, allow=()) -> list[str]:
    rx = re.compile(pattern)
    return [
        f"{_rel(p)}:{i}"
        for p in files
        if p != CONFIG and _rel(p) not in allow
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if rx.search(line)
    ]


def test_one_reader_of_config_and_toc():
    """Only workshop/config.py opens _config.yml or _toc.yml (a test may write one
    into a temporary folder)."""
    hits = [
        f"{p.relative_to(ROOT).as_posix()}:{line}"
        for p in _py()
        if p != CONFIG
        for line, s in _strings(p)
        if s in ("_config.yml", "_toc.yml")
        and "write_text" not in p.read_text().splitlines()[line - 1]
    ]
    assert not hits, f"ask workshop.config instead: {hits}"


def test_one_root():
    hits = _outside_config(
        r"^\s*[A-Z_]*ROOT\s*=|Path\(__file__\)[.\w()]*\.parents\[\d\]\s*(\)|$|#)",
        _py(),
        # the reader's package cannot ask the workshop: the checkout-only page's fonts
        allow=("book/page_fonts.py",),
    )
    assert not hits, f"import ROOT from workshop.config: {hits}"


def test_one_list_of_notebooks_in_book_order():
    hits = _outside_config(
        r"^\s*def (toc_docs|toc_notebooks|notebooks|notebook_docs|stored_notebooks)\(",
        _py(),
    )
    assert not hits, f"workshop.config.notebooks is the one list: {hits}"


def test_one_spelling_of_the_repository():
    """The URL and the branch are read in one place; no address is typed."""
    hits = [
        f"{p.relative_to(ROOT).as_posix()}:{line}"
        for p in _py()
        if p != CONFIG and not p.is_relative_to(ROOT / "tests")
        for line, s in _strings(p)
        if s in ("repository", "branch") or "/blob/" in s
    ]
    assert not hits, f"ask workshop.config.repo_url / branch / blob_url: {hits}"


def test_one_spelling_of_the_blas_thread_variables():
    names = r"(OPENBLAS|OMP|MKL)_NUM_THREADS"
    hits = _outside_config(names, _code_files(), allow=("book/parallel.py",))
    assert not hits, (
        f"use workshop.config.blas_threads (or make's $(call blas,N)): {hits}"
    )


def test_one_spelling_of_the_nbval_arguments():
    flags = r"--nbval-sanitize-with|--dist[ =\"',]+loadfile"
    hits = _outside_config(flags, _code_files())
    assert not hits, f"use workshop.config.nbval_args (make: $(NBVAL_FLAGS)): {hits}"


def test_the_checks_catch_a_second_spelling(tmp_path):
    f = tmp_path / "x.py"
    f.write_text(
        'import os\nROOT = 1\nos.environ["MKL_NUM_THREADS"] = "1"\n'
        'args = ["--nbval-sanitize-with", "tests/nbval-sanitize.cfg"]\n'
        'p = Path("_config.yml")\n'
    )
    assert _outside_config(r"^\s*[A-Z_]*ROOT\s*=", [f])
    assert _outside_config(r"(OPENBLAS|OMP|MKL)_NUM_THREADS", [f])
    assert _outside_config(r"--nbval-sanitize-with", [f])
    assert (5, "_config.yml") in _strings(f)


def test_book_reads_only_the_readers_environment():
    """book/ reads the environment for what a reader's kernel needs and nothing else:
    the slider mode (BOOK_WIDGETS), whether the reader chose a BLAS thread count or
    set glibc's allocator (book.parallel.MALLOC_VARS), and the one opt-in log
    (book.log)."""
    readers = {
        p.name: sorted(set(re.findall(r"environ\.get\(([^,)]+)", p.read_text())))
        for p in _py("book")
        if "environ" in p.read_text()
    }
    assert readers == {
        "__init__.py": ["v"],
        "log.py": ["LOG"],
        "parallel.py": ["v"],
        "slider.py": ['"BOOK_WIDGETS"'],
    }, readers
