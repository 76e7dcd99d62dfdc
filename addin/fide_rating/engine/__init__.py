"""The workbook engine: .xlsx packages read and written, formulas parsed and evaluated.

Owns: the package reader and writer (:mod:`.package`), the formula language
(:mod:`.formula`: values, parser), the standard function library by Excel's categories
(:mod:`.functions`), the compiler of formulas to closures above both (:mod:`.compiler`),
headless recalculation (:mod:`.recalc`: a workbook read into a book of cells by :mod:`.load`,
computed on demand by :mod:`.book` in the order :mod:`.order` keeps, data tables by
:mod:`.whatif`, pivot tables read by :mod:`.pivot`; many at once by :mod:`.batch`) and a fast
writer for large plain tables (:mod:`.xlsxout`).

May import: :mod:`fide_rating.cells` (the FIDE functions, the same code as the add-ins), the
rules core and the standard library. It reads packages itself: no openpyxl.
"""
