"""book.page_fonts: the one font cutter."""

from __future__ import annotations

import io

import pytest

from workshop.config import ROOT


def test_subset_font_keeps_exactly_the_asked_characters():

    from fontTools.ttLib import TTFont

    from book.page_fonts import subset_font

    src = ROOT / (
        "node_modules/@fontsource/ibm-plex-sans/files/"
        "ibm-plex-sans-greek-400-normal.woff2"
    )
    if not src.exists():
        pytest.skip("node_modules is not installed (make install)")
    data = subset_font(src, [0x3B1, 0x3B2])
    assert data == subset_font(
        src, [0x3B1, 0x3B2]
    )  # deterministic: page fonts are named by hash
    cmap = set(TTFont(io.BytesIO(data)).getBestCmap())
    assert {0x3B1, 0x3B2} <= cmap and 0x3B3 not in cmap


def test_a_page_counts_the_characters_each_sparse_face_draws():
    """workshop/site/page_fonts.py: the italics take the text inside em, i, cite and
    the print-only notes, the code face the text inside code, kbd and pre; text in a
    script or outside those elements counts for neither."""
    from workshop.site.page_fonts import sparse_chars

    html = (
        "<p>plain <em>Ab <b>c</b></em> <kbd>K</kbd><pre>x <span>y</span></pre>"
        '<p class="book-exercise-print">Q<script>var zz = "W";</script><br/>z</p>'
    )
    found = {k: {chr(c) for c in v} for k, v in sparse_chars(html).items()}
    assert found["ibm-plex-sans-latin-400-italic"] == set("Ab cQz")
    assert found["ibm-plex-sans-latin-700-italic"] == set("Ab cQz")
    assert found["ibm-plex-mono-latin-400-normal"] == set("Kx y")
