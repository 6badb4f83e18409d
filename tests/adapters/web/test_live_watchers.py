"""Watchers of the live view never decide a game: the cap on event streams (503 past it),
a watcher that stops reading is disconnected and frees its place, the match ends while a
watcher stalls, and a fast `tei match --live` loses no more games on time with 30 watchers
(half of them never reading) than with none. Real sockets on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from functools import partial

import pytest
import trio

from adapters.stream.announce import game_started
from adapters.stream.bus import EventBus
from adapters.stream.events import GameStarted
from adapters.stream.live_state import LiveState
from adapters.web.live import Watchers, serve_live
from adapters.web.live_feed import serve_while
from rules.tak.game import TakGame
from tests.support.live import get, stalled_watcher, watch, watched_match

pytestmark = pytest.mark.process


def big_update(n: int) -> GameStarted:
    """An event whose patch is about 100 kB (a long title), to fill a socket fast."""
    game = TakGame.new({"size": "5"})
    return game_started(0, str(n), game, ["a", "b"], (1000.0, 1000.0), "x" * 100_000)


async def publish_until_a_send_is_stuck(bus: EventBus, watchers: Watchers) -> None:
    """Publish big updates until a send to some watcher has been blocked for 0.5 s."""
    with trio.fail_after(60):
        n = 0
        while not any(
            time.monotonic() - since > 0.5 for since, _ in list(watchers.sending.values())
        ):
            bus.publish(big_update(n))
            n += 1
            await trio.sleep(0.01)


async def read_to_the_end(sock: trio.socket.SocketType) -> None:
    """What the server had sent, then the end of the connection (fails after 10 s)."""
    with trio.fail_after(10):
        while await sock.recv(1 << 20):
            pass


async def test_past_the_cap_a_watcher_is_refused_with_503(nursery: trio.Nursery) -> None:
    bus = EventBus(LiveState(title="capped"))
    url = await nursery.start(partial(serve_live, bus, "127.0.0.1", 0, watchers=Watchers(2)))
    async with watch(url) as first, watch(url) as second:
        await first.message()
        await second.message()
        status, headers, body = await get(f"{url}events")
        assert status == 503 and b"at most 2" in body and headers["retry-after"]
        assert (await get(f"{url}state"))[0] == 200  # the rest of the page is served
    with trio.fail_after(10):
        await bus.wait_subscribers(0)
    async with watch(url) as third:  # places are freed when watchers leave
        assert (await third.message())[0] == "snapshot"
    bus.close()


async def test_a_watcher_that_stops_reading_is_cut_off_and_frees_its_place(
    nursery: trio.Nursery,
) -> None:
    bus = EventBus(LiveState(title="stall"))
    watchers = Watchers(max_watchers=2, send_timeout=1.0)
    url = await nursery.start(partial(serve_live, bus, "127.0.0.1", 0, watchers=watchers))
    stalled = await stalled_watcher(url)
    received: list[str] = []
    async with watch(url) as reader, trio.open_nursery() as reading:
        await reader.message()
        with trio.fail_after(10):
            await bus.wait_subscribers(2)

        async def read() -> None:
            while True:
                received.append((await reader.message(timeout=30))[0])

        reading.start_soon(read)
        with trio.fail_after(60):
            n = 0
            while watchers.dropped == 0:
                bus.publish(big_update(n))
                n += 1
                await trio.sleep(0.01)
            await bus.wait_subscribers(1)
        assert await stalled.recv(1 << 20)  # what it had been sent, then the end
        await read_to_the_end(stalled)
        count = len(received)
        bus.publish(big_update(n))
        with trio.fail_after(10):
            while len(received) == count:  # the reader goes on
                await trio.sleep(0.01)
        reading.cancel_scope.cancel()
    stalled.close()
    bus.close()


async def test_the_match_ends_while_a_watcher_never_reads() -> None:
    bus = EventBus(LiveState(title="ending"))
    watchers = Watchers(send_timeout=3600.0)  # never cut off for being slow
    urls: list[str] = []
    stalled: list[trio.socket.SocketType] = []

    async def main() -> str:
        stalled.append(await stalled_watcher(urls[0]))
        await publish_until_a_send_is_stuck(bus, watchers)
        return "over"

    try:
        with trio.fail_after(30):
            result = await serve_while(bus, "127.0.0.1", 0, main, urls.append, watchers=watchers)
        assert result == "over"
        # the server's thread is gone (serve_while waits for it a while, then leaves it)
        assert "tei-live-view" not in [t.name for t in threading.enumerate()]
        await read_to_the_end(stalled[0])
    finally:
        for sock in stalled:
            sock.close()


async def test_stopping_the_server_closes_a_watcher_that_never_reads() -> None:
    bus = EventBus(LiveState(title="stopping"))
    watchers = Watchers(send_timeout=3600.0)  # never cut off for being slow
    server = trio.CancelScope()
    stopped = trio.Event()

    async def run(task_status: trio.TaskStatus[str]) -> None:
        with server:
            await serve_live(bus, "127.0.0.1", 0, watchers=watchers, task_status=task_status)
        stopped.set()

    async with trio.open_nursery() as nursery:
        url = await nursery.start(run)
        stalled = await stalled_watcher(url)
        try:
            await publish_until_a_send_is_stuck(bus, watchers)
            server.cancel()
            with trio.move_on_after(10):  # the watcher still reads nothing meanwhile
                await stopped.wait()
            assert stopped.is_set(), "the server was still running 10 s after it was stopped"
            await read_to_the_end(stalled)
        finally:
            stalled.close()  # lets a server that is stuck on it go


@pytest.mark.timeout(600)  # two matches of 8 fast games: 5 s each on a quiet machine
def test_fast_match_loses_no_more_games_on_time_with_30_watchers() -> None:
    """Before the server had its own thread this match lost games on time and, with
    watchers that never read, did not end until they left (a margin of 1 s takes the
    machine's load out of the comparison; a blocked referee loop was blocked for seconds).
    The random bots answer at once; st=0.2 keeps their engine host's own deadline (95% of
    the move time, whose overrun the referee counts as a time forfeit whatever the margin)
    out of reach of a loaded machine's scheduling, as st=0.01 did not."""
    args = ["--engine", "bot=random", "--engine", "bot=random", "--size", "6"]
    args += ["--each", "st=0.2", "margin=1000", "--games", "8"]
    alone, quiet = watched_match(args, 0, timeout=280)
    watched, busy = watched_match(args, 30, timeout=max(90.0, 3 * alone))
    assert len(quiet) == len(busy) == 8
    assert busy.count("time forfeit") == quiet.count("time forfeit"), (quiet, busy)
    print(f"8 games: {alone:.1f} s alone, {watched:.1f} s with 30 watchers")


def test_live_max_watchers_must_be_a_count() -> None:
    for bad in ("0", "x", "-3"):
        out = subprocess.run(
            [sys.executable, "-m", "tei", "match", "--live", "0", "--live-max-watchers", bad],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 2 and "number of watchers" in out.stderr, out.stderr
