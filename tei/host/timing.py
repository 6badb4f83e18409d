"""When the engine host stops a search and when it answers for the bot.

Every `go` is clamped before use (`GoLimits.clamped`: times to 0..2^31 - 1 ms, counts to
1..2^63 - 1), so no deadline can overflow a clock or a wait; the host says what it
clamped in an `info string`.
"""

from __future__ import annotations

import attrs

from bots.base import Limits
from tei import protocol as p


def budget_ms(limits: Limits, seat: int, moves_left: int = 8) -> float | None:
    """The most one move may take (the host's rule), or None when only stop/depth/nodes
    end it: an eighth of the clock (or of it over `movestogo`) plus most of the
    increment, at most half the clock. The host stops a search there; bots get it as
    `Limits.cap_ms` and plan within it."""
    if limits.infinite:
        return None
    budgets: list[float] = []
    if limits.movetime is not None:
        budgets.append(max(1.0, limits.movetime * 0.95))
    left, inc = limits.clock(seat)
    if left is not None:
        togo = limits.movestogo or moves_left
        share = left / max(1, togo) + inc * 0.8
        budgets.append(max(1.0, min(share, left * 0.5)))
    return min(budgets) if budgets else None


#: the least time between the stop flag and the host's own answer (a GIL switch or two)
STOP_GAP_MS = 10.0


def search_deadlines(
    limits: Limits, seat: int = 0, overrun_grace_ms: float | None = None
) -> tuple[float | None, float | None]:
    """(soft, hard) seconds after `go` for the bot's `limits` (see `limits_of`) when
    `seat` moves: at soft the stop flag is set, at hard the host answers itself. None
    when only `stop`, depth or nodes end the search. With `overrun_grace_ms` (a referee's
    margin, `--overrun-grace`) the host waits for the bot until the move's whole time
    (the movetime, or the side's clock) plus that grace, as the referee's clock does."""
    budget = limits.cap_ms
    if budget is None:
        return None, None
    soft = max(budget * 0.5, min(budget * 0.95, budget - STOP_GAP_MS))
    hard = budget + min(budget * 0.2, 100.0)
    if limits.movetime is not None:
        hard = min(hard, limits.movetime * 0.97, limits.movetime - 5.0)
    if overrun_grace_ms is not None:
        times = [limits.movetime, limits.clock(seat)[0]]
        hard = max(hard, min(t for t in times if t is not None) + overrun_grace_ms)
    return soft / 1000.0, max(soft, hard) / 1000.0


def limits_of(go: p.Go, seat: int) -> Limits:
    """The bot's limits of a `go` for the side `seat`, with the host's cap (`budget_ms`)."""
    limits = Limits(**go.limit_values())
    return attrs.evolve(limits, cap_ms=budget_ms(limits, seat))
