"""Time management for the Tak search bot: how long to think on one move.

`plan(limits, seat, pieces_left, default_ms)` returns a `TimePlan` of two budgets in
milliseconds from the start of the search: `soft`, after which no new iteration starts,
and `hard`, at which a running iteration is abandoned. Both are None when only `stop`,
`depth` or `nodes` end the search.

With a clock, a move gets `left / moves_left + 0.7 * increment`, where `moves_left`
comes from the pieces the side still holds (the game ends when they run out); the hard
limit allows up to 2.5 times that, but never more than a fifth of the clock (after
a safety margin for the pipe and the host) nor more than the share the engine host will
enforce (`Limits.budget_ms`). `movetime` is used almost fully.
"""

from __future__ import annotations

import attrs

from bots.base import Limits

#: milliseconds kept back for process start-up of the reply, pipes and the host loop
OVERHEAD_MS = 25.0
MIN_MS = 5.0


@attrs.frozen
class TimePlan:
    soft: float | None
    hard: float | None


def plan(limits: Limits, seat: int, pieces_left: int, default_ms: float) -> TimePlan:
    """The budgets of one move (see the module docstring)."""
    if limits.infinite:
        return TimePlan(None, None)
    left, inc = limits.clock(seat)
    if limits.movetime is None and left is None:
        if limits.depth is not None or limits.nodes is not None:
            return TimePlan(None, None)
        return TimePlan(default_ms * 0.6, default_ms)
    hards: list[float] = []
    softs: list[float] = []
    host = limits.budget_ms(seat)
    if host is not None:
        hards.append(host * 0.9 - OVERHEAD_MS / 2)
    if limits.movetime is not None:
        hard = limits.movetime - OVERHEAD_MS
        hards.append(hard)
        softs.append(hard)
    if left is not None:
        moves_left = max(8, min(30, pieces_left + 3))
        if limits.movestogo:
            moves_left = min(moves_left, limits.movestogo)
        usable = max(0.0, left - OVERHEAD_MS)
        share = usable / moves_left + 0.7 * inc
        softs.append(share)
        hards.append(min(share * 2.5, usable / 5 + 0.7 * inc))
    hard = max(MIN_MS, min(hards))
    soft = max(MIN_MS, min(min(softs), hard))
    return TimePlan(soft, hard)
