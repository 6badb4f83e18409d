"""The typed words of a match: how a game ended (`Termination`), where the match stands
(`Status`) and an engine's move times in one game (`MoveTimes`).

An enum's value is the word the records, the state file and the JSON summary write.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

import attrs

from tei.seat import FaultKind


class Termination(enum.StrEnum):
    """How a game ended (`termination:"..."` in a record): by the rules, by an engine's
    fault (the values of `FaultKind`) or by an adjudication."""

    NORMAL = "normal"
    TIME_FORFEIT = FaultKind.TIME_FORFEIT.value
    STALLED = FaultKind.STALLED.value
    CRASHED = FaultKind.CRASHED.value
    ILLEGAL = FaultKind.ILLEGAL.value
    MALFORMED = FaultKind.MALFORMED.value
    BOT_ERROR = FaultKind.BOT_ERROR.value
    ADJUDICATED = "adjudicated"

    @classmethod
    def of_fault(cls, kind: FaultKind) -> Termination:
        return cls(kind.value)

    @property
    def is_fault(self) -> bool:
        """Whether an engine was at fault (it forfeited the game)."""
        return self not in (Termination.NORMAL, Termination.ADJUDICATED)


class Status(enum.StrEnum):
    """Where a match stands; an error's message is kept apart (`MatchProgress.error`)."""

    RUNNING = "running"
    FINISHED = "finished"
    #: Ctrl-C or SIGTERM
    INTERRUPTED = "interrupted"
    #: it returned with games left and no other reason
    STOPPED = "stopped"
    SPRT_H0 = "sprt H0"
    SPRT_H1 = "sprt H1"
    #: the match stopped on an error (a file it could not write, an exception)
    ERROR = "error"

    @classmethod
    def sprt(cls, decision: str) -> Status:
        """The status of an SPRT decision ("H0" or "H1")."""
        return cls(f"sprt {decision}")

    @property
    def ended(self) -> bool:
        """Whether the match is over (finished, or decided by the SPRT): its state file
        says so and a new match may replace it."""
        return self in (Status.FINISHED, Status.SPRT_H0, Status.SPRT_H1)


def status_text(status: Status, error: str = "") -> str:
    """A status as the reports write it: `finished`, `sprt H1`, `error: WHY`."""
    return f"{status.value}: {error}" if status is Status.ERROR else status.value


@attrs.frozen
class MoveTimes:
    """An engine's moves in one game (or summed over games) as the referee measured them."""

    engine: int
    moves: int = 0
    #: the measured times, summed and the longest (ms)
    total_ms: float = 0.0
    max_ms: float = 0.0
    #: moves for which the engine reported its time (`info time`), and the sum of their
    #: latency (measured minus reported, ms)
    reported: int = 0
    latency_ms: float = 0.0

    def add(self, ms: float, reported_ms: float | None) -> MoveTimes:
        """With one more move that took `ms` (the engine said `reported_ms`, or nothing)."""
        told = reported_ms is not None
        return MoveTimes(
            self.engine,
            self.moves + 1,
            self.total_ms + ms,
            max(self.max_ms, ms),
            self.reported + told,
            self.latency_ms + (ms - reported_ms if reported_ms is not None else 0.0),
        )

    def __add__(self, other: MoveTimes) -> MoveTimes:
        """The moves of two games of the same engine."""
        return MoveTimes(
            self.engine,
            self.moves + other.moves,
            self.total_ms + other.total_ms,
            max(self.max_ms, other.max_ms),
            self.reported + other.reported,
            self.latency_ms + other.latency_ms,
        )

    def to_json(self) -> list[float]:
        """As the state file keeps it: `[engine, moves, total, max, reported, latency]`."""
        return [
            self.engine,
            self.moves,
            self.total_ms,
            self.max_ms,
            self.reported,
            self.latency_ms,
        ]


#: an engine's times as a 6-tuple in the state file's order
TimesTuple = tuple[int, int, float, float, int, float]


def move_times(value: Iterable[MoveTimes | TimesTuple]) -> tuple[MoveTimes, ...]:
    """Per-engine times as given: MoveTimes, or 6-tuples in the state file's order."""
    return tuple(t if isinstance(t, MoveTimes) else MoveTimes(*t) for t in value)
