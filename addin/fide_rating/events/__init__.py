"""What an event is and how it is rated, once for every command.

* :mod:`.event`: an event from any source (a TRF, a crosstable workbook), its rating type and
  the edition that rates it;
* :mod:`.lists`: a rating list applied to an event (FIDE's list, a rating-list workbook, the
  list ``period`` wrote): ratings, K, R&B 7.2.1, what a crosstable row takes from it, and the
  words every command uses for what the list said;
* :mod:`.games`: an event's rated games (the round-robin method where the edition has it);
* :mod:`.rating`: the event rated into one report model;
* :mod:`.ratable`: may the event be rated (B.02 sections 0 to 6);
* :mod:`.period`, :mod:`.period_run`: the rating period on top of it.

May import: the file formats, the cell layer's argument checks, the rules core and the standard
library; never a command, never openpyxl (files are read and written by :mod:`..formats`).
"""
