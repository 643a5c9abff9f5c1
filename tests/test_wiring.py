"""Part 12 runs every depth as a prefix of one long stack: the depth-L gradients are
taken after layer L of the 96-block run. Here that is checked against stacks of exactly
L freshly drawn blocks, and the page's runner is shown to refuse depths it cannot run."""

from __future__ import annotations

import contextlib
import io
import os

import numpy as np
import pytest

from workshop.text.notebook_text import ROOT, load, source

NB = ROOT / "notebooks/part1/12-wiring.ipynb"
RTOL = 1e-12  # the same operations in the same order: only the graph's length differs


@pytest.fixture(scope="module")
def page():
    """The page's definitions: its code cells up to the line
    that runs the experiment."""
    os.environ.setdefault("BOOK_WIDGETS", "static")
    names: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in load(NB)["cells"]:
            tags = cell.get("metadata", {}).get("tags", [])
            if cell["cell_type"] != "code" or "book-bootstrap" in tags:
                continue
            code = source(cell)
            if "runs = run_all()" in code:
                exec(code.split("runs = run_all()")[0], names)  # noqa: S102
                return names
            exec(code, names)  # noqa: S102
    raise AssertionError("12-wiring: no cell runs `runs = run_all()`")


@pytest.mark.parametrize("seed", [0, 4])
def test_each_depth_is_a_stack_of_its_own(page, seed):
    depths = [6, 20]
    run = page["run_seed"](seed, depths=depths)
    for depth in depths:
        x0, _, drawn = page["draw_one"](seed, depth)
        for wiring in page["WIRINGS"]:
            got = run[wiring]
            alone = page["alone"](seed, wiring, depth)  # the page's own check, deeper
            np.testing.assert_allclose(got["norms"][depth], alone, rtol=RTOL)
            blocks = [page["as_vars"](p) for p in drawn]
            outs = page["stack"](x0, blocks, wiring, keep_graph=False)
            sd = np.array([o.value.std() for o in outs])
            np.testing.assert_allclose(got["sd"][:depth], sd, rtol=RTOL)


@pytest.mark.parametrize("depths", [[], [0], [True], [6, 2.5]])
def test_run_seed_names_a_bad_depth(page, depths):
    with pytest.raises(ValueError, match="depths must be positive ints"):
        page["run_seed"](0, depths=depths)


def test_two_seeds_at_a_time_give_the_numbers_of_a_plain_loop(page):
    """run_all runs seeds on two threads; each seed's numbers are bit for bit those of
    run_seed alone, in the seeds' order."""
    seeds, depths = [3, 0, 4], [6]
    both = page["run_all"](seeds, depths=depths)
    for seed, got in zip(seeds, both):
        want = page["run_seed"](seed, depths=depths)
        for wiring in page["WIRINGS"]:
            for key in ("sd", "step_var"):
                assert np.array_equal(got[wiring][key], want[wiring][key])
            for depth in depths:
                assert np.array_equal(
                    got[wiring]["norms"][depth], want[wiring]["norms"][depth]
                )


@pytest.mark.parametrize("seed", [0, 3])
def test_a_block_is_drawn_as_rng_uniform_draws_it(page, seed):
    """The page draws U(lo, hi) as lo + (hi - lo) * random(), in place: numpy's own
    rng.uniform gives the same bits, and leaves the generator in the same state."""
    mine, numpy_s = np.random.default_rng(seed), np.random.default_rng(seed)
    d, ff = page["D"], page["FF"]
    xavier, a_d, a_ff = np.sqrt(6 / (4 * d)), 1 / np.sqrt(d), 1 / np.sqrt(ff)
    for out_scale in (1.0, 3.0):
        got = page["torch_default_block"](mine, out_scale=out_scale)
        u = numpy_s.uniform
        want = {
            "W_in": u(-xavier, xavier, (3 * d, d)),
            "W_o": out_scale * u(-a_d, a_d, (d, d)),
            "W_1": u(-a_d, a_d, (ff, d)),
            "b_1": u(-a_d, a_d, ff),
            "W_2": out_scale * u(-a_ff, a_ff, (d, ff)),
            "b_2": u(-a_ff, a_ff, d),
        }
        for name, w in want.items():
            assert np.array_equal(got[name].view(np.int64), w.view(np.int64)), name
    assert mine.random() == numpy_s.random()
