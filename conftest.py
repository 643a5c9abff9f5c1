"""pytest setup shared by the unit tests and nbval.

Kernels started by nbval inherit this environment: sliders render their static,
precomputed form (the form stored in the notebooks), and BLAS uses one thread
unless the caller chose otherwise, so sums are added in one fixed order.
"""
import os

os.environ.setdefault("BOOK_WIDGETS", "static")
os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
os.environ.setdefault("MPLBACKEND", "Agg")
