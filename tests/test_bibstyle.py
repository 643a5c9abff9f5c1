"""workshop.site.bibstyle: author-year labels, as the text cites."""

from __future__ import annotations


def test_bibliography_labels_are_author_year():
    import pybtex.database

    from workshop.site.bibstyle import AuthorYearLabelStyle

    bib = pybtex.database.parse_string(
        r"""
    @article{v, author={Ashish Vaswani and Noam Shazeer and Niki Parmar}, title={A}, year={2017}}
    @article{b, author={Jimmy Ba and Jamie Kiros}, title={B}, year={2016}}
    @article{e, author={Jeffrey L. Elman}, title={C}, year={1990}}
    @article{w1, author={Jason Wei and Yi Tay and Rishi Bommasani}, title={D}, year={2022}}
    @article{w2, author={Jason Wei and Xuezhi Wang and Dale Schuurmans}, title={E}, year={2022}}
    @misc{n, title={Some report without authors}, year={2020}}
    """,
        "bibtex",
    )
    labels = list(AuthorYearLabelStyle().format_labels(bib.entries.values()))
    assert labels == [
        "Vaswani et al., 2017",
        "Ba and Kiros, 2016",
        "Elman, 1990",
        "Wei et al., 2022a",
        "Wei et al., 2022b",
        "Some report without authors, 2020",
    ]
