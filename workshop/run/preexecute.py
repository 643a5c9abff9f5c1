"""Fill the build's execution cache in parallel before Jupyter Book reads the notebooks.

Jupyter Book (myst-nb, execution mode `cache`) executes each changed notebook one at a
time while it reads them. This runs the same jupyter-cache executor over a pool of
processes first, so a cold build uses both cores; Jupyter Book then finds every notebook
cached. Notebooks whose code did not change are skipped, as the
build itself would skip them.

    python -m workshop.run.preexecute [_build/.jupyter_cache]
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from jupyter_cache import get_cache
from jupyter_cache.executors import load_executor

from workshop import config


def main(cache_dir: Path) -> int:
    timeout = config.config().get("execute", {}).get("timeout", 120)
    config.default_blas_threads()  # the executor's kernels inherit it
    cache = get_cache(cache_dir)
    known = {Path(r.uri) for r in cache.list_project_records()}
    for nb in config.notebooks():
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
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else config.JUPYTER_CACHE))
