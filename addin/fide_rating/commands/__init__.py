"""What the ``fide-rating`` command does, built on the layers below.

Owns: the command line (:mod:`.cli`), the crosstable templates (:mod:`.templates`) and the
layout they share with the readers (:mod:`.layout`), FIDE's report of an event
(:mod:`.report`), TRF <-> workbook (:mod:`.convert`) and the rating period (:mod:`.period`).

May import: every other layer (the rules core, the cell layer and its hosts, the workbook engine,
the file formats), openpyxl and the standard library. Nothing below imports this package.
"""
