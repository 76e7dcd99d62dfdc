"""The LibreOffice Calc add-in: its IDL, XCU and UNO component are generated from the registry
(:mod:`fide_rating.cells.registry`), and :mod:`fide_rating.cells.calc.build` packs them into an
.oxt; :mod:`fide_rating.cells.calc.office` drives a headless LibreOffice for the tests."""
