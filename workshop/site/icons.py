"""Font Awesome, cut to the icons the site draws.

The theme (pydata-sphinx-theme) ships Font Awesome's whole solid face, 156 KB, and every
page that shows an icon downloads it: on a page with no figure that was the largest
single file. After a build, each Font Awesome webfont is subset to the code points the
site can draw: the ``fa-NAME`` classes in the built pages and in the site's scripts, and
every icon the theme's stylesheet names itself (its ``--pst-icon-*`` variables, and any
other ``content`` rule, such as the admonition titles). The ``.ttf`` fallbacks are left
alone: browsers that read woff2 never fetch them.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from .pagecache import per_page

WEBFONTS = Path("_static/vendor/fontawesome/webfonts")
THEME_CSS = Path("_static/styles/pydata-sphinx-theme.css")
_CONTENT = r'content:"(\\[0-9a-fA-F]{4,5}|[^"\\])"'


def _codepoint(text: str) -> int:
    return int(text[1:], 16) if text.startswith("\\") else ord(text)


def icon_names(css: str) -> dict[str, int]:
    """Every ``fa-NAME`` class the stylesheet defines, with its code point."""
    names = {}
    for selectors, cp in re.findall(r"([^{}]+)\{" + _CONTENT + r"\}", css):
        for name in re.findall(r"\.fa-([a-z0-9-]+):before", selectors):
            names[name] = _codepoint(cp)
    return names


def codepoints_used(outdir: Path) -> set[int]:
    """The icon code points the built site at `outdir` can draw."""
    css = (outdir / THEME_CSS).read_text(encoding="utf-8")
    names = icon_names(css)
    used = {
        _codepoint(cp)
        for cp in re.findall(r"--pst-icon-[a-z0-9-]+:" + _CONTENT[8:], css)
    }
    # the theme's own rules that draw an icon outside an .fa-NAME class
    for rule in re.finditer(r"([^{}]+)\{[^{}]*?" + _CONTENT, css):
        if ".fa-" not in rule.group(1):
            used.add(_codepoint(rule.group(2)))
    found = per_page(outdir, "icon-names", _fa_names)  # a page read once (pagecache)
    for path in (outdir / "_static").rglob("*.js"):
        found[path] = _fa_names(path.read_text("utf-8", "ignore"))
    used |= {names[n] for page in found.values() for n in page if n in names}
    return used


def _fa_names(text: str) -> list[str]:
    return sorted(set(re.findall(r"\bfa-([a-z0-9-]+)", text)))


def theme_webfonts() -> Path:
    """The theme's own, whole webfonts (an incremental build keeps the output's copies,
    already cut, so each cut starts from these)."""
    import pydata_sphinx_theme

    theme = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme"
    return theme / "static" / "vendor" / "fontawesome" / "webfonts"


def subset_icon_fonts(
    outdir: Path, source: Path | None = None
) -> dict[str, tuple[int, int]]:
    """Write each Font Awesome woff2 of the site at `outdir`, cut from the whole font in
    `source` (the theme's) to the code points the site draws; return {file: (bytes of
    the whole font, bytes written)}."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    source = source or theme_webfonts()
    if not (outdir / WEBFONTS).is_dir() or not (outdir / THEME_CSS).exists():
        return {}
    used = codepoints_used(outdir)
    # The last cut is kept beside the output (not served) with what it was cut from:
    # Sphinx copies the theme's whole fonts over the output's at every build, and a
    # rebuild that draws the same icons from the same fonts puts the kept cut back.
    kept = outdir.parent / "icon-cut"
    wholes = sorted(source.glob("*.woff2"))
    made = {"used": sorted(used), "from": {w.name: w.stat().st_size for w in wholes}}
    stamp = kept / "made.json"
    same = stamp.exists() and json.loads(stamp.read_text(encoding="utf-8")) == made
    if same and all((kept / w.name).exists() for w in wholes):
        for w in wholes:
            shutil.copyfile(kept / w.name, outdir / WEBFONTS / w.name)
        return {
            w.name: (w.stat().st_size, (kept / w.name).stat().st_size) for w in wholes
        }
    kept.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for whole in wholes:
        font = TTFont(whole)
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = ["*"]
        cutter = subset.Subsetter(options)
        cutter.populate(unicodes=sorted(used & set(font.getBestCmap())))
        cutter.subset(font)
        font.flavor = "woff2"
        target = outdir / WEBFONTS / whole.name
        font.save(target)
        shutil.copyfile(target, kept / whole.name)
        sizes[whole.name] = (whole.stat().st_size, target.stat().st_size)
    stamp.write_text(json.dumps(made), encoding="utf-8")
    return sizes
