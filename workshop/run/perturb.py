"""make perturb: nbval with one ulp of noise in every random draw, to find the printed
numbers that a different machine could change before a machine does.

A BLAS kernel, a SIMD path or a library release changes how a sum is rounded: the last
bit or two of a product. A printed digit that holds on every machine must survive that.
This runs every notebook with each float that a seeded generator draws multiplied by
1 - 2**-52, 1 or 1 + 2**-52 (chosen at random, the same way on every run of one
perturbation seed), which moves every downstream value by about as much as another
kernel would, and compares the printed outputs with the stored ones, strictly.

    python -m workshop.run.perturb [SEED ...]     # default: seeds 1 and 2

A cell that fails here prints digits that rest on the last bits of its inputs. How it
works: a startup file in a temporary IPython folder (each nbval kernel runs it) replaces
numpy.random.default_rng with a generator whose float draws carry the noise.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from workshop.config import ROOT, blas_threads, nbval_args
from workshop.run.kernels import no_pixels

PY = ROOT / ".venv" / "bin" / "python"

STARTUP = r'''
import os

import numpy as np

_SEED = int(os.environ["BOOK_PERTURB"])
_ULP = 2.0**-52
_FLOAT_DRAWS = (
    "random standard_normal normal uniform exponential standard_exponential laplace "
    "lognormal gamma standard_gamma beta dirichlet multivariate_normal standard_cauchy "
    "standard_t logistic gumbel rayleigh weibull pareto power vonmises wald triangular "
    "chisquare f noncentral_chisquare noncentral_f"
).split()
_made = [0]
_plain_default_rng = np.random.default_rng


class _Perturbed(np.random.Generator):
    """A Generator whose float draws are off by at most one ulp, reproducibly."""

    def __init__(self, bit_generator, noise):
        super().__init__(bit_generator)
        self._noise = noise


def _wrap(name):
    plain = getattr(np.random.Generator, name)

    def draw(self, *args, **kwargs):
        out = plain(self, *args, **kwargs)
        a = np.asarray(out)
        if not np.issubdtype(a.dtype, np.floating):
            return out
        k = self._noise.integers(-1, 2, size=a.shape)
        nudged = a * (1 + k * _ULP)
        return nudged if isinstance(out, np.ndarray) else nudged.dtype.type(nudged)

    draw.__name__ = name
    return draw


for _name in _FLOAT_DRAWS:
    if hasattr(np.random.Generator, _name):
        setattr(_Perturbed, _name, _wrap(_name))


def default_rng(seed=None):
    if isinstance(seed, np.random.Generator):
        return seed
    plain = _plain_default_rng(seed)
    _made[0] += 1
    noise = _plain_default_rng([_SEED, _made[0]])
    return _Perturbed(plain.bit_generator, noise)


np.random.default_rng = default_rng
'''


# Pages whose printed bits are the same on every machine by construction, not by
# robustness: they use no BLAS and no vector maths, so nothing a machine does can move
# a bit, while a nudge to their inputs does, by design. They are left out here.
EXACT = {
    "notebooks/part1/11-feed-forward.ipynb": (
        "trains 3,000 Adam steps with elementwise operations and sums in a fixed order; "
        "the page itself measures what a nudge of one ulp to the start does"
    )
}


def run(seed: int) -> int:
    with tempfile.TemporaryDirectory() as ipython_dir:
        startup = Path(ipython_dir) / "profile_default" / "startup"
        startup.mkdir(parents=True)
        (startup / "00-perturb.py").write_text(STARTUP, encoding="utf-8")
        no_pixels(Path(ipython_dir))  # nbval compares no image
        env = {
            **os.environ,
            "IPYTHONDIR": ipython_dir,
            "BOOK_PERTURB": str(seed),
            **blas_threads(1),
        }
        print(f"perturbation seed {seed}: every float draw off by at most one ulp")
        cmd = [str(PY), "-m", "pytest", *nbval_args(), "notebooks"]
        cmd += ["-p", "no:cacheprovider"]
        for path, why in EXACT.items():
            print(f"left out: {path}: {why}")
            cmd.append(f"--ignore={path}")
        return subprocess.run(cmd, cwd=ROOT, env=env).returncode


def main(argv: list[str]) -> int:
    try:
        seeds = [int(a) for a in argv] or [1, 2]
    except ValueError:
        print(f"perturb: seeds must be integers, got {argv!r}")
        return 2
    failed = [s for s in seeds if run(s) != 0]
    if failed:
        print(f"perturb: cells differ under perturbation seeds {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
