"""Which BLAS kernel and SIMD level numpy uses here, and which others this CPU can run.

The printed numbers of the book must not depend on either. The stored outputs were made
on one kernel (each notebook records it, `book.made_with.kernel`), so `make test` runs
nbval once, on a configuration that did not make them: the machine as it is, if its own
kernel is not the one that stored the outputs (what a reader on this machine gets), and
otherwise another BLAS kernel with numpy's widest SIMD dispatch switched off. Either way
every make test compares two configurations: the one that stored each digit and the one
that re-computes it. `make soak` runs every kernel this CPU can execute.

    python -m workshop.run.blas_env info   # one line: BLAS library, kernel, threads; numpy SIMD
    python -m workshop.run.blas_env second # env assignments for make test's nbval run
    python -m workshop.run.blas_env why    # one line: why second chose what it chose
    python -m workshop.run.blas_env other  # env assignments for another kernel, SIMD narrowed
    python -m workshop.run.blas_env all    # one line of env assignments per runnable kernel

`other`, `second` and `all` print nothing to force where the platform has no OpenBLAS
kernels to choose from (the runs then use the machine's own); `info` always says what
is in use.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from workshop.config import ROOT, notebooks

# OpenBLAS's names for x86-64 kernels, newest first. A kernel the CPU cannot execute
# either fails to start or is replaced by OpenBLAS: both are detected and skipped.
X86_KERNELS = ["SkylakeX", "Haswell", "Zen", "Sandybridge", "Nehalem", "Prescott"]
ARM_KERNELS = ["NeoverseN1", "CortexA57", "ARMV8"]
# Preferred second kernel: one without FMA, so its sums round differently from the
# machine's own on every CPU made since 2013.
SECOND = {"x86_64": ["Sandybridge", "Nehalem"], "aarch64": ["ARMV8", "CortexA57"]}

_PROBE = r"""
import json, numpy as np, threadpoolctl
from numpy._core._multiarray_umath import __cpu_features__ as f
a = np.arange(64.0).reshape(8, 8)
assert np.allclose(a @ a.T, np.einsum("ij,kj->ik", a, a))
blas = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
b = blas[0] if blas else {}
groups = [g for g in ("X86_V2", "X86_V3", "X86_V4", "ASIMD", "SVE") if f.get(g)]
groups = groups or [g for g in ("SSE42", "AVX2", "AVX512F", "AVX512_SKX") if f.get(g)]  # numpy < 2.3
print(json.dumps({"numpy": np.__version__, "blas": b.get("internal_api", "none"),
                  "version": b.get("version", ""), "kernel": b.get("architecture", ""),
                  "threads": b.get("num_threads", 0), "simd": groups}))
"""


def probe(env: dict[str, str] | None = None) -> dict | None:
    """What numpy reports in a fresh interpreter with `env` added; None if it fails."""
    full = {**os.environ, **(env or {})}
    try:
        out = subprocess.run(
            [sys.executable, "-c", _PROBE],
            env=full,
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def describe(info: dict) -> str:
    disabled = os.environ.get("NPY_DISABLE_CPU_FEATURES", "")
    return (
        f"BLAS {info['blas']} {info['version']}, kernel {info['kernel']}, "
        f"{info['threads']} thread(s); numpy {info['numpy']}, SIMD "
        f"{'+'.join(info['simd']) or 'baseline'}"
        + (f" (disabled: {disabled})" if disabled else "")
    )


def runnable_kernels() -> list[str]:
    """Each kernel this CPU runs, once: OpenBLAS maps some names onto others (Zen onto
    Haswell here, Prescott onto Katmai), and a name it cannot
    run falls back to another."""
    names = (
        X86_KERNELS
        if platform.machine() == "x86_64"
        else (ARM_KERNELS if platform.machine() == "aarch64" else [])
    )
    seen, ok = set(), []
    for name in names:
        got = probe({"OPENBLAS_CORETYPE": name})
        if got and got["kernel"].lower() not in seen:
            seen.add(got["kernel"].lower())
            ok.append(name)
    return ok


def widest_simd(info: dict) -> str:
    for group in ("X86_V4", "X86_V3"):
        if group in info["simd"]:
            return group
    return ""


def other() -> str:
    own = probe()
    if own is None:
        raise SystemExit("blas_env: numpy does not start in this interpreter")
    env = []
    for name in SECOND.get(platform.machine(), []):
        if name.lower() == own["kernel"].lower():
            continue
        got = probe({"OPENBLAS_CORETYPE": name})
        if got and got["kernel"].lower() == name.lower():
            env.append(f"OPENBLAS_CORETYPE={name}")
            break
    simd = widest_simd(own)
    if simd:
        env.append(f"NPY_DISABLE_CPU_FEATURES={simd}")
    return " ".join(env)


def stored_kernels(root: Path = ROOT) -> set[str]:
    """The BLAS kernels that made the stored notebooks' outputs (workshop/run/execute.py
    records one per notebook), lower case; "not recorded" where a notebook has none."""
    kernels = set()
    for path in notebooks(root):
        meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
        kernel = meta.get("book", {}).get("made_with", {}).get("kernel")
        kernels.add(kernel.lower() if kernel else "not recorded")
    return kernels


def second(root: Path = ROOT) -> tuple[str, str]:
    """Env assignments for make test's nbval run, and why: the machine as it is when its
    kernel made none of the stored outputs, else another kernel with SIMD narrowed."""
    own = probe()
    if own is None:
        raise SystemExit("blas_env: numpy does not start in this interpreter")
    stored = stored_kernels(root)
    if own["kernel"] and own["kernel"].lower() not in stored:
        return "", (
            f"this machine's own kernel {own['kernel']} stored none of the outputs "
            f"(they were stored on {', '.join(sorted(stored))}): run as a reader here would"
        )
    env = other()
    return env, (
        f"this machine's kernel {own['kernel']} stored the outputs: run on another "
        f"configuration ({env or 'none available, the machine as it is'})"
    )


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "info"
    if what == "info":
        info = probe()
        print("numpy does not start" if info is None else describe(info))
    elif what == "other":
        print(other())
    elif what == "second":
        print(second()[0])
    elif what == "why":
        print(second()[1])
    elif what == "all":
        for name in runnable_kernels():
            print(f"OPENBLAS_CORETYPE={name}")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
