"""Fill the build's execution cache in parallel before Jupyter Book reads the notebooks.

Jupyter Book (myst-nb, execution mode `cache`) executes each changed notebook one at a
time while it reads them. This runs the same jupyter-cache executor over a pool of
processes first, so a cold build uses both cores; Jupyter Book then finds every notebook
cached. Notebooks whose code did not change are skipped, as the
build itself would skip them.

    python tools/preexecute.py [_build/.jupyter_cache]
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import yaml
from jupyter_cache import get_cache
from jupyter_cache.executors import load_executor

import book.site.toc

ROOT = Path(__file__).resolve().parents[1]


def toc_notebooks() -> list[Path]:
    return book.site.toc.toc_notebooks(ROOT)


def main(cache_dir: Path) -> int:
    cfg = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    timeout = cfg.get("execute", {}).get("timeout", 120)
    cache = get_cache(cache_dir)
    known = {Path(r.uri) for r in cache.list_project_records()}
    for nb in toc_notebooks():
        if nb not in known:
            cache.add_nb_to_project(str(nb))
    logger = logging.getLogger("preexecute")
    logger.addHandler(logging.StreamHandler(sys.stdout))
    logger.setLevel(logging.WARNING)
    result = load_executor("local-parallel", cache, logger=logger).run_and_cache(
        timeout=timeout
    )
    print(
        f"preexecute: {len(result.succeeded)} notebook(s) executed, "
        f"{len(result.errored) + len(result.excepted)} failed"
    )
    for uri in result.errored + result.excepted:
        print(f"  failed: {uri}")
    return 1 if (result.errored or result.excepted) else 0


if __name__ == "__main__":
    sys.exit(
        main(
            Path(
                sys.argv[1] if len(sys.argv) > 1 else ROOT / "_build" / ".jupyter_cache"
            )
        )
    )
