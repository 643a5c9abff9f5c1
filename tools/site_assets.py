"""Lay out what the site serves itself, from the pinned npm packages.

    python tools/site_assets.py            # writes site-assets/

- MathJax 3 (the CommonHTML build, its woff2 fonts and the TeX extensions it
  loads on demand), so math renders with the network off.
- IBM Plex Sans in four faces and IBM Plex Mono in one, cut down with fontTools
  to the Latin characters the book uses, so the faces stay near 60 KB together.
- fonts.css and book.css, listed by name in _config.yml.
Nothing here is fetched at build time: npm installed the packages beforehand.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parents[1]
NODE = ROOT / "node_modules"
OUT = ROOT / "site-assets"

# The Latin characters the book uses; book/page_fonts.py adds other scripts page by page.
from book import page_fonts  # noqa: E402
from book.page_fonts import LATIN  # noqa: E402

FACES = [  # (css family, package, file stem, weight, style)
    ("IBM Plex Sans", "ibm-plex-sans", "ibm-plex-sans-latin-400-normal", 400, "normal"),
    ("IBM Plex Sans", "ibm-plex-sans", "ibm-plex-sans-latin-400-italic", 400, "italic"),
    ("IBM Plex Sans", "ibm-plex-sans", "ibm-plex-sans-latin-700-normal", 700, "normal"),
    ("IBM Plex Sans", "ibm-plex-sans", "ibm-plex-sans-latin-700-italic", 700, "italic"),
    ("IBM Plex Mono", "ibm-plex-mono", "ibm-plex-mono-latin-400-normal", 400, "normal"),
]

BOOK_CSS = """\
/* The book's own styles. */
.book-slider { margin: 0.5em 0 1em; }
.book-slider-controls { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; margin-bottom: 0.3em;
  font-variant-numeric: tabular-nums; }
.book-slider input[type=range] { width: 14em; accent-color: #0072B2; }
.book-slider output { display: inline-block; min-width: 3.5em; font-weight: 700; }
.book-slider input[type=range]:focus-visible { outline: 3px solid #E69F00; outline-offset: 2px; }
/* Figures: drawn at 2x, shown at their 1x width (720 or 480 px), centred in the column. */
img.book-figure, .book-slider img { display: block; margin: 0.3em auto; max-width: 100%; height: auto; }
"""


def _copy(src: Path, dst: Path) -> None:
    if not src.exists():
        sys.exit(f"site_assets: {src} is missing; run `npm ci --ignore-scripts` first")
    if src.is_dir():
        shutil.copytree(src, dst, dirs_exist_ok=True)
    else:
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)


def mathjax() -> None:
    es5 = NODE / "mathjax" / "es5"
    for rel in (
        "tex-chtml.js",
        "output/chtml/fonts/woff-v2",
        "input/tex/extensions",
        "ui/menu.js",
        "a11y",
    ):
        _copy(es5 / rel, OUT / "mathjax" / rel)


def subset_font(src: Path, dst: Path, unicodes: str) -> int:
    data = page_fonts.subset_font(
        src,
        subset.parse_unicodes(unicodes),
        layout_features=("kern", "liga", "tnum", "lnum"),
        name_ids=(1, 2, 4, 6),
        desubroutinize=True,
    )
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(data)
    return len(data)


def fonts() -> list[str]:
    css = []
    for family, pkg, stem, weight, style in FACES:
        src = NODE / "@fontsource" / pkg / "files" / f"{stem}.woff2"
        if not src.exists():
            sys.exit(
                f"site_assets: {src} is missing; run `npm ci --ignore-scripts` first"
            )
        subset_font(src, OUT / "fonts" / f"{stem}.woff2", LATIN)
        # The unicode-range matters: without it the browser takes these faces to cover every
        # character, and never asks for the per-page faces that carry Greek, kana or Hangul.
        css.append(
            f"@font-face {{ font-family: '{family}'; font-style: {style}; font-weight: {weight};\n"
            f"  font-display: swap; src: url('fonts/{stem}.woff2') format('woff2');\n"
            f"  unicode-range: {LATIN.replace(',', ', ')}; }}"
        )
    css.append(""":root {
  --pst-font-family-base: 'IBM Plex Sans', system-ui, sans-serif;
  --pst-font-family-heading: 'IBM Plex Sans', system-ui, sans-serif;
  --pst-font-family-monospace: 'IBM Plex Mono', 'IBM Plex Sans', ui-monospace, monospace;
}""")
    return css


def main() -> None:
    OUT.mkdir(exist_ok=True)
    mathjax()
    (OUT / "fonts.css").write_text("\n".join(fonts()) + "\n", encoding="utf-8")
    (OUT / "book.css").write_text(BOOK_CSS, encoding="utf-8")
    sizes = {p.name: p.stat().st_size for p in (OUT / "fonts").glob("*.woff2")}
    sans = sum(v for k, v in sizes.items() if "sans" in k)
    print(
        f"site-assets: four Plex Sans faces {sans} bytes, Plex Mono {sum(sizes.values()) - sans} bytes"
    )


if __name__ == "__main__":
    main()
