"""The match schedule: which engines play which game, in which seats, with which opening.

Pure functions only. A schedule is a list of `Pairing` in the order the games are
started and recorded. Engines meet in *encounters* (a set of engines, one per seat).
Inside an encounter games come in *groups*: one group plays one opening once in every
seat rotation (two games with colours swapped for two seats; N games for N seats, each
engine sitting once in every seat). All encounters of a round use the same openings, so
the engines of a round-robin face the same positions.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

import attrs

from adapters.referee.errors import RefereeError

TOURNAMENTS = ("round-robin", "gauntlet")
#: the most games a match may schedule (also the ceiling of --games and --rounds)
MAX_GAMES = 100_000


class ScheduleError(RefereeError):
    """Settings that do not give a schedule (the message names them)."""


@attrs.frozen
class Pairing:
    """One scheduled game."""

    #: 0-based position in the schedule (the record order)
    index: int
    #: 1-based round number
    round: int
    #: engine index per seat (seat 0 first)
    seats: tuple[int, ...]
    #: index into the opening book, or None for the game's start position
    opening: int | None
    #: the game group (same encounter, round and opening) this game belongs to
    group: int
    #: the engines of the encounter in their first-game order
    encounter: tuple[int, ...]

    @property
    def label(self) -> str:
        """Round and game number, e.g. "2.5" (the live view's and messages' name of a game)."""
        return f"{self.round}.{self.index + 1}"


def encounters(engines: int, seats: int, tournament: str) -> list[tuple[int, ...]]:
    """The sets of engines that meet, each once per round.

    round-robin: every combination of `seats` engines out of `engines`.
    gauntlet: engine 0 with every combination of `seats - 1` of the others.
    """
    if seats < 2:
        raise ScheduleError(f"a game needs at least 2 seats, not {seats}")
    if tournament not in TOURNAMENTS:
        raise ScheduleError(f"unknown tournament {tournament!r}; known: {', '.join(TOURNAMENTS)}")
    if engines < seats:
        raise ScheduleError(f"{seats} seats need at least {seats} engines, got {engines}")
    if tournament == "round-robin":
        return list(itertools.combinations(range(engines), seats))
    if engines == seats:
        return [tuple(range(engines))]
    return [(0, *rest) for rest in itertools.combinations(range(1, engines), seats - 1)]


def encounter_count(engines: int, seats: int, tournament: str) -> int:
    """How many encounters `encounters` gives (counted, not listed)."""
    if tournament == "gauntlet" and engines > seats:
        return math.comb(engines - 1, seats - 1)
    return math.comb(engines, seats) if engines >= 0 and seats >= 0 else 0


def rotate(engines: tuple[int, ...], shift: int) -> tuple[int, ...]:
    """Seat assignment number `shift` of an encounter: each engine moves `shift` seats on.

    Cyclic shifts keep team partners (seats 0+2 and 1+3) together while swapping sides.
    """
    n = len(engines)
    shift %= n
    return tuple(engines[(seat - shift) % n] for seat in range(n))


def make_schedule(
    engines: int,
    *,
    seats: int = 2,
    tournament: str = "round-robin",
    games: int = 2,
    rounds: int = 1,
    openings: int = 0,
    order: str = "sequential",
    seed: int | None = None,
    start: int = 0,
) -> list[Pairing]:
    """All games of a match.

    `games` games per encounter and round (a multiple of `seats` keeps every seat rotation
    complete); `openings` is the book size (0 for no book); `order` is "sequential" or
    "random" (shuffled with `seed`); `start` is the first book entry used.
    """
    if games < 1:
        raise ScheduleError(f"games must be at least 1, not {games}")
    if rounds < 1:
        raise ScheduleError(f"rounds must be at least 1, not {rounds}")
    if order not in ("sequential", "random"):
        raise ScheduleError(f"unknown opening order {order!r}; known: sequential, random")
    if openings < 0 or start < 0:
        raise ScheduleError("opening count and start must not be negative")
    total = encounter_count(engines, seats, tournament) * games * rounds
    if total > MAX_GAMES:
        raise ScheduleError(
            f"the schedule has {total} games (encounters x --games x --rounds);"
            f" a match has at most {MAX_GAMES}"
        )
    meets = encounters(engines, seats, tournament)
    groups_per_encounter = -(-games // seats)
    book = opening_sequence(openings, rounds * groups_per_encounter, order, seed, start)
    out: list[Pairing] = []
    group_id = 0
    for rnd in range(rounds):
        for meet in meets:
            for g in range(games):
                group_in_round = g // seats
                opening = book[rnd * groups_per_encounter + group_in_round] if book else None
                out.append(
                    Pairing(
                        index=len(out),
                        round=rnd + 1,
                        seats=rotate(meet, g % seats),
                        opening=opening,
                        group=group_id + group_in_round,
                        encounter=meet,
                    )
                )
            group_id += groups_per_encounter
    return out


def opening_sequence(
    size: int, count: int, order: str, seed: int | None, start: int = 0
) -> list[int]:
    """`count` book indexes: sequential from `start` (wrapping), or a seeded shuffle.

    A shuffle uses every entry once before any entry repeats.
    """
    if size <= 0:
        return []
    if order == "sequential":
        return [(start + i) % size for i in range(count)]
    rng = random.Random(seed)
    out: list[int] = []
    while len(out) < count:
        deck = list(range(size))
        rng.shuffle(deck)
        out.extend(deck)
    return out[:count]


def alignment_warning(games: int, seats: int) -> str | None:
    """A warning when `games` leaves a seat rotation incomplete (unfair colours)."""
    if games % seats:
        return (
            f"--games {games} is not a multiple of {seats}: some openings are not "
            "played from every seat"
        )
    return None


def pending(schedule: Sequence[Pairing], done: set[int]) -> list[Pairing]:
    """The games of a schedule that are not finished yet, in schedule order."""
    return [p for p in schedule if p.index not in done]
