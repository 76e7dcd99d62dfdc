"""The LibreOffice Calc add-in: its IDL, XCU and UNO component are generated from the registry
(:mod:`fide_rating.cells`), and :mod:`fide_rating.calc.build` packs them into an .oxt."""
