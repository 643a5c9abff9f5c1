"""Math drawn at build time (workshop/site/math.py): TeX in, SVG with MathML out."""

from types import SimpleNamespace

import pytest

from workshop.site import math


@pytest.fixture(scope="module")
def tex():
    t = math.TeX()
    yield t
    t.close()


def test_a_formula_becomes_svg_with_mathml_for_screen_readers(tex):
    out = tex.svg(r"\sqrt{d_k}", False)
    assert out.startswith('<mjx-container class="MathJax" jax="SVG"')
    assert "<svg" in out and "<msqrt>" in out and "<msub>" in out
    assert "currentColor" in out  # dark mode: the paths take the text colour
    assert ' id="' not in out  # no ids: a formula repeated on a page stays valid HTML
    assert 'display="true"' in tex.svg(r"\sqrt{d_k}", True)


def test_the_stylesheet_hides_the_mathml_from_sight(tex):
    assert "mjx-assistive-mml" in tex.css and "clip: rect(1px" in tex.css


@pytest.mark.parametrize(
    "bad, msg", [(r"\frac{a", "Missing close brace"), (r"\nocommand", "nocommand")]
)
def test_a_tex_error_names_the_formula(tex, bad, msg):
    with pytest.raises(ValueError, match=msg) as e:
        tex.svg(bad, False)
    assert repr(bad) in str(e.value)


def test_an_empty_formula_is_refused(tex):
    with pytest.raises(ValueError, match="empty formula"):
        tex.svg("  ", True)


def test_display_math_aligns_equations_split_by_blank_lines():
    node = SimpleNamespace(astext=lambda: "a = 1\n\nb = 2")
    assert math._display_tex(node) == r"\begin{aligned}a = 1\\b = 2\end{aligned}"
    node = SimpleNamespace(astext=lambda: r"a \\ b")
    assert math._display_tex(node) == r"\begin{split}a \\ b\end{split}"


def test_a_page_carries_each_glyph_once(tex):
    """Formulas use the page's one copy of a glyph: MathJax's per-formula definitions
    are taken out, and a hidden SVG at the top of the page defines them."""
    a, b = tex.svg(r"x^2", False), tex.svg(r"x + y", False)
    assert "<defs>" not in a and "<path" not in a  # the glyphs left the formula
    assert 'xlink:href="#mjx-TEX-I-1D465"' in a and 'xlink:href="#mjx-TEX-I-1D465"' in b
    glyphs = {**tex.glyphs(r"x^2", False), **tex.glyphs(r"x + y", False)}
    assert {"TEX-I-1D465", "TEX-N-32", "TEX-I-1D466"} <= set(glyphs)
    defs = math.glyph_defs(glyphs)
    assert defs.count('id="mjx-TEX-I-1D465"') == 1 and 'aria-hidden="true"' in defs


def test_an_id_left_unshared_is_an_error():
    with pytest.raises(ValueError, match="unshared"):
        math.share_glyphs('<svg><use xlink:href="#MJX-3-OTHER-1"></use></svg>')
