"""The notebook a reader downloads from the site runs on its own and
reads well in plain Jupyter.

The build (workshop/site/sphinxext.py, after the HTML is written) rewrites the ``.ipynb`` copies
in ``_sources/``, which the page's download button serves. Each copy gets:

- the helper package ``book/`` carried inside its first code cell (a base64 zip of the
  modules the notebooks import), unpacked into a temporary folder and put on
  ``sys.path`` only when ``import book`` fails, so the copy needs only numpy,
  matplotlib, ipywidgets and a kernel, and never installs anything from anywhere;
- its MyST roles as plain text: ``{term}`x``` becomes x, ``{cite:p}`key``` becomes
  (Author Year), ``{cite:t}`key``` becomes Author (Year), with a references cell at the
  end; and ``:::{admonition}`` fences become block quotes.

The stored notebooks keep their roles for the site. Their first cell
(workshop/run/colab_cell.py) does nothing where ``book`` imports, and where it does not and
nothing is carried, it says what to do (or installs from the configured repository,
when one is configured).
"""

from __future__ import annotations

import base64
import io
import json
import re
import zipfile
from pathlib import Path

from workshop.config import ROOT

TAG = "book-bootstrap"
PACKAGE = ROOT / "book"  # whose modules a download carries
#: Modules of book/ that the build needs and a reader does not
# (they import yaml, Sphinx).
MARK = "# book: carried"
#: Pages that read files only a checkout of the book has, and why. The site offers no
#: download copy and no Colab button for them (a copy could not run anywhere else); the
#: page says so, and runs in a checkout (make lab) and on Binder, which clones one.
CHECKOUT_ONLY = {
    "notebooks/part1/13-typography": "it measures the site's own font files (IBM Plex, "
    "npm @fontsource), which come with the book's repository, not with a notebook"
}


# ---------------------------------------------------------------- the first cell


def stored_cell_source(url: str = "", branch: str = "main") -> str:
    """The first code cell of every stored notebook (workshop/run/colab_cell.py writes it)."""
    head = (
        "# The helper package `book`: the book's environment has it "
        "(make lab, Binder), and a\n"
        "# notebook downloaded from the book's site carries it in this cell. Where it\n"
        "# imports, this cell does nothing.\n"
        "try:\n"
        "    import book  # noqa: F401\n"
        "except ImportError:\n"
    )
    # Written as ruff format leaves it (pyproject.toml: 88 columns), so that
    # formatting the notebooks never makes the cell stale.
    if url:
        return head + (
            "    import subprocess\n"
            "    import sys\n\n"
            "    # Colab: install it from the book's repository\n"
            "    subprocess.run(\n"
            f'        [sys.executable, "-m", "pip", "install", "-q", '
            f'"git+{url}@{branch}"],\n'
            "        check=True,\n"
            "    )\n"
            "    import book  # noqa: F401"
        )
    return head + (
        "    raise ModuleNotFoundError(\n"
        "        \"This notebook needs the book's helper package `book`. "
        'Download the notebook "\n'
        "        \"from the book's site (that copy carries the package), or "
        'run it in a checkout "\n'
        '        "of the book with `make lab`."\n'
        "    ) from None"
    )


def _book_imports(code: str, package: str = "book") -> set[str]:
    """The modules of `package` that `code` imports (``__init__`` for the package
    itself); a cell that is not plain Python (a magic) imports nothing here."""
    import ast

    lines = [ln for ln in code.splitlines() if not ln.lstrip().startswith(("%", "!"))]
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import inside the package
                base = f"{package}.{base}" if base else package
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            head, _, rest = name.partition(".")
            if head == package:
                found.add("__init__")
                if rest:
                    found.add(rest.split(".")[0])
    return found


def reader_modules(root: Path = ROOT, package: Path = PACKAGE) -> list[str]:
    """The modules of book/ that a downloaded notebook can reach: those the offered
    notebooks import, and what those import in turn. A module only a checkout-only
    page imports (page_fonts, which reads the repository's font files) stays out."""
    from workshop.config import notebook_docs

    todo = set()
    for doc in notebook_docs(root):
        if doc in CHECKOUT_ONLY:
            continue
        nb = json.loads((Path(root) / f"{doc}.ipynb").read_text(encoding="utf-8"))
        for cell in nb.get("cells", []):
            if cell.get("cell_type") == "code":
                todo |= _book_imports(_src(cell))
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        f = Path(package) / f"{name}.py"
        if name in seen or not f.exists():
            continue
        seen.add(name)
        todo |= _book_imports(f.read_text(encoding="utf-8")) - seen
    return sorted(seen)


#: Files a carried module reads beside itself: the slider's live widget draws with
#: book/chart.js (the module the site loads), so a download carries it too.
COMPANIONS = {"slider": ("chart.js",)}


def package_zip(package: Path = PACKAGE, modules: list[str] | None = None) -> bytes:
    """The reader's modules of book/ (reader_modules) and their companion files
    (COMPANIONS) as a zip, byte-identical for identical sources."""
    names = reader_modules(package=package) if modules is None else modules
    files = [Path(package) / f"{n}.py" for n in sorted(names)]
    files += [Path(package) / c for n in sorted(names) for c in COMPANIONS.get(n, ())]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            info = zipfile.ZipInfo(f"book/{f.name}", date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, f.read_bytes())
    return buf.getvalue()


def carried_cell_source(zipped: bytes) -> str:
    data = base64.b64encode(zipped).decode("ascii")
    return (
        f"{MARK} inside this notebook, so it runs with only numpy, "
        f"matplotlib and ipywidgets.\n"
        "# Where `book` is installed already, that one is used; "
        "nothing is ever downloaded.\n"
        "try:\n"
        "    import book  # noqa: F401\n"
        "except ImportError:\n"
        "    import base64, io, sys, tempfile, zipfile\n"
        '    _where = tempfile.mkdtemp(prefix="book-")\n'
        f"    "
        f'zipfile.ZipFile(io.BytesIO(base64.b64decode("{data}"))).extractall(_where)\n'
        "    sys.path.append(_where)  # nothing else on the path holds a `book`\n"
        "    import book  # noqa: F401\n"
        "    del _where"
    )


# ---------------------------------------------------------------- roles as plain text

_ROLE = re.compile(r"\{(term|cite:p|cite:t|cite|doc|ref)\}`([^`]*)`")
_TITLED = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)
_FENCE = re.compile(r"^:::\{admonition\}[ \t]*(.*)\n((?:.*\n)*?):::[ \t]*$", re.M)


_MARKS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
}


def _latex_to_text(s: str) -> str:
    import unicodedata

    s = s.replace("{\\L}", "\u0141").replace("\\L", "\u0141").replace("\\&", "&")
    s = re.sub(
        r"\\([`'^\"~=.uvHc])\{?\\?([A-Za-z])\}?",
        lambda m: unicodedata.normalize("NFC", m.group(2) + _MARKS[m.group(1)]),
        s,
    )
    return re.sub(r"[{}]", "", s).strip()


def read_bib(path: Path) -> dict[str, dict]:
    """key -> {authors: [last names], year, title, url, others:
    bool} from a BibTeX file."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    out = {}
    for m in re.finditer(r"@\w+\s*\{\s*([^,\s]+)\s*,(.*?)\n\}", text, re.S):
        key, body = m.group(1), m.group(2)
        fields = {}
        for f in re.finditer(
            r"(\w+)\s*=\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}", body
        ):
            fields[f.group(1).lower()] = " ".join(f.group(2).split())
        names = [
            n.strip()
            for n in re.split(r"\s+and\s+", fields.get("author", ""))
            if n.strip()
        ]
        others = any(n.lower() == "others" for n in names)
        last = [
            _latex_to_text(n.split(",")[0] if "," in n else n.split()[-1])
            for n in names
            if n.lower() != "others"
        ]
        out[key] = {
            "authors": last,
            "others": others,
            "year": fields.get("year", "n.d."),
            "title": _latex_to_text(fields.get("title", key)),
            "url": fields.get("url", ""),
            "venue": _latex_to_text(
                fields.get("journal") or fields.get("booktitle") or ""
            ),
        }
    return out


def _who(e: dict) -> str:
    a = e["authors"] or ["Anon."]
    if len(a) >= 3 or (e["others"] and len(a) >= 1):
        return f"{a[0]} et al."
    return " and ".join(a)


def plain_markdown(text: str, bib: dict[str, dict], cited: list[str]) -> str:
    """A markdown cell's MyST as plain Markdown; `cited` collects
    the citation keys in order."""

    def role(m):
        kind, body = m.group(1), m.group(2)
        if kind in ("term", "doc", "ref"):
            t = _TITLED.match(body)
            return t.group(1) if t else body.lstrip("/").rsplit("/", 1)[-1]
        keys = [k.strip() for k in body.split(",") if k.strip()]
        for k in keys:
            if k not in cited:
                cited.append(k)
        found = [bib.get(k) for k in keys]
        if kind == "cite:t":
            return "; ".join(
                f"{_who(e)} ({e['year']})" if e else k for k, e in zip(keys, found)
            )
        return (
            "("
            + "; ".join(
                f"{_who(e)} {e['year']}" if e else k for k, e in zip(keys, found)
            )
            + ")"
        )

    text = _ROLE.sub(role, text)

    def fence(m):
        title, body = m.group(1).strip(), m.group(2).rstrip("\n")
        lines = ([f"**{title}**", ""] if title else []) + body.splitlines()
        return "\n".join(f"> {ln}".rstrip() for ln in lines)

    return _FENCE.sub(fence, text)


def references_markdown(keys: list[str], bib: dict[str, dict]) -> str:
    lines = ["## References", ""]
    for k in keys:
        e = bib.get(k)
        if not e:
            continue
        authors = ", ".join(e["authors"]) + (" and others" if e["others"] else "")
        venue = f" {e['venue']}." if e["venue"] else ""
        link = f" <{e['url']}>" if e["url"] else ""
        lines.append(f"- {authors} ({e['year']}). *{e['title']}*.{venue}{link}")
    return "\n".join(lines)


# ----------------------------------------------------------------
# one notebook, all copies


def _src(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def standalone(nb: dict, bib: dict[str, dict], zipped: bytes) -> dict:
    """The notebook as a reader downloads it (a new dict; `nb` is not changed)."""
    nb = json.loads(json.dumps(nb))
    cells, cited = nb.get("cells", []), []
    for c in cells:
        if c.get("cell_type") == "markdown":
            c["source"] = plain_markdown(_src(c), bib, cited)
    code = [c for c in cells if c.get("cell_type") == "code"]
    boot = next(
        (c for c in code[:1] if TAG in c.get("metadata", {}).get("tags", [])), None
    )
    if boot is None:
        boot = {
            "id": "book-carried",
            "cell_type": "code",
            "execution_count": None,
            "metadata": {"tags": [TAG]},
            "outputs": [],
            "source": "",
        }
        cells.insert(cells.index(code[0]) if code else len(cells), boot)
    boot["source"] = carried_cell_source(zipped)
    boot["outputs"] = []
    meta = boot.setdefault("metadata", {})
    meta["tags"] = [t for t in meta.get("tags", []) if t != "remove-cell"]
    meta.setdefault("jupyter", {})["source_hidden"] = (
        True  # JupyterLab: a collapsed cell
    )
    meta["cellView"] = "form"  # Colab: the same
    if cited:
        cells.append(
            {
                "id": "book-references",  # nbformat 4.5: every cell has an id
                "cell_type": "markdown",
                "metadata": {},
                "source": references_markdown(cited, bib),
            }
        )
    return nb


def rewrite_sources(outdir: Path, srcdir: Path, docs=None) -> list[Path]:
    """Rewrite the downloadable copies under outdir/_sources
    (all, or those of `docs`)."""
    sources = Path(outdir) / "_sources"
    if not sources.is_dir():
        return []
    bib = read_bib(Path(srcdir) / "references.bib")
    zipped = package_zip()
    done = []
    for f in sorted(sources.rglob("*.ipynb")):
        doc = f.relative_to(sources).with_suffix("").as_posix()
        if docs is not None and doc not in docs:
            continue
        if doc in CHECKOUT_ONLY:  # no copy that cannot run on its own
            f.unlink()
            continue
        nb = json.loads(f.read_text(encoding="utf-8"))
        carried = next((c for c in nb.get("cells", [])[:3] if MARK in _src(c)), None)
        if (
            carried is not None
        ):  # rewritten by an earlier build that kept the page: new book/ only
            if _src(carried) == carried_cell_source(zipped):
                continue
            carried["source"] = carried_cell_source(zipped)
        else:
            nb = standalone(nb, bib, zipped)
        f.write_text(
            json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        done.append(f)
    return done


if __name__ == "__main__":
    import sys

    out = rewrite_sources(
        Path(sys.argv[1]), Path(sys.argv[2] if len(sys.argv) > 2 else ".")
    )
    print(f"{len(out)} downloadable notebook(s) rewritten")
