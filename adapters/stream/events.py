"""What a match (or a playtak bot) tells its watchers, as typed events.

Events are small frozen values, built from what the game loop and the runner already
know; `to_json` gives the plain dict a browser receives. `game` is the id of a game
(the schedule index in a match, a running count in playtak). Clocks are the time left
per seat in ms, None for a seat without a clock.
"""

from __future__ import annotations

from typing import Any

import attrs

Clocks = tuple[float | None, ...]


def _clean(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, float):
        return round(value, 3)
    return value


class _Event:
    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict with the event's `type` (its class name)."""
        data = attrs.asdict(self, recurse=True)  # type: ignore[arg-type]
        return {"type": type(self).__name__, **_clean(data)}


@attrs.frozen
class GameStarted(_Event):
    """A game begins: who plays which seat, the clocks and the start picture."""

    game: int
    label: str
    game_name: str
    players: tuple[str, ...]
    seat_names: tuple[str, ...]
    clocks_ms: Clocks
    position: str
    svg: str
    #: actions already played (an opening), as text
    moves: tuple[str, ...] = ()
    #: a heading for the board ("round 3", "vs alice on playtak")
    title: str = ""


@attrs.frozen
class MovePlayed(_Event):
    """An action was played: its text, the seat that played it, clocks after it."""

    game: int
    ply: int
    seat: int
    move: str
    elapsed_ms: float
    clocks_ms: Clocks
    position: str
    svg: str
    #: the seat to act next (None when the game is over)
    turn: int | None = None


@attrs.frozen
class EngineInfo(_Event):
    """What an engine reported about its search: depth, score (as text) and pv."""

    game: int
    seat: int
    depth: int | None = None
    score: str | None = None
    pv: tuple[str, ...] = ()
    nodes: int | None = None


@attrs.frozen
class GameOver(_Event):
    """A game ended; `record` is its full text (PTN for Tak) for download."""

    game: int
    result: str
    termination: str
    reason: str
    plies: int
    record: str
    players: tuple[str, ...] = ()
    label: str = ""
    detail: str = ""
    #: the file extension of the record ("ptn" for Tak, "txt" otherwise)
    record_format: str = "ptn"


@attrs.frozen
class StandingRow:
    """One line of the standings; `elo`, `low`, `high` None when unknown or infinite."""

    name: str
    games: int
    points: float
    wins: int
    draws: int
    losses: int
    elo: float | None = None
    low: float | None = None
    high: float | None = None
    #: the interval as the terminal prints it ("+35.2 +- 20.1", "+inf [+167.4, +inf]")
    elo_text: str = "-"


@attrs.frozen
class SprtStatus:
    """The SPRT's bounds and its log-likelihood ratio now."""

    elo0: float
    elo1: float
    lower: float
    upper: float
    llr: float
    decision: str | None = None


@attrs.frozen
class Standings(_Event):
    """The table after a game, with the games done of the total and the match status."""

    rows: tuple[StandingRow, ...]
    done: int
    total: int
    status: str = "running"
    sprt: SprtStatus | None = None


@attrs.frozen
class MatchStarted(_Event):
    """A match begins (its engines answered): who plays, which game, how many games."""

    players: tuple[str, ...]
    game_name: str
    to_play: int


@attrs.frozen
class MatchStopping(_Event):
    """A match stops taking new games: `how` is "draining" (the first Ctrl-C: the running
    games are finished), "stopping" (the second: now, unfinished games unrecorded) or
    "sprt" (the SPRT decided; `status` says how)."""

    how: str
    status: str


Event = GameStarted | MovePlayed | EngineInfo | GameOver | Standings | MatchStarted | MatchStopping
