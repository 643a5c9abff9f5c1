"""Helpers shared by the book's notebooks.

Only what is not the subject of a chapter lives here: the house figure style,
claim checks, number formatting and the slider machinery. The attention, the
backpropagation and the tokenizer a chapter teaches are written in that chapter.
"""
from .checks import ClaimFailed, check
from .fmt import bound, fixed, matrix_markdown
from .style import PALETTE, SEQUENTIAL, DIVERGING, use, new_figure, show
from . import slider as slider_module
from .slider import slider, widget_mode

__all__ = [
    "ClaimFailed", "check", "bound", "fixed", "matrix_markdown", "PALETTE", "SEQUENTIAL", "DIVERGING",
    "use", "new_figure", "show", "slider", "widget_mode",
]
