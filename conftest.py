"""pytest setup shared by the unit tests and nbval.

Kernels started by nbval inherit this environment: sliders render their static,
precomputed form (the form stored in the notebooks). BOOK_ORDER=shuffle:<seed>
runs the notebooks in a shuffled order (each notebook's cells stay in order), so a
test run can show that no output depends on which notebook ran before which.
"""

import os
import random

from workshop.config import default_blas_threads

LONGEST = "12-wiring.ipynb"

os.environ.setdefault("BOOK_WIDGETS", "static")
os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
os.environ.setdefault("MPLBACKEND", "Agg")


def _kernels_on_unix_sockets() -> None:
    """nbval's kernels listen on Unix sockets, not TCP ports that two workers can be
    handed at once (workshop/run/kernels.py)."""
    try:
        import nbval.kernel
    except ImportError:
        return
    from workshop.run.kernels import UnixSocketKernelManager

    nbval.kernel.KernelManager = UnixSocketKernelManager


_kernels_on_unix_sockets()


def pytest_configure(config):
    """nbval's kernels draw no pixels (workshop/run/kernels.py): it compares none."""
    if config.getoption("nbval", False) or config.getoption("nbval_lax", False):
        from workshop.run.kernels import test_kernels_draw_no_pixels

        test_kernels_draw_no_pixels()


default_blas_threads()  # one BLAS thread per kernel unless a count is set


def pytest_collection_modifyitems(session, config, items):
    order = os.environ.get("BOOK_ORDER", "")
    if not order:
        return
    kind, _, seed = order.partition(":")
    if kind != "shuffle" or not seed.isdigit():
        raise ValueError(f"BOOK_ORDER must look like 'shuffle:<seed>', got {order!r}")
    files = list(dict.fromkeys(str(item.fspath) for item in items))
    random.Random(int(seed)).shuffle(files)
    # The longest notebook starts first, whatever the shuffle: it is a sixth of a run's
    # work, and started last it would leave the other worker (-n 2) idle at the end.
    files.sort(key=lambda f: not f.endswith(LONGEST))
    rank = {f: i for i, f in enumerate(files)}
    items.sort(
        key=lambda item: rank[str(item.fspath)]
    )  # stable: cells keep their order
