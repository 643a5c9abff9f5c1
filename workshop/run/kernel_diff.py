"""Re-run notebooks under this process's environment and show
which printed lines differ.

    OPENBLAS_CORETYPE=Sandybridge python -m workshop.run.kernel_diff \\
        notebooks/part1/11-feed-forward.ipynb

nbval says that a cell differs; this says how: for every code cell whose outputs (base64
images removed) differ from the stored ones, the differing lines, stored then new. Use
it with OPENBLAS_CORETYPE and NPY_DISABLE_CPU_FEATURES to find digits
that depend on the machine.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from pathlib import Path

import nbformat

from workshop.run.execute import run

B64 = re.compile(r"data:image/(png|jpeg|webp|svg\+xml);base64,[A-Za-z0-9+/=]+")


def text_of(cell) -> list[str]:
    parts = []
    for out in cell.get("outputs", []):
        if "text" in out:
            parts.append(out["text"])
        for mime, val in sorted(out.get("data", {}).items()):
            if mime.startswith("text/") or mime.endswith("json"):
                parts.append(val if isinstance(val, str) else str(val))
    text = B64.sub("data:image/BASE64", "".join(parts))
    return re.sub(r"(?<=[,;>}\]])", "\n", text).splitlines()


def diff(path: Path) -> int:
    stored = nbformat.read(path, as_version=4)
    nb = nbformat.read(path, as_version=4)
    os.environ.setdefault("BOOK_WIDGETS", "static")
    run(nb, path, timeout=600)
    n = 0
    code = [(a, b) for a, b in zip(stored.cells, nb.cells) if a.cell_type == "code"]
    for k, (a, b) in enumerate(code):
        old, new = text_of(a), text_of(b)
        if old != new:
            n += 1
            print(f"{path} code cell {k}:")
            for line in difflib.unified_diff(
                old, new, "stored", "now", n=0, lineterm=""
            ):
                if not line.startswith(("---", "+++", "@@")):
                    print("   ", line[:300])
    return n


if __name__ == "__main__":
    total = sum(diff(Path(p)) for p in sys.argv[1:])
    print(f"{total} cell(s) differ")
    sys.exit(1 if total else 0)
