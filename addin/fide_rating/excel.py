"""The module to name in xlwings' *UDF Modules* setting: ``fide_rating.excel``.

It only re-exports the generated xlwings functions of :mod:`fide_rating.cells.excel`, so the
name users type into Excel stays the same whatever the package's layout.
"""

from .cells import excel as _generated
from .cells.excel import *  # noqa: F403  the FIDE_* functions

__all__ = _generated.__all__
