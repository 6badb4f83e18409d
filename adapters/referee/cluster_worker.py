"""The worker side of a match on a Dask cluster: one game is one self-contained job.

`play_job` plays a `seat_pool.GameJob` (command lines resolved on the worker) with the
same `SeatPool` a local worker uses and returns the `GameResult`; the referee process
writes records, state and standings. Each worker process keeps its seats between jobs in
one background trio thread (`_EnginePool`), as a local worker does between games, so a
job costs no engine start unless the engine must be restarted.

Nothing here is imported by the referee unless a match runs on a cluster. A worker process
imports this module first: it runs `rules.build.guard()` (no stale compiled module) before
the game cores are imported, as the `tei` command does.
"""

from __future__ import annotations

import os
import threading
from importlib import metadata

import trio

from rules import build

build.guard()  # this is a worker process's front door: before any game core is imported
from adapters.referee.game_loop import GameResult  # noqa: E402
from adapters.referee.seat_pool import GameJob, SeatPool  # noqa: E402

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


def play_job(job: GameJob) -> GameResult:
    """Play one game on this worker (the Dask task)."""
    return _pool().play(job)


class _EnginePool:
    """One trio thread per worker process that owns its engine seats."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._token: trio.lowlevel.TrioToken | None = None
        self._nursery: trio.Nursery | None = None
        self._seats: SeatPool | None = None
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
        if self._seats is None:
            assert self._nursery is not None
            self._seats = SeatPool(self._nursery, timeout=job.settings.timeout)
        return await self._seats.play(job)


_POOL: _EnginePool | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> _EnginePool:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = _EnginePool()
        return _POOL
