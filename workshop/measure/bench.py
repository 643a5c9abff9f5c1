"""make bench: how long the book takes to build and test, and how heavy its pages are.

Prints one table. Targets on the 2-core reference machine: cold build <= 180 s,
no-change rebuild <= 5 s, every notebook <= 10 s and the median <= 3 s, make test <= 300
s, no slider over 700 KB of frames, pages within issue 28's budgets (median <= 0.5 MB
transferred, none over 1 MB; tests/test_survey.py holds them, and 150 KB for a page with
no figure).

    python -m workshop.measure.bench [--skip-test]
    python -m workshop.measure.bench --floors   # only the heavy pages' floor table

A heavy page's floor is the time its matrix products would take at the speed one of
them reaches alone: the page's floating-point operations, counted by code while the
page runs, over the GFLOP/s of one representative product. Both the floor and the
page are CPU time of one process with one BLAS thread (workshop.config.blas_threads, the process
held to one core, so map_threads runs the seeds in turn): on a shared machine wall
time depends on the neighbours, CPU time much less.

The representative product is timed twice. Repeated on the same operands, it runs
from the core's own cache: the arithmetic alone, a floor no page reaches. A page
meets its products otherwise: part 12's 96-block stack holds 151 MB of weights, and
each product reads a weight that no recent product used. So the product is also timed
with its weight taken in turn from a pool of that size (its input, which the page
has just computed, stays in cache), and that rate gives the floor the target is set
against. Both floors and both ratios are printed. On the 2-core machine of 2026-12-03
the products inside part 12 ran at 49 GFLOP/s on average, the product from cache at
73 and with its weight from the pool at 61: the page ran at 1.95 times the second floor.
On a later 2-core AMD EPYC (OpenBLAS's Haswell kernel) all three ran at 29-36 GFLOP/s
and the page at 1.43 and 1.55 times it (two quiet runs): the ratio depends on how fast
a machine's products are beside its memory, so read it on the machine at hand.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from book.log import LOG as BOOK_LOG
from workshop.config import BUILD, ROOT, blas_threads, chromium

BIN = ROOT / ".venv" / "bin"
OUT = BUILD / "bench"
LOG = OUT / "sliders.jsonl"


def run(cmd: list[str], **env) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        cmd,
        cwd=ROOT,
        check=True,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


def build() -> float:
    """What make book does: fill the execution cache on both
    cores, then build the HTML."""
    env = dict(BOOK_WIDGETS="static", **{BOOK_LOG: str(LOG)})
    return run(
        [
            str(BIN / "python"),
            "-m",
            "workshop.run.preexecute",
            str(OUT / "_build" / ".jupyter_cache"),
        ],
        **env,
    ) + run([str(BIN / "jupyter-book"), "build", ".", "--path-output", str(OUT)], **env)


def notebook_times() -> dict[str, float]:
    """Each notebook run alone, as a reader runs it: a fresh kernel, top to bottom, wall
    time, with a reader's settings. No thread count is set (the book holds BLAS to one
    thread, and part 12 runs two seeds at a time), and sliders are live, so a slider
    draws the frame it shows, not every frame the site stores (builds and nbval run
    two kernels at once, one thread each, with static sliders)."""
    import nbformat

    from workshop.config import blas_vars, notebooks
    from workshop.run.execute import run

    for name in blas_vars():
        os.environ.pop(name, None)
    os.environ.pop("BOOK_WIDGETS", None)  # live sliders, as in a reader's kernel
    times = {}
    for path in notebooks():
        nb = nbformat.read(path, as_version=4)
        t0 = time.perf_counter()
        run(nb, path, timeout=300)
        times[path.relative_to(ROOT).as_posix()] = time.perf_counter() - t0
    return times


# Heavy pages: the notebook, the product that stands for its matrix products (the
# shapes of its commonest one: rows x inner @ inner x out), and the bytes of weights
# its products read in turn (part 12: 96 blocks, each with four weight matrices of
# 196,608 float64 in all, 1.57 MB).
HEAVY = {"notebooks/part1/12-wiring.ipynb": ((128, 128, 512), 96 * 8 * 196_608)}


def product_rate(
    m: int, k: int, n: int, seconds: float = 1.0, pool_bytes: int = 0
) -> float:
    """GFLOP/s of one float64 product (m, k) @ (k, n) as `linear` does it (W stored
    (out, in), used transposed): CPU time, this thread. With pool_bytes 0 it repeats
    on the same operands, from cache; otherwise each product takes the next weight of a
    pool of that many bytes, as a stack's products do."""
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.standard_normal((m, k))
    Ws = [rng.random((n, k)) for _ in range(max(1, pool_bytes // (8 * n * k)))]
    for W in Ws:  # every weight touched once, so none is a fresh page when timed
        x @ W.T
    reps, t0 = 0, time.process_time()
    while (spent := time.process_time() - t0) < seconds:
        x @ Ws[reps % len(Ws)].T
        reps += 1
    return 2 * m * k * n * reps / spent / 1e9


def page_flops_and_cpu(path: Path) -> tuple[int, float, float]:
    """Run a page's code cells in this process, in order (static sliders, no images
    written), counting the floating-point operations of every product book.autograd
    makes: (flops, CPU seconds of the whole page, seconds inside the products, by perf_counter)."""
    import contextlib
    import io

    import matplotlib
    import nbformat
    import numpy as np

    matplotlib.use("Agg")
    import book.autograd as ag

    flops, inside = [0], [0.0]

    def counted(a, b):
        # perf_counter, not process_time: a CPU clock is a system call (1.5 us here,
        # twice for each of part 12's 68,000 products, 0.2 s charged to the page);
        # perf_counter is read without one (0.15 us), and the process is held to one
        # core, so the time inside a product is its CPU time but for preemption
        t0 = time.perf_counter()
        out = np.matmul(a, b)
        inside[0] += time.perf_counter() - t0
        flops[0] += 2 * out.size * a.shape[-1]
        return out

    ag._matmul = counted
    nb = nbformat.read(path, as_version=4)
    names: dict = {"__name__": "__bench__"}
    t0 = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in nb.cells:
            if cell.cell_type == "code" and "book-bootstrap" not in cell.metadata.get(
                "tags", []
            ):
                exec(compile(cell.source, str(path), "exec"), names)  # noqa: S102
    return flops[0], time.process_time() - t0, inside[0]


def floor_child(path: str) -> None:
    """The child process of floors(): one page, one thread; prints one JSON line.
    Figures are laid out but not rasterised, as under nbval (book.style.DRAW_PIXELS)."""
    import book.style

    book.style.DRAW_PIXELS = False
    with contextlib.suppress(AttributeError):  # macOS: no affinity call
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    shape, pool = HEAVY[path]
    before = product_rate(*shape), product_rate(*shape, pool_bytes=pool)
    flops, cpu, inside = page_flops_and_cpu(ROOT / path)
    after = product_rate(*shape), product_rate(*shape, pool_bytes=pool)
    rate, memory = max(before[0], after[0]), max(before[1], after[1])
    print(
        json.dumps(
            {
                "flops": flops,
                "cpu": cpu,
                "rate": rate,
                "memory": memory,
                "inside": inside,
            }
        )
    )


def floors() -> list[tuple[str, float, float, float, float, float]]:
    """(page, GFLOP, GFLOP/s of the representative product from cache and with its
    weight from memory, page CPU s, s inside the page's products)."""
    rows = []
    for path in HEAVY:
        env = {**os.environ, **blas_threads(1)}
        env.update(BOOK_WIDGETS="static", MPLBACKEND="Agg")
        env["PYTHONPATH"] = str(ROOT)
        out = subprocess.run(
            [sys.executable, "-m", "workshop.measure.bench", "--floor-child", path],
            cwd=ROOT / Path(path).parent,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.splitlines()[-1]
        r = json.loads(out)
        gflop = r["flops"] / 1e9
        rows.append((path, gflop, r["rate"], r["memory"], r["cpu"], r["inside"]))
    return rows


def floor_rows() -> list[tuple[str, str, str, bool]]:
    rows = []
    for path, gflop, rate, memory, cpu, inside in floors():
        name = f"heavy: {Path(path).stem}"
        cached, floor = gflop / rate, gflop / memory
        rows += [
            (f"{name} products", f"{gflop:.0f} GFLOP", "", True),
            (f"{name} one product, cached", f"{rate:.0f} GFLOP/s", "", True),
            (f"{name} one, weight from memory", f"{memory:.0f} GFLOP/s", "", True),
            (f"{name} floor, cached (CPU)", f"{cached:.1f} s", "", True),
            (f"{name} floor, weights from memory (CPU)", f"{floor:.1f} s", "", True),
            (
                f"{name} inside its products (CPU)",
                f"{inside:.1f} s, {gflop / inside:.0f} GFLOP/s",
                "",
                True,
            ),
            (f"{name} page (CPU)", f"{cpu:.1f} s", "", True),
            (f"{name} page / cached floor", f"{cpu / cached:.2f}", "", True),
            (
                f"{name} page / floor",
                f"{cpu / floor:.2f}",
                "<= 1.5",
                cpu <= 1.5 * floor,
            ),
        ]
    return rows


def print_rows(rows) -> None:
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>32}  {'target':>9}  ok")
    for name, value, target, ok in rows:
        print(f"{name:<{width}}  {value:>32}  {target:>9}  {'yes' if ok else 'NO'}")


def slider_rows() -> list[tuple[str, int, int, float]]:
    if not LOG.exists():
        return []
    stored = {
        p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
        for p in (ROOT / "notebooks").rglob("*.ipynb")
    }
    rows = []
    for line in LOG.read_text(encoding="utf-8").splitlines():
        e = json.loads(line)
        if e["event"] != "slider":
            continue
        where = next(
            (nb for nb, text in stored.items() if json.dumps(e["alt"])[1:-1] in text),
            "?",
        )
        rows.append((where, e["frames"], e["bytes"], e["seconds"]))
    return rows


def page_weights(site: Path) -> dict[str, int]:
    from playwright.sync_api import sync_playwright

    from workshop.site.server import serve

    url, stop = serve(site)
    weights = {}
    pages = sorted(
        p
        for p in site.rglob("*.html")
        if not p.relative_to(site).as_posix().startswith(("_", "genindex", "search"))
        and 'http-equiv="Refresh"' not in p.read_text(encoding="utf-8")[:2000]
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        for p in pages:
            page = browser.new_page()
            sizes = []
            page.on(
                "requestfinished", lambda r: sizes.append(r.sizes()["responseBodySize"])
            )
            page.goto(
                f"{url}/{p.relative_to(site).as_posix()}", wait_until="networkidle"
            )
            weights[p.relative_to(site).as_posix()] = sum(sizes)
            page.close()
        browser.close()
    stop()
    return weights


def main(argv: list[str]) -> int:
    if argv[:1] == ["--floor-child"]:
        floor_child(argv[1])
        return 0
    if argv[:1] == ["--floors"]:
        rows = floor_rows()
        print_rows(rows)
        return 0 if all(r[3] for r in rows) else 1
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    cold = build()
    nochange = build()
    touched_nb = ROOT / "notebooks" / "part1" / "08-attention.ipynb"
    os.utime(touched_nb)
    touched = build()
    test_time = None if "--skip-test" in argv else run(["make", "test"])
    nb = notebook_times()
    sliders = slider_rows()
    weights = page_weights(OUT / "_build" / "html")

    rows = [
        ("cold build (execute + HTML)", f"{cold:.0f} s", "<= 180 s", cold <= 180),
        ("no-change rebuild", f"{nochange:.1f} s", "<= 5 s", nochange <= 5),
        ("rebuild after touching one notebook", f"{touched:.1f} s", "", True),
    ]
    if test_time is not None:
        rows.append(("make test", f"{test_time:.0f} s", "<= 300 s", test_time <= 300))
    if nb:
        med, worst = statistics.median(nb.values()), max(nb.values())
        rows.append(("notebooks executed", str(len(nb)), "", True))
        rows.append(("median notebook", f"{med:.1f} s", "<= 3 s", med <= 3))
        rows.append(("slowest notebook", f"{worst:.1f} s", "<= 10 s", worst <= 10))
        for name, secs in sorted(nb.items(), key=lambda kv: -kv[1])[:5]:
            rows.append((f"  slow: {name}", f"{secs:.1f} s", "", True))
    for where, frames, nbytes, secs in sliders:
        rows.append(
            (
                f"slider in {where}",
                f"{frames} frames, {nbytes / 1e3:.0f} KB, {secs:.1f} s",
                "<= 700 KB",  # the first image and the gzipped data
                nbytes <= 700_000,
            )
        )
    med_w = statistics.median(weights.values())
    rows.append(
        ("median page transferred", f"{med_w / 1e6:.2f} MB", "<= 0.5 MB", med_w <= 5e5)
    )
    for page, w in sorted(weights.items(), key=lambda kv: -kv[1]):
        rows.append((f"page {page}", f"{w / 1e6:.2f} MB", "<= 1 MB", w <= 1e6))
    from workshop.measure import slider_bytes

    rows += slider_bytes.rows(OUT / "_build" / "html")
    from workshop.measure import still_bytes

    rows += still_bytes.rows(OUT / "_build" / "html")
    rows += floor_rows()
    print_rows(rows)
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
