"""The engine seats of one executor worker, kept between its games (a local worker of
`tei match`, or a Dask worker process): `play(job) -> GameResult`. A `GameJob` holds
everything one scheduled game needs (the engines of its seats, the settings, the
opening), so the same job plays in this process or on a cluster worker.

A seat is made on the first game that needs it and kept for the next ones, so a game
costs no engine start; after a game it is closed (its next game starts the engine again)
when the game says the engine must restart (a crash, a stall, a protocol fault) or the
engine's spec restarts it every game. Seats are keyed by the engine's command line and
its index, so a worker that serves several matches never mixes their engines.
"""

from __future__ import annotations

from typing import Any

import attrs
import trio

from adapters.referee.engines import EngineSpec
from adapters.referee.game_loop import GameResult, GameSettings, Player, play_game
from adapters.referee.openings import Opening
from adapters.referee.schedule import Pairing
from adapters.stream.announce import Publish
from rules.registry import game_class
from tei.seat import EngineSeat
from tei.transcript import Transcript


@attrs.frozen
class GameJob:
    """One scheduled game, as an executor plays it."""

    pairing: Pairing
    #: the match's engines by index (the pairing's seats index into it)
    engines: tuple[EngineSpec, ...]
    settings: GameSettings
    opening: Opening | None = None
    #: the referee's address for logs (which match a job belongs to)
    match: str = ""

    def start(self) -> Any:
        """The game's start position: after the opening, or the rules' own."""
        rules = dict(self.settings.rules)
        if self.opening is not None:
            return self.opening.start(self.settings.game, rules)
        return game_class(self.settings.game).new(rules)


class SeatPool:
    """Engine seats by engine, started in `nursery` as games need them."""

    def __init__(
        self,
        nursery: trio.Nursery,
        *,
        timeout: float,
        suffix: str = "",
        transcript: Transcript | None = None,
    ) -> None:
        self.nursery = nursery
        self.timeout = timeout
        #: added to each engine's name in its seat's label (the worker, "@2")
        self.suffix = suffix
        self.transcript = transcript
        self._seats: dict[tuple[str, int], EngineSeat] = {}

    def _seat(self, spec: EngineSpec, engine: int) -> EngineSeat:
        key = (repr(spec.launch), engine)
        if key not in self._seats:
            self._seats[key] = EngineSeat(
                spec.launch,
                label=spec.name + self.suffix,
                transcript=self.transcript,
                timeout=self.timeout,
                nursery=self.nursery,
            )
        return self._seats[key]

    async def play(self, job: GameJob, publish: Publish | None = None) -> GameResult:
        """Play the game of `job` (its pairing's seats index `job.engines`)."""
        engines = job.engines
        players = [Player(engines[i], self._seat(engines[i], i), i) for i in job.pairing.seats]
        result = await play_game(
            job.pairing, players, job.settings, job.opening, job.start(), publish
        )
        for player in players:
            if player.engine in result.restart or player.spec.restart:
                await player.seat.close()
        return result

    async def aclose(self) -> None:
        """Shut every engine down (shielded: a cancelled worker still reaps them)."""
        with trio.CancelScope(shield=True):
            for seat in self._seats.values():
                await seat.close()
