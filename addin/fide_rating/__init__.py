"""fide-rating: the FIDE Rating Regulations (handbook B.02), every edition, exact.

The rules core has no dependencies. Ratings are whole numbers, scores 1, 0.5 or 0; every
fractional figure is returned exact (:class:`fractions.Fraction`), and every rounding is
:func:`fide_round` (0.5 away from zero, B.02 8.3.4).
"""

from .change import (
    EventCalculation,
    GameLine,
    change,
    change_hundredths,
    event,
    new_rating,
    period_change,
)
from .editions import (
    E2005_07,
    E2012_07,
    E2014_07,
    E2022_01,
    E2024_03,
    E2025_10,
    EDITIONS,
    LATEST,
    CapRule,
    Edition,
    InitialMethod,
    Junior,
    edition_on,
    get_edition,
)
from .errors import FideInputError
from .expected import RATING_MAX, RATING_MIN, dp, expected, expected_score, ratings_used
from .initial import (
    EventRu,
    InitialRating,
    RoundRobin,
    RoundRobinPlayer,
    UnratedEvent,
    initial_rating,
    round_robin,
    ru_from,
)
from .k_factor import k_factor, limit_k
from .performance import adjust_2024, performance
from .rounding import fide_round

__version__ = "0.1.0"

__all__ = [
    "E2005_07",
    "E2012_07",
    "E2014_07",
    "E2022_01",
    "E2024_03",
    "E2025_10",
    "EDITIONS",
    "LATEST",
    "RATING_MAX",
    "RATING_MIN",
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
    "ratings_used",
    "round_robin",
    "ru_from",
]
