"""Ways to read the book besides the site: JupyterLab, Binder's
environment, a downloaded notebook.

Fast smokes for make test; `make paths` (workshop/run/paths.py) runs every
notebook through every path.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

from workshop.config import ROOT, chromium
from workshop.run import paths  # noqa: E402

CHROMIUM = chromium()
# a light page with a slider: JupyterLab runs all of it before the knob moves
LAB_NOTEBOOK = ROOT / "notebooks" / "part3" / "48-08-ffn-residual-norm.ipynb"
DOWNLOADS = ["01-strides", "19-sampling", "48-05-masking"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on the pinned environment, headless, on 127.0.0.1,
    serving a copy of one notebook."""
    exe = ROOT / ".venv" / "bin" / "jupyter-lab"
    if not exe.exists():
        pytest.fail(
            "jupyterlab is not installed: make install (it is "
            "pinned in requirements.txt)"
        )
    work = tmp_path_factory.mktemp("lab")
    shutil.copy2(
        LAB_NOTEBOOK, work / LAB_NOTEBOOK.name
    )  # autosave must not touch the stored notebook
    port, token = _free_port(), "book-test"
    env = dict(
        os.environ,
        BOOK_WIDGETS="live",
        JUPYTER_CONFIG_DIR=str(work / ".cfg"),
        JUPYTER_RUNTIME_DIR=str(work / ".run"),
    )
    proc = subprocess.Popen(
        [
            str(exe),
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={work}",
            "--allow-root",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.extension_manager=readonly",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        env=env,
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=open(work / "lab.log", "wb"),
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(
                    "jupyter lab exited: "
                    + (work / "lab.log").read_text(errors="replace")[-2000:]
                )
            if time.monotonic() > deadline:
                proc.kill()
                pytest.fail("jupyter lab did not answer on 127.0.0.1 within 180 s")
            time.sleep(0.2)
    yield url, token
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def lab_page(lab):
    """The lab notebook open in headless chromium, offline, its kernel ready and every
    cell run; with the text the stored static slider showed before the run. Both
    JupyterLab tests read this one page: JupyterLab's first load and the run are most
    of their time."""
    if CHROMIUM is None:
        pytest.fail(
            "chromium is not installed (make chromium installs Debian's package)"
        )
    from playwright.sync_api import sync_playwright

    url, token = lab
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = b.new_page()
        page.route(
            re.compile(r"^https?://(?!127\.0\.0\.1)"), lambda r: r.abort()
        )  # offline
        page.goto(f"{url}/lab/tree/{LAB_NOTEBOOK.name}?token={token}")
        page.wait_for_function(
            "window.jupyterapp && document.querySelector('.jp-Notebook')",
            timeout=60_000,
        )
        note = page.locator(".book-slider-note").first
        note.wait_for(state="attached", timeout=30_000)
        note.scroll_into_view_if_needed()
        # text_content: JupyterLab renders off-screen cells lazily (content-visibility), so
        # inner_text can be empty for a moment while the text is there
        before_run = note.text_content() or ""
        page.wait_for_selector(
            ".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=60_000
        )
        # the stored notebook carries execution counts, so wait for the kernel itself:
        # its session ready, then run all and await it (10-20 s on quiet cores)
        page.evaluate(
            """async () => {
                const app = window.jupyterapp, panel = app.shell.currentWidget;
                await panel.sessionContext.ready;
                await app.commands.execute('notebook:run-all-cells');
            }"""
        )
        yield page, before_run
        b.close()


def test_jupyterlab_runs_a_slider_live(lab_page):
    """Open a slider page, run all, move the ipywidgets slider: the kernel sends the
    new state and book/chart.js redraws it."""
    page, before_run = lab_page
    # before it runs, the stored static slider says why its picture does not follow
    assert "once this cell runs" in before_run, before_run
    handle = page.locator(
        ".widget-slider .noUi-handle, .widget-slider .ui-slider-handle"
    ).first
    # a loaded machine needs more than the quiet 10-20 s
    handle.wait_for(timeout=180_000)
    # book/chart.js drawn by anywidget (requirements.txt), or, without anywidget,
    # the kernel's image in an HTML widget: either must redraw when the knob moves
    picture = ".book-chart svg, .widget-html img.book-figure"
    page.locator(picture).first.wait_for(timeout=60_000)
    drawn = f"""() => {{ const e = document.querySelector({picture!r});
        return e && (e.closest('.book-chart') || e).outerHTML; }}"""
    before = page.evaluate(drawn)
    handle.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"(old) => {{ const now = ({drawn})(); return now && now !== old; }}",
        arg=before,
        timeout=30_000,
    )
    assert page.locator(".book-chart svg").count(), "anywidget drew no chart"


def test_binder_names_its_python():
    """repo2docker reads runtime.txt; without it Binder builds on 3.10, which
    the pins do not support."""
    runtime = (ROOT / "runtime.txt").read_text().strip()
    assert runtime == "python-3.11"
    assert not (
        ROOT / "environment.yml"
    ).exists()  # it would take precedence over requirements.txt
    assert re.search(r"^jupyterlab==", (ROOT / "requirements.txt").read_text(), re.M)


@pytest.mark.skipif(
    not (paths.SITE / "_sources").is_dir(),
    reason="no built test site (make test builds it)",
)
def test_downloaded_notebooks_run_alone():
    """Three of the site's download copies, each in an empty folder, with only numpy,
    matplotlib, ipywidgets and ipykernel, the network off and pip unable to
    install: they run top to bottom."""
    from concurrent.futures import ThreadPoolExecutor

    py = paths.venv("reader", paths.pinned(*paths.READER))
    r = subprocess.run(
        [str(py), "-c", "import importlib.util as u; print(u.find_spec('book'))"],
        capture_output=True,
        text=True,
        cwd="/",
    )
    assert r.stdout.strip() == "None", "the reader's environment must not have book"
    nbs = paths.downloads(DOWNLOADS)
    assert len(nbs) == len(DOWNLOADS)
    with ThreadPoolExecutor(max_workers=2) as pool:
        # 120 s, not make paths' 600: each runs in 5-25 s. A cell whose reply waits out
        # the timeout fails the run (workshop/run/paths.py: jupyter/nbclient#312, which the live
        # slider no longer triggers; it stalled three runs before it was found).
        results = list(pool.map(lambda nb: paths.run_one(nb, py, timeout=120), nbs))
    bad = [f"{nb.stem}: {err}" for nb, (ok, _, err, _) in zip(nbs, results) if not ok]
    assert not bad, "\n".join(bad)


def _stored_key(nb, ex_id: str) -> str:
    """The key of exercise `ex_id` as the stored notebook's answer box holds it."""
    found = re.search(
        rf'data-id=\\"{re.escape(ex_id)}\\" data-kind=\\"\w+\\" data-key=\\"([^\\]+)\\"',
        nb.read_text(),
    )
    assert found, f"no stored answer box for exercise {ex_id} in {nb.name}"
    return found.group(1)


def test_jupyterlab_checks_an_exercise(lab_page):
    """In the same JupyterLab, after run-all: a new cell calls book.answer with the stored
    key, then with a wrong value, and the kernel says right, then wrong and by how much."""
    page, _ = lab_page
    key = float(_stored_key(LAB_NOTEBOOK, "48.08.2"))
    code = (
        f'import book\nbook.answer("48.08.2", {key})\nbook.answer("48.08.2", {key + 1})'
    )
    page.evaluate(
        """(code) => {
            const app = window.jupyterapp, nb = app.shell.currentWidget.content;
            nb.activeCellIndex = nb.widgets.length - 1;
            app.commands.execute('notebook:insert-cell-below').then(() => {
                window.bookCell = nb.activeCell.model;
                window.bookCell.sharedModel.setSource(code);
                app.commands.execute('notebook:run-cell');
            });
        }""",
        code,
    )
    # read the new cell's outputs from the notebook model, not the DOM: JupyterLab
    # draws only the cells near the viewport, so a DOM lookup can miss the cell
    text = page.wait_for_function(
        """() => {
            if (!window.bookCell) return false;
            const outs = window.bookCell.outputs.toJSON();
            const text = outs.map(o => [].concat(o.text || '').join('')).join('');
            return text.includes('wrong:') && text;
        }""",
        polling=500,
        timeout=120_000,
    ).json_value()
    assert f"right: {key:g} is within" in text, text
    assert f"wrong: {key + 1:g} is 1 above the key" in text, text
