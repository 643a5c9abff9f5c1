"""Helpers shared by the book's notebooks.

Only what is not the subject of a chapter lives here: the house figure style,
claim checks, number formatting and the slider machinery. The attention, the
backpropagation and the tokenizer a chapter teaches are written in that chapter.
"""

from . import slider as slider_module  # noqa: F401  (the module, for tests)
from .checks import ClaimFailed, check
from .fmt import bound, fixed, matrix_markdown
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
    "check",
    "bound",
    "fixed",
    "matrix_markdown",
    "PALETTE",
    "CONCEPT",
    "colour",
    "label_points",
    "concept_key",
    "mask_cmap",
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
