"""nbval, strict, on 64-bit ARM Linux, emulated: `make arm`.

Only the notebook kernel is ARM. pytest and nbval run on this machine's Python, as in
`make test`; the kernelspec they start runs Debian's arm64 Python under QEMU's
user-mode emulator (`qemu-aarch64-static -L <root>`), with numpy, matplotlib and the
rest from PyPI's aarch64 wheels of the pinned versions. No binfmt handler is
registered: the emulator is named in the kernel's command line.

    python -m workshop.run.arm setup            # the arm64 root, the wheels, the kernelspecs
    python -m workshop.run.arm info n1          # one line: BLAS kernel and SIMD, as blas_env
    python -m workshop.run.arm run n1 -- ARGS   # nbval with ARGS (make arm passes the NBVAL flags)
    python -m workshop.run.arm slow             # the pages left out here, and why

Everything lives in `_build/arm/`: `root/` (Debian bookworm arm64, unpacked with
`dpkg-deb`; its second stage would need binfmt), `site/` (the wheels), `jupyter/` (the
kernelspecs), `runs/` (one JUnit file per run). Setup is done once and reused; a
marker file per step says it is done. It installs Debian's `qemu-user-static` and
`debootstrap` if they are missing, and nothing else outside `_build/arm/`.

The kernels (OpenBLAS's names; the emulated CPU matches each):

- n1: QEMU's `neoverse-n1`, OpenBLAS detects NeoverseN1 itself (a Graviton 2, an
  Ampere Altra).
- v1: QEMU's `max` with 256-bit SVE, OpenBLAS forced to NeoverseV1 (a Graviton 3).
  QEMU 7.2 has no `neoverse-v1` model; `max` has every feature V1 has.
- armv8: QEMU's `cortex-a57` (plain ARMv8.0, no dot product, no SVE), OpenBLAS forced
  to its generic ARMV8 kernel.

A forced kernel that OpenBLAS does not take is reported, and the run stops: a run
must be on the kernel it names.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from workshop.config import BUILD, ROOT
from workshop.run.kernels import no_pixels

HERE = BUILD / "arm"
DEBIAN = "bookworm"
MIRROR = "http://deb.debian.org/debian"
QEMU = "qemu-aarch64-static"
PYTHON = "/usr/bin/python3.11"

# name: (QEMU_CPU, OPENBLAS_CORETYPE or "" to let OpenBLAS detect, the kernel it must report)
KERNELS = {
    "n1": ("neoverse-n1", "", "neoversen1"),
    "v1": ("max,sve256=on", "NEOVERSEV1", "neoversev1"),
    "armv8": ("cortex-a57", "ARMV8", "armv8"),
}

# Pages left out of the emulated runs, with the reason. The native arm64 runner of
# the weekly workflow (.github/workflows/weekly.yml) runs every page, these included.
SLOW = {
    "notebooks/part1/12-wiring.ipynb": (
        "trains transformer blocks at depth, the book's longest page natively; "
        "emulated it outlasts a run"
    ),
    "notebooks/part1/13-typography.ipynb": (
        "measures the book's font files glyph by glyph; emulated it outlasts a run"
    ),
}

# What the kernel imports, from PyPI's aarch64 wheels at the versions requirements.txt
# pins; pip resolves their dependencies under the same pins.
WHEELS = [
    "numpy",
    "matplotlib",
    "pillow",
    "fonttools",
    "threadpoolctl",
    "ipython",
    "ipykernel",
    "ipywidgets",
    "brotli",  # fontTools writes WOFF2 with it (13-typography)
]
# The glibc versions a manylinux wheel may ask for: bookworm has 2.36.
PLATFORMS = [f"manylinux_2_{m}_aarch64" for m in range(36, 16, -1)] + [
    "manylinux2014_aarch64"
]


def say(text: str) -> None:
    print(f"arm: {text}", flush=True)


def constraints(requirements: str) -> str:
    """requirements.txt as a pip constraints file: its `name==version` lines only (a
    constraint cannot be editable or unnamed)."""
    keep = []
    for line in requirements.splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-") and "==" in line:
            keep.append(line)
    return "\n".join(keep) + "\n"


def kernelspec(name: str, root: Path, site: Path, book: Path, home: Path) -> dict:
    """The kernel.json for one kernel: the emulator first, then arm64 Python."""
    cpu, coretype, _ = KERNELS[name]
    env = {
        "QEMU_CPU": cpu,
        "QEMU_LD_PREFIX": str(root),
        # arm64 wheels first, then the book package from this checkout.
        "PYTHONPATH": f"{site}{os.pathsep}{book}",
        "PYTHONNOUSERSITE": "1",
        # Caches of the arm kernel stay in its folder, apart from this machine's.
        "MPLCONFIGDIR": str(home / "matplotlib"),
        "IPYTHONDIR": str(home / "ipython"),
    }
    if coretype:
        env["OPENBLAS_CORETYPE"] = coretype
    return {
        "argv": [
            QEMU,
            "-L",
            str(root),
            str(root) + PYTHON,
            "-m",
            "ipykernel_launcher",
            "-f",
            "{connection_file}",
        ],
        "display_name": f"Python 3 (arm64, {name}, emulated)",
        "language": "python",
        "env": env,
        "metadata": {"debugger": False},
    }


def ignores(slow: dict[str, str] = SLOW) -> list[str]:
    return [f"--ignore={path}" for path in sorted(slow)]


def per_notebook(junit: str) -> list[tuple[str, int, list[str], float]]:
    """(notebook, cells, the cells that failed, seconds) per notebook, from nbval's
    JUnit file. Each cell is a test case whose `file` is its notebook; a notebook's
    seconds are its cells' (the first cell's include the kernel's start)."""
    rows: dict[str, list] = {}
    for case in ET.fromstring(junit).iter("testcase"):
        where = case.get("file") or case.get("classname", "").replace(".", "/")
        row = rows.setdefault(where.removesuffix(".ipynb"), [0, [], 0.0])
        row[0] += 1
        if any(case.find(tag) is not None for tag in ("failure", "error")):
            row[1].append(case.get("name", "?"))
        row[2] += float(case.get("time") or 0)
    return [(nb, cells, bad, secs) for nb, (cells, bad, secs) in rows.items()]


def table(rows: list[tuple[str, int, list[str], float]]) -> str:
    """A Markdown table: notebook, pass or the failing cells, cells, seconds."""
    lines = ["| notebook | result | cells | seconds |", "| --- | --- | ---: | ---: |"]
    for nb, cells, bad, secs in sorted(rows):
        result = f"FAIL: {', '.join(bad)}" if bad else "pass"
        lines.append(f"| {nb} | {result} | {cells} | {secs:.0f} |")
    return "\n".join(lines)


# ----------------------------------------------------------------------- setup


def _sh(*cmd: str, **kw) -> None:
    say("$ " + " ".join(cmd))
    subprocess.run(cmd, check=True, **kw)


def host_tools() -> None:
    """Debian's qemu-user-static and debootstrap; nothing is registered with binfmt."""
    if shutil.which(QEMU) and shutil.which("debootstrap"):
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    _sh("apt-get", "update", "-qq", env=env)
    _sh(
        "apt-get",
        "install",
        "-y",
        "-qq",
        "--no-install-recommends",
        "qemu-user-static",
        "debootstrap",
        env=env,
    )


def arm_root(root: Path) -> None:
    """Debian arm64 with Python 3.11: debootstrap's first stage downloads the
    packages, and each is unpacked with dpkg-deb (the second stage runs arm64
    programs, which needs binfmt)."""
    done = root / ".unpacked"
    if done.exists():
        return
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    _sh(
        "debootstrap",
        "--foreign",
        "--arch=arm64",
        "--variant=minbase",
        "--include=python3.11,libstdc++6,zlib1g,libexpat1,libffi8",
        DEBIAN,
        str(root),
        MIRROR,
    )
    debs = sorted((root / "var/cache/apt/archives").glob("*.deb"))
    say(f"unpacking {len(debs)} packages into {root}")
    for deb in debs:
        tar = subprocess.Popen(
            ["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE
        )
        subprocess.run(
            ["tar", "-x", "--keep-directory-symlink", "-C", str(root)],
            stdin=tar.stdout,
            check=True,
        )
        if tar.wait() != 0:
            raise SystemExit(f"arm: dpkg-deb failed on {deb}")
    _sh(
        QEMU,
        "-L",
        str(root),
        str(root) + PYTHON,
        "-c",
        "import sys; print(sys.version)",
    )
    done.touch()


def arm_wheels(site: Path) -> None:
    """The pinned aarch64 wheels, installed by this machine's pip into site/."""
    pins = HERE / "constraints.txt"
    text = constraints((ROOT / "requirements.txt").read_text(encoding="utf-8"))
    done = site / ".installed"
    # The marker holds what was installed: new pins or a new wheel install afresh.
    stamp = " ".join(WHEELS) + "\n" + text
    if done.exists() and done.read_text() == stamp:
        return
    if site.exists():
        shutil.rmtree(site)
    pins.write_text(text)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]
    cmd += ["--target", str(site), "--only-binary=:all:", "--python-version", "3.11"]
    cmd += ["--implementation", "cp", "--abi", "cp311", "-c", str(pins)]
    for platform in PLATFORMS:
        cmd += ["--platform", platform]
    _sh(*cmd, *WHEELS)
    done.write_text(stamp)


def kernelspecs(root: Path, site: Path) -> None:
    for name in KERNELS:
        folder = HERE / "jupyter" / "kernels" / f"arm64-{name}"
        folder.mkdir(parents=True, exist_ok=True)
        home = HERE / "home" / name
        home.mkdir(parents=True, exist_ok=True)
        spec = kernelspec(name, root, site, ROOT, home)
        (folder / "kernel.json").write_text(json.dumps(spec, indent=1) + "\n")


def setup() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    host_tools()
    arm_root(HERE / "root")
    arm_wheels(HERE / "site")
    kernelspecs(HERE / "root", HERE / "site")


# ------------------------------------------------------------------------- run


# Settings for this machine's own numpy that must not reach the arm kernel: an x86
# kernel name there makes OpenBLAS fall back to ARMV8 instead of detecting the CPU.
HOST_ONLY = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES")


def host_env() -> dict[str, str]:
    """This environment without the settings that name an x86 kernel or SIMD level;
    the kernelspec sets the arm kernel's own."""
    return {k: v for k, v in os.environ.items() if k not in HOST_ONLY}


def _kernel_env(name: str) -> tuple[list[str], dict[str, str]]:
    spec = json.loads(
        (HERE / "jupyter/kernels" / f"arm64-{name}/kernel.json").read_text()
    )
    return spec["argv"][:4], {**host_env(), **spec["env"]}


def probe(name: str) -> dict | None:
    """blas_env's probe, run in the arm kernel's interpreter and environment."""
    from workshop.run import blas_env

    argv, env = _kernel_env(name)
    code = blas_env._PROBE + _ARM_FEATURES
    out = subprocess.run(
        [*argv, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        return None
    lines = out.stdout.strip().splitlines()
    return {**json.loads(lines[-2]), "features": json.loads(lines[-1])}


# numpy's finer ARM dispatch levels, which blas_env's groups (ASIMD, SVE) leave out.
_ARM_FEATURES = """
print(json.dumps([k for k in ("ASIMD", "ASIMDHP", "ASIMDDP", "ASIMDFHM", "SVE", "SVE2")
                  if f.get(k)]))
"""


def info(name: str) -> dict:
    from workshop.run import blas_env

    got = probe(name)
    if got is None:
        raise SystemExit(f"arm: numpy does not start in the {name} kernel")
    cpu = KERNELS[name][0]
    print(
        f"arm64 {name} (QEMU_CPU={cpu}): {blas_env.describe(got)}; "
        f"numpy sees {'+'.join(got['features']) or 'none'}",
        flush=True,
    )
    want = KERNELS[name][2]
    if got["kernel"].lower() != want:
        raise SystemExit(
            f"arm: the {name} kernel runs OpenBLAS {got['kernel']}, not {want}: "
            "this run would not test what it names"
        )
    return got


def run(name: str, args: list[str]) -> int:
    info(name)
    runs = HERE / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    junit = runs / f"{name}.xml"
    env = {**host_env(), "JUPYTER_PATH": str(HERE / "jupyter")}
    no_pixels(HERE / "home" / name / "ipython")  # the kernel's IPython folder
    for path, why in sorted(SLOW.items()):
        say(f"left out: {path}: {why}")
    cmd = [sys.executable, "-m", "pytest", *args, f"--nbval-kernel-name=arm64-{name}"]
    # An emulated kernel takes a while to start: more than nbval's default minute when
    # both cores are busy. The cells' timeout and every comparison stay as they are.
    cmd += ["--nbval-kernel-startup-timeout=600"]
    cmd += [f"--junitxml={junit}", "-o", "junit_family=xunit1", *ignores()]
    if not any(a.startswith("notebooks") for a in args):
        cmd.append("notebooks")
    say("$ " + " ".join(cmd))
    start = time.monotonic()
    rc = subprocess.run(cmd, env=env, cwd=ROOT).returncode
    wall = time.monotonic() - start
    if junit.exists():
        print(table(per_notebook(junit.read_text(encoding="utf-8"))))
    print(
        f"arm64 {name}: {'passed' if rc == 0 else 'FAILED'} in {wall:.0f} s", flush=True
    )
    return rc


def main(argv: list[str]) -> int:
    what = argv[0] if argv else ""
    if what == "setup":
        setup()
    elif what == "info" and len(argv) == 2 and argv[1] in KERNELS:
        info(argv[1])
    elif what == "run" and len(argv) >= 2 and argv[1] in KERNELS:
        rest = argv[2:]
        return run(argv[1], rest[1:] if rest[:1] == ["--"] else rest)
    elif what == "slow":
        for path, why in sorted(SLOW.items()):
            print(f"{path}: {why}")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
