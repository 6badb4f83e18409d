"""When the engine host stops a search and when it answers for the bot."""

from __future__ import annotations

from tei import protocol as p
from tei.driver import Limits


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
    return Limits(
        wtime=go.wtime,
        btime=go.btime,
        winc=go.winc,
        binc=go.binc,
        movestogo=go.movestogo,
        depth=go.depth,
        nodes=go.nodes,
        movetime=go.movetime,
        infinite=go.infinite,
    )
