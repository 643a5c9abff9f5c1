"""The one reader of ``_config.yml`` and ``_toc.yml``, and the one home of the facts
every tool and test shares: the repository root, the site paths, the repository URL
and branch, the notebooks in book order, the BLAS thread environment and the nbval
arguments. ``tests/test_layers.py`` fails where a second definition of any of them
appears.

The shell asks it too (the Makefile), with the interpreter that is at hand; these
commands need only the standard library:

    python -m workshop.config blas [N]   # each BLAS thread variable =N (default 1)
    python -m workshop.config blas-vars  # the variable names, one line
    python -m workshop.config nbval      # the nbval arguments of every strict run
    python -m workshop.config workers    # pytest-xdist's: two workers, a file each
    python -m workshop.config notebooks  # the notebooks in book order, one a line
    python -m workshop.config test-config [OUT]  # _config.yml with execution off
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

#: The repository's root: the folder that holds _config.yml.
ROOT = Path(__file__).resolve().parents[1]

# ------------------------------------------------------------------ paths
BUILD = ROOT / "_build"
#: The site that ``make book`` builds (executing what changed).
SITE = BUILD / "html"
#: The test build of ``make test`` (stored outputs), which the site tests read.
TEST_BUILD = BUILD / "test"
TEST_SITE = TEST_BUILD / "_build" / "html"
TEST_CONFIG = BUILD / "test-config.yml"
JUPYTER_CACHE = BUILD / ".jupyter_cache"
#: The fonts, stylesheets and scripts that workshop.site.assets writes.
ASSETS = ROOT / "site-assets"
NODE_MODULES = ROOT / "node_modules"
PDF_OUT = BUILD / "pdf"
NOTEBOOKS = ROOT / "notebooks"
NBVAL_SANITIZE = ROOT / "tests" / "nbval-sanitize.cfg"


def built_site() -> Path:
    """The built site the site tests read: BOOK_SITE, else the test build."""
    import os

    return Path(os.environ.get("BOOK_SITE") or TEST_SITE)


#: The browsers the site tests may drive, lightest first. Debian's chromium-headless-shell
#: is Chromium's old headless mode: no browser window code, so it spends less CPU per
#: page than chromium --headless (make test's browser tests on 2 cores, 2026-12-03: 383
#: against 600 busy core-seconds, 200 against 310 s).
CHROMIUM_NAMES = ("chromium-headless-shell", "chromium", "chromium-browser")


def chromium() -> str | None:
    """The path of the lightest Chromium on PATH for headless tests, or None."""
    import shutil

    return next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)


# ------------------------------------------------------------------ _config.yml, _toc.yml
def _yaml(path: Path) -> dict:
    import yaml  # only the build and the tests read them; a notebook never does

    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


@cache
def _cached(path: Path, mtime: float) -> dict:
    return _yaml(path)


def _load(path: Path) -> dict:
    import copy

    return copy.deepcopy(_cached(path, path.stat().st_mtime))


def config(root: Path = ROOT) -> dict:
    """``root/_config.yml`` as a dict (a fresh copy: change it freely)."""
    return _load(Path(root) / "_config.yml")


def toc(root: Path = ROOT) -> dict:
    """``root/_toc.yml`` as a dict (a fresh copy)."""
    return _load(Path(root) / "_toc.yml")


def parts(root: Path = ROOT) -> list[dict]:
    """The toc's parts, each with its ``caption`` and ``chapters``."""
    return list(toc(root).get("parts", []))


def toc_docs(root: Path = ROOT) -> list[str]:
    """Every chapter ``file`` entry of the toc, in book order (no suffix)."""
    return [
        ch["file"]
        for part in parts(root)
        for ch in part.get("chapters", [])
        if ch.get("file")
    ]


def notebooks(root: Path = ROOT) -> list[Path]:
    """The notebooks in book order: the ``.ipynb`` files the toc names that exist."""
    root = Path(root)
    return [
        root / f"{d}.ipynb" for d in toc_docs(root) if (root / f"{d}.ipynb").exists()
    ]


def notebook_docs(root: Path = ROOT) -> list[str]:
    """The same notebooks as toc names (``notebooks/part1/08-attention``)."""
    root = Path(root)
    return [d for d in toc_docs(root) if (root / f"{d}.ipynb").exists()]


def https_url(url) -> str:
    """`url` without a trailing slash if it is an https address, else ''."""
    url = str(url or "").strip().rstrip("/")
    return url if url.startswith("https://") else ""


def repo_url(cfg: dict | None = None, root: Path = ROOT) -> str:
    """The configured repository URL without a trailing slash, or '' while none is
    set (an address nobody owns is never linked or installed from)."""
    cfg = config(root) if cfg is None else cfg
    return https_url(((cfg or {}).get("repository") or {}).get("url"))


def branch(cfg: dict | None = None, root: Path = ROOT) -> str:
    """The repository's branch (``main`` unless _config.yml says otherwise)."""
    cfg = config(root) if cfg is None else cfg
    return str(((cfg or {}).get("repository") or {}).get("branch") or "main")


def blob_url(path: str, root: Path = ROOT) -> str:
    """The repository's web address of ``path`` on its branch, or '' while no
    repository is configured."""
    url = repo_url(root=root)
    return f"{url}/blob/{branch(root=root)}/{path}" if url else ""


def test_config(out: Path = TEST_CONFIG, root: Path = ROOT) -> Path:
    """Write the test build's configuration: _config.yml with execution off. The test
    build renders the stored outputs, which nbval has just re-executed and compared
    cell by cell, so executing every notebook a second time would prove nothing."""
    import yaml

    cfg = config(root)
    cfg["execute"]["execute_notebooks"] = "off"
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(yaml.safe_dump(cfg, sort_keys=False), encoding="utf-8")
    return out


# ------------------------------------------------------------------ BLAS threads
def blas_vars() -> tuple[str, ...]:
    """The variables that set the BLAS thread count (OpenBLAS, OpenMP, MKL). Their one
    spelling is book.parallel.BLAS_THREAD_VARS, because a reader's kernel reads them
    too (book holds BLAS to one thread unless the reader chose a count)."""
    from book.parallel import BLAS_THREAD_VARS

    return BLAS_THREAD_VARS


def blas_threads(n: int = 1) -> dict[str, str]:
    """Every BLAS thread variable set to ``n``."""
    return {v: str(n) for v in blas_vars()}


def with_blas_threads(env: dict[str, str], n: int = 1) -> dict[str, str]:
    """``env`` with each BLAS thread variable it lacks set to ``n``."""
    return {**blas_threads(n), **env}


def default_blas_threads(n: int = 1) -> None:
    """One BLAS thread per kernel unless a count is set: builds and test runs start
    two kernels at once on two cores, and no printed number depends on the count
    (make test runs one and two threads). Kernels inherit this process's
    environment."""
    import os

    for k, v in blas_threads(n).items():
        os.environ.setdefault(k, v)


# ------------------------------------------------------------------ nbval
#: What every strict nbval run passes: the outputs compared, with the sanitizer.
NBVAL_ARGS = ["--nbval", "--nbval-sanitize-with", "tests/nbval-sanitize.cfg"]
#: Two workers, each notebook on one of them (nbval's cells depend on their order).
NBVAL_WORKERS = ["-n", "2", "--dist", "loadfile"]


def nbval_args(workers: bool = True) -> list[str]:
    """pytest's arguments for a strict nbval run (quiet, on two workers)."""
    return ["-q", *NBVAL_ARGS, *(NBVAL_WORKERS if workers else [])]


def main(argv: list[str]) -> int:
    what = argv[0] if argv else ""
    if what == "blas":
        n = int(argv[1]) if len(argv) > 1 else 1
        print(" ".join(f"{k}={v}" for k, v in blas_threads(n).items()))
    elif what == "blas-vars":
        print(" ".join(blas_vars()))
    elif what == "nbval":
        print(" ".join(nbval_args()))
    elif what == "workers":
        print(" ".join(NBVAL_WORKERS))
    elif what == "notebooks":
        print("\n".join(p.relative_to(ROOT).as_posix() for p in notebooks()))
    elif what == "test-config":
        print(f"wrote {test_config(Path(argv[1]) if len(argv) > 1 else TEST_CONFIG)}")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
