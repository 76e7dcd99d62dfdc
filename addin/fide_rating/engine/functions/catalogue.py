"""Excel's function catalogue, as data: every worksheet function Excel knows, with the least
and the most arguments it takes, its category in Excel's function library and whether it is
volatile (computed again at every recalculation).

The functions are those ECMA-376 Part 1 §18.17.7 ("Predefined Function Definitions") defines,
and those Excel added since (Excel's "Excel functions (by category)" list: the ``_xlfn.``
functions of Excel 2010 to Microsoft 365). The arities are Excel's, as its function reference
gives each syntax; ``255`` stands for "up to Excel's limit". A name that is not here, and not
a function of the workbook's own (a FIDE function, a macro), is not a function in Excel: a
formula calling it shows ``#NAME?``.

May import: the standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

MANY = 255  # Excel's limit on a function's arguments

CATEGORIES = {
    "cmp": "Compatibility", "cub": "Cube", "db": "Database", "dt": "Date and time",
    "eng": "Engineering", "fin": "Financial", "inf": "Information", "log": "Logical",
    "py": "Python",
    "lkp": "Lookup and reference", "mat": "Math and trigonometry", "sta": "Statistical",
    "txt": "Text", "web": "Web",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Entry:
    """One function of Excel's catalogue."""

    name: str
    least: int
    most: int
    category: str
    volatile: bool


# NAME least most category [volatile]; "*" for most is MANY
_TABLE = """
ABS 1 1 mat
ACCRINT 6 8 fin
ACCRINTM 4 5 fin
ACOS 1 1 mat
ACOSH 1 1 mat
ACOT 1 1 mat
ACOTH 1 1 mat
ADDRESS 2 5 lkp
AGGREGATE 3 * mat
AMORDEGRC 6 7 fin
AMORLINC 6 7 fin
ANCHORARRAY 1 1 lkp
AND 1 * log
ARABIC 1 1 mat
AREAS 1 1 lkp
ARRAYTOTEXT 1 2 txt
ASC 1 1 txt
ASIN 1 1 mat
ASINH 1 1 mat
ATAN 1 1 mat
ATAN2 2 2 mat
ATANH 1 1 mat
AVEDEV 1 * sta
AVERAGE 1 * sta
AVERAGEA 1 * sta
AVERAGEIF 2 3 sta
AVERAGEIFS 3 * sta
BAHTTEXT 1 1 txt
BASE 2 3 mat
BESSELI 2 2 eng
BESSELJ 2 2 eng
BESSELK 2 2 eng
BESSELY 2 2 eng
BETA.DIST 4 6 sta
BETA.INV 3 5 sta
BETADIST 3 5 cmp
BETAINV 3 5 cmp
BIN2DEC 1 1 eng
BIN2HEX 1 2 eng
BIN2OCT 1 2 eng
BINOM.DIST 4 4 sta
BINOM.DIST.RANGE 3 4 sta
BINOM.INV 3 3 sta
BINOMDIST 4 4 cmp
BITAND 2 2 eng
BITLSHIFT 2 2 eng
BITOR 2 2 eng
BITRSHIFT 2 2 eng
BITXOR 2 2 eng
BYCOL 2 2 log
BYROW 2 2 log
CALL 1 * web
CEILING 2 2 cmp
CEILING.MATH 1 3 mat
CEILING.PRECISE 1 2 mat
CELL 1 2 inf v
CHAR 1 1 txt
CHIDIST 2 2 cmp
CHIINV 2 2 cmp
CHISQ.DIST 3 3 sta
CHISQ.DIST.RT 2 2 sta
CHISQ.INV 2 2 sta
CHISQ.INV.RT 2 2 sta
CHISQ.TEST 2 2 sta
CHITEST 2 2 cmp
CHOOSE 2 * lkp
CHOOSECOLS 2 * lkp
CHOOSEROWS 2 * lkp
CLEAN 1 1 txt
CODE 1 1 txt
COLUMN 0 1 lkp
COLUMNS 1 1 lkp
COMBIN 2 2 mat
COMBINA 2 2 mat
COMPLEX 2 3 eng
CONCAT 1 * txt
CONCATENATE 1 * txt
CONFIDENCE 3 3 cmp
CONFIDENCE.NORM 3 3 sta
CONFIDENCE.T 3 3 sta
CONVERT 3 3 eng
CORREL 2 2 sta
COS 1 1 mat
COSH 1 1 mat
COT 1 1 mat
COTH 1 1 mat
COUNT 1 * sta
COUNTA 1 * sta
COUNTBLANK 1 1 sta
COUNTIF 2 2 sta
COUNTIFS 2 * sta
COUPDAYBS 3 4 fin
COUPDAYS 3 4 fin
COUPDAYSNC 3 4 fin
COUPNCD 3 4 fin
COUPNUM 3 4 fin
COUPPCD 3 4 fin
COVAR 2 2 cmp
COVARIANCE.P 2 2 sta
COVARIANCE.S 2 2 sta
CRITBINOM 3 3 cmp
CSC 1 1 mat
CSCH 1 1 mat
CUBEKPIMEMBER 3 4 cub
CUBEMEMBER 2 3 cub
CUBEMEMBERPROPERTY 3 3 cub
CUBERANKEDMEMBER 3 4 cub
CUBESET 2 5 cub
CUBESETCOUNT 1 1 cub
CUBEVALUE 1 * cub
CUMIPMT 6 6 fin
CUMPRINC 6 6 fin
DATE 3 3 dt
DATEDIF 3 3 dt
DATEVALUE 1 1 dt
DAVERAGE 3 3 db
DAY 1 1 dt
DAYS 2 2 dt
DAYS360 2 3 dt
DB 4 5 fin
DBCS 1 1 txt
DCOUNT 3 3 db
DCOUNTA 3 3 db
DDB 4 5 fin
DEC2BIN 1 2 eng
DEC2HEX 1 2 eng
DEC2OCT 1 2 eng
DECIMAL 2 2 mat
DEGREES 1 1 mat
DELTA 1 2 eng
DETECTLANGUAGE 1 1 txt
DEVSQ 1 * sta
DGET 3 3 db
DISC 4 5 fin
DMAX 3 3 db
DMIN 3 3 db
DOLLAR 1 2 txt
DOLLARDE 2 2 fin
DOLLARFR 2 2 fin
DPRODUCT 3 3 db
DROP 2 3 lkp
DSTDEV 3 3 db
DSTDEVP 3 3 db
DSUM 3 3 db
DURATION 5 6 fin
DVAR 3 3 db
DVARP 3 3 db
ECMA.CEILING 2 2 mat
EDATE 2 2 dt
EFFECT 2 2 fin
ENCODEURL 1 1 web
EOMONTH 2 2 dt
ERF 1 2 eng
ERF.PRECISE 1 1 eng
ERFC 1 1 eng
ERFC.PRECISE 1 1 eng
ERROR.TYPE 1 1 inf
EUROCONVERT 3 5 cmp
EVEN 1 1 mat
EXACT 2 2 txt
EXP 1 1 mat
EXPAND 2 4 lkp
EXPON.DIST 3 3 sta
EXPONDIST 3 3 cmp
F.DIST 4 4 sta
F.DIST.RT 3 3 sta
F.INV 3 3 sta
F.INV.RT 3 3 sta
F.TEST 2 2 sta
FACT 1 1 mat
FACTDOUBLE 1 1 mat
FALSE 0 0 log
FDIST 3 3 cmp
FIELDVALUE 2 2 lkp
FILTER 2 3 lkp
FILTERXML 2 2 web
FIND 2 3 txt
FINDB 2 3 txt
FINV 3 3 cmp
FISHER 1 1 sta
FISHERINV 1 1 sta
FIXED 1 3 txt
FLOOR 2 2 cmp
FLOOR.MATH 1 3 mat
FLOOR.PRECISE 1 2 mat
FORECAST 3 3 sta
FORECAST.ETS 3 6 sta
FORECAST.ETS.CONFINT 3 7 sta
FORECAST.ETS.SEASONALITY 2 4 sta
FORECAST.ETS.STAT 3 6 sta
FORECAST.LINEAR 3 3 sta
FORMULATEXT 1 1 lkp
FREQUENCY 2 2 sta
FTEST 2 2 cmp
FV 3 5 fin
FVSCHEDULE 2 2 fin
GAMMA 1 1 sta
GAMMA.DIST 4 4 sta
GAMMA.INV 3 3 sta
GAMMADIST 4 4 cmp
GAMMAINV 3 3 cmp
GAMMALN 1 1 sta
GAMMALN.PRECISE 1 1 sta
GAUSS 1 1 sta
GCD 1 * mat
GEOMEAN 1 * sta
GESTEP 1 2 eng
GETPIVOTDATA 2 * lkp
GROUPBY 3 8 lkp
GROWTH 1 4 sta
HARMEAN 1 * sta
HEX2BIN 1 2 eng
HEX2DEC 1 1 eng
HEX2OCT 1 2 eng
HLOOKUP 3 4 lkp
HOUR 1 1 dt
HSTACK 1 * lkp
HYPERLINK 1 2 lkp
HYPGEOM.DIST 5 5 sta
HYPGEOMDIST 4 4 cmp
IF 2 3 log
IFERROR 2 2 log
IFNA 2 2 log
IFS 2 * log
IMABS 1 1 eng
IMAGE 1 5 lkp
IMAGINARY 1 1 eng
IMARGUMENT 1 1 eng
IMCONJUGATE 1 1 eng
IMCOS 1 1 eng
IMCOSH 1 1 eng
IMCOT 1 1 eng
IMCSC 1 1 eng
IMCSCH 1 1 eng
IMDIV 2 2 eng
IMEXP 1 1 eng
IMLN 1 1 eng
IMLOG10 1 1 eng
IMLOG2 1 1 eng
IMPOWER 2 2 eng
IMPRODUCT 1 * eng
IMREAL 1 1 eng
IMSEC 1 1 eng
IMSECH 1 1 eng
IMSIN 1 1 eng
IMSINH 1 1 eng
IMSQRT 1 1 eng
IMSUB 2 2 eng
IMSUM 1 * eng
IMTAN 1 1 eng
INDEX 2 4 lkp
INDIRECT 1 2 lkp v
INFO 1 1 inf v
INT 1 1 mat
INTERCEPT 2 2 sta
INTRATE 4 5 fin
IPMT 4 6 fin
IRR 1 2 fin
ISBLANK 1 1 inf
ISERR 1 1 inf
ISERROR 1 1 inf
ISEVEN 1 1 inf
ISFORMULA 1 1 inf
ISLOGICAL 1 1 inf
ISNA 1 1 inf
ISNONTEXT 1 1 inf
ISNUMBER 1 1 inf
ISO.CEILING 1 2 mat
ISODD 1 1 inf
ISOMITTED 1 1 inf
ISOWEEKNUM 1 1 dt
ISPMT 4 4 fin
ISREF 1 1 inf
ISTEXT 1 1 inf
JIS 1 1 txt
KURT 1 * sta
LAMBDA 1 * log
LARGE 2 2 sta
LCM 1 * mat
LEFT 1 2 txt
LEFTB 1 2 txt
LEN 1 1 txt
LENB 1 1 txt
LET 3 * log
LINEST 1 4 sta
LN 1 1 mat
LOG 1 2 mat
LOG10 1 1 mat
LOGEST 1 4 sta
LOGINV 3 3 cmp
LOGNORM.DIST 4 4 sta
LOGNORM.INV 3 3 sta
LOGNORMDIST 3 3 cmp
LOOKUP 2 3 lkp
LOWER 1 1 txt
MAKEARRAY 3 3 log
MAP 2 * log
MATCH 2 3 lkp
MAX 1 * sta
MAXA 1 * sta
MAXIFS 3 * sta
MDETERM 1 1 mat
MDURATION 5 6 fin
MEDIAN 1 * sta
MID 3 3 txt
MIDB 3 3 txt
MIN 1 * sta
MINA 1 * sta
MINIFS 3 * sta
MINUTE 1 1 dt
MINVERSE 1 1 mat
MIRR 3 3 fin
MMULT 2 2 mat
MOD 2 2 mat
MODE 1 * cmp
MODE.MULT 1 * sta
MODE.SNGL 1 * sta
MONTH 1 1 dt
MROUND 2 2 mat
MULTINOMIAL 1 * mat
MUNIT 1 1 mat
N 1 1 inf
NA 0 0 inf
NEGBINOM.DIST 4 4 sta
NEGBINOMDIST 3 3 cmp
NETWORKDAYS 2 3 dt
NETWORKDAYS.INTL 2 4 dt
NOMINAL 2 2 fin
NORM.DIST 4 4 sta
NORM.INV 3 3 sta
NORM.S.DIST 2 2 sta
NORM.S.INV 1 1 sta
NORMDIST 4 4 cmp
NORMINV 3 3 cmp
NORMSDIST 1 1 cmp
NORMSINV 1 1 cmp
NOT 1 1 log
NOW 0 0 dt v
NPER 3 5 fin
NPV 2 * fin
NUMBERVALUE 1 3 txt
OCT2BIN 1 2 eng
OCT2DEC 1 1 eng
OCT2HEX 1 2 eng
ODD 1 1 mat
ODDFPRICE 8 9 fin
ODDFYIELD 8 9 fin
ODDLPRICE 7 8 fin
ODDLYIELD 7 8 fin
OFFSET 3 5 lkp v
OR 1 * log
PDURATION 3 3 fin
PEARSON 2 2 sta
PERCENTILE 2 2 cmp
PERCENTILE.EXC 2 2 sta
PERCENTILE.INC 2 2 sta
PERCENTOF 2 2 mat
PERCENTRANK 2 3 cmp
PERCENTRANK.EXC 2 3 sta
PERCENTRANK.INC 2 3 sta
PERMUT 2 2 sta
PERMUTATIONA 2 2 sta
PHI 1 1 sta
PHONETIC 1 1 txt
PI 0 0 mat
PIVOTBY 4 11 lkp
PMT 3 5 fin
POISSON 3 3 cmp
POISSON.DIST 3 3 sta
POWER 2 2 mat
PPMT 4 6 fin
PRICE 6 7 fin
PRICEDISC 4 5 fin
PRICEMAT 5 6 fin
PROB 3 4 sta
PRODUCT 1 * mat
PROPER 1 1 txt
PV 3 5 fin
PY 2 * py
QUARTILE 2 2 cmp
QUARTILE.EXC 2 2 sta
QUARTILE.INC 2 2 sta
QUOTIENT 2 2 mat
RADIANS 1 1 mat
RAND 0 0 mat v
RANDARRAY 0 5 mat v
RANDBETWEEN 2 2 mat v
RANK 2 3 cmp
RANK.AVG 2 3 sta
RANK.EQ 2 3 sta
RATE 3 6 fin
RECEIVED 4 5 fin
REDUCE 3 3 log
REGEXEXTRACT 2 4 txt
REGEXREPLACE 3 5 txt
REGEXTEST 2 3 txt
REGISTER.ID 2 3 web
REPLACE 4 4 txt
REPLACEB 4 4 txt
REPT 2 2 txt
RIGHT 1 2 txt
RIGHTB 1 2 txt
ROMAN 1 2 mat
ROUND 2 2 mat
ROUNDDOWN 2 2 mat
ROUNDUP 2 2 mat
ROW 0 1 lkp
ROWS 1 1 lkp
RRI 3 3 fin
RSQ 2 2 sta
RTD 3 * lkp
SCAN 3 3 log
SEARCH 2 3 txt
SEARCHB 2 3 txt
SEC 1 1 mat
SECH 1 1 mat
SECOND 1 1 dt
SEQUENCE 1 4 mat
SERIESSUM 4 4 mat
SHEET 0 1 inf
SHEETS 0 1 inf
SIGN 1 1 mat
SIN 1 1 mat
SINGLE 1 1 lkp
SINH 1 1 mat
SKEW 1 * sta
SKEW.P 1 * sta
SLN 3 3 fin
SLOPE 2 2 sta
SMALL 2 2 sta
SORT 1 4 lkp
SORTBY 2 * lkp
SQRT 1 1 mat
SQRTPI 1 1 mat
STANDARDIZE 3 3 sta
STDEV 1 * cmp
STDEV.P 1 * sta
STDEV.S 1 * sta
STDEVA 1 * sta
STDEVP 1 * cmp
STDEVPA 1 * sta
STEYX 2 2 sta
STOCKHISTORY 2 11 fin
SUBSTITUTE 3 4 txt
SUBTOTAL 2 * mat
SUM 1 * mat
SUMIF 2 3 mat
SUMIFS 3 * mat
SUMPRODUCT 1 * mat
SUMSQ 1 * mat
SUMX2MY2 2 2 mat
SUMX2PY2 2 2 mat
SUMXMY2 2 2 mat
SWITCH 3 * log
SYD 4 4 fin
T 1 1 txt
T.DIST 3 3 sta
T.DIST.2T 2 2 sta
T.DIST.RT 2 2 sta
T.INV 2 2 sta
T.INV.2T 2 2 sta
T.TEST 4 4 sta
TAKE 2 3 lkp
TAN 1 1 mat
TANH 1 1 mat
TBILLEQ 3 3 fin
TBILLPRICE 3 3 fin
TBILLYIELD 3 3 fin
TDIST 3 3 cmp
TEXT 2 2 txt
TEXTAFTER 2 6 txt
TEXTBEFORE 2 6 txt
TEXTJOIN 3 * txt
TEXTSPLIT 2 6 txt
TIME 3 3 dt
TIMEVALUE 1 1 dt
TINV 2 2 cmp
TOCOL 1 3 lkp
TODAY 0 0 dt v
TOROW 1 3 lkp
TRANSLATE 1 3 txt
TRANSPOSE 1 1 lkp
TREND 1 4 sta
TRIM 1 1 txt
TRIMMEAN 2 2 sta
TRIMRANGE 1 3 lkp
TRUE 0 0 log
TRUNC 1 2 mat
TTEST 4 4 cmp
TYPE 1 1 inf
UNICHAR 1 1 txt
UNICODE 1 1 txt
UNIQUE 1 3 lkp
UPPER 1 1 txt
VALUE 1 1 txt
VALUETOTEXT 1 2 txt
VAR 1 * cmp
VAR.P 1 * sta
VAR.S 1 * sta
VARA 1 * sta
VARP 1 * cmp
VARPA 1 * sta
VDB 5 7 fin
VLOOKUP 3 4 lkp
VSTACK 1 * lkp
WEBSERVICE 1 1 web
WEEKDAY 1 2 dt
WEEKNUM 1 2 dt
WEIBULL 4 4 cmp
WEIBULL.DIST 4 4 sta
WORKDAY 2 3 dt
WORKDAY.INTL 2 4 dt
WRAPCOLS 2 3 lkp
WRAPROWS 2 3 lkp
XIRR 2 3 fin
XLOOKUP 3 6 lkp
XMATCH 2 4 lkp
XNPV 3 3 fin
XOR 1 * log
YEAR 1 1 dt
YEARFRAC 2 3 dt
YIELD 6 7 fin
YIELDDISC 4 5 fin
YIELDMAT 5 6 fin
Z.TEST 2 3 sta
ZTEST 2 3 cmp
"""


def _entries() -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for line in _TABLE.strip().splitlines():
        name, least, most, category, *flags = line.split()
        out[name] = Entry(name, int(least), MANY if most == "*" else int(most),
                          CATEGORIES[category], "v" in flags)  # fmt: skip
    return out


CATALOGUE: dict[str, Entry] = _entries()
"""Every function Excel knows, by its name in upper case (as a formula writes it without the
``_xlfn.`` prefix)."""
