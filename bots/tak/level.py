"""Playing levels of the Tak search bot (its `Level` option, 1 to 10).

Level 10 is full strength. Below it each level caps the search's depth and its thinking
time, and the lowest levels sometimes play a random move among the sensible ones (the
first in the search's final order that do not hand the opponent a road in one), so that
a person can pick an opponent of their size. A road in one is always taken.
"""

from __future__ import annotations

import random

import attrs

from bots.timing import TimePlan
from rules.tak.board import Board

TOP = 10


@attrs.frozen
class Level:
    """The caps of one level: deepest iteration, longest think (ms), and the chance of a
    random choice among the first `candidates` moves."""

    depth: int
    ms: float | None
    random_share: float = 0.0
    candidates: int = 6


LEVELS: dict[int, Level] = {
    1: Level(1, 100, 0.6, 10),
    2: Level(1, 200, 0.4, 8),
    3: Level(2, 300, 0.3, 8),
    4: Level(2, 500, 0.2, 6),
    5: Level(3, 800, 0.12, 6),
    6: Level(3, 1200, 0.06, 4),
    7: Level(4, 2000, 0.03, 3),
    8: Level(5, 4000),
    9: Level(7, 8000),
    TOP: Level(60, None),
}


def capped(budget: TimePlan, level: Level) -> TimePlan:
    """The time plan within the level's longest think."""
    if level.ms is None:
        return budget
    hard = level.ms if budget.hard is None else min(budget.hard, level.ms)
    soft = hard * 0.6 if budget.soft is None else min(budget.soft, hard)
    return TimePlan(soft, hard, budget.iteration_share)


def pick(board: Board, best: int, ordered: list[int], level: Level, rng: random.Random) -> int:
    """`best`, or at the level's random share a random sensible move (see the docstring)."""
    if not level.random_share or rng.random() >= level.random_share:
        return best
    sensible = []
    for code in ordered[: level.candidates]:
        board.make(code)
        if board.result() is None and board.winning_move() is None:
            sensible.append(code)
        board.unmake(code)
    return rng.choice(sensible) if sensible else best
