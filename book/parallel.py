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

__all__ = ["map_threads"]


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
    one-core machine the runs go one after another."""
    if isinstance(workers, bool) or not isinstance(workers, numbers.Integral):
        raise TypeError(f"map_threads: workers must be an int, got {workers!r}")
    if workers < 1:
        raise ValueError(f"map_threads: workers must be at least 1, got {workers!r}")
    if not callable(fn):
        raise TypeError(f"map_threads: fn must be callable, got {fn!r}")
    items = list(items)
    n = min(int(workers), cores(), len(items))
    if n <= 1:
        return [fn(item) for item in items]
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(fn, items))
