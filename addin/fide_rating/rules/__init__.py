"""The rules core: the FIDE Rating Regulations (handbook chapter B.02), every edition, exact.

Owns: tables 8.1.1 and 8.1.2 as printed (:mod:`.tables`), the editions and their data
(:mod:`.editions`), expected scores and the 350/400-point rule (:mod:`.expected`), K
(:mod:`.k_factor`), rating changes and the one rounding rule (:mod:`.change`,
:mod:`.rounding`), initial ratings (:mod:`.initial`), performance (:mod:`.performance`), the
changes FIDE made once to a whole list (:mod:`.list_changes`) and the one exception family
(:mod:`.errors`).

May import: the standard library only, and nothing else of the package: the add-ins (LibreOffice,
xlwings Lite) load these modules alone. A test and the import contracts in pyproject.toml
check it.
"""
