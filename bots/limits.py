"""What a bot is given and what it reports: the limits of one search and a progress report.

The engine host builds `Limits` from a `go` line and adds the time at which it will stop
the search (`cap_ms`); the host turns each `Info` into an `info` line. Bots never import
the host or the driver: these types are theirs.
"""

from __future__ import annotations

import attrs

from rules.game import clock_side


@attrs.frozen
class GoFields:
    """The limits TEI `go` gives one search (times in milliseconds): the bots' `Limits`
    and the protocol's `tei.protocol.GoLimits` are these fields."""

    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    infinite: bool = False

    def clock(self, seat: int) -> tuple[int | None, int | None]:
        """(time left, increment) of a seat, as given (`rules.game.clock_side`: even
        seats read w*, odd seats b*)."""
        side = clock_side(seat)
        return getattr(self, f"{side}time"), getattr(self, f"{side}inc")


@attrs.frozen
class Limits(GoFields):
    """The limits of one search, as TEI `go` gives them (times in milliseconds), and the
    host's cap on this move."""

    #: the most this move may take (ms): the engine host stops the search there; None
    #: when no host set one (a bot run directly plans from the clock alone)
    cap_ms: float | None = None

    def clock(self, seat: int) -> tuple[int | None, int]:
        """(time left, increment) of a seat, a missing increment as 0."""
        left, inc = super().clock(seat)
        return left, inc or 0


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
