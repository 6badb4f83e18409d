"""Traxit evaluation: each seat's expected final points, turned into per-seat utilities.

A seat's expectation is its banked points, a pending bonus, and its pawns' current level
points counted for the set in progress and (discounted) for each set still to come. Its
utility is that expectation minus the best rival's (free for all) or the other team's.
"""

from __future__ import annotations

from rules.traxit.board import BONUS_POINTS, LEVEL, POINTS, SIZE, cell_xy
from rules.traxit.state import BONUS_PENDING, END, Layout, State

#: weight of a set that has not started yet, relative to the set in progress
FUTURE_SET_WEIGHT = 0.6


def _cell_value(cell: int) -> float:
    """Level points, plus a little for cells near the centre (closer to higher ground)."""
    x, y = cell_xy(cell)
    centre = abs(2 * x - (SIZE - 1)) + abs(2 * y - (SIZE - 1))  # 2..14
    return POINTS[cell] + (14 - centre) * 0.5 + (3 if LEVEL[cell] == 4 else 0)


CELL_VALUE: tuple[float, ...] = tuple(_cell_value(c) for c in range(SIZE * SIZE))


def expectations(layout: Layout, st: State) -> list[float]:
    """Expected final points per seat."""
    n = layout.players
    scores, pawns, bonus = st.scores, st.pawns, st.bonus
    if st.phase == END:
        return [float(s) for s in scores]
    weight = 1.0 + FUTURE_SET_WEIGHT * (layout.sets - st.set_no)
    out = []
    for seat in range(n):
        a, b = pawns[2 * seat], pawns[2 * seat + 1]
        value = float(scores[seat])
        if bonus[seat] == BONUS_PENDING:
            value += BONUS_POINTS
        if a >= 0:
            value += CELL_VALUE[a] * weight
        if b >= 0:
            value += CELL_VALUE[b] * weight
        out.append(value)
    return out


def utilities(layout: Layout, expected: list[float]) -> list[float]:
    """Per seat: own (team) expectation minus the best rival's."""
    n = len(expected)
    if layout.teams:
        a = expected[0] + expected[2]
        b = expected[1] + expected[3]
        return [a - b, b - a, a - b, b - a]
    out = []
    for seat in range(n):
        rival = max(expected[t] for t in range(n) if t != seat)
        out.append(expected[seat] - rival)
    return out


def evaluate(layout: Layout, st: State) -> list[float]:
    return utilities(layout, expectations(layout, st))
