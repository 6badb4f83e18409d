"""No engine process survives the driver: quit, SIGTERM, SIGKILL, helpers, cancellation."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import trio

from tei.driver import EngineTerminated, Limits, Transcript, open_engine
from tei.transcript import STDERR
from tests.support.engines.procs import alive, fake, fake_processes, group_members
from tests.support.engines.toy_game import PlaceGame

pytestmark = pytest.mark.process


@pytest.fixture(autouse=True)
def _no_engine_left() -> Iterator[None]:
    yield
    assert fake_processes() == []


def assert_gone(pid: int) -> None:
    assert not alive(pid)
    assert group_members(pid) == []


async def test_engine_ignoring_quit_is_terminated() -> None:
    async with open_engine(fake("ignore-quit"), quit_grace=0.2) as engine:
        pid = engine.pid
    assert engine.returncode is not None and engine.returncode < 0
    assert_gone(pid)


async def test_engine_ignoring_quit_and_sigterm_is_killed() -> None:
    argv = fake("ignore-quit", "--ignore-sigterm")
    async with open_engine(argv, quit_grace=0.2, term_grace=0.2) as engine:
        await engine.ping(timeout=30)  # the handler is installed before the first line is read
        pid = engine.pid
    assert engine.returncode == -9
    assert_gone(pid)


async def test_helper_processes_of_the_engine_die_with_it() -> None:
    transcript = Transcript()
    async with open_engine(fake("good", "--spawn-child"), transcript=transcript) as engine:
        await engine.ping(timeout=30)
        pid = engine.pid
    lines = [e.line for e in transcript if e.direction == STDERR and e.line.startswith("child")]
    child = int(lines[0].split()[1])
    assert_gone(pid)
    assert not alive(child)


async def test_cancelled_caller_leaves_nothing_behind() -> None:
    pids: list[int] = []
    with trio.CancelScope() as scope:
        async with open_engine(fake("ignore-stop"), quit_grace=0.2) as engine:
            pids.append(engine.pid)
            # cancelled mid-search (the clock starts once the engine is up)
            scope.deadline = trio.current_time() + 0.5
            game = PlaceGame(5)
            await engine.play(game, Limits(infinite=True), deadline=trio.current_time() + 60)
    assert scope.cancelled_caught
    assert_gone(pids[0])


async def test_exception_in_the_body_propagates_unwrapped_and_kills() -> None:
    pids: list[int] = []
    with pytest.raises(KeyError):
        async with open_engine(
            fake("ignore-quit", "--ignore-sigterm"), quit_grace=0.1, term_grace=0.1
        ) as engine:
            pids.append(engine.pid)
            raise KeyError("boom")
    assert_gone(pids[0])


async def test_driver_error_propagates_unwrapped() -> None:
    with pytest.raises(EngineTerminated):
        async with open_engine(fake("crash")) as engine:
            await engine.new_game("tak", {"size": "5"})
            await engine.play(PlaceGame(5), Limits(movetime=10), deadline=trio.current_time() + 30)


async def test_several_engines_at_once_all_end() -> None:
    pids: list[int] = []

    async def run(mode: str) -> None:
        async with open_engine(fake(mode), quit_grace=0.2, term_grace=0.2) as engine:
            pids.append(engine.pid)
            await trio.sleep(0.05)

    async with trio.open_nursery() as nursery:
        for mode in ("good", "ignore-quit", "slow", "good"):
            nursery.start_soon(run, mode)
    assert len(pids) == 4
    for pid in pids:
        assert_gone(pid)
    assert os.getpgid(0) not in pids


@pytest.mark.parametrize("delay", [0.0, 0.001, 0.005, 0.02, 0.05, 0.1])
async def test_cancellation_at_any_moment_leaves_nothing(delay: float) -> None:
    """Cancelled while starting, shaking hands, preparing or searching."""
    with trio.move_on_after(delay):
        async with open_engine(fake("slow", "--delay", "5"), quit_grace=0.2) as engine:
            await engine.new_game("tak", {"size": "5"})
            await engine.play(PlaceGame(5), Limits(movetime=5000), deadline=trio.current_time() + 9)
    assert fake_processes() == []


async def test_an_engine_whose_owner_is_cancelled_quits_without_waiting_out_the_graces() -> None:
    """The task that reaps the engine is cancelled with the owner's nursery; the shutdown
    must still see the engine exit on `quit` instead of waiting out both graces (here a
    minute each) and the final 5 s."""
    pids: list[int] = []
    started = trio.Event()
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:

            async def own() -> None:
                async with open_engine(fake(), quit_grace=60, term_grace=60) as engine:
                    pids.append(engine.pid)
                    started.set()
                    await trio.sleep_forever()

            nursery.start_soon(own)
            await started.wait()
            nursery.cancel_scope.cancel()
    assert_gone(pids[0])
