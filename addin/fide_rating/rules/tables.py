"""Tables 8.1.1 (p -> dp) and 8.1.2 (D -> PD) of the FIDE Rating Regulations, as printed.

Values are integer hundredths (PD 0.73 is 73) or whole rating points (dp). The text of each
table is kept in the order and layout of the printed handbook so that it can be compared with it
by eye; the structures the rest of the package uses are derived from it once, at import.
"""

from __future__ import annotations

from dataclasses import dataclass

# 8.1.1 (B.02 2012-07 "a", 2017 HSF 8.1 "a", 2024-03 8.1.1 and its summary): p -> dp, six printed
# column pairs read row by row.
_DP_PRINTED = """
1.0 800 .83 273 .66 117 .49 -7 .32 -133 .15 -296
.99 677 .82 262 .65 110 .48 -14 .31 -141 .14 -309
.98 589 .81 251 .64 102 .47 -21 .30 -149 .13 -322
.97 538 .80 240 .63 95 .46 -29 .29 -158 .12 -336
.96 501 .79 230 .62 87 .45 -36 .28 -166 .11 -351
.95 470 .78 220 .61 80 .44 -43 .27 -175 .10 -366
.94 444 .77 211 .60 72 .43 -50 .26 -184 .09 -383
.93 422 .76 202 .59 65 .42 -57 .25 -193 .08 -401
.92 401 .75 193 .58 57 .41 -65 .24 -202 .07 -422
.91 383 .74 184 .57 50 .40 -72 .23 -211 .06 -444
.90 366 .73 175 .56 43 .39 -80 .22 -220 .05 -470
.89 351 .72 166 .55 36 .38 -87 .21 -230 .04 -501
.88 336 .71 158 .54 29 .37 -95 .20 -240 .03 -538
.87 322 .70 149 .53 21 .36 -102 .19 -251 .02 -589
.86 309 .69 141 .52 14 .35 -110 .18 -262 .01 -677
.85 296 .68 133 .51 7 .34 -117 .17 -273 .00 -800
.84 284 .67 125 .50 0 .33 -125 .16 -284
"""

# 8.1.2 (B.02 2012-07 "b", 2024-03 8.1.2; 10.1(b) before 2012): D -> PD for the higher (H) and
# lower (L) rated player, four printed column groups read row by row. "736-" stands for the
# printed "> 735".
_PD_PRINTED = """
0-3 .50 .50 92-98 .63 .37 198-206 .76 .24 345-357 .89 .11
4-10 .51 .49 99-106 .64 .36 207-215 .77 .23 358-374 .90 .10
11-17 .52 .48 107-113 .65 .35 216-225 .78 .22 375-391 .91 .09
18-25 .53 .47 114-121 .66 .34 226-235 .79 .21 392-411 .92 .08
26-32 .54 .46 122-129 .67 .33 236-245 .80 .20 412-432 .93 .07
33-39 .55 .45 130-137 .68 .32 246-256 .81 .19 433-456 .94 .06
40-46 .56 .44 138-145 .69 .31 257-267 .82 .18 457-484 .95 .05
47-53 .57 .43 146-153 .70 .30 268-278 .83 .17 485-517 .96 .04
54-61 .58 .42 154-162 .71 .29 279-290 .84 .16 518-559 .97 .03
62-68 .59 .41 163-170 .72 .28 291-302 .85 .15 560-619 .98 .02
69-76 .60 .40 171-179 .73 .27 303-315 .86 .14 620-735 .99 .01
77-83 .61 .39 180-188 .74 .26 316-328 .87 .13 736- 1.0 .00
84-91 .62 .38 189-197 .75 .25 329-344 .88 .12
"""

# One table for every edition. The Polish translation of B.02 2005 (10.1(b), its 2006 update)
# prints two bands as 316-326 -> .87 and 327-344 -> .88; Elo's own table (The Rating of Chess
# Players, Past and Present, 1978, 2.11), FIDE's English texts from 2012 and every other
# translation print 316-328 and 329-344. Where a translation differs, FIDE's English text decides.


def _hundredths(text: str) -> int:
    """'.73' -> 73, '1.0' -> 100, '-7' -> -7 (whole numbers pass through)."""
    if "." not in text:
        return int(text)
    whole, _, frac = text.partition(".")
    return int(whole or "0") * 100 + int(frac.ljust(2, "0"))


@dataclass(frozen=True, slots=True)
class PdBand:
    """One printed row of 8.1.2: differences ``low``..``high`` (``high`` None: no upper end)."""

    low: int
    high: int | None
    h: int
    l: int


@dataclass(frozen=True, slots=True)
class PdTable:
    """Table 8.1.2 of one source: bands in ascending order and a direct lookup by difference."""

    name: str
    bands: tuple[PdBand, ...]
    last_band_start: int
    by_difference: tuple[int, ...]  # PD(H) in hundredths for D = 0 .. last_band_start

    def pd_high(self, difference: int) -> int:
        """PD(H) in hundredths for an absolute rating difference (8.1.2)."""
        if difference >= self.last_band_start:
            return self.by_difference[-1]
        return self.by_difference[difference]


def _parse_pd(name: str, text: str) -> PdTable:
    bands: list[PdBand] = []
    for line in text.strip().splitlines():
        fields = line.split()
        for i in range(0, len(fields), 3):
            low_s, _, high_s = fields[i].partition("-")
            h, l_ = _hundredths(fields[i + 1]), _hundredths(fields[i + 2])
            bands.append(PdBand(int(low_s), int(high_s) if high_s else None, h, l_))
    bands.sort(key=lambda b: b.low)
    last = bands[-1].low
    lookup = [0] * (last + 1)
    for band in bands:
        top = band.high if band.high is not None else last
        for d in range(band.low, top + 1):
            lookup[d] = band.h
    return PdTable(name, tuple(bands), last, tuple(lookup))


def _parse_dp(text: str) -> dict[int, int]:
    table: dict[int, int] = {}
    for line in text.strip().splitlines():
        fields = line.split()
        for i in range(0, len(fields), 2):
            table[_hundredths(fields[i])] = int(fields[i + 1])
    return table


PD_TABLE = _parse_pd("B.02 8.1.2 (10.1(b) before 2012-07)", _PD_PRINTED)

#: 8.1.1: p in hundredths (0..100) -> dp. Identical in every edition; the 2005-07 text prints no
#: value at p = 0 and p = 1 ("obviously undefined", 10.1), which :class:`Edition` records.
DP_TABLE: dict[int, int] = _parse_dp(_DP_PRINTED)
