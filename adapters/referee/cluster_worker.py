"""The worker side of a match on a Dask cluster: one game is one self-contained job.

A `GameJob` holds everything a worker needs to play one scheduled game: the engines of
its seats (command lines, resolved on the worker), the game settings and the opening.
`play_job` plays it and returns the `GameResult`; the referee process writes records,
state and standings. Each worker process keeps its engine processes between jobs in one
background trio thread (`_EnginePool`), as a local worker does between games, so a job
costs no engine start unless the engine must be restarted.

Nothing here is imported by the referee unless a match runs on a cluster.
"""

from __future__ import annotations

import os
import threading
from importlib import metadata
from typing import Any

import attrs
import trio

from adapters.referee.engines import EngineSpec
from adapters.referee.game_loop import GameResult, GameSettings, Player, play_game
from adapters.referee.openings import Opening
from adapters.referee.schedule import Pairing
from rules.registry import game_class
from tei.seat import EngineSeat

#: for tests only: a worker started with this variable reports it as its version
VERSION_OVERRIDE = "TEI_HOST_TEST_VERSION"


def project_version() -> str:
    """The installed version of the project (what every worker must share)."""
    override = os.environ.get(VERSION_OVERRIDE)
    if override:
        return override
    try:
        return metadata.version("tei-host")
    except metadata.PackageNotFoundError:
        return "unknown"


@attrs.frozen
class GameJob:
    """One scheduled game, as sent to a worker."""

    pairing: Pairing
    #: the match's engines by index (the pairing's seats index into it)
    engines: tuple[EngineSpec, ...]
    settings: GameSettings
    opening: Opening | None = None
    #: the referee's address for logs (which match a job belongs to)
    match: str = ""


def play_job(job: GameJob) -> GameResult:
    """Play one game on this worker (the Dask task)."""
    return _pool().play(job)


class _EnginePool:
    """One trio thread per worker process that owns its engine seats."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._token: trio.lowlevel.TrioToken | None = None
        self._nursery: trio.Nursery | None = None
        self._seats: dict[tuple[str, int], EngineSeat] = {}
        threading.Thread(target=trio.run, args=(self._main,), daemon=True).start()
        self._ready.wait()

    async def _main(self) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self._token = trio.lowlevel.current_trio_token()
            self._ready.set()
            await trio.sleep_forever()

    def play(self, job: GameJob) -> GameResult:
        result: GameResult = trio.from_thread.run(self._play, job, trio_token=self._token)
        return result

    async def _play(self, job: GameJob) -> GameResult:
        assert self._nursery is not None
        players = []
        for engine in job.pairing.seats:
            spec = job.engines[engine]
            key = (repr(spec.launch), engine)
            if key not in self._seats:
                self._seats[key] = EngineSeat(
                    spec.launch,
                    nursery=self._nursery,
                    label=spec.name,
                    timeout=job.settings.timeout,
                )
            players.append(Player(spec, self._seats[key], engine))
        start = _start_position(job)
        result = await play_game(job.pairing, players, job.settings, job.opening, start)
        for player in players:
            if player.engine in result.restart or player.spec.restart:
                await player.seat.close()
        return result


def _start_position(job: GameJob) -> Any:
    rules = dict(job.settings.rules)
    if job.opening is not None:
        return job.opening.start(job.settings.game, rules)
    return game_class(job.settings.game).new(rules)


_POOL: _EnginePool | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> _EnginePool:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = _EnginePool()
        return _POOL
