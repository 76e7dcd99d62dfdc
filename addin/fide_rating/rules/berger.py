"""Round-robin pairings: the Berger tables of the FIDE Handbook (C.05, Annex 1).

For n players (n even; an odd field adds a dummy, n + 1, whose opponent has the round free),
players i and j below n meet in round r when i + j = r + 1 (mod n - 1); player n meets the
player i with 2i = r + 1 (mod n - 1). Player n has black in odd rounds and white in even ones;
of two others, the lower number has white when i + j is odd, the higher when it is even; on
board k + 1 the partner of player n plus k meets the partner minus k. This gives the printed
tables, board by board (8 players, round 2: 8-5 6-4 7-3 1-2). A double round robin repeats the
cycle with the colours reversed.
"""

from __future__ import annotations

from .errors import bad

Pairing = tuple[int, int | None]  # (white, black); black None: white has the round free


def berger(players: int, cycles: int = 1) -> list[list[Pairing]]:
    """Every round's pairings, board by board, white first (C.05 Annex 1)."""
    if not 3 <= players <= 100 or cycles not in (1, 2):
        raise bad("expected 3 to 100 players and 1 or 2 cycles", (players, cycles))
    n = players + players % 2
    m = n - 1
    rounds: list[list[Pairing]] = []
    for r in range(1, m + 1):
        boards: list[Pairing] = []
        partner = next(i for i in range(1, n) if (2 * i) % m == (r + 1) % m)
        boards.append((partner, n) if r % 2 else (n, partner))  # board 1: player n
        for k in range(1, n // 2):  # board k + 1: partner + k against partner - k (mod n - 1)
            i, j = (partner - 1 + k) % m + 1, (partner - 1 - k) % m + 1
            low, high = min(i, j), max(i, j)
            boards.append((low, high) if (i + j) % 2 else (high, low))
        rounds.append(boards)
    if players % 2:  # the dummy's opponent has the round free
        rounds = [[_free(w, b, n) for w, b in boards] for boards in rounds]
    if cycles == 2:
        rounds += [[(b, w) if b is not None else (w, None) for w, b in boards]
                   for boards in rounds]  # fmt: skip
    return rounds


def _free(white: int, black: int | None, dummy: int) -> Pairing:
    """A board with the dummy as the free round of its opponent."""
    if white == dummy:
        return (black or 0, None)
    return (white, None) if black == dummy else (white, black)


def schedule(players: int, cycles: int = 1) -> dict[int, list[tuple[int | None, str]]]:
    """Each player's rounds: (opponent or None for a free round, colour "w", "b" or "-")."""
    out: dict[int, list[tuple[int | None, str]]] = {p: [] for p in range(1, players + 1)}
    for boards in berger(players, cycles):
        for white, black in boards:
            if black is None:
                out[white].append((None, "-"))
            else:
                out[white].append((black, "w"))
                out[black].append((white, "b"))
    return out
