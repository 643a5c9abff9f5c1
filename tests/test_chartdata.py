"""book.chartdata: a figure read as data (bars, lines, heatmaps, log axes, keys)."""

from __future__ import annotations

import json

import matplotlib.pyplot as plt
import numpy as np
import pytest

from book import heatmap, new_figure
from book.chartdata import chart, plain_text
from book.fmt import sig
from book.style import render


def _drawn(fig):
    render(fig, pixels=False)  # laid out as a slider state is
    try:
        return chart(fig)
    finally:
        plt.close(fig)


def test_sig_rounds_to_significant_digits():
    assert sig(0.123456) == "0.1235" and sig(1234567) == "1235000"
    assert sig(-0.54625) == "-0.5463"  # a tie rounds away from zero on every machine
    assert sig(2.5e-7) == "2.5e-07" and sig(0) == "0" and sig(99.996) == "100"
    assert sig(1 / 3, 2) == "0.33"
    with pytest.raises(ValueError, match="digits"):
        sig(1.0, 0)
    with pytest.raises(ValueError, match="infinite"):
        sig(float("inf"))


def test_bars_keep_order_heights_labels_and_key():
    fig, ax = new_figure("Bars of two kinds")
    ax.bar([0, 1, 2], [0.5, 0.25, 1 / 3], color="C0", label="first")
    ax.set_xticks([0, 1, 2], ["the", "cat", "sat"])
    ax.set_xlabel("token")
    ax.set_ylabel("probability")
    ax.legend()
    d = _drawn(fig)
    assert d["title"] == "Bars of two kinds" and d["w"] == 720
    p = d["axes"][0]
    bars = [m for m in p["marks"] if m["k"] == "bar"]
    assert [b["h"] for b in bars] == [0.5, 0.25, 0.3333]
    assert {b["label"] for b in bars} == {"first"} and bars[0]["c"] == "#0072B2"
    assert [t[1] for t in p["xticks"]] == ["the", "cat", "sat"]
    assert (p["xlabel"], p["ylabel"]) == ("token", "probability")
    assert d["key"] == [["first", "#0072B2", "box"]]
    assert p["grid"] == [1, 1, 0, 1, 0, 1]
    json.dumps(d)  # plain data


def test_lines_on_a_log_axis_and_panels():
    fig, (a, b) = new_figure("Two panels", ncols=2)
    a.semilogy([1, 2, 3], [1e-3, 1e-2, 0.123456], "o-", label="loss")
    a.axhline(0.05, color="k", ls="--")
    b.plot([0, 1], [2, 3])
    for ax in (a, b):
        ax.set_xlabel("step")
        ax.set_ylabel("value")
    d = _drawn(fig)
    pa, pb = d["axes"]
    assert pa["yscale"] == "log" and "xscale" not in pa
    assert pa["grid"][4:] == [0, 1] and pb["grid"][4:] == [1, 2]
    line = pa["marks"][0]
    assert line["y"] == [0.001, 0.01, 0.1235] and line["m"] == "o"
    assert line["label"] == "loss"
    hline = pa["marks"][1]
    assert hline["y"] == [0.05, 0.05] and hline["ls"] == "--"
    assert hline["x"] == pa["xlim"]  # axes fractions read back as the x limits
    assert any("10⁻" in t for _, t in pa["yticks"])  # mathtext ticks as Unicode


def test_heatmap_cells_carry_values_and_colours():
    fig, ax = new_figure("A heatmap", figsize=(4.8, 3.6))
    im = heatmap(
        ax, [[0.1, 0.9], [0.5, np.nan]], ["a", "b"], ["x", "y"], vmin=0, vmax=1
    )
    fig.colorbar(im, ax=ax, label="weight")
    ax.set_xlabel("key")
    ax.set_ylabel("query")
    d = _drawn(fig)
    cells = d["axes"][0]["marks"][0]
    assert cells["k"] == "cells" and (cells["rows"], cells["cols"]) == (2, 2)
    assert cells["v"] == [0.1, 0.9, 0.5, None] and cells["c"][3] is None
    assert cells["c"][0] == plt.matplotlib.colors.to_hex(im.to_rgba(0.1)).upper()
    texts = [m for m in d["axes"][0]["marks"] if m["k"] == "text"]
    assert [t["s"] for t in texts][:3] == ["0.10", "0.90", "0.50"]
    # each value's text keeps the colour chosen against its own cell (black: omitted)
    assert texts[0]["c"] == "#FFFFFF" and "c" not in texts[1]
    assert d["bars"][0]["label"] == "weight" and len(d["bars"][0]["stops"]) == 11
    assert (d["bars"][0]["lo"], d["bars"][0]["hi"]) == (0, 1)


def test_long_lines_are_thinned_to_true_points():
    fig, ax = new_figure("A long line")
    x = np.arange(5000)
    y = np.sin(x / 7.0)
    ax.plot(x, y)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    line = _drawn(fig)["axes"][0]["marks"][0]
    assert line["n"] == 5000 and len(line["x"]) <= 402
    for xv, yv in zip(line["x"], line["y"]):
        assert float(sig(np.sin(xv / 7.0))) == yv  # every kept point is a data point
    assert line["x"] == sorted(line["x"])


def test_unsupported_artist_and_bad_input_raise():
    fig, ax = new_figure("A table")
    ax.table([["1"]])
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    with pytest.raises(ValueError, match="Table"):
        chart(fig)
    plt.close(fig)
    with pytest.raises(TypeError, match="Figure"):
        chart("not a figure")
    fig, ax = new_figure("Symlog")
    ax.set_yscale("symlog")
    with pytest.raises(ValueError, match="symlog"):
        chart(fig)
    plt.close(fig)


def test_plain_text_reads_mathtext():
    assert plain_text(r"$10^{-3}$") == "10⁻³"
    assert plain_text(r"$\mathdefault{10^{2}}$") == "10²"
    assert plain_text("learning rate  $\\eta$") == "learning rate η"
    assert plain_text("a\u2212b") == "a-b"


def test_values_keep_digits_of_their_axis_and_noise_is_a_bound():
    """A value at float-noise size next to its axis's limits (-2.4e-16 where the page
    computed zero) has kernel-dependent digits; the data stores 0. On a log axis a tiny
    positive value is a value."""
    fig, (a1, a2, a3) = new_figure("Noise", ncols=3)
    a1.plot([0, 1, 2], [1.0, -2.4e-16, 0.5])
    a2.semilogy([0, 1, 2], [1.0, 2.4e-16, 0.5])
    a3.imshow(np.array([[0.84, 3e-16], [-1e-17, -0.84]]), cmap="RdBu", vmin=-1, vmax=1)
    for a in (a1, a2, a3):
        a.set(xlabel="x", ylabel="y")
    panels = _drawn(fig)["axes"]
    line = panels[0]["marks"][0]
    assert line["y"] == [1.0, 0, 0.5] and line["tiny"] == [1]  # a hover names "< lt"
    assert line["lt"] == 5e-05  # half of 4 digits of the axis's scale (about 1)
    assert panels[1]["marks"][0]["y"] == [1.0, 2.4e-16, 0.5]
    assert "tiny" not in panels[1]["marks"][0]
    cells = [m for m in panels[2]["marks"] if m["k"] == "cells"][0]
    assert (
        cells["v"] == [0.84, 0, 0, -0.84] and "tiny" not in cells
    )  # silent: see _cells


@pytest.mark.parametrize("scale", ["linear", "log"])
def test_scatter_points_are_their_data(scale):
    """A scatter's points are its offsets in data (its own transform only sizes the
    markers): the data holds the values the page plotted, on any axis scale."""
    fig, ax = new_figure("Three points")
    ax.scatter([1e18, 1e19, 1e20], [24.5, 26.0, 28.4], label="models")
    ax.set_xscale(scale)
    ax.set_xlabel("FLOPs")
    ax.set_ylabel("BLEU")
    (pts,) = _drawn(fig)["axes"][0]["marks"]
    assert pts["k"] == "points" and pts["label"] == "models"
    assert pts["x"] == [1e18, 1e19, 1e20] and pts["y"] == [24.5, 26.0, 28.4]


def test_a_value_near_zero_keeps_the_digits_of_its_axis():
    """An ill-conditioned fit's value near zero on an axis to 3 differs in its fourth
    significant digit between CPUs (-0.004733 against -0.004734, measured on ARM);
    kept to four digits of the axis's scale it is the same on both."""
    fig, ax = new_figure("Near zero")
    ax.plot([0, 1, 2], [-0.0047334, 0.07173, 2.5])
    ax.plot([0, 1, 2], [-0.0047344, 0.07173, 2.5])
    ax.set(xlabel="x", ylabel="y", ylim=(-3, 3))
    a, b = (m["y"] for m in _drawn(fig)["axes"][0]["marks"])
    assert a == b == [-0.0047, 0.0717, 2.5]
