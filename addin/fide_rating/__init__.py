"""fide-rating: the FIDE Rating Regulations (handbook B.02), every edition, exact.

This module is the public API of the rules core (:mod:`fide_rating.rules`), which has no
dependencies. Ratings are whole numbers, scores 1, 0.5 or 0; every fractional figure is
returned exact (:class:`fractions.Fraction`), and every rounding is :func:`fide_round` (0.5
away from zero, B.02 8.3.4).

The package in layers, each importing only the ones below it::

    commands   the fide-rating command: cli, templates, report, convert, period
    engine     workbook packages, formulas, functions, recalc   |  formats   TRF files
    cells      cell values -> FIDE figures; xlwings, Lite, the Calc add-in
    rules      the regulations themselves (standard library only)
"""

from .rules.change import (
    EventCalculation,
    GameLine,
    change,
    change_hundredths,
    event,
    new_rating,
    period_change,
)
from .rules.editions import (
    BLITZ,
    E2005_07,
    E2009_07,
    E2011_07,
    E2012_07,
    E2014_07,
    E2022_01,
    E2024_03,
    E2025_10,
    EDITIONS,
    LATEST,
    RAPID,
    RATING_TYPES,
    STANDARD,
    STANDARD_EDITIONS,
    CapRule,
    Edition,
    InitialMethod,
    Junior,
    edition_on,
    editions_of,
    get_edition,
)
from .rules.errors import FideInputError
from .rules.expected import (
    RATING_MAX,
    RATING_MIN,
    dp,
    expected,
    expected_score,
    rated_game,
    ratings_used,
)
from .rules.initial import (
    EventRu,
    InitialRating,
    RoundRobin,
    RoundRobinPlayer,
    UnratedEvent,
    initial_rating,
    round_robin,
    ru_from,
)
from .rules.k_factor import k_factor, limit_k
from .rules.performance import adjust_2024, performance
from .rules.rounding import fide_round

__version__ = "0.1.0"

__all__ = [
    "BLITZ",
    "E2005_07",
    "E2009_07",
    "E2011_07",
    "E2012_07",
    "E2014_07",
    "E2022_01",
    "E2024_03",
    "E2025_10",
    "EDITIONS",
    "LATEST",
    "RAPID",
    "RATING_MAX",
    "RATING_MIN",
    "RATING_TYPES",
    "STANDARD",
    "STANDARD_EDITIONS",
    "CapRule",
    "Edition",
    "EventCalculation",
    "EventRu",
    "FideInputError",
    "GameLine",
    "InitialMethod",
    "InitialRating",
    "Junior",
    "RoundRobin",
    "RoundRobinPlayer",
    "UnratedEvent",
    "adjust_2024",
    "change",
    "change_hundredths",
    "dp",
    "edition_on",
    "editions_of",
    "event",
    "expected",
    "expected_score",
    "fide_round",
    "get_edition",
    "initial_rating",
    "k_factor",
    "limit_k",
    "new_rating",
    "performance",
    "period_change",
    "rated_game",
    "ratings_used",
    "round_robin",
    "ru_from",
]
