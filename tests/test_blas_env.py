"""make test's one nbval run is on a configuration that did not store the outputs."""

import json

from workshop.run import blas_env


def _book(tmp_path, kernels):
    (tmp_path / "_toc.yml").write_text(
        "parts:\n  - chapters:\n"
        + "".join(
            f"      - file: notebooks/part1/{i:02d}\n" for i in range(len(kernels))
        )
    )
    for i, kernel in enumerate(kernels):
        nb = tmp_path / "notebooks" / "part1" / f"{i:02d}.ipynb"
        nb.parent.mkdir(parents=True, exist_ok=True)
        made = {"made_with": {"kernel": kernel}} if kernel else {}
        nb.write_text(json.dumps({"metadata": {"book": made}, "cells": []}))
    return tmp_path


def _machine(monkeypatch, kernel):
    monkeypatch.setattr(
        blas_env, "probe", lambda env=None: {"kernel": kernel, "simd": ["X86_V3"]}
    )
    monkeypatch.setattr(blas_env, "other", lambda: "OPENBLAS_CORETYPE=Sandybridge X=1")


def test_a_machine_whose_kernel_stored_nothing_runs_as_it_is(tmp_path, monkeypatch):
    _machine(monkeypatch, "SkylakeX")
    env, why = blas_env.second(_book(tmp_path, ["Haswell", "Haswell"]))
    assert env == ""
    assert "SkylakeX stored none" in why


def test_the_machine_that_stored_the_outputs_runs_another_kernel(tmp_path, monkeypatch):
    _machine(monkeypatch, "Haswell")
    env, why = blas_env.second(_book(tmp_path, ["Haswell", "SkylakeX"]))
    assert env == "OPENBLAS_CORETYPE=Sandybridge X=1"
    assert "stored the outputs" in why


def test_a_notebook_without_a_record_counts_as_unknown(tmp_path):
    assert blas_env.stored_kernels(_book(tmp_path, ["Haswell", None])) == {
        "haswell",
        "not recorded",
    }
