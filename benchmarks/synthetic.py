"""Synthetic Swiss events for the benchmarks (and tests): reciprocal pairings, results that
add up, some unrated players, forfeits and byes."""

from __future__ import annotations

import datetime as dt
import random

from openpyxl import Workbook

from fide_rating.formats.templates import Event, Pairing, Player, Spec, fill_swiss


def swiss_event(
    players: int, rounds: int, seed: int = 1, unrated: float = 0.1
) -> tuple[list[Player], list[list[Pairing]]]:
    rnd = random.Random(seed)
    people = [
        Player(
            name=f"Player {i + 1:03d}",
            rating=None if rnd.random() < unrated else rnd.randint(1400, 2700),
            fide_id=100000 + i,
            born=rnd.randint(1950, 2015),
            games_before=rnd.choice((0, 12, 45, 200)),
            reached_2400=rnd.random() < 0.05,
        )
        for i in range(players)
    ]
    people.sort(key=lambda p: -(p.rating or 0))
    points = [0.0] * players
    table: list[list[Pairing]] = [[] for _ in range(players)]
    for _ in range(rounds):
        order = sorted(range(players), key=lambda i: (-points[i], rnd.random()))
        if len(order) % 2:
            bye = order.pop()
            table[bye].append((None, None, "F"))
            points[bye] += 1
        for a, b in zip(order[::2], order[1::2], strict=True):
            roll = rnd.random()
            if roll < 0.02:
                ra, rb = "+", "-"
            else:
                ra = rnd.choice(("1", "½", "0"))
                rb = {"1": "0", "½": "½", "0": "1"}[ra]
            table[a].append((b + 1, "w", ra))
            table[b].append((a + 1, "b", rb))
            points[a] += {"1": 1, "½": 0.5, "0": 0, "+": 1}.get(ra, 0)
            points[b] += {"1": 1, "½": 0.5, "0": 0, "-": 0}.get(rb, 0)
    return people, table


def swiss_workbook(players: int, rounds: int, seed: int = 1) -> Workbook:
    people, table = swiss_event(players, rounds, seed)
    spec = Spec("swiss", players, rounds)
    event = Event(name=f"Synthetic Swiss {seed}", place="Nowhere", start=dt.date(2024, 6, 1))
    return fill_swiss(spec, event, people, table)
