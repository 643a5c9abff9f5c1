"""book.parallel.map_threads: results in order, the same as a loop, bad input named."""

from __future__ import annotations

import numpy as np
import pytest

from book.parallel import map_threads


def _product(seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((64, 64))
    return a @ a.T


def test_results_come_back_in_order_and_equal_a_loop():
    seeds = [5, 1, 4, 0, 2]
    got = map_threads(_product, seeds)
    for g, seed in zip(got, seeds):
        assert np.array_equal(g, _product(seed))


@pytest.mark.parametrize("workers", [1, 2, 7])
def test_any_worker_count_gives_the_same_list(workers):
    assert map_threads(lambda x: x * x, range(6), workers=workers) == [
        x * x for x in range(6)
    ]


def test_an_empty_list_gives_an_empty_list():
    assert map_threads(abs, []) == []


@pytest.mark.parametrize(
    ("workers", "error"),
    [(0, ValueError), (-2, ValueError), (1.5, TypeError), (True, TypeError)],
)
def test_a_bad_worker_count_is_named(workers, error):
    with pytest.raises(error, match=repr(workers).replace(".", r"\.")):
        map_threads(abs, [1], workers=workers)


def test_a_function_that_is_not_callable_is_named():
    with pytest.raises(TypeError, match="fn must be callable, got 3"):
        map_threads(3, [1])


def test_an_error_in_a_run_reaches_the_caller():
    def fail(x):
        raise RuntimeError(f"run {x} failed")

    with pytest.raises(RuntimeError, match="run 0 failed"):
        map_threads(fail, [0, 1])


def test_blas_is_held_to_one_thread_while_runs_overlap():
    from threadpoolctl import threadpool_info

    def blas_threads(_):
        return {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}

    for threads in map_threads(blas_threads, range(2)):
        assert threads == {1}


def test_without_a_way_to_hold_blas_the_runs_go_in_turn(monkeypatch):
    import threading

    import book.parallel

    monkeypatch.setattr(book.parallel, "one_blas_thread", lambda: None)
    here = threading.get_ident()
    assert map_threads(lambda _: threading.get_ident(), range(3)) == [here] * 3


def test_freed_memory_is_kept_on_glibc_unless_the_reader_chose(monkeypatch):
    """book's import tells glibc to keep freed arrays' memory (part 12 had 1.5 million
    page faults without it); a reader's MALLOC_* setting is left alone."""
    import platform

    import book.parallel

    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "131072")
    assert book.parallel.reuse_freed_memory() is False
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_")
    for name in book.parallel.MALLOC_VARS:
        monkeypatch.delenv(name, raising=False)
    assert book.parallel.reuse_freed_memory() is (platform.libc_ver()[0] == "glibc")
