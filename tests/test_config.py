"""workshop.config: the toc read once, the notebooks in book order."""

from __future__ import annotations


def test_toc_lists_chapters_in_book_order(tmp_path):
    from workshop.config import notebooks, toc_docs

    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nparts:\n"
        "  - caption: one\n    chapters:\n      - file: b\n      - file: a\n"
        "  - caption: two\n    chapters:\n      - file: glossary\n"
    )
    (tmp_path / "a.ipynb").write_text("{}")
    (tmp_path / "b.ipynb").write_text("{}")
    assert toc_docs(tmp_path) == ["b", "a", "glossary"]
    assert notebooks(tmp_path) == [tmp_path / "b.ipynb", tmp_path / "a.ipynb"]
