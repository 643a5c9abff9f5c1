"""Give every notebook its first cell, which makes sure the
helper package `book` imports.

Where `book` is installed (a checkout, `make lab`, Binder, CI) the cell does nothing.
Elsewhere (Colab, a notebook copied out of the repository) it installs `book` from the
repository that _config.yml names, and only from it; while none is named it stops with a
message that says what to do. The copy a reader downloads from the site carries `book`
in this cell instead (workshop/site/downloads.py, at build time). The cell is tagged
`remove-cell`, so the site hides it. Adding the cell shifts the execution counts by one;
outputs do not change, so nothing is re-run.

    python -m workshop.run.colab_cell          # insert or update the cell everywhere
    python -m workshop.run.colab_cell --check  # exit 1 if any notebook lacks the current cell
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from workshop import config
from workshop.config import ROOT

TAG = "book-bootstrap"


def cell_source(cfg: dict | None = None) -> str:
    from workshop.site.downloads import stored_cell_source

    cfg = config.config() if cfg is None else cfg
    return stored_cell_source(config.repo_url(cfg), config.branch(cfg))


def has_current_cell(nb) -> bool:
    code = [c for c in nb.cells if c.cell_type == "code"]
    return (
        bool(code)
        and TAG in code[0].metadata.get("tags", [])
        and code[0].source == cell_source()
    )


def ensure(path: Path) -> bool:
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    if not code or has_current_cell(nb):
        return False
    if TAG in code[0].metadata.get("tags", []):
        code[0].source = cell_source()
    else:
        for c in code:
            if c.execution_count is not None:
                c.execution_count += 1
            for out in c.get("outputs", []):
                if out.get("execution_count") is not None:
                    out["execution_count"] += 1
        cell = nbformat.v4.new_code_cell(
            cell_source(), metadata={"tags": ["remove-cell", TAG]}
        )
        cell.execution_count = 1
        nb.cells.insert(nb.cells.index(code[0]), cell)
    nbformat.write(nb, path)
    return True


def main(argv: list[str]) -> int:
    if "--check" in argv:
        missing = [
            p.relative_to(ROOT).as_posix()
            for p in config.notebooks()
            if any(c.cell_type == "code" for c in nbformat.read(p, as_version=4).cells)
            and not has_current_cell(nbformat.read(p, as_version=4))
        ]
        for m in missing:
            print(f"missing or stale Colab cell: {m}")
        return 1 if missing else 0
    changed = [p for p in config.notebooks() if ensure(p)]
    print(f"colab cell: {len(changed)} notebook(s) updated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
