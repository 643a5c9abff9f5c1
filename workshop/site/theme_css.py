"""The themes' stylesheets cut to the rules the site's pages can use.

pydata-sphinx-theme ships all of Bootstrap 5 and styles for every component a Sphinx
site might hold (396 KB; 65.8 KB gzip, the largest thing a page without figures loads).
After the HTML is written (sphinxext._postprocess), it and the other packages'
stylesheets in THEME_CSS are rewritten from each package's own copy, keeping a selector when every class, id and element
name it requires occurs in some built page or in the scripts the pages load:

- the pages' tokens: each element's name, classes and id, read with html.parser;
- the scripts' tokens: every word of a script a page loads, as PurgeCSS's default
  extractor reads its content files (Bootstrap names the classes it adds in constants,
  ``"show"``, ``"collapsing"``, and in templates), plus the few class names the
  scripts build from parts (`SCRIPT_BUILT`). Words, not string literals: a minified
  script's regular expressions hold quotes that put a literal scanner out of step.

A selector requires only what it must match: the compounds outside ``:not()``,
``:is()``, ``:where()`` and ``:has()``; attribute selectors, pseudo-classes and
pseudo-elements require nothing (the theme and its scripts set ``data-theme``,
``aria-expanded``, ``:hover`` as a reader acts). A rule keeps the selectors of its list
that may match, and goes when none may; ``@media`` and ``@supports`` keep what is left
inside them. Everything else (``@font-face``, ``@keyframes``, custom properties) is kept,
and so are the licence comments (``/*! ... */``).

This is PurgeCSS's rule (a selector survives when its names occur in the content), in
Python with tinycss2 (Kozea's CSS parser, already a dependency of the build) so that
the build needs no Node. tests/test_css_cut.py opens pages with the full and the cut
stylesheets and compares every element's computed style, in the states a reader sees.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import tinycss2

from .pagecache import per_page

#: The stylesheets cut: their name under _static/ (a glob: myst-nb names its file by a
#: digest) and where the package that ships them keeps its own copy.
THEME_CSS = {
    "styles/pydata-sphinx-theme.css": (
        "pydata_sphinx_theme",
        "theme/pydata_sphinx_theme/static/styles/pydata-sphinx-theme.css",
    ),
    "styles/sphinx-book-theme.css": (
        "sphinx_book_theme",
        "theme/sphinx_book_theme/static/styles/sphinx-book-theme.css",
    ),
    "mystnb.*.css": ("myst_nb", "static/mystnb.css"),
    "togglebutton.css": ("sphinx_togglebutton", "_static/togglebutton.css"),
    "copybutton.css": ("sphinx_copybutton", "_static/copybutton.css"),
}

#: The stylesheets the build writes anew each time, cut too: Sphinx renders basic.css
#: from its template as it copies the static files, and pydata-sphinx-theme rewrites
#: pygments.css when the build finishes; so the file there before the cut is the full
#: one.
BUILT_CSS = ("basic.css", "pygments.css")

#: Where the full copies of the cut stylesheets are kept, beside the HTML output (not
#: served): tests/test_css_cut.py serves them in place of the cut ones.
FULL = "css-full"

#: Class names the scripts build from parts rather than spell: Bootstrap's tooltip
#: adds `bs-${name}-auto` (bootstrap.js, Tooltip._getTipElement), and Popper sets the
#: placement as an attribute, which requires nothing.
SCRIPT_BUILT = {"bs-tooltip-auto", "bs-popover-auto"}

_WORD = re.compile(r"[A-Za-z_][\w-]*")


def original(name: str) -> Path:
    """The package's own copy of a stylesheet in THEME_CSS."""
    import importlib

    package, path = THEME_CSS[name]
    return Path(importlib.import_module(package).__file__).parent / path


class _Tokens(HTMLParser):
    """The element names, classes and ids of a page, the words of its inline scripts,
    and the scripts it loads."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tokens: set[str] = set()
        self.scripts: set[str] = set()
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tokens.add(tag.lower())
        for name, value in attrs:
            if name == "class" and value:
                self.tokens.update("." + c for c in value.split())
            elif name == "id" and value:
                self.tokens.add("#" + value)
        if tag == "script":
            # a script book.js loads on demand (sphinxext.bootstrap_on_demand) may
            # run on the page like one it loads at once
            a = dict(attrs)
            src = (
                a.get("data-src") if a.get("type") == "book/on-demand" else a.get("src")
            )
            if src and "://" not in src:
                self.scripts.add(src.split("?")[0])
        self._in_script = tag == "script"

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self._in_script = False

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        """An inline script's words, as a loaded script's (see site_tokens)."""
        if self._in_script:
            for w in _WORD.findall(data):
                self.tokens |= {"." + w, "#" + w, w.lower()}


def page_tokens(text: str) -> list[list[str]]:
    """One page's tokens, and the scripts it loads (paths relative to the page)."""
    parser = _Tokens()
    parser.feed(text)
    return [sorted(parser.tokens), sorted(parser.scripts)]


def site_tokens(out: Path) -> set[str]:
    """Every token the built pages under `out` hold, and every word of a script they
    load (as `.word`, `#word` and `word`: a script may add it as a
    class, an id or an element). A page read at an earlier build is not read again
    (workshop/site/pagecache.py)."""
    tokens, scripts = set(), set()
    for page, (found, loads) in per_page(out, "theme-css-tokens", page_tokens).items():
        tokens.update(found)
        scripts |= {(page.parent / s).resolve() for s in loads}
    words = set(SCRIPT_BUILT)
    for script in scripts:
        if script.is_file():
            words.update(_WORD.findall(script.read_text(errors="replace")))
    for w in words:
        tokens |= {"." + w, "#" + w, w.lower()}
    return tokens


def _required(tokens) -> set[str]:
    """The names a selector (tinycss2 tokens) requires: its classes, ids and element
    names outside functional pseudo-classes (``:not(.a)``, ``:is(.a, .b)``,
    ``:nth-child(odd)``), attribute selectors and pseudo-elements."""
    need, previous = set(), None
    for t in tokens:
        if t.type == "hash":
            need.add("#" + t.value)
        elif t.type == "ident" and previous is not None and previous == ".":
            need.add("." + t.value)
        elif t.type == "ident" and previous != ":":
            need.add(t.value.lower())
        previous = t.value if t.type == "literal" else t.type
    return need


def _selectors(prelude) -> list[list]:
    """A rule's selector list, split at its top-level commas."""
    out = [[]]
    for t in prelude:
        if t.type == "literal" and t.value == ",":
            out.append([])
        else:
            out[-1].append(t)
    return out


def _strip(tokens) -> list:
    while tokens and tokens[0].type in ("whitespace", "comment"):
        tokens = tokens[1:]
    while tokens and tokens[-1].type in ("whitespace", "comment"):
        tokens = tokens[:-1]
    return tokens


def cut_rules(rules, present: set[str]) -> list:
    """The rules (tinycss2 nodes) that may style an element whose tokens are in
    `present`; a rule's selector list keeps only the selectors that may."""
    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = [_strip(s) for s in _selectors(rule.prelude)]
            used = [s for s in selectors if _required(s) <= present]
            if not used:
                continue
            if len(used) < len(selectors):
                prelude = []
                for i, s in enumerate(used):
                    prelude += ([tinycss2.ast.LiteralToken(0, 0, ",")] if i else []) + s
                rule.prelude = prelude
            kept.append(rule)
        elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports"):
            inner = cut_rules(
                tinycss2.parse_rule_list(
                    rule.content, skip_comments=True, skip_whitespace=True
                ),
                present,
            )
            if inner:
                rule.content = inner
                kept.append(rule)
        elif rule.type == "comment":
            if rule.value.startswith("!"):
                kept.append(rule)
        elif rule.type != "whitespace":
            kept.append(rule)
    return kept


def cut(css: str, present: set[str]) -> str:
    """A stylesheet's text with only the rules that may style the pages (`present`:
    their tokens, from site_tokens)."""
    rules = tinycss2.parse_stylesheet(css, skip_comments=False, skip_whitespace=True)
    return _text(cut_rules(rules, present))


_VAR = re.compile(r"--[\w-]+")


def _style_rules(rules):
    """The style rules among `rules`, inside @media and @supports too."""
    for rule in rules:
        if rule.type == "qualified-rule":
            yield rule
        elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports"):
            yield from _style_rules(rule.content)


def drop_unused_variables(sheets: list[list], outside: set[str]) -> None:
    """Drop the custom properties (``--pst-color-...``) that nothing reads, from the
    cut rules of `sheets` (cut_rules' lists, changed in place; a rule left empty goes).

    A custom property is read when a kept ordinary declaration or at-rule uses it in a
    ``var()``, when a custom property that is read does, or when its name occurs in
    `outside` (the pages, their scripts and the stylesheets that are not cut). This is
    PurgeCSS's ``variables`` option."""
    uses: dict[str, set[str]] = {}
    declarations = {}  # id(rule) -> its declarations
    read = set(outside)
    for rules in sheets:
        for rule in rules:
            if rule.type == "at-rule" and rule.lower_at_keyword not in (
                "media",
                "supports",
            ):
                read |= set(_VAR.findall(tinycss2.serialize([rule])))
        for rule in _style_rules(rules):
            declarations[id(rule)] = [
                d
                for d in tinycss2.parse_declaration_list(
                    rule.content, skip_comments=True, skip_whitespace=True
                )
                if d.type == "declaration"
            ]
            for d in declarations[id(rule)]:
                names = set(_VAR.findall(tinycss2.serialize(d.value)))
                if d.name.startswith("--"):
                    uses.setdefault(d.name, set()).update(names)
                else:
                    read |= names
    todo = list(read)
    while todo:
        for name in uses.pop(todo.pop(), ()):
            if name not in read:
                read.add(name)
                todo.append(name)
    for rules in sheets:
        for rule in _style_rules(rules):
            kept = [
                d
                for d in declarations[id(rule)]
                if not d.name.startswith("--") or d.name in read
            ]
            text = ";".join(d.serialize() for d in kept)
            rule.content = tinycss2.parse_component_value_list(text) if kept else []

        def empty(rule):
            if rule.type == "qualified-rule":
                return not rule.content
            if rule.type == "at-rule" and rule.lower_at_keyword in (
                "media",
                "supports",
            ):
                rule.content = [r for r in rule.content if not empty(r)]
                return not rule.content
            return False

        rules[:] = [r for r in rules if not empty(r)]


def outside_variables(out: Path, cut: set[str]) -> set[str]:
    """The custom property names that occur in the pages under `out`, in the scripts
    under its _static/ and in the stylesheets there that are not `cut` (paths under
    _static/)."""
    static = out / "_static"
    found = set()
    files = list(out.rglob("*.html")) + list(static.rglob("*.js"))
    files += [
        f for f in static.rglob("*.css") if f.relative_to(static).as_posix() not in cut
    ]
    for f in files:
        found |= set(_VAR.findall(f.read_text(encoding="utf-8", errors="replace")))
    return found


def _text(rules) -> str:
    return "".join(
        tinycss2.serialize([r]) + ("\n" if r.type == "comment" else "") for r in rules
    )


def cut_all(out: Path, full: dict[str, str]) -> dict[str, str]:
    """The `full` stylesheets (path under _static/ to text) cut to what the pages under
    `out` may use: the rules (cut_rules), then the custom properties
    (drop_unused_variables)."""
    present = site_tokens(out)
    sheets = {
        name: cut_rules(
            tinycss2.parse_stylesheet(text, skip_comments=False, skip_whitespace=True),
            present,
        )
        for name, text in full.items()
    }
    drop_unused_variables(list(sheets.values()), outside_variables(out, set(full)))
    return {name: _text(rules) for name, rules in sheets.items()}


def full_copies(out: Path) -> dict[str, str]:
    """The full stylesheets the last cut of `out` started from, by path under
    _static/."""
    root = out.parent / FULL
    return {
        f.relative_to(root).as_posix(): f.read_text(encoding="utf-8")
        for f in sorted(root.rglob("*.css"))
    }


def cut_theme_css(out: Path) -> dict[str, tuple[int, int]]:
    """Rewrite the stylesheets of THEME_CSS (from their packages' copies) and BUILT_CSS
    (as this build wrote them) under `out`/_static, cut to what the pages under `out`
    may use (cut_all); keep the full ones in `out`/../FULL. Returns each one's bytes
    before and after."""
    import shutil

    static = out / "_static"
    full = {
        target.relative_to(static).as_posix(): original(name).read_text(
            encoding="utf-8"
        )
        for name in THEME_CSS
        for target in sorted(static.glob(name))
    }
    full |= {
        name: (static / name).read_text(encoding="utf-8")
        for name in BUILT_CSS
        if (static / name).exists()
    }
    root = out.parent / FULL
    shutil.rmtree(root, ignore_errors=True)
    for name, text in full.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    sizes = {}
    for name, text in cut_all(out, full).items():
        (static / name).write_text(text, encoding="utf-8")
        sizes[name] = (len(full[name].encode()), len(text.encode()))
    return sizes


if __name__ == "__main__":  # a built site's stylesheets, full and cut
    import gzip
    import sys

    from workshop.config import built_site

    site = Path(sys.argv[1]) if len(sys.argv) > 1 else built_site()
    full = full_copies(site)
    for name, text in cut_all(site, full).items():
        z = [len(gzip.compress(t.encode(), 6)) for t in (full[name], text)]
        print(f"{name}: {len(full[name])} -> {len(text)} bytes, gzip {z[0]} -> {z[1]}")
