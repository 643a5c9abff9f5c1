"""Fixtures shared by the unit tests.

make test runs them in the same pytest session as nbval, whose kernels draw no pixels
(workshop/run/kernels.py: nbval compares none). A unit test sees the book as a reader's
kernel does: pixels drawn.
"""

import pytest

import book.style
from book import new_figure, show


@pytest.fixture(autouse=True)
def _pixels_drawn(monkeypatch):
    monkeypatch.setattr(book.style, "DRAW_PIXELS", True)


def _fig(title="A line rises", xl="x", yl="y"):
    fig, ax = new_figure(title)
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel(xl)
    ax.set_ylabel(yl)
    return fig


@pytest.fixture
def make_fig():
    """A labelled line chart: make_fig(title=, xl=, yl=) returns the Figure."""
    return _fig


@pytest.fixture
def shown():
    """shown(fig, alt=) runs show() and returns what it displayed."""

    def _shown(fig, alt="A figure drawn for a unit test."):
        import IPython.display

        out, orig = [], IPython.display.display
        IPython.display.display = lambda obj: out.append(obj)
        try:
            show(fig, alt=alt)
        finally:
            IPython.display.display = orig
        return out[0]

    return _shown


@pytest.fixture
def draw():
    """A slider's draw function of one knob `a`: a line titled by its slope."""
    return lambda a: _fig(title=f"Slope {a}")


@pytest.fixture(scope="module")
def server():
    """The built test site served on localhost (for the browser tests)."""
    from workshop.config import built_site
    from workshop.site.server import serve

    url, stop = serve(built_site())
    yield url
    stop()


@pytest.fixture(scope="module")
def browser():
    """Debian's lightest headless Chromium (workshop.config.chromium) for the site's
    browser tests."""
    from workshop.config import chromium

    path = chromium()
    if path is None:
        pytest.fail(
            "chromium is not installed (make chromium installs Debian's package)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=path, args=["--no-sandbox", "--disable-gpu"]
        )
        yield b
        b.close()
