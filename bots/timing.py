"""Time management of the built-in search bots: how long to think on one move.

`plan(limits, seat, moves_left, default_ms)` returns a `TimePlan` of two budgets in
milliseconds from the start of the search: `soft`, the share of the clock this move
should take, and `hard`, at which a running iteration is abandoned. Both are None when
only `stop`, `depth` or `nodes` end the search. `TimePlan.deepen(elapsed_ms)` says
whether another iteration of iterative deepening is worth starting: each game's search
gives the share of `soft` after which the next depth would likely not finish.

With a clock, a move gets `left / moves_left + 0.7 * increment` (each game estimates
`moves_left`); the hard limit allows up to 2.5 times that, but never more than a fifth
of the clock (after a safety margin for the pipe and the host) nor more than the share
the engine host will enforce (`Limits.cap_ms`, when a host set one). `movetime` is used
almost fully. With no limit at all the search gets `default_ms` (a bot's `DefaultMs`
option).
"""

from __future__ import annotations

import attrs

from bots.base import Limits

#: milliseconds kept back for process start-up of the reply, pipes and the host loop
OVERHEAD_MS = 25.0
MIN_MS = 5.0
#: share of the increment a move may spend on top of its share of the clock
INCREMENT_SHARE = 0.7
#: how far past its share a move may run (hard limit), and the least part of the clock
#: kept for later moves (a fifth at most is spent on one)
SPREAD = 2.5
CLOCK_PART = 5
#: part of the host's enforced share a search may use (the rest answers in time)
HOST_SHARE = 0.9


@attrs.frozen
class TimePlan:
    """Budgets of one move in milliseconds from the search's start (None: no limit)."""

    soft: float | None
    hard: float | None
    #: part of `soft` after which no new iteration starts
    iteration_share: float = 0.45

    def deepen(self, elapsed_ms: float) -> bool:
        """Whether another iteration may start after `elapsed_ms`."""
        return self.soft is None or elapsed_ms <= self.soft * self.iteration_share

    def fits(self, elapsed_ms: float, predicted_ms: float, stretch: float = 1.0) -> bool:
        """Whether an iteration predicted to take `predicted_ms` more, started after
        `elapsed_ms`, ends within the soft budget (times `stretch`, never past the hard
        one). A start within a tenth of the soft budget is always allowed."""
        if self.soft is None:
            return True
        target = self.soft * stretch
        if self.hard is not None:
            target = min(target, self.hard)
        return elapsed_ms <= self.soft * 0.1 or elapsed_ms + predicted_ms <= target


def plan(
    limits: Limits,
    seat: int,
    moves_left: int,
    default_ms: float,
    iteration_share: float = 0.45,
) -> TimePlan:
    """The budgets of one move (see the module docstring)."""
    if limits.infinite:
        return TimePlan(None, None, iteration_share)
    left, inc = limits.clock(seat)
    if limits.movetime is None and left is None:
        if limits.depth is not None or limits.nodes is not None:
            return TimePlan(None, None, iteration_share)
        return TimePlan(default_ms * 0.6, default_ms, iteration_share)
    hards: list[float] = []
    softs: list[float] = []
    host = limits.cap_ms
    if host is not None:
        hards.append(host * HOST_SHARE - OVERHEAD_MS / 2)
    if limits.movetime is not None:
        hard = limits.movetime - OVERHEAD_MS
        hards.append(hard)
        softs.append(hard)
    if left is not None:
        if limits.movestogo:
            moves_left = min(moves_left, limits.movestogo)
        usable = max(0.0, left - OVERHEAD_MS)
        share = usable / max(1, moves_left) + INCREMENT_SHARE * inc
        softs.append(share)
        hards.append(min(share * SPREAD, usable / CLOCK_PART + INCREMENT_SHARE * inc))
    hard = max(MIN_MS, min(hards))
    soft = max(MIN_MS, min(min(softs), hard))
    return TimePlan(soft, hard, iteration_share)
