"""What the ``fide-rating`` command does, built on the layers below.

One module per command, its arguments and what it does side by side: :mod:`.event`,
:mod:`.initial`, :mod:`.editions`, :mod:`.template`, :mod:`.recalc`, :mod:`.report`,
:mod:`.import_trf`, :mod:`.export_trf`, :mod:`.check`, :mod:`.fill`, :mod:`.period`,
:mod:`.build_lite`, :mod:`.build_oxt`; :mod:`.cli` assembles them. What they share: the console
and the output checks (:mod:`.console`), a rating list of any kind (:mod:`.lists`), the
crosstable templates (:mod:`.templates`) and the layout they share with the readers
(:mod:`.layout`), TRF <-> workbook (:mod:`.convert`), the rating period's calculation
(:mod:`.period_calc`) and workbooks (:mod:`.period_book`).

May import: every other layer (the rules core, the cell layer and its hosts, the workbook engine,
the file formats), openpyxl and the standard library. Nothing below imports this package.
"""
