"""workshop.site.pagecache: a page is read again only when its bytes change, and what
the cache gives is what a fresh reading gives."""

from workshop.site import theme_css
from workshop.site.pagecache import per_page


def test_a_page_is_read_once_until_it_changes(tmp_path):
    out = tmp_path / "html"
    (out / "sub").mkdir(parents=True)
    (out / "a.html").write_text('<p class="x">a</p>', encoding="utf-8")
    (out / "sub" / "b.html").write_text('<div id="y"></div>', encoding="utf-8")
    reads = []

    def read(text):
        reads.append(text)
        return [len(text)]

    first = per_page(out, "step", read)
    assert len(reads) == 2 and first[out / "a.html"] == [18]
    assert per_page(out, "step", read) == first and len(reads) == 2
    (out / "a.html").write_text('<p class="x z">a</p>', encoding="utf-8")
    third = per_page(out, "step", read)
    assert len(reads) == 3 and third[out / "a.html"] == [20]
    (out / "sub" / "b.html").unlink()
    assert list(per_page(out, "step", read)) == [out / "a.html"]


def test_site_tokens_from_the_cache_are_a_fresh_reading(tmp_path):
    out = tmp_path / "html"
    out.mkdir()
    page = '<html><body class="bd-page"><script>x.classList.add("show")</script>'
    (out / "p.html").write_text(page + '<a id="top"></a></body></html>', "utf-8")
    fresh = theme_css.site_tokens(out)
    assert {".bd-page", "#top", ".show", "a"} <= fresh
    assert theme_css.site_tokens(out) == fresh
