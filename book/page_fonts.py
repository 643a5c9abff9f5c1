"""The site's fonts as a notebook measures them: where the IBM Plex files are
(font_packages), the Latin characters the site's faces carry (LATIN) and the one font
cutter (subset_font).

notebooks/part1/13-typography imports it; that page runs in a checkout only, because it
reads the repository's font files (fonts/fontsource, or node_modules/@fontsource after
make install). The site's per-page font subsets are cut with the same cutter by
workshop/site/page_fonts.py.
"""

from __future__ import annotations

import io
from pathlib import Path

from fontTools import subset

#: The checkout this module sits in (the reader's package cannot ask the workshop).
CHECKOUT = Path(__file__).resolve().parents[1]
NODE = CHECKOUT / "node_modules" / "@fontsource"
#: The font files notebooks/part1/13-typography measures, carried by the repository
# (workshop/site/vendor_fonts.py).
CARRIED = CHECKOUT / "fonts" / "fontsource"


def font_packages() -> Path:
    """The folder of the @fontsource font packages the site is cut from:
    node_modules/@fontsource after `make install`, else the repository's byte-identical
    copy of the files the typography page reads (a checkout without npm, Binder). A
    clear error where neither is (a lone notebook)."""
    for where in (NODE, CARRIED):
        if (where / "ibm-plex-sans" / "files").is_dir():
            return where
    raise FileNotFoundError(
        "This page measures the site's font files (IBM Plex, npm @fontsource), which "
        "come with the book's repository (fonts/fontsource) and its npm packages; it "
        "runs in a checkout of the book, on Binder or with `make lab`, "
        "not as a lone notebook."
    )


# The characters the site's Latin faces carry
# (workshop/site/assets.py cuts them to this set).
LATIN = (
    "U+0020-007E,U+00A0-00FF,U+0131,U+0152-0153,U+02C6,U+02DA,U+02DC,U+2013-2014,"
    "U+2018-201E,U+2020-2022,U+2026,U+2030,U+2032-2033,U+2039-203A,U+2190-2193,"
    "U+2212,U+2215,U+221A,U+221E,U+2248,U+2260,U+2264-2265,U+00D7,U+00F7"
)


def subset_font(
    src,
    unicodes,
    *,
    layout_features=("kern", "liga"),
    flavor="woff2",
    name_ids=None,
    desubroutinize=False,
) -> bytes:
    """The bytes of font file `src` cut down to `unicodes` (an iterable of code points).

    The one font cutter: the site's Latin faces (workshop/site/assets.py, which also
    keeps tabular figures and fewer names), each page's own faces (below) and the sizes
    that part 13 measures all come from here. Hinting is dropped."""
    opts = subset.Options()
    opts.flavor, opts.hinting, opts.layout_features = (
        flavor,
        False,
        list(layout_features),
    )
    if name_ids is not None:
        opts.name_IDs = list(name_ids)
    opts.desubroutinize = desubroutinize
    font = subset.load_font(str(src), opts)
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=list(unicodes))
    sub.subset(font)
    buf = io.BytesIO()
    subset.save_font(font, buf, opts)
    return buf.getvalue()
