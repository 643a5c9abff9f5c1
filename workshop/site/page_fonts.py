"""Give each built page the glyphs it needs beyond Latin, and nothing more.

    python -m workshop.site.page_fonts _build/html

(the Sphinx extension runs it after every build).

The site's four Latin Plex Sans faces cover English. A page that quotes Greek, Japanese,
Korean or Cyrillic text gets its own small font files, cut from the matching IBM Plex
faces (npm @fontsource/ibm-plex-sans, -jp, -kr) down to exactly the characters that page
uses, and declared with a unicode-range under the same family name, so the browser uses
them for those characters only. Pages without such text get
nothing. Runs after every build.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from book.page_fonts import LATIN, NODE, subset_font
from workshop.config import ASSETS, ROOT, SITE

INDEX = ASSETS / "page-font-index.json"
MARK = "<!-- book page fonts -->"


# Candidate faces, in order of preference: Plex Sans script
# subsets, then the CJK shards.
def _candidates() -> list[Path]:
    files = [
        NODE / "ibm-plex-sans" / "files" / f"ibm-plex-sans-{s}-400-normal.woff2"
        for s in (
            "latin",
            "latin-ext",
            "greek",
            "cyrillic",
            "cyrillic-ext",
            "vietnamese",
        )
    ]
    for pkg in ("ibm-plex-sans-jp", "ibm-plex-sans-kr"):
        files += sorted(
            (NODE / pkg / "files").glob(f"{pkg}-[0-9]*-400-normal.woff2"),
            key=lambda p: int(re.search(r"-(\d+)-400", p.name).group(1)),
        )
    return [f for f in files if f.exists()]


def font_index() -> dict[str, list[int]]:
    """Which code points each candidate face holds (cached in site-assets/)."""
    if INDEX.exists():
        return json.loads(INDEX.read_text())
    index = {}
    for f in _candidates():
        font = TTFont(str(f), lazy=True)
        index[str(f.relative_to(ROOT))] = sorted(font.getBestCmap())
        font.close()
    INDEX.parent.mkdir(exist_ok=True)
    INDEX.write_text(json.dumps(index))
    return index


def _site_latin() -> set[int]:
    return set(subset.parse_unicodes(LATIN))


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def page_chars(text: str) -> set[int]:
    p = _Text()
    p.feed(text)
    return {ord(c) for c in html.unescape("".join(p.parts)) if ord(c) > 0x7F}


def _ranges(cps: list[int]) -> str:
    return ", ".join(f"U+{c:04X}" for c in cps)


def fonts_for_page(
    chars: set[int], index: dict, latin: set[int], out_dir: Path
) -> list[str]:
    need = sorted(chars - latin)
    rules, taken = [], set()
    for face, cps in index.items():
        if "ibm-plex-sans-latin-400" in face:
            continue
        have = sorted(set(need) & set(cps) - taken)
        if not have:
            continue
        taken |= set(have)
        data = subset_font(ROOT / face, have)
        digest = hashlib.sha1(data).hexdigest()[:12]
        target = out_dir / f"{digest}.woff2"
        target.write_bytes(data)
        rules.append((target.name, have))
    return rules


def main(site: Path, pages=None) -> int:
    """Add page fonts to `pages` (default: every page under `site`)."""
    pages = sorted(site.rglob("*.html")) if pages is None else sorted(pages)
    if not pages:
        return 0
    index, latin = font_index(), _site_latin()
    out_dir = site / "_static" / "fonts" / "page"
    out_dir.mkdir(parents=True, exist_ok=True)
    touched = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        if MARK in text:
            text = re.sub(
                re.escape(MARK) + r".*?" + re.escape(MARK) + "\n?", "", text, flags=re.S
            )
        rules = fonts_for_page(page_chars(text), index, latin, out_dir)
        if rules:
            rel = Path(
                *[".."] * (len(page.relative_to(site).parts) - 1),
                "_static",
                "fonts",
                "page",
            )
            # One face file serves every weight and style the site uses: a browser
            # matches weight and style before unicode-range, so a face declared only as
            # regular would never be asked for the Hangul in bold or italic text (the
            # Latin faces come in those four).
            css = "".join(
                f"@font-face{{font-family:'IBM Plex "
                f"Sans';font-weight:{w};font-style:{st};font-display:swap;"
                f"src:url('{(rel / name).as_posix()}') "
                f"format('woff2');unicode-range:{_ranges(cps)}}}"
                for name, cps in rules
                for w in (400, 700)
                for st in ("normal", "italic")
            )
            text = text.replace(
                "</head>", f"{MARK}<style>{css}</style>{MARK}\n</head>", 1
            )
            touched += 1
        page.write_text(text, encoding="utf-8")
    print(f"page fonts: {touched} page(s) got their own glyph subsets")
    return touched


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else SITE)
