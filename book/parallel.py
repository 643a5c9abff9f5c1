"""Independent runs of one function on two cores, for pages whose experiment repeats
over seeds.

numpy lets go of Python's interpreter lock inside its array loops and its matrix
products, so two threads that each run their own seed keep two cores busy. Each run is
computed exactly as it would be alone, in its own arrays, so what a page prints does not
depend on how many threads ran it.
"""

from __future__ import annotations

import numbers
import os
from concurrent.futures import ThreadPoolExecutor

__all__ = ["map_threads", "one_blas_thread"]

#: The variables that set a BLAS library's thread count (OpenBLAS, OpenMP, MKL). A
#: reader who sets any of them chose a count, and book leaves it alone. This is their
#: one spelling: the workshop (workshop.config) and the Makefile ask for it here.
BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def map_threads(fn, items, workers: int = 2) -> list:
    """`[fn(item) for item in items]`, with up to `workers` runs at once.

    The results come back in the order of `items`. `workers` is also a memory bound:
    each run in flight holds its own arrays, so it stays small (two by default). On a
    one-core machine, or where BLAS cannot be held to one thread, the runs go one
    after another. Either way each run is computed as it would be alone."""
    if isinstance(workers, bool) or not isinstance(workers, numbers.Integral):
        raise TypeError(f"map_threads: workers must be an int, got {workers!r}")
    if workers < 1:
        raise ValueError(f"map_threads: workers must be at least 1, got {workers!r}")
    if not callable(fn):
        raise TypeError(f"map_threads: fn must be callable, got {fn!r}")
    items = list(items)
    n = min(int(workers), cores(), len(items))
    one_thread = one_blas_thread() if n > 1 else None
    if one_thread is None:
        return [fn(item) for item in items]
    with one_thread, ThreadPoolExecutor(n) as pool:
        return list(pool.map(fn, items))


def one_blas_thread():
    """Hold BLAS to one thread, and return the hold (a context manager that lets go on
    exit), or None where that cannot be set. book's import holds it for a whole kernel.

    Two runs that each start a BLAS pool of every core wait on each other's threads:
    on two cores part 12's runs took 42 s that way, 17 s with one BLAS thread per run,
    and 31 s one after another. Without threadpoolctl (a downloaded notebook with only
    numpy and matplotlib) nothing can hold BLAS to one thread: the runs go in turn."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(1, user_api="blas")
