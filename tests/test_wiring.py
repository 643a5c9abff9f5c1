"""Part 12 runs its seeds on a leading array axis. Here that code is checked against the
plain one-seed code it replaced: seeds 0, 1 and 2, every wiring, every layer."""

from __future__ import annotations

import contextlib
import io
import os

import numpy as np
import pytest
from notebook_text import ROOT, load, source

NB = ROOT / "notebooks/part1/12-wiring.ipynb"
RTOL = (
    1e-12  # float64 rounding only: the sums run in another order, nothing else differs
)


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


def test_batched_run_matches_each_seed_alone(page):
    depth = 24
    batched = page["run_all"](seeds=[0, 1, 2], depths=[depth])
    for i, seed in enumerate([0, 1, 2]):
        x0, target, drawn = page["draw_one"](seed, depth)
        for wiring in page["WIRINGS"]:
            blocks = [page["as_vars"](p) for p in drawn]
            outs = page["stack"](x0, blocks, wiring)
            page["loss_at"](outs[-1], target, wiring).backward()
            alone = page["grad_norms"](blocks)
            got = batched[i][wiring]
            np.testing.assert_allclose(got["norms"][depth], alone, rtol=RTOL)
            sd = np.array([o.value.std() for o in outs])
            np.testing.assert_allclose(got["sd"][:depth], sd, rtol=RTOL)
