"""The one reader of ``_toc.yml``: the book's pages in reading order.

Tools, tests and the Sphinx extension all ask this module, so the order in which
pages are executed, checked, benchmarked and collected (``tools/save.py``) is the
order a reader meets them.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def toc_docs(root: Path = ROOT) -> list[str]:
    """Every chapter ``file`` entry of ``root/_toc.yml``, in book order (no suffix)."""
    import yaml  # only the build and the tests read the toc; a notebook never does

    toc = yaml.safe_load((Path(root) / "_toc.yml").read_text(encoding="utf-8"))
    return [
        ch["file"]
        for part in toc.get("parts", [])
        for ch in part.get("chapters", [])
        if ch.get("file")
    ]


def toc_notebooks(root: Path = ROOT) -> list[Path]:
    """The ``.ipynb`` files the toc names that exist, in book order."""
    root = Path(root)
    return [
        root / f"{d}.ipynb" for d in toc_docs(root) if (root / f"{d}.ipynb").exists()
    ]
