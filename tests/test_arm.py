"""workshop/run/arm.py's pure parts: the pins it passes to pip, the kernelspec, the table of a
run. Nothing here starts QEMU (make arm does)."""

from workshop.config import blas_vars
from workshop.run import arm


def test_constraints_keep_only_pinned_names():
    text = "# comment\nnumpy==2.4.6\n\nmatplotlib==3.11.2  # why\n-e .\n--index-url x\n"
    assert arm.constraints(text) == "numpy==2.4.6\nmatplotlib==3.11.2\n"


def test_the_pins_cover_every_wheel_the_kernel_needs():
    pins = arm.constraints((arm.ROOT / "requirements.txt").read_text(encoding="utf-8"))
    names = {line.split("==")[0].lower() for line in pins.splitlines()}
    assert {w.lower() for w in arm.WHEELS} <= names


def test_the_kernelspec_starts_the_emulator_and_forces_only_what_it_names(tmp_path):
    root, site, home = tmp_path / "root", tmp_path / "site", tmp_path / "home"
    n1 = arm.kernelspec("n1", root, site, arm.ROOT, home)
    assert n1["argv"][:3] == ["qemu-aarch64-static", "-L", str(root)]
    assert n1["argv"][3] == str(root) + "/usr/bin/python3.11"
    assert "{connection_file}" in n1["argv"]
    assert n1["env"]["QEMU_CPU"] == "neoverse-n1"
    assert "OPENBLAS_CORETYPE" not in n1["env"]  # OpenBLAS detects N1 itself
    assert n1["env"]["PYTHONPATH"].split(":") == [str(site), str(arm.ROOT)]
    v1 = arm.kernelspec("v1", root, site, arm.ROOT, home)
    assert v1["env"]["OPENBLAS_CORETYPE"] == "NEOVERSEV1"
    assert "sve" in v1["env"]["QEMU_CPU"]


def test_x86_settings_do_not_reach_the_arm_kernel(monkeypatch):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    monkeypatch.setenv("NPY_DISABLE_CPU_FEATURES", "X86_V3")
    threads = blas_vars()[0]
    monkeypatch.setenv(threads, "1")
    env = arm.host_env()
    assert "OPENBLAS_CORETYPE" not in env and "NPY_DISABLE_CPU_FEATURES" not in env
    assert env[threads] == "1"


def test_every_page_left_out_exists_and_says_why():
    for path, why in arm.SLOW.items():
        assert (arm.ROOT / path).exists(), path
        assert len(why) > 20
    assert arm.ignores({"b.ipynb": "x", "a.ipynb": "y"}) == [
        "--ignore=a.ipynb",
        "--ignore=b.ipynb",
    ]


JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="notebooks.part1.02-learning-rate.ipynb" name="Cell 0"
 file="notebooks/part1/02-learning-rate.ipynb" time="20.5" />
<testcase classname="notebooks.part1.02-learning-rate.ipynb" name="Cell 5"
 file="notebooks/part1/02-learning-rate.ipynb" time="1.5"><failure message="x">diff</failure></testcase>
<testcase classname="notebooks.part1.01-strides.ipynb" name="Cell 0"
 file="notebooks/part1/01-strides.ipynb" time="3.0" />
</testsuite></testsuites>"""


def test_a_run_is_tabled_per_notebook_with_its_failing_cells():
    rows = arm.per_notebook(JUNIT)
    assert rows == [
        ("notebooks/part1/02-learning-rate", 2, ["Cell 5"], 22.0),
        ("notebooks/part1/01-strides", 1, [], 3.0),
    ]
    lines = arm.table(rows).splitlines()
    assert lines[2] == "| notebooks/part1/01-strides | pass | 1 | 3 |"
    assert lines[3] == "| notebooks/part1/02-learning-rate | FAIL: Cell 5 | 2 | 22 |"
