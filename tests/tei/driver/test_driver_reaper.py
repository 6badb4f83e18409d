"""An engine's exit is seen apart from its pipes, and nothing it started outlives it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest
import trio

from tei.check import check_engine
from tei.driver import EngineTerminated, Limits, open_engine
from tests.support.engines.procs import alive, fake, fake_processes, wait_dead, with_token
from tests.support.engines.toy_game import PlaceGame

pytestmark = pytest.mark.process


@pytest.fixture(autouse=True)
def _no_engine_left() -> Iterator[None]:
    yield
    assert fake_processes() == []


@pytest.fixture
def token() -> str:
    return f"orphan-{uuid.uuid4().hex}"


async def test_an_exit_behind_a_helper_holding_stdout_is_a_crash(token: str) -> None:
    async with open_engine(fake("crash", "--orphan", token)) as engine:
        await engine.ping(timeout=30)
        assert with_token(token), "the helper did not start"
        with pytest.raises(EngineTerminated) as caught:
            # a deadline far off: the exit must be seen long before it
            await engine.play(PlaceGame(), Limits(movetime=100), deadline=trio.current_time() + 60)
    assert caught.value.exit_code == 3
    assert with_token(token) == []


async def test_helpers_in_their_own_session_die_at_shutdown(token: str) -> None:
    async with open_engine(fake("good", "--orphan", token)) as engine:
        await engine.ping(timeout=30)
        pid = engine.pid
        assert with_token(token), "the helper did not start"
    assert not alive(pid)
    assert with_token(token) == []


async def test_an_engine_that_closed_its_output_but_runs_is_named_so() -> None:
    async with open_engine(fake("close-stdout")) as engine:
        with pytest.raises(EngineTerminated) as caught:
            await engine.play(PlaceGame(), Limits(movetime=100), deadline=trio.current_time() + 60)
        assert caught.value.still_running
        assert "closed its output while waiting for bestmove" in str(caught.value)
        assert "exit code" not in str(caught.value)


async def test_check_leaves_no_orphans(token: str) -> None:
    results = await check_engine(fake("crash", "--orphan", token), timeout=5)
    assert any(not r.passed for r in results)
    assert with_token(token) == []


PARENT = """
import sys, trio
sys.path[:0] = sys.argv[2:]
from tei.driver import open_engine
from tests.support.engines.procs import fake


async def main() -> None:
    async with open_engine(fake("good", "--orphan", sys.argv[1])) as engine:
        await engine.ping(timeout=30)
        print(engine.pid, flush=True)
        await trio.sleep_forever()

trio.run(main)
"""


def test_an_engine_does_not_outlive_a_killed_parent(token: str) -> None:
    here = os.path.dirname(__file__)
    root = os.path.dirname(here)
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, token, here, root], stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        engine_pid = int(parent.stdout.readline())
        assert alive(engine_pid)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    wait_dead(engine_pid, 10.0)
    for pid in with_token(token):  # the helper left the engine's session: not guaranteed
        os.kill(pid, signal.SIGKILL)
