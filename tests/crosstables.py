"""Crosstables for tests: any complete round robin consistent with given scores."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from fractions import Fraction


def crosstable(scores: Sequence[float]) -> list[list[object]]:
    """A single round robin whose players score ``scores``.

    Start with every game drawn, then move half points along augmenting paths (a player who
    needs more takes half a point from an opponent, who takes one from another, ... down to a
    player above target) until every total matches: always possible when the scores are those
    of some round robin.
    """
    n = len(scores)
    target = [int(Fraction(s) * 2) for s in scores]
    assert sum(target) == n * (n - 1), "scores must add up to the number of games"
    half = [[0 if i == j else 1 for j in range(n)] for i in range(n)]  # i's half points v j
    while True:
        totals = [sum(row) for row in half]
        needy = [i for i in range(n) if totals[i] < target[i]]
        if not needy:
            break
        start = needy[0]
        came: dict[int, int] = {start: -1}
        queue = deque([start])
        end = None
        while queue:
            i = queue.popleft()
            if totals[i] > target[i]:
                end = i
                break
            for k in range(n):
                if k != i and k not in came and half[i][k] < 2:
                    came[k] = i
                    queue.append(k)
        assert end is not None, "no round robin has these scores"
        k = end
        while came[k] != -1:
            i = came[k]
            half[i][k] += 1
            half[k][i] -= 1
            k = i
    return [[None if i == j else Fraction(half[i][j], 2) for j in range(n)] for i in range(n)]
