"""A small Sphinx extension: pages generated from the book's own data.

- ``glossary.md`` gets one sorted glossary built from ``glossary.yml``.
- ``errata.md`` gets the table of source claims the book corrects, from ``errata.yml``.
- ``claims.md`` gets every ``ok`` line the notebooks printed, with a link to its page,
  then the source claims that reproduce, from ``confirmed.yml``
  (errata.yml lists errors only).
- ``exercises.md`` gets every exercise (book/exercises.py) by chapter and kind, with a
  link to its question and its computed key (printed only: the PDF's answers appendix).
- Every page gets the print stylesheet (``workshop/site/static/print.css``), and the
  download menu offers the whole-book PDF that ``make pdf`` builds (workshop/print/pdf.py).
- The bibliography's labels are author-year, as the text cites
  (``bibtex_default_style: book``).
- After the HTML is written, a cell's ``ok`` lines fold into one "N checks hold" line,
  and a number in backticks is marked so it reads as prose (see ``_postprocess``).

Each page holds a marker such as ``<!-- generated: glossary -->`` where the text goes.
Keeping the data in YAML lets every chapter add its entries without editing a page.
"""

from __future__ import annotations

import hashlib
import html
import importlib.util
import json
import re
from pathlib import Path

import yaml

from workshop.config import PDF_OUT, config, https_url, notebook_docs, repo_url

GENERATED = ("glossary", "errata", "claims", "exercises")


def _root(app) -> Path:
    return Path(app.srcdir)


def load_yaml_list(path: Path, required: tuple[str, ...]) -> list[dict]:
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if not isinstance(data, list):
        raise ValueError(
            f"{path.name}: expected a list of entries, got {type(data).__name__}"
        )
    for i, entry in enumerate(data):
        missing = [
            k
            for k in required
            if not isinstance(entry, dict) or not str(entry.get(k, "")).strip()
        ]
        if missing:
            raise ValueError(
                f"{path.name}: entry {i} ({entry!r}) lacks {', '.join(missing)}"
            )
    return data


def glossary_text(root: Path) -> str:
    entries = load_yaml_list(root / "glossary.yml", ("term", "definition", "where"))
    seen = {}
    for e in entries:
        key = e["term"].strip().lower()
        if key in seen:
            raise ValueError(f"glossary.yml: term {e['term']!r} is defined twice")
        seen[key] = e
    by_letter: dict[str, list[dict]] = {}
    for e in entries:
        by_letter.setdefault(_initial(e["term"]), []).append(e)
    letters = sorted(by_letter, key=lambda c: (not c.isalpha(), c))
    nav = ['<nav class="book-az" aria-label="Glossary, A to Z">']
    for c in [chr(x) for x in range(ord("A"), ord("Z") + 1)] + [
        c for c in letters if not "A" <= c <= "Z"
    ]:
        if c in by_letter:
            nav.append(f'<a href="#glossary-{_letter_id(c)}">{c}</a>')
        elif "A" <= c <= "Z":
            nav.append(f'<span class="book-az-none" aria-hidden="true">{c}</span>')
    nav.append("</nav>")
    lines = ["".join(nav), ""]
    for c in letters:
        lines += [
            f"(glossary-{_letter_id(c)})=",
            f"## {c}",
            "",
            ":::{glossary}",
            ":sorted:",
            "",
        ]
        for e in by_letter[c]:
            definition = " ".join(str(e["definition"]).split())
            lines += [
                e["term"].strip(),
                f"  {definition} See {{doc}}`/{e['where'].strip().lstrip('/')}`.",
                "",
            ]
        lines += [":::", ""]
    return "\n".join(lines)


def _initial(term: str) -> str:
    """The letter a term is filed under: its first letter, accents
    removed; '#' for a digit."""
    import unicodedata

    first = unicodedata.normalize("NFD", term.strip())[:1].upper()
    return first if first.isalpha() else "#"


def _letter_id(c: str) -> str:
    return c.lower() if c.isalpha() and c.isascii() else "other"


#: The source files (../shared/seeds/, named by hash in errata.yml and confirmed.yml)
#: by the names a reader sees, each with its section of the sources page.
SOURCE_NAMES = {
    "000_8d6a6cb1044eb12c.txt": ("the blog series", "source-blog-series"),
    "003_f5c0d122b8100c3e.txt": ("the course", "source-course"),
    "002_a97c616dcc95a683.txt": ("the textbook chapter", "source-textbook-chapter"),
}


def source_name(where: str) -> str:
    """An entry's `source` as a reader reads it: the file's name becomes the text's
    name, linked to the sources page (`002_....txt, section 48.1.5` ->
    `the textbook chapter, section 48.1.5`)."""
    text = " ".join(str(where).split())
    for file, (name, label) in SOURCE_NAMES.items():
        if file in text:
            return text.replace(file, f"{{ref}}`{name} <{label}>`")
    raise ValueError(
        f"source {where!r} names none of the source files {list(SOURCE_NAMES)}"
    )


def errata_text(root: Path) -> str:
    entries = load_yaml_list(
        root / "errata.yml", ("source", "claim", "measured", "where")
    )
    if not entries:
        return "No entries yet."
    rows = [
        ":::{list-table}",
        ":header-rows: 1",
        ":widths: 30 12 38 20",
        ":class: book-errata",
        "",
        "* - The source says",
        "  - Source",
        "  - The book measures",
        "  - Where",
    ]
    for e in entries:
        doc = e["where"].strip().lstrip("/")
        k = cell_for_numbers(root / f"{doc}.ipynb", str(e["measured"]))
        rows += [
            f"* - {' '.join(str(e['claim']).split())}",
            f"  - {source_name(e['source'])}",
            f"  - {' '.join(str(e['measured']).split())}",
            f"  - {{doc}}`/{doc}` {_cell_link(doc, k)}",
        ]
    rows.append(":::")
    return "\n".join(rows)


def rendered_code_cells(nb_path: Path) -> list[dict]:
    """The code cells the site shows, in order (a cell tagged
    remove-cell is not rendered)."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    return [
        c
        for c in nb.get("cells", [])
        if c.get("cell_type") == "code"
        and "remove-cell" not in c.get("metadata", {}).get("tags", [])
    ]


def cell_output_text(cell, mimes=("text/plain", "text/markdown")) -> str:
    """What a notebook cell printed: its streams and its `mimes` outputs, joined. The
    errata read plain text and markdown; the prose tests (workshop/text/notebook_text.py) read
    HTML and LaTeX too."""
    parts = []
    for out in cell.get("outputs", []):
        if "text" in out:
            parts.append(
                "".join(out["text"]) if isinstance(out["text"], list) else out["text"]
            )
        for mime in mimes:
            v = out.get("data", {}).get(mime)
            if v:
                parts.append("".join(v) if isinstance(v, list) else v)
    return "\n".join(parts)


NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?")


def cell_for_numbers(nb_path: Path, text: str) -> int | None:
    """The first shown code cell (1-based) whose output prints the most
    of the numbers in `text`."""
    if (
        not nb_path.exists()
    ):  # a missing page is reported by Sphinx (and by tests/test_notebooks.py)
        return None
    wanted = {n.replace(",", "") for n in NUMBER.findall(text)} - {
        str(y) for y in range(1900, 2100)
    }
    best, best_k = 0, None
    for k, cell in enumerate(rendered_code_cells(nb_path), start=1):
        have = {n.replace(",", "") for n in NUMBER.findall(cell_output_text(cell))}
        hits = len(wanted & have)
        if hits > best:
            best, best_k = hits, k
    return best_k


def _cell_link(doc: str, k: int | None) -> str:
    return f'<a href="{doc}.html#cell-{k}">cell {k}</a>' if k else ""


def notebook_title(nb_path: Path) -> str | None:
    """The page title a notebook shows: the text of its first level-one heading."""
    if not nb_path.exists():
        return None
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        src = (
            "".join(cell["source"])
            if isinstance(cell["source"], list)
            else cell["source"]
        )
        for line in src.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return None


def _md_escape(text: str) -> str:
    """A title inside a role's explicit text: '<' and '`' would end it early."""
    return text.replace("`", "").replace("<", "\\<")


def ok_lines(nb_path: Path) -> list[str]:
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    found = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream" and out.get("name") == "stdout":
                text = "".join(out.get("text", ""))
                found += [
                    ln[3:].strip() for ln in text.splitlines() if ln.startswith("ok ")
                ]
    return found


def claims_text(root: Path) -> str:
    parts, total = [], 0
    for doc in notebook_docs(root):
        cells = rendered_code_cells(root / f"{doc}.ipynb")
        lines = [
            (k, ln[3:].strip())
            for k, cell in enumerate(cells, start=1)
            for ln in cell_output_text(cell).splitlines()
            if ln.startswith("ok ")
        ]
        if not lines:
            continue
        total += len(lines)
        title = notebook_title(root / f"{doc}.ipynb") or doc
        # An explicit title: the heading and the page's contents list show
        # the title, not the path.
        parts.append(f"## {{doc}}`{_md_escape(title)} </{doc}>`\n")
        parts += [f"- {_cell_link(doc, k)} `ok` {c.replace('`', '')}" for k, c in lines]
        parts.append("")
    head = (
        f"The notebooks check {total} claims as they run. "
        "Each line below was printed by a check that passed.\n"
    )
    return head + "\n" + "\n".join(parts) + "\n" + confirmed_text(root)


def confirmed_text(root: Path) -> str:
    """The source claims that reproduce (confirmed.yml), each with its page."""
    entries = load_yaml_list(
        root / "confirmed.yml", ("source", "claim", "measured", "where")
    )
    out = ["(source-claims-that-reproduce)=", "## Source claims that reproduce", ""]
    for e in entries:
        doc = e["where"].strip().lstrip("/")
        out.append(
            f"- {' '.join(str(e['claim']).split())} ({source_name(e['source'])}): "
            f"{' '.join(str(e['measured']).split())} {{doc}}`/{doc}`"
        )
    return "\n".join(out) + "\n"


_EXERCISE_BOX = re.compile(r'<div class="book-exercise" id="[^"]*" ([^>]*)>')
_EXERCISE_ATTR = re.compile(r'data-([a-z]+)="([^"]*)"')
_EXERCISE_LABEL = re.compile(r"^\(ex-([\d-]+)\)=\s*$", re.M)


def exercise_boxes(nb_path: Path) -> list[dict]:
    """The answer boxes a stored notebook printed, in page order: each one's id, kind,
    key (and tol, unit or choices) as book/exercises.py wrote them, and its question
    (the markdown under the label ``(ex-08-1)=``)."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    questions, boxes = {}, []
    for cell in nb.get("cells", []):
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        if cell.get("cell_type") == "markdown":
            parts = _EXERCISE_LABEL.split(src)
            for label, text in zip(parts[1::2], parts[2::2]):
                questions[label.replace("-", ".")] = text.strip()
        for m in _EXERCISE_BOX.finditer(cell_output_text(cell, ("text/html",))):
            spec = {k: html.unescape(v) for k, v in _EXERCISE_ATTR.findall(m.group(1))}
            boxes.append(spec)
    for spec in boxes:
        spec["question"] = questions.get(spec["id"], "")
    return boxes


def _first_sentence(question: str) -> str:
    """The question, after its bold label, on one line: up to its question mark."""
    text = " ".join(question.split())
    text = re.sub(r"^\*\*[^*]*\*\*\s*", "", text)
    # Up to the question mark: the sentences before it set up what is asked.
    m = re.match(r"(.+?\?)(\s|$)", text) or re.match(r"(.+?[.!])(\s|$)", text)
    return (m.group(1) if m else text).replace("|", "\\|")


def _key_text(spec: dict) -> str:
    if "choices" in spec:
        return spec["key"]
    unit = f" {spec['unit']}" if spec.get("unit") else ""
    tol = float(spec["tol"])
    return f"{spec['key']}{unit}" + (f" ± {spec['tol']}{unit}" if tol else ", exactly")


def exercises_text(root: Path) -> str:
    from book.exercises import KINDS

    parts, kinds = [], {k: 0 for k in KINDS}
    for doc in notebook_docs(root):
        path = root / f"{doc}.ipynb"
        boxes = exercise_boxes(path) if path.exists() else []
        if not boxes:
            continue
        title = notebook_title(path) or doc
        parts += [
            f"## {{doc}}`{_md_escape(title)} </{doc}>`",
            "",
            "| Exercise | Kind | Question | Answer |",
            "| --- | --- | --- | --- |",
        ]
        for b in boxes:
            kinds[b["kind"]] += 1
            label = b["id"].replace(".", "-")
            parts.append(
                f"| {{ref}}`{b['id']} <ex-{label}>` | {KINDS[b['kind']]} | "
                f"{_first_sentence(b['question'])} | "
                f'<span class="book-exercise-answer">{html.escape(_key_text(b))}</span>'
                '<span class="book-exercise-screen">folded under the question</span> |'
            )
        parts.append("")
    total = sum(kinds.values())
    head = (
        f"The chapters end with {total} exercises: "
        + ", ".join(f"{n} {KINDS[k]}" for k, n in kinds.items())
        + ". Each links to its question; a cell on the page computes its key, and "
        "the answer box under the question checks yours. The printed book lists the "
        "keys here, as its answers appendix.\n"
    )
    return head + "\n" + "\n".join(parts)


def _source_read(app, docname, source):
    if docname not in GENERATED:
        return
    marker = f"<!-- generated: {docname} -->"
    if marker not in source[0]:
        return
    make = {
        "glossary": glossary_text,
        "errata": errata_text,
        "claims": claims_text,
        "exercises": exercises_text,
    }[docname]
    source[0] = source[0].replace(marker, make(_root(app)))


def _inputs_digest(root: Path, docname: str) -> str:
    """A digest of what a generated page is made from, so it is
    rebuilt only when that changes."""
    import hashlib

    h = hashlib.sha1()
    if docname == "claims":
        for doc in notebook_docs(root):
            h.update(doc.encode())
            h.update("\n".join(ok_lines(root / f"{doc}.ipynb")).encode())
        f = root / "confirmed.yml"
        h.update(f.read_bytes() if f.exists() else b"")
    elif docname == "exercises":
        for doc in notebook_docs(root):
            f = root / f"{doc}.ipynb"
            h.update(doc.encode())
            h.update(json.dumps(exercise_boxes(f)).encode() if f.exists() else b"")
    else:
        f = root / f"{docname}.yml"
        h.update(f.read_bytes() if f.exists() else b"")
    return h.hexdigest()


def _machinery_digest() -> str:
    """A digest of the site machinery's own code (workshop/site/*.py)."""
    h = hashlib.sha256()
    for f in sorted(Path(__file__).parent.glob("*.py")):
        h.update(f.read_bytes())
    return h.hexdigest()


def _outdated_generated(app, env, added, changed, removed):
    """Pages to read again: a generated page whose inputs changed, and every page when
    the site machinery changed (an incremental build would keep pages its old code
    made, folded and wrapped)."""
    old = getattr(env, "book_generated_digests", {})
    new = {d: _inputs_digest(_root(app), d) for d in GENERATED if d in env.found_docs}
    env.book_generated_digests = new
    machinery = _machinery_digest()
    if getattr(env, "book_machinery_digest", None) != machinery:
        env.book_machinery_digest = machinery
        return sorted(env.found_docs)
    return [d for d, digest in new.items() if old.get(d) != digest]


# The page follows the reader's system setting (default_mode: auto). The theme's own
# script runs late, with the page already drawn, and until then data-theme says 'auto',
# which no stylesheet knows: decide light or dark here, before the first
# paint, as the theme will.
_MODE_FIX = (
    "(function () { var d = document.documentElement;"
    " if (['light', 'dark', 'auto'].indexOf(d.dataset.mode) < 0) { "
    "d.dataset.mode = 'auto'; }"
    " if (d.dataset.mode === 'auto') { d.dataset.theme ="
    " matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'; } })();"
)


def _offline_scripts(app, pagename, templatename, context, doctree):
    """Drop what the book never uses and that points at a CDN: the Thebe live-code
    loader (jupyter-book registers it twice, a console error,
    and its URL is on unpkg)."""

    def keep(asset):
        name = str(getattr(asset, "filename", asset) or "")
        body = str(getattr(asset, "attributes", {}).get("body", ""))
        return "thebe" not in name.lower() and "THEBE_JS_URL" not in body

    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [a for a in context[key] if keep(a)]
    _unused_assets(context)


#: An element sphinx-togglebutton folds: its selector is ".toggle, .admonition.dropdown"
#: (a class list holding "toggle", or both "admonition" and "dropdown").
_TOGGLED = re.compile(
    r'class="(?:[^"]*\s)?toggle[\s"]'
    r'|class="(?=(?:[^"]*\s)?admonition[\s"])(?=(?:[^"]*\s)?dropdown[\s"])'
)

#: Assets that extensions add to every page, and what in a page's body needs them
#: (a substring, any of several, or a pattern). A page without it does not load them
#: (the sources page: 22 KB of 189 KB).
NEEDED_BY = {
    "sphinx-design.min.css": "sd-",  # jupyter-book loads sphinx-design; no page uses it
    "design-tabs.js": "sd-",
    "copybutton.css": 'class="highlight',  # the copy button sits on code blocks
    "copybutton.js": 'class="highlight',
    "clipboard.min.js": 'class="highlight',
    "mystnb.": 'class="cell',  # notebook cells and their outputs
    # draws a slider's states, and lays hover targets over a still figure that
    # carries its data (book/chart.js, book/style.py hover_html)
    "chart.js": ('class="book-slider"', 'class="book-chart-data"'),
    # folds dropdown notes (the chapters' "Where this comes from"); the back matter
    # has none (3.5 KB of the glossary's cold load)
    "togglebutton.": _TOGGLED,
}

#: The inline settings an asset of NEEDED_BY reads, which go with it.
SETTINGS_OF = {
    "togglebutton.": (
        "toggleHintShow",
        "toggleHintHide",
        "toggleOpenOnPrint",
        "togglebuttonSelector",
    )
}


def needs(marks, body: str) -> bool:
    """Whether a page's `body` holds what an asset of NEEDED_BY needs (`marks`)."""
    if isinstance(marks, re.Pattern):
        return marks.search(body) is not None
    return any(m in body for m in ((marks,) if isinstance(marks, str) else marks))


def _unused_assets(context) -> None:
    body = context.get("body", "")
    unused = [name for name, marks in NEEDED_BY.items() if not needs(marks, body)]
    settings = [w for u in unused for w in SETTINGS_OF.get(u, ())]

    def keep(asset):
        name = str(getattr(asset, "filename", asset) or "")
        inline = str(getattr(asset, "attributes", {}).get("body", ""))
        if not name and any(w in inline for w in settings):
            return False
        return not any(u in name for u in unused)

    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [a for a in context[key] if keep(a)]


_STREAM = re.compile(
    r'(<div class="output stream highlight-myst-ansi notranslate">)'
    r'<div class="highlight"><pre><span></span>(.*?)</pre></div>',
    re.S,
)


_GAP = re.compile(r"(?<=\S)  +(?=\S)")


def column_rows(lines: list[str]) -> set[int]:
    """The lines that are rows of columns: a line that starts a field after a gap of
    two or more spaces at the same column as the line above or below it, an indented
    line, or a line of two or more gaps next to a row (a heading over right-aligned
    numbers). The rest are sentences and lists, which may wrap."""
    starts = [{m.end() for m in _GAP.finditer(ln)} for ln in lines]
    rows = {
        i
        for i in range(len(lines))
        for j in (i - 1, i + 1)
        if 0 <= j < len(lines) and starts[i] & starts[j]
    }
    rows |= {i for i, ln in enumerate(lines) if ln.startswith("  ") and len(lines) > 1}
    headings = {  # a line of two or more gaps next to rows: their heading
        i for i in range(len(lines)) if len(starts[i]) >= 2 and ({i - 1, i + 1} & rows)
    }
    return rows | headings


def wrap_sentences(text: str) -> str:
    """Printed text (HTML-escaped) with each sentence line in a span that may wrap at
    the column's edge (class book-wrap); rows of columns keep their layout."""
    if "<" in text:  # coloured (ANSI) output: leave it as it is
        return text
    lines = text.split("\n")
    end = lines.pop() if lines and lines[-1] == "" else None
    rows = column_rows([html.unescape(ln) for ln in lines])
    out = [
        ln if i in rows or not ln else f'<span class="book-wrap">{ln}</span>'
        for i, ln in enumerate(lines)
    ]
    return "\n".join(out + ([end] if end is not None else []))


def fold_checks(html_text: str) -> str:
    """Fold the `ok` lines of each printed output into one line that opens to the list,
    and let its sentence lines wrap (wrap_sentences) rather than run off a narrow
    screen.

    An output made only of `ok` lines becomes "N checks hold"; in a mixed output the
    other lines stay as printed, in order, and the `ok` lines fold below them. The
    notebooks keep printing every line, so nbval still compares them.
    """

    def kept_block(lines):
        return (
            '<div class="highlight"><pre><span></span>'
            + wrap_sentences("\n".join(lines))
            + "</pre></div>"
        )

    def fold(m):
        lines = m.group(2).split("\n")
        end = [""] if lines and lines[-1] == "" else []
        body = lines[:-1] if end else lines
        ok = [ln for ln in body if ln.startswith("ok ")]
        rest = [ln for ln in body if not ln.startswith("ok ")]
        if not ok:
            return m.group(1) + kept_block(lines)
        n = len(ok)
        summary = (
            f"{n} check{'' if n == 1 else 's'} hold{'s' if n == 1 else ''}"
            '<span class="book-checks-what">: claims this cell tested as it ran</span>'
        )
        checks = (
            '<details class="book-checks"><summary>' + summary + "</summary>"
            '<div class="highlight"><pre><span></span>'
            + "\n".join(ok + end)
            + "</pre></div></details>"
        )
        kept = kept_block(rest + end) if rest else ""
        return m.group(1) + kept + checks

    return _STREAM.sub(fold, html_text)


# A number, as prose writes it: 0.809, 1,000, -3, 2.5e-07, 12%, < 1e-15, 3/4.
_PROSE_NUMBER = re.compile(
    r"(?:[<>≈~]\s*)?[-+−]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?(?:/\d+)?%?"
)
_CODE = re.compile(
    r'<code class="docutils literal notranslate">((?:<span '
    r'class="pre">[^<]*</span>|\s)+)</code>'
)


def quiet_numbers(html_text: str) -> str:
    """Mark inline code that holds only a number (``book-num``), so
    book.css can set it as prose."""
    import html as html_lib

    def mark(m):
        text = html_lib.unescape(re.sub(r"<[^>]+>", "", m.group(1))).strip()
        if not _PROSE_NUMBER.fullmatch(text):
            return m.group(0)
        return (
            f'<code class="docutils literal notranslate book-num">{m.group(1)}</code>'
        )

    return _CODE.sub(mark, html_text)


# A code cell as myst-nb writes it; a tagged cell carries its tags as classes
# (`cell tag_hide-input docutils container`).
_CELL_DIV = re.compile(r'<div class="(cell(?: tag_[\w-]+)* docutils container)">')


def number_cells(html_text: str) -> str:
    """Give every shown code cell its anchor, `cell-1` on, in page order: the errata
    and claims pages link to the cell that prints a number (tagged cells count too)."""
    counter = iter(range(1, 100_000))
    return _CELL_DIV.sub(
        lambda m: f'<div class="{m.group(1)}" id="cell-{next(counter)}">', html_text
    )


# myst-nb names every fold's toggle "Toggle hidden content" (aria-label), which hides
# what the toggle visibly says ("Show code") from a screen reader.
_HIDDEN_LABEL = '<summary aria-label="Toggle hidden content">'


def name_code_toggles(html_text: str) -> str:
    """Let a folded input's toggle be named by its visible text."""
    return html_text.replace(_HIDDEN_LABEL, "<summary>")


_FONTAWESOME_JS = re.compile(
    r'\s*<script[^>]*src="[^"]*fontawesome\.js[^"]*"[^>]*></script>'
)


#: pydata-sphinx-theme's bootstrap.js (23.7 KB compressed, the largest script a page
#: loads): preloaded in the head and run at the end of the body.
_BOOTSTRAP_PRELOAD = re.compile(
    r'\s*<link rel="preload" as="script" href="[^"]*scripts/bootstrap\.js[^"]*" />'
)
_BOOTSTRAP_SCRIPT = re.compile(
    r'<script defer src="([^"]*scripts/bootstrap\.js[^"]*)"></script>'
)
#: What stands in its place: a script element of a type no browser runs or fetches,
#: naming the script; book.js loads it when the reader reaches for what it drives.
ON_DEMAND = '<script type="book/on-demand" data-src="{}"></script>'


def bootstrap_on_demand(html_text: str) -> str:
    """Load the theme's Bootstrap only when a reader reaches for what it drives.

    On these pages bootstrap.js does three things: the header buttons' tooltips, the
    download menu (a Bootstrap dropdown) and the back-to-top button. A reader who
    only reads uses none of the first two, so the page names the script instead of
    loading it, and book.js (workshop/site/assets.py) loads it the first time a
    pointer or the keyboard focus reaches an element that needs it
    (``[data-bs-toggle]``), holds a click or arrow key that comes before it and gives
    it to Bootstrap once loaded, and wires the back-to-top button itself as the theme
    does. pydata-sphinx-theme.js uses ``window.bootstrap`` only for the collapse
    button of a sidebar layout the book does not use (tests/test_site.py checks)."""
    html_text = _BOOTSTRAP_PRELOAD.sub("", html_text)
    return _BOOTSTRAP_SCRIPT.sub(lambda m: ON_DEMAND.format(m.group(1)), html_text)


def _postprocess(app, exception):
    """After the HTML is written: small repairs the theme offers no setting for.

    - Drop fontawesome.js (543 KB compressed): the theme's icons also ship as a webfont
      with its CSS, so the script only re-draws them as SVG.
    - Load the theme's bootstrap.js on demand (bootstrap_on_demand).
    - Sphinx marks the bibliography's citation list role="list" without list items,
      which screen readers (and axe-core) reject; the entries carry
      doc-biblioentry already.
    - Fold each output's `ok` lines into "N checks hold" (fold_checks), and mark inline
      code that holds only a number (quiet_numbers).
    - Number the code cells (number_cells), and name a folded input's toggle by what
      it says (name_code_toggles).
    - Cut per-page font subsets for text beyond Latin (workshop/site/page_fonts.py),
      and Font Awesome to the icons the site draws (workshop/site/icons.py).
    The stylesheets are cut after this, by _cut_css.
    """
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    _sync_static(app, out)
    _copy_chart_js(out)
    _copy_pdf(app, out)
    written = [
        Path(app.builder.get_outfilename(p)) for p in getattr(app, "_book_written", ())
    ]
    notebooks = set(notebook_docs(Path(app.srcdir)))
    for page in written:
        text = page.read_text(encoding="utf-8")
        new = bootstrap_on_demand(_FONTAWESOME_JS.sub("", text))
        doc = page.relative_to(out).with_suffix("").as_posix()
        if doc in notebooks and 'id="cell-1"' not in new:
            new = number_cells(new)
        new = new.replace(
            '<div role="list" class="citation-list">', '<div class="citation-list">'
        )
        if doc in notebooks:
            new = fold_checks(new)
            new = name_code_toggles(new)
        new = quiet_numbers(new)
        if new != text:
            page.write_text(new, encoding="utf-8")
    from . import downloads, icons, page_fonts

    page_fonts.main(out, pages=written)
    icons.subset_icon_fonts(out)  # Font Awesome cut to the icons the site draws
    downloads.rewrite_sources(
        out, Path(app.srcdir)
    )  # the download button's copies run alone


#: The one module that draws chart data, on the site and live (book/slider.py).
#: (found without importing book, which would load matplotlib into the build)
CHART_JS = Path(importlib.util.find_spec("book").origin).with_name("chart.js")


def _copy_chart_js(out: Path) -> None:
    """Serve book/chart.js from _static/ (self-hosted; a page with a slider loads it
    as a module, see setup and NEEDED_BY)."""
    import shutil

    dst = out / "_static" / "chart.js"
    if not dst.exists() or dst.read_bytes() != CHART_JS.read_bytes():
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(CHART_JS, dst)


def _cut_css(app, exception):
    """Cut the themes' stylesheets to the rules the built pages and their scripts may
    use (workshop/site/theme_css.py). Last of the build-finished handlers: after
    _postprocess has written the pages, and after pydata-sphinx-theme has rewritten
    pygments.css."""
    if exception is not None or app.builder.format != "html":
        return
    from . import theme_css

    theme_css.cut_theme_css(Path(app.outdir))


def _sync_static(app, out: Path) -> None:
    """Sphinx 7.4 does not overwrite a static file that already exists in the output, so
    an incremental build would keep serving last build's
    fonts.css; copy what changed."""
    import filecmp
    import shutil

    for entry in app.config.html_static_path:
        src_root = Path(app.confdir) / entry
        if not src_root.is_dir():
            continue
        for src in src_root.rglob("*"):
            dst = out / "_static" / src.relative_to(src_root)
            if src.is_file() and (
                not dst.exists() or not filecmp.cmp(src, dst, shallow=False)
            ):
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)


def _no_favicon_request(app, pagename, templatename, context, doctree):
    """Note each page written (for _postprocess) and stop browsers
    asking for /favicon.ico."""
    if not hasattr(app, "_book_written"):
        app._book_written = set()
    app._book_written.add(pagename)
    context["metatags"] = (
        context.get("metatags", "") + '\n<link rel="icon" href="data:,">'
    )


STATIC = Path(__file__).resolve().parent / "static"
TEMPLATES = Path(__file__).resolve().parent / "templates"


def pdf_name(root: Path) -> str:
    """The whole-book PDF's file name: the repository's name (``book.pdf`` while
    `_config.yml` names no repository)."""
    url = repo_url(config(root)) or "book"
    return f"{url.rsplit('/', 1)[-1] or 'book'}.pdf"


def _print_css(app, config):
    """The print stylesheet ships from workshop/site/static beside site-assets/."""
    if str(STATIC) not in [str(p) for p in config.html_static_path]:
        config.html_static_path.append(str(STATIC))
    app.add_css_file("print.css", media="print")
    # the theme's own hook for its markup: a template that extends its layout
    # (workshop/site/templates/layout.html), not a regex on the built HTML
    if str(TEMPLATES) not in [str(p) for p in config.templates_path]:
        config.templates_path.insert(0, str(TEMPLATES))


def _pdf_button(app, pagename, templatename, context, doctree):
    """Offer the whole-book PDF in the theme's download menu, beside "print to PDF".

    The file is not built by `make book` (it takes a minute more); `make pdf` builds it
    into _build/pdf/ and copies it to _static/ of _build/html, and an html build finding
    it there copies it again (see _copy_pdf). The link is relative,
    so the site stays offline."""
    if app.builder.name != "html":
        return
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"].append(
                {
                    "type": "link",
                    "url": context["pathto"](f"_static/{pdf_name(_root(app))}", 1),
                    "text": "The whole book (.pdf)",
                    "tooltip": "Download the whole book as one PDF",
                    "icon": "fas fa-book",
                    "label": "download-book-pdf-button",
                }
            )


def _checkout_only_buttons(app, pagename, templatename, context, doctree):
    """A page that runs only in a checkout (downloads.CHECKOUT_ONLY) offers neither its
    notebook for download nor a Colab launch; Binder, which clones the repository,
    stays."""
    from .downloads import CHECKOUT_ONLY

    if pagename not in CHECKOUT_ONLY:
        return

    def gone(button):
        label = str(button.get("label", ""))
        return label in ("download-source-button", "download-notebook-button") or (
            str(button.get("text", "")).lower() == "colab"
        )

    for group in context.get("header_buttons", []):
        if "buttons" in group:
            group["buttons"] = [b for b in group["buttons"] if not gone(b)]


def _copy_pdf(app, out: Path) -> None:
    import shutil

    if app.builder.name != "html":
        return
    name = pdf_name(_root(app))
    built = PDF_OUT / name
    if built.exists():
        (out / "_static").mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, out / "_static" / name)


def _doc_links_show_titles(app, doctree, docname):
    """A link whose text is a page's path (the execution table
    writes them) shows the title."""
    from docutils import nodes

    titles = app.env.titles
    for ref in list(doctree.findall(nodes.reference)):
        text = ref.astext().strip().lstrip("/")
        if ref.get("internal") and text in titles and text != docname:
            ref.children = [nodes.inline("", titles[text].astext(), classes=["doc"])]


def _register_bibliography_style() -> None:
    """The bibliography's labels in the text's own form: [Vaswani
    et al., 2017], not [93]."""
    import pybtex.plugin
    from pybtex.style.formatting.plain import Style as Plain

    from .bibstyle import AuthorYearLabelStyle

    class BookStyle(Plain):
        default_label_style = "book_author_year"

    pybtex.plugin.register_plugin(
        "pybtex.style.labels", "book_author_year", AuthorYearLabelStyle
    )
    pybtex.plugin.register_plugin("pybtex.style.formatting", "book", BookStyle)
    # sphinxcontrib-bibtex asks for the plain-text backend at every citation (215 in the
    # book); found among the installed entry points, each ask scans every package's
    # metadata (9 ms). The same class, registered at runtime, is found at once.
    plain = pybtex.plugin.find_plugin("pybtex.backends", "plaintext")
    pybtex.plugin.register_plugin("pybtex.backends", "plaintext", plain, force=True)


def _unset_repository(app, config):
    """The repository button and the launch buttons need the repository: while
    _config.yml names none (repository.url empty), none is shown; once it names one,
    the repository button is, and the tag `launch` is set for text that names them."""
    opts = dict(config.html_theme_options or {})
    if https_url(opts.get("repository_url")):
        opts["use_repository_button"] = True
        app.tags.add("launch")  # for text inside {only} launch
    else:
        for key in (
            "repository_url",
            "launch_buttons",
            "use_repository_button",
            "use_issues_button",
            "use_edit_page_button",
            "use_source_button",
        ):
            opts.pop(key, None)
    config.html_theme_options = opts


def setup(app):
    _register_bibliography_style()
    app.connect("doctree-resolved", _doc_links_show_titles)
    app.connect("config-inited", _print_css)
    app.connect("html-page-context", _pdf_button, priority=502)
    app.connect("html-page-context", _checkout_only_buttons, priority=503)
    app.connect("config-inited", _unset_repository)
    app.connect("build-finished", _postprocess)
    app.connect("build-finished", _cut_css, priority=900)
    app.connect("html-page-context", _no_favicon_request)
    # The theme leaves the colour mode empty on a first visit and logs a
    # console error; start light.
    app.add_js_file(None, body=_MODE_FIX, priority=1)
    # the sliders' chart module; a page without a slider drops it (NEEDED_BY)
    app.add_js_file("chart.js", type="module", **{"data-book-chart": "boot"})
    app.connect("html-page-context", _offline_scripts, priority=900)
    app.connect("source-read", _source_read)
    app.connect("env-get-outdated", _outdated_generated)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
