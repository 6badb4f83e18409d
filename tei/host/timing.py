"""When the engine host stops a search and when it answers for the bot.

Every time of a `go` is clamped before use: a negative one to 0, one above `MAX_TIME_MS`
(2^31 - 1 ms, about 24.8 days) to that ceiling, so no deadline can overflow a clock or a
wait. The host says what it clamped in an `info string`.
"""

from __future__ import annotations

from typing import Any

import attrs

from tei import protocol as p
from tei.driver import MAX_TIME_MS, Limits
from tei.lines import quote

#: the `go` fields that are times (each is clamped to 0..MAX_TIME_MS, the driver's ceiling)
GO_TIMES = ("wtime", "btime", "winc", "binc", "movetime")


def clamp_times(go: p.Go) -> tuple[p.Go, list[str]]:
    """`go` with every time in 0..MAX_TIME_MS, and a note for each time that was changed."""
    changes: dict[str, Any] = {}
    notes: list[str] = []
    for key in GO_TIMES:
        value = getattr(go, key)
        if value is None or 0 <= value <= MAX_TIME_MS:
            continue
        changes[key] = 0 if value < 0 else MAX_TIME_MS
        notes.append(f"{key} {quote(str(value), 24)} clamped to {changes[key]}")
    return (attrs.evolve(go, **changes) if changes else go), notes


def search_deadlines(limits: Limits, seat: int) -> tuple[float | None, float | None]:
    """(soft, hard) seconds after `go`: at soft the stop flag is set, at hard the host
    answers itself. None when only `stop`, depth or nodes end the search."""
    budget = limits.budget_ms(seat)
    if budget is None:
        return None, None
    # leave the bot at least 10 ms (a GIL switch or two) between the stop flag and the answer
    soft = max(budget * 0.5, min(budget * 0.95, budget - 10.0))
    hard = budget + min(budget * 0.2, 100.0)
    if limits.movetime is not None:
        hard = min(hard, limits.movetime * 0.97, limits.movetime - 5.0)
    return soft / 1000.0, max(soft, hard) / 1000.0


def limits_of(go: p.Go) -> Limits:
    """The bot's limits of a `go`."""
    return Limits(**go.limit_values())
