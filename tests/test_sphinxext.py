"""workshop.site.sphinxext: the pages generated from the book's data and the fixes to the built HTML."""

from __future__ import annotations

import re

import pytest

from workshop.config import ROOT
from workshop.site import sphinxext


@pytest.mark.parametrize(
    "text, rows",
    [
        ("scale 0.03: ratio 0.97, at depth 20 0.99, level 4.4e-02", set()),
        ("one sentence\nanother, with [1, 2]", set()),
        ("d     sd    max\n4     0.1   0.9", {0, 1}),
        (
            "a heading\nlayer_norm(x)   [-0.34, 1.37]\nsoftmax(x)      [0.1, 0.9]",
            {1, 2},
        ),
        ("rows:\n  a 1\n  b 2", {1, 2}),
        ("width 8: [4.     3.5353 2.5637]", set()),
    ],
)
def test_printed_columns_keep_their_layout_and_sentences_wrap(text, rows):
    assert sphinxext.column_rows(text.split("\n")) == rows
    wrapped = sphinxext.wrap_sentences(text)
    assert wrapped.count('<span class="book-wrap">') == text.count("\n") + 1 - len(rows)
    assert re.sub(r"</?span[^>]*>", "", wrapped) == text


def test_glossary_and_errata_render(tmp_path):
    (tmp_path / "glossary.yml").write_text(
        "- term: zeta\n  definition: Last.\n  where: notebooks/z\n"
        "- term: alpha\n  definition: First.\n  where: notebooks/a\n"
    )
    text = sphinxext.glossary_text(tmp_path)
    assert ":::{glossary}\n:sorted:" in text and "{doc}`/notebooks/a`" in text
    (tmp_path / "errata.yml").write_text(
        "- claim: x is 2\n  source: 003_f5c0d122b8100c3e.txt, lesson 17\n"
        "  measured: x is 3\n  where: notebooks/a\n"
    )
    text = sphinxext.errata_text(tmp_path)
    assert "x is 3" in text
    assert "{ref}`the course <source-course>`, lesson 17" in text
    (tmp_path / "errata.yml").write_text(
        "- claim: x\n  source: s.txt part 1\n  measured: y\n  where: notebooks/a\n"
    )
    with pytest.raises(ValueError, match="s.txt part 1"):
        sphinxext.errata_text(tmp_path)


def test_glossary_rejects_duplicates_and_gaps(tmp_path):
    (tmp_path / "glossary.yml").write_text(
        "- term: a\n  definition: x\n  where: n\n- term: A\n  "
        "definition: y\n  where: n\n"
    )
    with pytest.raises(ValueError, match="'A' is defined twice"):
        sphinxext.glossary_text(tmp_path)
    (tmp_path / "glossary.yml").write_text("- term: a\n  where: n\n")
    with pytest.raises(ValueError, match="lacks definition"):
        sphinxext.glossary_text(tmp_path)


def test_real_glossary_and_errata_parse():
    root = ROOT
    sphinxext.glossary_text(root)
    sphinxext.errata_text(root)
    assert "claims" in sphinxext.claims_text(root)
    assert "Source claims that reproduce" in sphinxext.claims_text(root)


def test_cells_are_numbered_with_their_tags_and_toggles_named_by_their_text():
    html = (
        '<div class="cell docutils container">a</div>'
        '<div class="cell tag_hide-input docutils container">'
        '<details class="admonition hide above-input">'
        '<summary aria-label="Toggle hidden content">'
        '<p class="collapsed admonition-title">Show code</p></summary></details></div>'
        '<div class="cell tag_remove-output tag_x docutils container">c</div>'
        '<div class="cell_input docutils container">not a cell</div>'
    )
    out = sphinxext.number_cells(html)
    assert re.findall(r'class="(cell[^"]*)" id="cell-(\d+)"', out) == [
        ("cell docutils container", "1"),
        ("cell tag_hide-input docutils container", "2"),
        ("cell tag_remove-output tag_x docutils container", "3"),
    ]
    named = sphinxext.name_code_toggles(out)
    assert "aria-label" not in named and "<summary>" in named


_OUT = (
    '<div class="output stream highlight-myst-ansi notranslate"><div '
    'class="highlight"><pre>'
    "<span></span>{}</pre></div>"
)


def test_fold_checks_all_ok():
    html = sphinxext.fold_checks(_OUT.format("ok one\nok two &lt; three\n"))
    assert '<details class="book-checks"><summary>2 checks hold<span' in html
    assert "claims this cell tested as it ran" in html
    assert "ok one\nok two &lt; three\n</pre>" in html and html.count("<pre>") == 1
    one = sphinxext.fold_checks(_OUT.format("ok alone\n"))
    assert "<summary>1 check holds<span" in one


def test_fold_checks_mixed_keeps_other_lines_in_order():
    html = sphinxext.fold_checks(
        _OUT.format("a = 1\nok a is one\nb = 2\nok b is two\n")
    )
    kept, folded = html.split("<details", 1)
    assert "a = 1\nb = 2\n</pre>" in re.sub(r"</?span[^>]*>", "", kept)
    assert "ok a" not in kept
    assert "2 checks hold" in folded and "ok a is one\nok b is two\n" in folded


def test_fold_checks_leaves_other_output_and_is_idempotent():
    plain = _OUT.format("loss 0.3\nokay then\n")
    assert sphinxext.fold_checks(plain) == plain.replace(
        "loss 0.3\nokay then",
        '<span class="book-wrap">loss 0.3</span>\n<span class="book-wrap">okay then</span>',
    )
    twice = sphinxext.fold_checks(sphinxext.fold_checks(plain))
    assert twice == sphinxext.fold_checks(plain)
    once = sphinxext.fold_checks(_OUT.format("x\nok y\n"))
    assert sphinxext.fold_checks(once) == once


@pytest.mark.parametrize(
    "text, quiet",
    [
        ("0.809", True),
        ("1,000", True),
        ("-3", True),
        ("2.5e-07", True),
        ("12%", True),
        ('&lt;</span> <span class="pre">1e-15', True),
        ("3/4", True),
        ("ok", False),
        ("t0", False),
        ('k</span> <span class="pre">=</span> <span class="pre">3', False),
        ('[4,</span> <span class="pre">8]', False),
    ],
)
def test_quiet_numbers(text, quiet):
    html = f'<p>x <code class="docutils literal notranslate"><span class="pre">{text}</span></code> y</p>'
    assert ("book-num" in sphinxext.quiet_numbers(html)) is quiet


def test_glossary_has_a_to_z_and_letter_sections(tmp_path):
    (tmp_path / "glossary.yml").write_text(
        "- term: zeta\n  definition: Last, $z^2$.\n  where: notebooks/z\n"
        "- term: alpha\n  definition: First.\n  where: notebooks/a\n"
        "- term: Ångström\n  definition: Accented.\n  where: notebooks/a\n"
    )
    text = sphinxext.glossary_text(tmp_path)
    assert (
        '<a href="#glossary-a">A</a>' in text and '<a href="#glossary-z">Z</a>' in text
    )
    assert '<span class="book-az-none" aria-hidden="true">B</span>' in text
    assert (
        text.index("(glossary-a)=")
        < text.index("alpha")
        < text.index("Ångström")
        < text.index("(glossary-z)=")
    )
    assert "$z^2$" in text


def test_claims_headings_are_page_titles():
    root = ROOT
    text = sphinxext.claims_text(root)
    headings = [
        ln
        for ln in text.splitlines()
        if ln.startswith("## ") and ln != "## Source claims that reproduce"
    ]
    assert headings and all(
        " </notebooks/" in h and h.startswith("## {doc}`") for h in headings
    )
    assert not any(h.startswith("## {doc}`/") for h in headings)


def test_links_named_by_path_show_the_page_title():
    from types import SimpleNamespace

    from docutils import nodes

    para = nodes.paragraph()
    para += nodes.reference(
        "",
        "",
        nodes.inline("", "notebooks/part1/08-attention"),
        internal=True,
        refuri="notebooks/part1/08-attention.html",
    )
    para += nodes.reference(
        "", "", nodes.inline("", "elsewhere"), internal=True, refuri="x.html"
    )
    app = SimpleNamespace(
        env=SimpleNamespace(
            titles={"notebooks/part1/08-attention": nodes.title("", "8. Attention")}
        )
    )
    sphinxext._doc_links_show_titles(app, para, "execution")
    assert [r.astext() for r in para.children] == ["8. Attention", "elsewhere"]
