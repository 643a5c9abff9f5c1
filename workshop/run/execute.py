"""Execute notebooks in place, top to bottom in a fresh kernel, as the book stores them.

    python -m workshop.run.execute notebooks/part1/08-attention.ipynb [more.ipynb ...]

Sliders render their static form (BOOK_WIDGETS=static), as in the built site and
under nbval, so the stored outputs are the ones the tests compare against.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

KERNEL = {
    "display_name": "Python 3 (ipykernel)",
    "language": "python",
    "name": "python3",
}


def made_with() -> dict[str, str]:
    """The versions and BLAS kernel the stored outputs come from (the execution page
    lists them, so a reader comparing digits knows what was compared)."""
    import platform

    import IPython
    import matplotlib

    from workshop.run.blas_env import probe

    info = probe() or {}
    return {
        "python": platform.python_version(),
        "numpy": info.get("numpy", "?"),
        "matplotlib": matplotlib.__version__,
        "ipython": IPython.__version__,
        "blas": f"{info.get('blas', '?')} {info.get('version', '')}".strip(),
        "kernel": info.get("kernel", "?"),
        "machine": platform.machine(),
    }


def run(nb, path: Path, timeout: int = 300, **kw) -> None:
    """Execute notebook `nb` (read from `path`) in a fresh kernel, in `path`'s folder."""
    from workshop.run.kernels import AsyncUnixSocketKernelManager

    NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        kernel_manager_class=AsyncUnixSocketKernelManager,
        resources={"metadata": {"path": str(path.parent)}},
        **kw,
    ).execute()


def execute(path: Path, timeout: int = 300) -> float:
    from workshop.config import default_blas_threads
    from workshop.run.colab_cell import ensure

    ensure(path)  # the hidden first cell that lets the notebook start on Colab
    os.environ["BOOK_WIDGETS"] = "static"
    default_blas_threads()  # outputs do not depend on it; speed under load does
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = KERNEL
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            cell.metadata.pop("execution", None)
    t0 = time.perf_counter()
    run(nb, path, timeout, record_timing=False)
    took = time.perf_counter() - t0
    nb.metadata.pop("widgets", None)
    nb.metadata.setdefault("book", {})["made_with"] = made_with()
    nbformat.write(nb, path)
    return took


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    for arg in argv:
        path = Path(arg)
        if path.suffix != ".ipynb" or not path.exists():
            print(f"execute: {arg!r} is not a notebook file")
            return 2
        print(f"{path}: {execute(path):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
