"""Every way to read the book, run as a reader would: `make paths` (and three
quick cases in make test).

    python -m workshop.run.paths                      # every notebook through every path, then a table
    python -m workshop.run.paths --path download-colab --only 08-attention 19-sampling
    python -m workshop.run.paths --list               # the paths

The paths (each notebook runs top to bottom in a new, empty
folder unless said otherwise):

- alone: the stored notebook, copied alone, on the book's pinned environment (.venv).
- binder: the stored notebook in a copy of the repository's tracked
  files (no node_modules),
                   on a fresh Python 3.11 environment made as Binder makes it
                   (`pip install -r requirements.txt`, nothing from npm).
- download: the copy the site's download button serves (_build/test/.../_sources; every
                   page but those that run only in a checkout, downloads.CHECKOUT_ONLY), on an
                   environment with only numpy, matplotlib, ipywidgets and ipykernel at the pinned
                   versions, with the network off (a new network namespace) and PIP_NO_INDEX=1.
- download-colab: the same copy on Colab's stack: numpy 2.1.3,
  matplotlib 3.10, IPython 7.34,
                   ipywidgets 7.7.1, ipykernel 6.17 (Python 3.11), network off.
- download-colab312: the same on Python 3.12 (Colab's newer runtime).
- download-np20:   the same on numpy 2.0.2 (Colab's older runtime).

Environments are made once under _build/venvs/ (from the pip cache) and reused while
their pins are unchanged. The JupyterLab path is tests/test_paths.py (a
browser moves a live slider).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from workshop.config import BUILD, ROOT, notebooks, test_site, with_blas_threads

VENVS = BUILD / "venvs"
SITE = test_site()


def pinned(*names: str) -> list[str]:
    want = {n.lower() for n in names}
    pins = [
        ln.strip()
        for ln in (ROOT / "requirements.txt").read_text().splitlines()
        if ln.split("==")[0].strip().lower() in want
    ]
    assert len(pins) == len(want), (pins, names)
    return pins


READER = ("numpy", "matplotlib", "ipywidgets", "ipykernel")
COLAB = [
    "numpy==2.1.3",
    "matplotlib==3.10.0",
    "ipython==7.34.0",
    "ipywidgets==7.7.1",
    "ipykernel==6.17.1",
]
NP20 = [
    "numpy==2.0.2",
    "matplotlib==3.10.0",
    "ipython==7.34.0",
    "ipywidgets==7.7.1",
    "ipykernel==6.17.1",
]


def python_exe(version: str) -> str:
    """A Python of `version`: pyenv's own binary (its shim fails
    without a pyenv version set)."""
    for cand in sorted(
        Path.home().glob(f".pyenv/versions/{version}*/bin/python{version}")
    ):
        return str(cand)
    found = shutil.which(f"python{version}")
    if not found:
        raise SystemExit(f"no python{version} here")
    return found


def python311() -> str:
    for exe in ("python3.11",):
        p = shutil.which(exe)
        if p:
            return p
    return sys.executable


def venv(name: str, requirements: list[str], python: str | None = None) -> Path:
    """A virtual environment under _build/venvs/NAME with exactly
    `requirements` (cached)."""
    where = VENVS / name
    stamp = where / ".book-pins"
    want = "\n".join(requirements)
    if stamp.exists() and stamp.read_text() == want:
        return where / "bin" / "python"
    shutil.rmtree(where, ignore_errors=True)
    subprocess.run([python or python311(), "-m", "venv", str(where)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_NO_INDEX")}
    _pip(where, requirements, env=env, cwd=where)
    stamp.write_text(want)
    return where / "bin" / "python"


def _pip(where: Path, args: list[str], **kw) -> None:
    r = subprocess.run(
        [
            str(where / "bin" / "pip"),
            "install",
            "-q",
            "--disable-pip-version-check",
            *args,
        ],
        capture_output=True,
        text=True,
        **kw,
    )
    if r.returncode:
        raise SystemExit(f"pip install {' '.join(args)} failed:\n{r.stdout}{r.stderr}")


def binder_venv() -> Path:
    """Binder: runtime.txt's Python, then `pip install -r
    requirements.txt` in the repository."""
    runtime = (ROOT / "runtime.txt").read_text().strip()  # e.g. python-3.11
    exe = shutil.which("python" + runtime.split("-", 1)[1]) or sys.executable
    reqs = (ROOT / "requirements.txt").read_text()
    where = VENVS / "binder"
    stamp = where / ".book-pins"
    if not (stamp.exists() and stamp.read_text() == runtime + reqs):
        shutil.rmtree(where, ignore_errors=True)
        subprocess.run([exe, "-m", "venv", str(where)], check=True)
        _pip(where, ["-r", "requirements.txt"], cwd=checkout())
        stamp.write_text(runtime + reqs)
    return where / "bin" / "python"


def checkout() -> Path:
    """The repository's tracked files (as Binder clones them: no
    node_modules, no .venv)."""
    where = ROOT / "_build" / "checkout"
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    for rel in filter(None, files.decode().split("\0")):
        src = ROOT / rel
        if src.is_file():
            (where / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, where / rel)
    return where


def kernel_dir(python: Path, base: Path) -> Path:
    """A kernelspec named 'python3' that starts `python`'s ipykernel
    (put first on JUPYTER_PATH)."""
    spec = base / "kernels" / "python3"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [
                    str(python),
                    "-m",
                    "ipykernel_launcher",
                    "-f",
                    "{connection_file}",
                ],
                "display_name": "Python 3",
                "language": "python",
            }
        )
    )
    return base


def reader_env(jupyter_path: Path) -> dict:
    """What a reader's kernel sees: no book build settings, no
    way to install a package."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("BOOK_", "VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_"))
    }
    env.update(
        JUPYTER_PATH=str(jupyter_path),
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS="",
        HTTP_PROXY="http://127.0.0.1:9",
        HTTPS_PROXY="http://127.0.0.1:9",
        http_proxy="http://127.0.0.1:9",
        https_proxy="http://127.0.0.1:9",
        MPLBACKEND="Agg",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
    )
    return with_blas_threads(env)  # two notebooks run at once on two cores


def offline(cmd: list[str]) -> list[str]:
    """Run `cmd` in a new network namespace with only loopback,
    where that is allowed (root)."""
    if os.geteuid() == 0 and shutil.which("unshare") and shutil.which("ip"):
        probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
        if probe.returncode == 0:
            script = 'ip link set lo up && exec "$@"'
            return ["unshare", "-n", "sh", "-c", script, "sh", *cmd]
    return cmd


def run_one(
    nb: Path,
    python: Path,
    folder: Path | None = None,
    timeout: int = 600,
    network: bool = False,
) -> tuple[bool, float, str, float]:
    """Run notebook `nb` top to bottom with `python`'s kernel; (ok, seconds, last error
    line, the kernel's peak memory in MB). Over MEMORY_MB is a failure."""
    with tempfile.TemporaryDirectory(prefix="book-path-") as tmp:
        tmp = Path(tmp)
        if folder is None:
            work = tmp / "reader"
            work.mkdir()
            shutil.copy2(nb, work / nb.name)
            target = work / nb.name
        else:
            target, work = nb, nb.parent
        jp = kernel_dir(python, tmp / "jupyter")
        cmd = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--exec",
            str(target),
            str(timeout),
        ]
        t0 = time.perf_counter()
        r = subprocess.run(
            cmd if network else offline(cmd),
            cwd=work,
            env=reader_env(jp),
            capture_output=True,
            text=True,
        )
        took = time.perf_counter() - t0
    err = (r.stdout + r.stderr).strip().splitlines()
    peak = next(
        (float(line.split()[2]) for line in err if line.startswith("kernel peak ")), 0.0
    )
    if r.returncode == 0 and peak > MEMORY_MB:
        return False, took, f"the kernel used {peak:.0f} MB, over {MEMORY_MB} MB", peak
    return r.returncode == 0, took, (err[-1] if err and r.returncode else ""), peak


class _CellClock:
    """Seconds from each code cell's request to the client's receipt of its reply, by
    cell index (nbclient's own timing metadata holds the kernel's send times)."""

    def __init__(self):
        self.started, self.took = {}, {}

    def start(self, cell, cell_index, **_):
        self.started[cell_index] = time.monotonic()

    def stop(self, cell, cell_index, **_):
        self.took[cell_index] = time.monotonic() - self.started[cell_index]

    def waited_out(self, nb, timeout: int):
        """The first code cell (1-based) whose reply came after 90 % of the timeout.

        A reply that waits out the timeout arrives at its end and raises nothing
        (jupyter/nbclient#312: the client sends on the shell channel while it waits
        on it, and misses the reply until its poll times out); without this check
        such a run would pass."""
        code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
        late = [code.index(i) + 1 for i, t in self.took.items() if t >= 0.9 * timeout]
        return min(late) if late else None


def _kernel_peak_mb() -> float:
    """The largest resident memory of any child that has exited: the kernel, which
    nbclient started from this process and has shut down."""
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux


#: Binder's memory limit (mybinder.org: 1 GB guaranteed, 2 GB at most); no page may need
#: more, or a Binder reader's kernel is killed.
MEMORY_MB = 2048


def _exec(path: str, timeout: str) -> int:
    """In the reader's folder: execute the notebook with the 'python3'
    kernel, write nothing back."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    clock = _CellClock()
    from workshop.run.kernels import AsyncUnixSocketKernelManager

    client = NotebookClient(
        nb,
        timeout=int(timeout),
        kernel_name="python3",
        kernel_manager_class=AsyncUnixSocketKernelManager,
        resources={"metadata": {"path": str(Path(path).parent)}},
        on_cell_execute=clock.start,
        on_cell_executed=clock.stop,
    )
    try:
        client.execute()
        print(f"kernel peak {_kernel_peak_mb():.0f} MB")
        slow = clock.waited_out(nb, int(timeout))
        if slow:
            print(
                f"code cell {slow}: waited out the {timeout} s timeout", file=sys.stderr
            )
            return 1
    except CellExecutionError as e:
        import re

        code = [c for c in nb.cells if c.cell_type == "code"]
        failed = next(
            (
                i
                for i, c in enumerate(code, 1)
                if any(o.get("output_type") == "error" for o in c.get("outputs", []))
            ),
            "?",
        )
        msg = re.sub(r"\x1b\[[0-9;]*m", "", f"{e.ename}: {e.evalue}").replace("\n", " ")
        print(f"code cell {failed}: {msg}", file=sys.stderr)
        return 1
    return 0


def offered(nb: Path) -> bool:
    """Whether the site offers a download copy of stored notebook `nb` (not for a page
    that reads files only a checkout has: workshop/site/downloads.py CHECKOUT_ONLY)."""
    from workshop.site.downloads import CHECKOUT_ONLY

    return nb.relative_to(ROOT).with_suffix("").as_posix() not in CHECKOUT_ONLY


def downloads(stems=None) -> list[Path]:
    """The site's download copies, one per notebook it offers one for."""
    out = [
        SITE / "_sources" / nb.relative_to(ROOT) for nb in notebooks() if offered(nb)
    ]
    return [p for p in out if not stems or p.stem in stems]


PATHS = {
    "alone": "stored notebook alone in an empty folder, pinned .venv",
    "binder": "stored notebook in a checkout without node_modules, "
    "fresh Binder-like 3.11 env",
    "download": "site download copy, only "
    "numpy/matplotlib/ipywidgets/ipykernel (pinned), offline",
    "download-colab": "site download copy, Colab stack (numpy 2.1.3, mpl 3.10, IPython "
    "7.34, ipywidgets 7.7.1)",
    "download-colab312": "the same Colab stack on Python 3.12",
    "download-np20": "site download copy, Colab's older numpy 2.0.2",
}


def cases(path: str, stems=None):
    """(notebook, python, folder) for every notebook of `path`."""
    pick = lambda ps: [p for p in ps if not stems or p.stem in stems]
    if path == "alone":
        return [
            (nb, ROOT / ".venv" / "bin" / "python", None) for nb in pick(notebooks())
        ]
    if path == "binder":
        py, co = binder_venv(), checkout()
        return [(co / nb.relative_to(ROOT), py, co) for nb in pick(notebooks())]
    if path == "download":
        py = venv("reader", pinned(*READER))
    elif path == "download-colab":
        py = venv("colab", COLAB)
    elif path == "download-colab312":
        py = venv("colab312", COLAB, python=python_exe("3.12"))
    elif path == "download-np20":
        py = venv("colab-np20", NP20)
    else:
        raise SystemExit(f"unknown path {path!r}; one of {', '.join(PATHS)}")
    return [(nb, py, None) for nb in downloads(stems)]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--exec"]:
        return _exec(argv[1], argv[2])
    ap = argparse.ArgumentParser()
    ap.add_argument("--path", action="append", choices=list(PATHS))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args(argv)
    if a.list:
        for k, v in PATHS.items():
            print(f"{k:16s} {v}")
        return 0
    if not (SITE / "_sources").is_dir():
        print(
            f"no built site at {SITE}: run make test (or the test build) first",
            file=sys.stderr,
        )
        return 2
    from concurrent.futures import ThreadPoolExecutor

    rows, failed = [], 0
    for path in a.path or list(PATHS):
        todo = cases(path, a.only)
        t0 = time.perf_counter()
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda c: run_one(c[0], c[1], c[2]), todo))
        wall = time.perf_counter() - t0
        bad = [(c[0].stem, r[2]) for c, r in zip(todo, results) if not r[0]]
        failed += len(bad)
        peak, heaviest = max((r[3], c[0].stem) for c, r in zip(todo, results))
        slowest = max((r[1], c[0].stem) for c, r in zip(todo, results))
        rows.append((path, len(todo) - len(bad), len(todo), wall, bad, peak, heaviest))
        print(
            f"{path:16s} {len(todo) - len(bad):2d}/{len(todo)} ran  {wall:6.0f} s; "
            f"slowest {slowest[1]} {slowest[0]:.0f} s; "
            f"largest kernel {heaviest} {peak:.0f} MB",
            flush=True,
        )
        for stem, err in bad:
            print(f"    {stem}: {err[:200]}", flush=True)
    print(
        "\n| path | notebooks that run | wall time (2 at a time) | largest kernel |\n"
        "| --- | --- | --- | --- |"
    )
    for path, ok, n, wall, _, peak, heaviest in rows:
        print(f"| {path} | {ok}/{n} | {wall:.0f} s | {peak:.0f} MB ({heaviest}) |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
