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
