"""make test runs these unit tests in the same pytest session as nbval, whose kernels
inherit BOOK_IMAGES=skip (no pixels encoded for nbval, which compares none). A unit
test sees the book as a reader's kernel does: pixels drawn."""

import pytest


@pytest.fixture(autouse=True)
def _pixels_drawn(monkeypatch):
    monkeypatch.delenv("BOOK_IMAGES", raising=False)
