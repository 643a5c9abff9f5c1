"""Sphinx: the execution page says what the stored outputs were made with.

`workshop/run/execute.py` records, in each notebook's metadata (``book.made_with``), the
Python, numpy, matplotlib and IPython versions and the BLAS library and kernel of the
run that stored its outputs. The page ``execution.md`` holds the marker ``<!--
generated: provenance -->``; this extension replaces it with a table of them, so a
reader comparing digits knows what the book's digits were computed with, and what ``make
test`` checks them against.
"""

from __future__ import annotations

import json
from pathlib import Path

from workshop.config import toc_docs

MARKER = "<!-- generated: provenance -->"
FIELDS = ["python", "numpy", "matplotlib", "ipython", "blas", "kernel", "machine"]


def _title(nb: dict, doc: str) -> str:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            for line in "".join(cell.get("source", "")).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return doc


def provenance_text(root: Path) -> str:
    rows, seen = [], {}
    for doc in toc_docs(root):
        path = root / f"{doc}.ipynb"
        if not path.exists():
            continue
        nb = json.loads(path.read_text(encoding="utf-8"))
        made = nb.get("metadata", {}).get("book", {}).get("made_with", {})
        values = [made.get(f, "not recorded") for f in FIELDS]
        seen.setdefault(tuple(values), []).append(
            f"{{doc}}`{_title(nb, doc)} </{doc}>`"
        )
    if not seen:
        return "No notebook records what its outputs were made with."
    head = "| pages | " + " | ".join(FIELDS) + " |"
    rows = [head, "|" + " --- |" * (len(FIELDS) + 1)]
    for values, docs in seen.items():
        rows.append(f"| {', '.join(docs)} | " + " | ".join(values) + " |")
    return "\n".join(rows)


def _source_read(app, docname, source):
    if MARKER in source[0]:
        source[0] = source[0].replace(MARKER, provenance_text(Path(app.srcdir)))


def _always_outdated(app, env, added, changed, removed):
    return ["execution"] if "execution" in env.found_docs else []


def setup(app):
    app.connect("source-read", _source_read)
    app.connect("env-get-outdated", _always_outdated)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
