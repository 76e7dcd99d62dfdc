"""Arithmetic as Excel does it, to the last bit, on the values Excel saved in an actuarial
model (lifelib 0.17.2, the PyPI wheel: ``lifelib/libraries/basiclife/basic_term_sample.xlsx``
and ``lifelib/libraries/savings/cash_value_sample.xlsx``, both saved by Excel)."""

from __future__ import annotations

import math

import pytest

from test_formula import ev


@pytest.mark.parametrize(
    ("rate", "months", "excel"),
    [
        (0.0010645778676408035, 156.0, 0.847058253344193),  # discount_curve!K163
        (0.0010233867094635585, 493.0, 0.6039452932147552),  # discount_curve!K500
    ],
)
def test_a_whole_power_is_excels_square_and_multiply(rate: float, months: float,
                                                     excel: float) -> None:  # fmt: skip
    """=(1+J)^(-G): Excel squares and multiplies from the lowest bit and takes 1/x^n, which
    differs from the correctly rounded power in the 14th digit."""
    assert ev(f"=(1+{rate!r})^(-{months!r})") == excel
    assert (1 + rate) ** -months != excel  # so the rule is what the test shows


@pytest.mark.parametrize(
    ("age", "excel"),
    [(21, 0.00024493742315277695), (64, 0.0021024352560544187)],  # mortality!C7, C50
)
def test_a_fractional_power_is_e_to_y_ln_x(age: int, excel: float) -> None:
    """=MIN($C$1*EXP($C$2*B7^$F$1),1), a Gompertz-Makeham-like mortality rate: x^2.2 as
    e^(2.2 ln x)."""
    assert ev(f"=MIN(0.0002*EXP(0.00025*{age}^2.2),1)") == excel
    assert min(0.0002 * math.exp(0.00025 * age**2.2), 1) != excel  # not the rounded power


def test_sum_adds_in_order() -> None:
    """saving_model!B23, =C23-SUM(D23:H23)+I23-J23: Excel's SUM adds one number after the
    other; the exactly rounded sum differs in the 15th digit."""
    parts = [991.084783423378, 385606.2025958904, 0.0, 4133.586821353967, 0.0]
    formula = f"=0-SUM({','.join(map(repr, parts))})+(-641399.879075097)-(-1065059.9415973648)"
    assert ev(formula) == 32929.18832159997
    assert 0 - math.fsum(parts) + -641399.879075097 - -1065059.9415973648 != 32929.18832159997
    assert ev("=SUM(1E+16,1,-1E+16)") == 0.0  # 1E16 + 1 is 1E16 in a double
    assert ev("=INDEX(MMULT({1E+16,1,-1E+16},{1;1;1}),1)") == 0.0  # MMULT's sums too
