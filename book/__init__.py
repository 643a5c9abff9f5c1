"""Helpers shared by the book's notebooks.

Only what is not the subject of a chapter lives here: the house figure style,
claim checks, number formatting and the slider machinery. The attention, the
backpropagation and the tokenizer a chapter teaches are written in that chapter.
"""

import os as _os

from . import slider as slider_module  # noqa: F401  (the module, for tests)
from .checks import ClaimFailed, check
from .exercises import answer, exercise
from .figures import heatmap
from .fmt import bound, counted, fixed, matrix_markdown, order, table, unsigned_zero
from .slider import slider, widget_mode
from .style import (
    CONCEPT,
    DIVERGING,
    PALETTE,
    SEQUENTIAL,
    colour,
    concept_key,
    label_points,
    mask_cmap,
    new_figure,
    show,
    use,
)

__all__ = [
    "ClaimFailed",
    "answer",
    "exercise",
    "check",
    "bound",
    "counted",
    "fixed",
    "heatmap",
    "matrix_markdown",
    "order",
    "table",
    "unsigned_zero",
    "PALETTE",
    "CONCEPT",
    "colour",
    "label_points",
    "concept_key",
    "mask_cmap",
    "SEQUENTIAL",
    "DIVERGING",
    "use",
    "new_figure",
    "show",
    "slider",
    "widget_mode",
]


def _one_blas_thread() -> None:
    """Run BLAS on one thread unless the reader chose a count (one of
    book.parallel.BLAS_THREAD_VARS is set). The book's matrices are small: a second
    thread saves little on a quiet machine and, on a busy one (Binder, a shared server),
    OpenBLAS threads waiting for a core made one page ten times slower. No printed
    number depends on the count (make test runs one and two threads)."""
    from .parallel import BLAS_THREAD_VARS, one_blas_thread

    if any(_os.environ.get(v) for v in BLAS_THREAD_VARS):
        return

    one_blas_thread()  # None without threadpoolctl: a download with only numpy


_one_blas_thread()


def _reuse_freed_memory() -> None:
    """Keep freed array memory for the next array (book.parallel.reuse_freed_memory):
    a page that makes and frees many large arrays stops paying a page fault for every
    4 KB of every new one. It changes where arrays live, not what they hold."""
    from .parallel import reuse_freed_memory

    reuse_freed_memory()


_reuse_freed_memory()
