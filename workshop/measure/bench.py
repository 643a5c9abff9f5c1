"""make bench: how long the book takes to build and test, and how heavy its pages are.

Prints one table. Targets on the 2-core reference machine: cold build <= 180 s,
no-change rebuild <= 5 s, every notebook <= 10 s and the median <= 3 s, make test <= 300
s, no slider over 700 KB of frames, pages within the site budgets (median <= 1 MB
transferred, widget pages <= 2 MB, none over 3 MB).

    python -m workshop.measure.bench [--skip-test]
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from book.log import LOG as BOOK_LOG
from workshop.config import BUILD, ROOT

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
        browser = pw.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox"]
        )
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
                "<= 700 KB",
                nbytes <= 700_000,
            )
        )
    med_w = statistics.median(weights.values())
    rows.append(
        ("median page transferred", f"{med_w / 1e6:.2f} MB", "<= 1 MB", med_w <= 1e6)
    )
    for page, w in sorted(weights.items(), key=lambda kv: -kv[1]):
        rows.append((f"page {page}", f"{w / 1e6:.2f} MB", "<= 3 MB", w <= 3e6))

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>32}  {'target':>9}  ok")
    for name, value, target, ok in rows:
        print(f"{name:<{width}}  {value:>32}  {target:>9}  {'yes' if ok else 'NO'}")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
