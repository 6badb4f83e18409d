"""The driver's value types: the limits of one search and one progress report of it.

Bots take these from here (through `bots.base`); the driver never imports a bot.
"""

from __future__ import annotations

import attrs

from tei.protocol_messages import GoLimits

#: the largest time (ms) the driver sends in `go`: 2**31 - 1 ms (about 24.8 days), the
#: largest value an engine that reads times into a signed 32-bit integer can take
MAX_TIME_MS = 2**31 - 1

#: the largest count (`depth`, `nodes`, `movestogo`) the driver sends: a signed 64-bit int
MAX_COUNT = 2**63 - 1


@attrs.frozen
class Limits(GoLimits):
    """The limits of one search, as TEI `go` gives them (times in milliseconds; the
    fields are `GoLimits`')."""

    def clock(self, seat: int) -> tuple[int | None, int]:
        """(time left, increment) of a seat: even seats read w*, odd seats b*."""
        if seat % 2 == 0:
            return self.wtime, self.winc or 0
        return self.btime, self.binc or 0

    def budget_ms(self, seat: int, moves_left: int = 8) -> float | None:
        """The most one move may take, or None when only stop/depth/nodes end it: an
        eighth of the clock (or of it over `movestogo`) plus most of the increment, at
        most half the clock. The host stops a search there; a bot plans within it."""
        if self.infinite:
            return None
        budgets: list[float] = []
        if self.movetime is not None:
            budgets.append(max(1.0, self.movetime * 0.95))
        left, inc = self.clock(seat)
        if left is not None:
            togo = self.movestogo or moves_left
            share = left / max(1, togo) + inc * 0.8
            budgets.append(max(1.0, min(share, left * 0.5)))
        return min(budgets) if budgets else None


@attrs.frozen
class Info:
    """One progress report of a search; every field optional."""

    depth: int | None = None
    seldepth: int | None = None
    score_cp: int | None = None
    #: "win" / "loss" / "draw" when the search proved the result
    solved: str | None = None
    nodes: int | None = None
    nps: int | None = None
    time_ms: int | None = None
    pv: tuple[str, ...] = ()
    string: str | None = None
