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
