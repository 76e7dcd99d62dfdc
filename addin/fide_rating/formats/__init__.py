"""The file formats arbiters already have: FIDE's tournament report files (:mod:`.trf`).

May import: the rules core and the standard library; nothing that reads or writes workbooks.
"""
