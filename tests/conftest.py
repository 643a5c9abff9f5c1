"""Fixtures shared by the unit tests.

make test runs them in the same pytest session as nbval, whose kernels draw no pixels
(workshop/run/kernels.py: nbval compares none). A unit test sees the book as a reader's
kernel does: pixels drawn.
"""

import pytest


@pytest.fixture(autouse=True)
def _pixels_drawn(monkeypatch):
    import book.style

    monkeypatch.setattr(book.style, "DRAW_PIXELS", True)
