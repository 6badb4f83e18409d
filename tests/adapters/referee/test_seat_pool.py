"""adapters/referee/seat_pool.py and executors.py against the test engine (real processes):
a pool keeps a worker's engines between games and closes a crashed one; the local
executor plays every game the queue gives and hands each back."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
import trio

from adapters.referee.config import build_config
from adapters.referee.executors import LocalExecutor
from adapters.referee.game_loop import GameResult
from adapters.referee.runner import Match
from adapters.referee.seat_pool import GameJob, SeatPool
from tests.support.referee import refbot, settings

pytestmark = pytest.mark.process


def match(*engines: dict[str, Any], games: int = 2) -> Match:
    """A match whose games are queued (as `run` queues them) for `take()`."""
    m = Match.open(build_config(settings(list(engines), games=games)))
    m._queue.extend(m.schedule)
    return m


async def test_a_pool_keeps_each_engine_between_games(nursery: trio.Nursery) -> None:
    m = match(refbot("good", name="one"), refbot("good", name="two"))
    pool = SeatPool(nursery, timeout=5.0, suffix="@1")
    try:
        for _ in range(2):
            job = m.take()
            assert job is not None
            result = await pool.play(job)
            assert result.culprit is None
        seats = list(pool._seats.values())
        assert len(seats) == 2 and all(s.generation == 1 for s in seats)
        assert sorted(s.label for s in seats) == ["one@1", "two@1"]
    finally:
        await pool.aclose()
    assert all(s.engine is None for s in seats)


async def test_a_pool_closes_the_seat_of_an_engine_that_crashed(nursery: trio.Nursery) -> None:
    m = match(refbot("good", name="good"), refbot("crash", name="crash"))
    pool = SeatPool(nursery, timeout=5.0)
    try:
        job = m.take()
        assert job is not None
        result = await pool.play(job)
        crashed = job.engines.index(next(e for e in job.engines if e.name == "crash"))
        assert result.culprit == crashed and crashed in result.restart
        by_name = {s.label: s for s in pool._seats.values()}
        assert by_name["crash"].engine is None  # closed: its next game starts it again
        assert by_name["good"].engine is not None  # kept
    finally:
        await pool.aclose()


@attrs.define
class Queue:
    """A GameQueue over a match's jobs that records what comes back."""

    jobs: list[GameJob]
    publish: None = None
    done: list[tuple[GameResult, str | None]] = attrs.field(factory=list)
    dropped_jobs: list[GameJob] = attrs.field(factory=list)

    def take(self) -> GameJob | None:
        return self.jobs.pop(0) if self.jobs else None

    def game_done(self, result: GameResult, record: str | None = None) -> None:
        self.done.append((result, record))

    def dropped(self, job: GameJob) -> None:
        self.dropped_jobs.append(job)

    @property
    def stopping(self) -> bool:
        return False


def jobs_of(m: Match) -> list[GameJob]:
    out = []
    while (job := m.take()) is not None:
        out.append(job)
    return out


async def test_the_local_executor_plays_every_game_and_renders_each_record() -> None:
    m = match(refbot("good", name="one"), refbot("good", name="two"), games=4)
    queue = Queue(jobs_of(m))
    await LocalExecutor(workers=2, timeout=5.0).run(queue)
    assert len(queue.done) == 4 and not queue.dropped_jobs
    assert sorted(r.pairing.index for r, _ in queue.done) == [0, 1, 2, 3]
    assert all(record and "[Result" in record for _, record in queue.done)


async def test_a_cancelled_executor_drops_the_game_it_was_playing() -> None:
    m = match(refbot("hang", name="hang"), refbot("good", name="good"))
    queue = Queue(jobs_of(m))
    with trio.move_on_after(1.0):
        await LocalExecutor(workers=1, timeout=10.0).run(queue)
    assert not queue.done and len(queue.dropped_jobs) == 1
