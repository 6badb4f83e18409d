"""The live view's server on 127.0.0.1 with real HTTP clients: the page, the state, the
event stream (snapshot, pushed moves, late joiners, two watchers, one that leaves) and
the record downloads; the address rules and the `tei match --live` flags."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest
import trio

from adapters.stream.announce import game_over, game_started, move_played
from adapters.stream.bus import EventBus
from adapters.stream.live_state import LiveState
from adapters.web.live import serve_live
from adapters.web.options import LiveAddressError, parse_address
from rules.tak.game import TakGame
from tests.support.live import get, watch

pytestmark = pytest.mark.process


@pytest.fixture
async def served(nursery: trio.Nursery) -> AsyncIterator[tuple[EventBus, str, TakGame]]:
    bus = EventBus(LiveState(title="test match"))
    game = TakGame.new({"size": "5"})
    bus.publish(game_started(0, "1", game, ["alpha", "beta"], (10000.0, 10000.0)))
    url = await nursery.start(serve_live, bus, "127.0.0.1", 0)
    yield bus, url, game
    bus.close()


def move(bus: EventBus, game: TakGame, text: str) -> None:
    seat = game.turn
    game.play_text(text)
    bus.publish(move_played(0, game, seat, 50.0, (9950.0, 10000.0)))


async def test_page_static_files_and_state(served: tuple[EventBus, str, TakGame]) -> None:
    _, url, _ = served
    status, headers, body = await get(url)
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b"/static/live.js" in body and b"http" not in body.replace(b"http://www.w3", b"")
    for name, kind in (("live.js", "javascript"), ("live.css", "text/css")):
        status, headers, body = await get(f"{url}static/{name}")
        assert status == 200 and kind in headers["content-type"] and body
    assert (await get(f"{url}static/secret.py"))[0] == 404
    status, headers, body = await get(f"{url}state")
    state = json.loads(body)
    assert status == 200 and headers["content-type"] == "application/json"
    assert state["title"] == "test match" and state["games"]["0"]["players"] == ["alpha", "beta"]


async def test_watcher_gets_snapshot_then_pushed_moves(
    served: tuple[EventBus, str, TakGame],
) -> None:
    bus, url, game = served
    async with watch(url) as watcher:
        kind, data = await watcher.message()
        assert watcher.headers["content-type"].startswith("text/event-stream")
        assert kind == "snapshot" and data["games"]["0"]["moves"] == []
        move(bus, game, "a1")
        kind, data = await watcher.message()
        assert kind == "patch" and data["games"]["0"]["moves"] == ["a1"]
        assert 'data-square="a1"' in data["games"]["0"]["svg"]


async def test_late_joiner_sees_the_current_state_at_once(
    served: tuple[EventBus, str, TakGame],
) -> None:
    bus, url, game = served
    for text in ("a1", "e5", "c3"):
        move(bus, game, text)
    async with watch(url) as watcher:
        kind, data = await watcher.message()
        assert kind == "snapshot" and data["games"]["0"]["moves"] == ["a1", "e5", "c3"]
        assert data["seq"] == bus.state.seq


async def test_two_watchers_and_one_that_leaves(served: tuple[EventBus, str, TakGame]) -> None:
    bus, url, game = served
    async with watch(url) as first:
        await first.message()
        async with watch(url) as second:
            await second.message()
            with trio.fail_after(10):
                await bus.wait_subscribers(2)
            move(bus, game, "a1")
            for watcher in (first, second):
                kind, data = await watcher.message()
                assert kind == "patch" and data["games"]["0"]["moves"] == ["a1"]
        # the second one hung up: the server notices, drops it, and the first goes on
        with trio.fail_after(10):
            move(bus, game, "e5")
            await bus.wait_subscribers(1)
        for expected in (["a1", "e5"], ["a1", "e5", "c3"]):
            if expected[-1] == "c3":
                move(bus, game, "c3")
            kind, data = await first.message()
            assert data["games"]["0"]["moves"] == expected


async def test_finished_games_are_listed_and_downloadable(
    served: tuple[EventBus, str, TakGame],
) -> None:
    bus, url, game = served
    move(bus, game, "a1")
    record = '[Result "0-1"]\n[Termination "time forfeit"]\n\n1. a1 0-1\n'
    bus.publish(game_over(0, "tak", "0-1", "time forfeit", "time forfeit", 1, record, ["a", "b"]))
    async with watch(url) as watcher:
        _, data = await watcher.message()
        assert data["games"] == {} and data["finished"][0]["termination"] == "time forfeit"
    status, headers, body = await get(f"{url}games/0.ptn")
    assert status == 200 and body.decode() == record
    assert 'filename="game-1.ptn"' in headers["content-disposition"]
    for bad in ("games/1.ptn", "games/0.txt", "games/x.ptn"):
        assert (await get(url + bad))[0] == 404


async def test_closing_the_bus_ends_the_streams(served: tuple[EventBus, str, TakGame]) -> None:
    bus, url, _ = served
    async with watch(url) as watcher:
        await watcher.message()
        bus.close()
        with pytest.raises(EOFError):
            await watcher.message()


async def test_an_address_in_use_is_a_clear_error(nursery: trio.Nursery) -> None:
    bus = EventBus()
    url = await nursery.start(serve_live, bus, "127.0.0.1", 0)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    with pytest.raises(LiveAddressError, match=f"127.0.0.1:{port}"):
        await serve_live(EventBus(), "127.0.0.1", port)
    bus.close()


@pytest.mark.parametrize(
    ("text", "public", "expected"),
    [
        ("8000", False, ("127.0.0.1", 8000)),
        (":8000", False, ("127.0.0.1", 8000)),
        ("localhost:0", False, ("localhost", 0)),
        ("[::1]:8080", False, ("::1", 8080)),
        ("0.0.0.0:8000", True, ("0.0.0.0", 8000)),
    ],
)
def test_live_addresses(text: str, public: bool, expected: tuple[str, int]) -> None:
    assert parse_address(text, public) == expected


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("0.0.0.0:8000", "--live-public"),
        ("example.org:80", "loopback"),
        ("99999", "port"),
        ("abc", "port"),
        ("127.0.0.1:", "port"),
    ],
)
def test_bad_live_addresses(text: str, word: str) -> None:
    with pytest.raises(LiveAddressError, match=word):
        parse_address(text)


def test_tei_match_refuses_a_public_address_without_the_flag() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tei", "match", "--live", "0.0.0.0:0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "--live-public" in out.stderr


def test_tei_match_live_on_a_port_in_use_stops_before_playing() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "-m", "tei", "match", "--live", f"127.0.0.1:{port}", "--games", "2"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert out.returncode == 2, out.stderr
    assert f"cannot serve the live view on 127.0.0.1:{port}" in out.stderr
    assert "Games:" not in out.stdout
