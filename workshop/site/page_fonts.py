"""Give each built page the glyphs it needs beyond Latin, and nothing more.

    python -m workshop.site.page_fonts _build/html

(the Sphinx extension runs it after every build).

The site's four Latin Plex Sans faces cover English. A page that quotes Greek, Japanese,
Korean or Cyrillic text gets its own small font files, cut from the matching IBM Plex
faces (npm @fontsource/ibm-plex-sans, -jp, -kr) down to exactly the characters that page
uses, and declared with a unicode-range under the same family name, so the browser uses
them for those characters only. Pages without such text get
nothing. Runs after every build.

A page also gets its own cut of a site face it draws only a few characters in (`SPARSE`:
the italics, the code face). The search button's "Ctrl K" is all the code face draws on
the glossary, 7.8 KB for five letters; three italic phrases cost the exercises 14 KB.
The cut holds the characters of the page's text inside the elements that face draws
(`em`, `code` and their kin) and is declared after fonts.css for those characters only,
so the browser takes them from it; the site's face stays declared for any other
character, which the browser would then fetch as before (the survey,
tests/test_survey.py, shows no page does). A page keeps the shared face, cached
across pages, unless its cut weighs at most a third of it (`SHARE`).
"""

from __future__ import annotations

import functools
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


#: The site faces (workshop/site/assets.py FACES, by file stem) a page may draw only a
#: few characters in, and what draws in them: the elements (and classes) whose text
#: the theme, book.css and print.css set in italic or in the code face. (Bold italic
#: is italic inside bold: its characters are among the italic ones.)
ITALIC = (
    {"em", "i", "cite", "dfn", "var"},
    {"book-slider-print", "book-exercise-print"},
)
MONO = ({"code", "kbd", "pre", "samp", "tt"}, {"sig"})
KINDS = {"italic": ITALIC, "mono": MONO}
SPARSE = {
    "ibm-plex-sans-latin-400-italic": "italic",
    "ibm-plex-sans-latin-700-italic": "italic",
    "ibm-plex-mono-latin-400-normal": "mono",
}
#: A page's cut replaces the shared face when it weighs at most this share of it: a
#: reader would open three pages with different cuts before the shared face, fetched
#: once and cached, came out lighter (pages that draw the same characters share one
#: cut file, named by its digest, which the browser caches too).
SHARE = 1 / 3
#: The letters FreeType's auto-hinter measures a Latin face by (its blue zones and
#: standard stem, afblue.dat): a cut holds them too, so that on Linux and Android,
#: where the hinter shapes the unhinted faces, it draws the page's characters to the
#: same pixels as the shared face does (without them "Ctrl K" came out a shade
#: different).
HINTER = "THEZOCQSLUfijkdbhxzroescpqgjy"


class _Text(HTMLParser):
    """A page's text, and the text inside the elements of each kind of SPARSE."""

    def __init__(self):
        super().__init__()
        self.parts, self._skip = [], 0
        self.inside = {k: [] for k in KINDS}  # the open elements that count, by tag
        self.text = {k: [] for k in KINDS}

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        classes = set((dict(attrs).get("class") or "").split())
        for kind, (tags, names) in KINDS.items():
            if tag in tags or classes & names:
                self.inside[kind].append(tag)

    def handle_startendtag(self, tag, attrs):
        pass  # a void element holds no text

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        for stack in self.inside.values():
            if tag in stack:  # the innermost open one of that name closes
                del stack[len(stack) - 1 - stack[::-1].index(tag)]

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)
            for kind, stack in self.inside.items():
                if stack:
                    self.text[kind].append(data)


def page_text(text: str) -> _Text:
    """A page's text, parsed once for both questions below."""
    p = _Text()
    p.feed(text)
    return p


def page_chars(text) -> set[int]:
    """The characters beyond ASCII of a page's text (an HTML string or page_text's)."""
    p = page_text(text) if isinstance(text, str) else text
    return {ord(c) for c in html.unescape("".join(p.parts)) if ord(c) > 0x7F}


def sparse_chars(text) -> dict[str, set[int]]:
    """The Latin characters of a page's text (an HTML string or page_text's) that each
    face of SPARSE may draw (by file stem)."""
    p = page_text(text) if isinstance(text, str) else text
    latin = _site_latin()
    return {
        stem: {ord(c) for c in "".join(p.text[kind])} & latin
        for stem, kind in SPARSE.items()
    }


@functools.lru_cache(maxsize=256)
def _cut(pkg: str, stem: str, cps: tuple[int, ...]) -> bytes:
    """A site face cut to `cps` as the site's faces are cut (pages share many)."""
    from workshop.site.assets import CUT, face_source

    return subset_font(face_source(pkg, stem), cps, **CUT)


def sparse_faces(chars: dict[str, set[int]], out_dir: Path) -> list[tuple]:
    """A page's own cuts of the faces of SPARSE it draws a few characters in:
    (family, weight, style, file name, code points, the face's stem) for each cut at most SHARE of
    the shared face; the rest keep the shared face."""
    from workshop.site.assets import FACES

    rules, latin = [], len(_site_latin())
    for family, pkg, stem, weight, style in FACES:
        drawn = set(chars.get(stem, ())) - {0x20}
        # not drawn at all, or in more than a third of the face's characters (its cut
        # would weigh more than a third of it)
        if not drawn or len(drawn) > SHARE * latin:
            continue
        cps = tuple(sorted(drawn | {0x20} | {ord(c) for c in HINTER}))
        shared = ASSETS / "fonts" / f"{stem}.woff2"
        data = _cut(pkg, stem, cps)
        if len(data) > SHARE * shared.stat().st_size:
            continue
        name = f"{hashlib.sha1(data).hexdigest()[:12]}.woff2"
        (out_dir / name).write_bytes(data)
        rules.append((family, weight, style, name, cps, stem))
    return rules


def _ranges(cps: list[int]) -> str:
    return ", ".join(f"U+{c:04X}" for c in cps)


@functools.lru_cache(maxsize=256)
def _glyphs(face: str, cps: tuple[int, ...]) -> bytes:
    """`face` cut to the characters `cps` (pages share many: a cut is made once)."""
    return subset_font(ROOT / face, cps)


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
        data = _glyphs(face, tuple(have))
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
        parsed = page_text(text)
        rules = fonts_for_page(page_chars(parsed), index, latin, out_dir)
        sparse = sparse_faces(sparse_chars(parsed), out_dir)
        if rules or sparse:
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
            # after fonts.css, so that for these characters the browser takes the
            # page's cut, not the shared face
            css += "".join(
                f"@font-face{{font-family:'{family}';font-weight:{w};font-style:{st};"
                f"font-display:swap;src:url('{(rel / name).as_posix()}') "
                f"format('woff2');unicode-range:{_ranges(cps)}}}"
                for family, w, st, name, cps, _ in sparse
            )
            # (data-cuts names the site faces this page has its own cut of)
            cuts = " ".join(sorted(r[-1] for r in sparse))
            tag = f'<style data-cuts="{cuts}">' if cuts else "<style>"
            text = text.replace(
                "</head>", f"{MARK}{tag}{css}</style>{MARK}\n</head>", 1
            )
            touched += 1
        page.write_text(text, encoding="utf-8")
    print(f"page fonts: {touched} page(s) got their own glyph subsets or face cuts")
    return touched


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else SITE)
