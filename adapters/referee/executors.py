"""Where a match's games are played. An executor takes games from the match (`GameQueue`:
`take()` a `GameJob`, `game_done(result)` or `dropped(job)` for each) and plays them;
the match keeps the judging of results, the records, the state file and the standings.

Two executors implement `Executor`: `LocalExecutor` (N workers in this process, each with
its `SeatPool`) and `ClusterExecutor` (the jobs on a Dask cluster, `adapters.referee.
cluster`; imported only when a match runs there).
"""

from __future__ import annotations

from typing import Protocol

import trio

from adapters.referee.game_loop import GameResult
from adapters.referee.seat_pool import GameJob, SeatPool
from adapters.stream.announce import Publish
from tei.transcript import Transcript


class GameQueue(Protocol):
    """What a match offers its executor."""

    #: the match's event sink, for the moves of the games played in this process
    publish: Publish | None

    def take(self) -> GameJob | None:
        """The next game to play (running from now on), or None: none is left or the
        match is stopping."""

    def game_done(self, result: GameResult, record: str | None = None) -> None:
        """A game taken is over (`record`: its record already rendered)."""

    def dropped(self, job: GameJob) -> None:
        """A game taken will not be played (cancelled before it began)."""

    @property
    def stopping(self) -> bool:
        """True once the match takes no new games."""


class Executor(Protocol):
    async def run(self, games: GameQueue) -> None:
        """Play games from `games` until it gives none; return when all are done."""


class LocalExecutor:
    """`workers` games at a time in this process, each worker keeping its engines."""

    def __init__(self, workers: int, timeout: float, transcript: Transcript | None = None):
        self.workers = workers
        self.timeout = timeout
        self.transcript = transcript

    async def run(self, games: GameQueue) -> None:
        async with trio.open_nursery() as nursery:
            for number in range(self.workers):
                nursery.start_soon(self._worker, games, number)

    async def _worker(self, games: GameQueue, number: int) -> None:
        async with trio.open_nursery() as processes:
            suffix = f"@{number + 1}" if self.workers > 1 else ""
            pool = SeatPool(
                processes, timeout=self.timeout, suffix=suffix, transcript=self.transcript
            )
            try:
                while (job := games.take()) is not None:
                    try:
                        result = await pool.play(job, games.publish)
                    except BaseException:
                        games.dropped(job)
                        raise
                    # rendering a Tak record judges its tak/tinue marks: off the event loop,
                    # and shielded so that a finished game is never lost to a cancel
                    with trio.CancelScope(shield=True):
                        text = await trio.to_thread.run_sync(result.record.render)
                    games.game_done(result, text)
            finally:
                await pool.aclose()
