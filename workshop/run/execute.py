"""Execute notebooks in place, top to bottom in a fresh kernel, as the book stores them.

    python -m workshop.run.execute notebooks/part1/08-attention.ipynb [more.ipynb ...]

Sliders render their static form (BOOK_WIDGETS=static), as in the built site and
under nbval, so the stored outputs are the ones the tests compare against.

An image whose pixels are those of the image stored at the same place keeps its stored
bytes (keep_unchanged_images): a figure that did not change is not stored again in
git's history because an encoder wrote the same pixels differently.
"""

from __future__ import annotations

import base64
import io
import os
import re
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


#: An image inside an output's text (show's <img>, a slider's frames).
DATA_URI = re.compile(r"data:image/(?:webp|png|jpeg);base64,[A-Za-z0-9+/=]+")


def _pixels(b64: str):
    """(mode, size, pixels) of a base64 image, or None if it does not decode."""
    from PIL import Image

    try:
        img = Image.open(io.BytesIO(base64.b64decode(b64.split(",")[-1])))
        img.load()
    except Exception:
        return None
    return img.mode, img.size, img.tobytes()


def _images(cell) -> list[str]:
    """The images of a code cell's outputs, in order: data URIs in its text and the
    base64 values of its image/* outputs."""
    found = []
    for out in cell.get("outputs", []):
        for mime, value in out.get("data", {}).items():
            if not isinstance(value, str):
                continue
            if mime.startswith("image/"):
                found.append(value)
            else:
                found += DATA_URI.findall(value)
    return found


def keep_unchanged_images(old_cells, new_cells) -> int:
    """Give each new image whose pixels equal those of the stored image at the same
    place (the same cell, the same rank among its images) the stored bytes; return how
    many kept them. Only identical pixels count: a changed figure is stored anew."""
    stored = {c.get("id") or i: _images(c) for i, c in enumerate(old_cells)}
    kept = 0
    for i, cell in enumerate(new_cells):
        old = stored.get(cell.get("id") or i, [])
        swap = {}
        for before, after in zip(old, _images(cell), strict=False):
            if before != after and _pixels(before) == _pixels(after) is not None:
                swap[after] = before
        if not swap:
            continue
        kept += len(swap)
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            for mime, value in list(data.items()):
                if isinstance(value, str):
                    if mime.startswith("image/"):
                        data[mime] = swap.get(value, value)
                    else:
                        data[mime] = DATA_URI.sub(lambda m: swap.get(m[0], m[0]), value)
    return kept


def merge_streams(cells) -> None:
    """Join each run of printed text to one output per stream, as nbval and the site
    read it: how a kernel's prints arrive in pieces depends on timing, and a stored
    notebook that changed only in where its prints split would be stored again."""
    for cell in cells:
        merged = []
        for out in cell.get("outputs", []):
            prev = merged[-1] if merged else None
            if (
                out.get("output_type") == "stream"
                and prev is not None
                and prev.get("output_type") == "stream"
                and prev.get("name") == out.get("name")
            ):
                prev["text"] = prev["text"] + out["text"]
            else:
                merged.append(out)
        if "outputs" in cell:
            cell["outputs"] = merged


def execute(path: Path, timeout: int = 300) -> float:
    from workshop.config import default_blas_threads
    from workshop.run.colab_cell import ensure

    ensure(path)  # the hidden first cell that lets the notebook start on Colab
    os.environ["BOOK_WIDGETS"] = "static"
    default_blas_threads()  # outputs do not depend on it; speed under load does
    nb = nbformat.read(path, as_version=4)
    stored = nbformat.read(path, as_version=4).cells
    nb.metadata["kernelspec"] = KERNEL
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            cell.metadata.pop("execution", None)
    t0 = time.perf_counter()
    run(nb, path, timeout, record_timing=False)
    took = time.perf_counter() - t0
    merge_streams(nb.cells)
    keep_unchanged_images(stored, nb.cells)
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
