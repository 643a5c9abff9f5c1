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

__all__ = ["map_threads", "one_blas_thread", "reuse_freed_memory"]

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


#: The variables with which a reader sets glibc's allocator. A reader who sets one of
#: them chose, and book leaves the allocator alone.
MALLOC_VARS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES")
#: Arrays up to this size come from the process's heap, not from fresh pages (glibc's
#: largest setting on 64-bit), and up to TRIM_BYTES of freed heap is kept for reuse.
MMAP_BYTES, TRIM_BYTES = 32 * 2**20, 512 * 2**20


def reuse_freed_memory() -> bool:
    """Let glibc keep freed array memory for the next array, instead of handing it back
    to the system and taking fresh pages again. True where it was set.

    glibc gives a large array (over 128 KB at first) pages of its own and returns them
    when the array is freed; each new array's pages then fault in one by one. Part 12's
    backward pass makes and frees arrays of 512 KB in every block: 1.5 million page
    faults, 2.6 s of system time in a 20 s page, before this. No value changes: where
    an array lives does not change what is computed in it. Nothing is set outside
    glibc (macOS, Windows, musl), or where the reader set one of MALLOC_VARS."""
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc" or any(os.environ.get(v) for v in MALLOC_VARS):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # malloc.h
    return bool(
        mallopt(m_mmap_threshold, MMAP_BYTES) and mallopt(m_trim_threshold, TRIM_BYTES)
    )
