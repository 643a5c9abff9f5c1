"""book.fmt: bounds, fixed digits, powers of ten, matrices and tables as the pages print
them, and values that are zero or a tie in exact arithmetic: what a machine's last bit
decides must not reach the page."""

import re

import numpy as np
import pytest

from book import bound, fixed, heatmap, matrix_markdown, unsigned_zero
from workshop.text.notebook_text import load, notebooks, output_text

TINY = [5e-324, 1e-300, 2.3e-16, 1.4e-17, 0.0]


@pytest.mark.parametrize("digits", range(0, 7))
@pytest.mark.parametrize("x", TINY)
def test_fixed_prints_a_residue_of_either_sign_as_the_same_zero(x, digits):
    zero = "0" if digits == 0 else "0." + "0" * digits
    assert fixed(x, digits) == fixed(-x, digits) == zero


@pytest.mark.parametrize(
    "text, want",
    [
        ("-0", "0"),
        ("-0.000", "0.000"),
        ("-0e+00", "0e+00"),
        ("-0.0%", "0.0%"),
        ("   -0.0", "    0.0"),  # an aligned field keeps its width
        ("-0.0  ", "0.0   "),
        ("-0.001", "-0.001"),  # a value, not a zero
        ("-10", "-10"),
        ("-0.5", "-0.5"),
        ("0.00", "0.00"),
        ("x-0", "x-0"),
    ],
)
def test_unsigned_zero_removes_only_the_sign_of_a_zero(text, want):
    assert unsigned_zero(text) == want


@pytest.mark.parametrize("spec", [".0f", ".2f", ".4f", ".0%", "8.3f", ",.1f"])
@pytest.mark.parametrize("x", TINY[:-1])
def test_a_formatted_residue_reads_the_same_either_side_of_zero(x, spec):
    assert unsigned_zero(format(-x, spec)) == unsigned_zero(format(x, spec))


def test_unsigned_zero_names_a_bad_argument():
    with pytest.raises(TypeError, match="got 0.0"):
        unsigned_zero(0.0)


def test_fixed_rounds_a_tie_one_way_on_every_machine():
    # 0.125 at two decimals lands a hair either side of the tie on different CPUs
    for x in (0.125, 0.125 + 2e-17, 0.125 - 2e-17):
        assert fixed(x, 2) == "0.13"
        assert fixed(-x, 2) == "-0.13"


def test_matrix_markdown_prints_residues_without_a_sign():
    md = matrix_markdown([[-1e-17, 1e-17], [0.5, -0.25]], "M", "ab", "xy", digits=2)
    assert "-0.00" not in md
    assert "| a | 0.00 | 0.00 |" in md and "-0.25" in md


def test_heatmap_labels_print_residues_without_a_sign():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    heatmap(ax, [[-1e-17, 0.5], [1e-17, -0.25]], fmt="{:.2f}")
    labels = [t.get_text() for t in ax.texts]
    plt.close(fig)
    assert labels == ["0.00", "0.50", "0.00", "-0.25"]


# A zero with a sign: "-0", "-0.00", "-0e+00", "−0.0%"; not "-0.01", "x-0" or "10-0".
SIGNED_ZERO = re.compile(r"(?<![\w.\-−])[-−]0(?:\.0+)?(?:e[-+]?\d+)?%?(?![\w.])")


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: p.stem)
def test_no_stored_output_prints_a_signed_zero(path):
    """The sign of a printed zero is the last bit of a residue: another machine prints
    the other one (02-learning-rate printed "(1.9, -0)" on x86 and "(1.9, 0)" on ARM).
    workshop/run/zero_audit.py finds such fields while a notebook runs; this finds any that
    reached a stored output, text, alt text or slider frame."""
    found = []
    for i, cell in enumerate(load(path)["cells"]):
        for m in SIGNED_ZERO.finditer(output_text(cell)):
            found.append(
                f"cell {i}: ...{output_text(cell)[max(0, m.start() - 40) : m.end()]}"
            )
    assert not found, f"{path.name} prints a signed zero:\n" + "\n".join(found)


def test_the_signed_zero_search_finds_what_it_looks_for():
    hits = ["(1.9, -0)", "b = -0.000", "−0.0%", "-0e+00 left"]
    misses = ["-0.01", "x-0", "10-0", "1e-05", "-0.5", "step -1"]
    assert all(SIGNED_ZERO.search(t) for t in hits)
    assert not any(SIGNED_ZERO.search(t) for t in misses)


def test_bound():
    assert bound(3e-17) == "< 1e-15"
    assert bound(-2e-13, floor=1e-12) == "< 1e-12"
    assert bound(np.float64(0.0)) == "< 1e-15"
    assert bound(np.array(1e-16)) == "< 1e-15"


@pytest.mark.parametrize(
    "x, floor, msg",
    [
        (1e-10, 1e-15, "not below"),
        (float("nan"), 1e-15, "NaN"),
        ("0", 1e-15, "'0'"),
        (0.0, 2e-15, "power of ten"),
        (0.0, -1e-15, "power of ten"),
        (True, 1e-15, "True"),
    ],
)
def test_bound_rejects(x, floor, msg):
    with pytest.raises((ValueError, TypeError), match=msg):
        bound(x, floor=floor)


def test_fixed():
    assert fixed(0.38861, 3) == "0.389"
    assert fixed(-0.0001, 3) == "0.000"
    assert fixed(2, 0) == "2"
    with pytest.raises(ValueError, match="16"):
        fixed(1.0, 16)
    with pytest.raises(ValueError, match="inf"):
        fixed(float("inf"))
    with pytest.raises(TypeError, match="None"):
        fixed(None)


def test_matrix_markdown():
    from book import matrix_markdown

    text = matrix_markdown(
        [[1, -np.inf], [0.5, 2]], "S", ["a", "b"], ["x", "y"], digits=2
    )
    assert text.splitlines() == [
        "| S | x | y |",
        "| --- | ---: | ---: |",
        "| a | 1.00 | -inf |",
        "| b | 0.50 | 2.00 |",
    ]
    with pytest.raises(ValueError, match=r"\(2, 2\).*3 row"):
        matrix_markdown(np.eye(2), "S", ["a", "b", "c"], ["x", "y"])
    with pytest.raises(ValueError, match="NaN"):
        matrix_markdown([[np.nan]], "S", ["a"], ["x"])
    with pytest.raises(ValueError, match="'2'"):
        matrix_markdown([[1.0]], "S", ["a"], ["x"], digits="2")


def test_order_prints_the_power_of_ten():
    from book import order

    assert order(7.9e12) == "about 1e13"
    assert order(6.0e12) == "about 1e13"
    assert order(-3e-5) == "about -1e-5"
    for bad in (0, float("inf"), float("nan"), "1e3", True):
        with pytest.raises((ValueError, TypeError), match="order"):
            order(bad)


def test_fixed_rounds_exact_ties_the_same_on_every_machine():
    from book import fixed

    below, above = 0.54625 - 1e-15, 0.54625 + 1e-15
    assert fixed(below, 4) == fixed(above, 4) == "0.5463"
    assert fixed(-3.705 + 1e-15, 2) == fixed(-3.705 - 1e-15, 2) == "-3.71"
    assert fixed(0.1234, 3) == "0.123" and fixed(-0.0001, 3) == "0.000"
    assert fixed(2.5, 0) == "3" and fixed(1e6 + 0.25, 1) == "1000000.3"


def test_table_is_markdown_for_pages_and_aligned_text_for_consoles():
    from book import table

    t = table(["model", "weights", "gap"], [["base", "63,082,496", "-3.0%"]])
    assert t._repr_markdown_().splitlines() == [
        "| model | weights | gap |",
        "| --- | ---: | ---: |",
        "| base | 63,082,496 | -3.0% |",
    ]
    assert repr(t).splitlines() == [
        "model     weights    gap",
        "base   63,082,496  -3.0%",
    ]
    ranged = table(["L", "range"], [["6", "0.665-0.781"], ["20", "-"]])
    assert ranged._repr_markdown_().splitlines()[1] == "| ---: | ---: |"
    titled = table(["a"], [["1"]], title="what a is")
    assert titled._repr_markdown_().splitlines()[:2] == ["**what a is**", ""]
    assert repr(titled).splitlines()[0] == "what a is"
    with pytest.raises(ValueError, match="title must be a non-empty string, got ''"):
        table(["a"], [["1"]], title="")
    with pytest.raises(ValueError, match="row 0 has 1 cells, the header has 2"):
        table(["a", "b"], [["1"]])
    with pytest.raises(ValueError, match="needs a header and rows"):
        table(["a"], [])


def test_the_site_makes_a_noun_singular_by_the_rule_python_does():
    """A verdict on the site (book.js) says '1 token' by book.fmt.counted's rule, which
    it writes again in JavaScript: the two regular expressions must be the same one."""
    from book.fmt import _PLURAL, counted
    from workshop.site.assets import BOOK_JS

    found = re.findall(r"/\^(.+?)\$/\.test\(u\)", BOOK_JS)
    assert found == [_PLURAL.pattern], found
    singular = {"tokens": "token", "steps": "step", "blocks": "block", "ms": "ms"}
    singular.update({"class": "class", "per step": "per step", "Tokens": "Tokens"})
    assert {noun: counted(1, noun)[2:] for noun in singular} == singular
