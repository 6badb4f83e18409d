"""Bridges with real engine processes against the local server (TCP and websocket),
and the clocks an engine is sent (from scripted servers)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import trio

from adapters.playtak.bridge import Bridge, BridgeError
from adapters.playtak.server.listeners import LocalServer
from adapters.playtak.session import SessionEnded
from rules.tak.ptn import PtnGame
from tests.support.playtak.bridges import (
    FLAKY,
    RANDOM_BOT,
    RESULTS,
    SEARCH_BOT,
    login_burst,
    make_bridge,
    play_both,
    scripted_bridge,
    start_server,
    url,
    wait_event,
)
from tests.support.playtak.lines import LineClient

pytestmark = pytest.mark.process


def alice_seeking(
    address: str, seek: str, engine: Sequence[str] = RANDOM_BOT, **settings: Any
) -> Bridge:
    """A bridge of the user alice posting `seek` (named, not a guest: which of two guests
    logs in first, and is Guest1, is a race)."""
    return make_bridge(address, engine, user="alice", seek=seek, **settings)


def check_records(server: LocalServer, bridge: Bridge) -> None:
    """Each PTN record holds the server's moves and result; a decisive road/flat result
    is what the rules say when the record is replayed."""
    finished = {game.no: game for game in server.core.finished}
    for game_id, result, path in bridge.finished:
        assert path is not None
        record = PtnGame.parse(path.read_text())
        served = finished[game_id]
        assert result == served.result
        assert record.tag("Result") == result
        assert record.tag("PlayTakID") == str(game_id)
        assert (record.tag("Player1"), record.tag("Player2")) == (served.white, served.black)
        assert record.tag("Size") == str(served.size)
        assert (record.tag("Flats"), record.tag("Caps")) == (str(served.flats), str(served.caps))
        assert record.tag("Site") and record.tag("Date") and record.tag("Time")
        assert len(record.moves) == len(served.moves)
        replay = record.replay()
        if result[0] in "RF" or result[-1] in "RF":
            assert replay.result is not None and replay.result.code == result


@pytest.mark.parametrize(("first", "second"), [("tcp", "tcp"), ("ws", "ws"), ("tcp", "ws")])
async def test_two_bots_play_full_games(
    nursery: trio.Nursery,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    first: str,
    second: str,
) -> None:
    caplog.set_level(logging.INFO)
    server = await start_server(nursery)
    seeker = alice_seeking(url(server, first), "4 60 2 A", games=2, ptn_dir=tmp_path / "a")
    acceptor = make_bridge(
        url(server, second), user="bobby", accept_from="alice", games=2, ptn_dir=tmp_path / "b"
    )
    await play_both(seeker, acceptor)
    assert [r for _, r, _ in seeker.finished] == [r for _, r, _ in acceptor.finished]
    assert len(seeker.finished) == 2
    assert all(result in RESULTS for _, result, _ in seeker.finished)
    check_records(server, seeker)
    check_records(server, acceptor)
    record = PtnGame.parse(seeker.finished[0][2].read_text())  # type: ignore[union-attr]
    assert record.tag("Clock") == "1:00 +2"
    assert {record.tag("Player1"), record.tag("Player2")} == {"alice", "bobby"}
    # the close after `quit` at the end of --games is no lost connection
    assert "connection lost" not in caplog.text
    assert "reconnecting" not in caplog.text


async def test_search_bot_against_random_bot(nursery: trio.Nursery, tmp_path: Path) -> None:
    server = await start_server(nursery)
    options = {"MaxDepth": "2"}
    search = alice_seeking(
        url(server, "ws"), "4 20 1 A 2", SEARCH_BOT, ptn_dir=tmp_path, engine_options=options
    )
    random_bot = make_bridge(url(server, "tcp"), user="bobby", accept_from="alice")
    await play_both(search, random_bot)
    assert search.finished[0][1] in RESULTS
    check_records(server, search)
    record = PtnGame.parse(search.finished[0][2].read_text())  # type: ignore[union-attr]
    assert record.tag("Komi") == "1"


async def test_protocol_0_takes_the_increment_from_the_seek(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    server = await start_server(nursery)
    seeker = alice_seeking(url(server, "tcp"), "4 60 5 W", protocol=0, ptn_dir=tmp_path)
    acceptor = make_bridge(
        url(server, "tcp"), user="bobby", accept_from="alice", protocol=0, ptn_dir=tmp_path
    )
    await play_both(seeker, acceptor)
    for bridge in (seeker, acceptor):
        path = bridge.finished[0][2]
        assert path is not None
        assert PtnGame.parse(path.read_text()).tag("Clock") == "1:00 +5"
    check_records(server, seeker)


async def test_dropped_connection_mid_game_resumes(
    nursery: trio.Nursery, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    server = await start_server(nursery)
    # the seeker is a guest: after the drop its guest token brings back the same name
    seeker = make_bridge(url(server, "tcp"), seek="5 60 0 W", ptn_dir=tmp_path / "a")

    def moves_played() -> int:
        return max((len(game.moves) for game in server.core.games.values()), default=0)

    async def drop_mid_game() -> None:
        await server.wait_for(lambda: moves_played() >= 6, "six moves played", 30)
        assert server.drop("bobby")
        await server.wait_for(lambda: moves_played() >= 12, "twelve moves played", 30)
        assert server.drop(seeker.name)

    with trio.fail_after(60):
        async with trio.open_nursery() as inner:
            inner.start_soon(seeker.run)
            await seeker.wait_for(lambda: seeker.name, "the seeker logged in", 30)
            acceptor = make_bridge(
                url(server, "ws"), user="bobby", accept_from=seeker.name, ptn_dir=tmp_path / "b"
            )
            inner.start_soon(acceptor.run)
            inner.start_soon(drop_mid_game)
    assert seeker.session.connections == 2
    assert acceptor.session.connections == 2
    assert seeker.finished[0][1] in RESULTS
    assert "game 1 resumed after" in caplog.text
    check_records(server, seeker)
    check_records(server, acceptor)


@pytest.mark.parametrize("mode", ["crash", "stall"])
async def test_engine_that_fails_mid_game_is_restarted(
    nursery: trio.Nursery, tmp_path: Path, mode: str
) -> None:
    server = await start_server(nursery)
    marker = tmp_path / "failed-once"
    flaky = [*FLAKY, "--mode", mode, "--at", "3", "--marker", str(marker)]
    seeker = alice_seeking(
        url(server, "tcp"), "5 60 0 W", flaky, ptn_dir=tmp_path, max_move_seconds=0.5
    )
    acceptor = make_bridge(url(server, "tcp"), accept_from="alice")
    await play_both(seeker, acceptor)
    assert marker.read_text() == mode
    assert seeker.seat.generation >= 2
    _, result, path = seeker.finished[0]
    assert result in RESULTS
    assert path is not None
    assert len(PtnGame.parse(path.read_text()).moves) > 6  # it played on after the failure
    check_records(server, seeker)


async def test_pings_keep_an_idle_bot_connected(nursery: trio.Nursery) -> None:
    server = await start_server(nursery, idle_timeout=0.8, cleanup_interval=0.1)
    bridge = make_bridge(url(server, "tcp"), seek="5 60 0 A", ping_interval=0.1)
    async with trio.open_nursery() as inner:
        inner.start_soon(bridge.run)
        await bridge.wait_for(lambda: bridge.state.settled, "the bot logged in", 30)
        await trio.sleep(2.0)  # many cleanup rounds of the server
        assert bridge.name in server.core.online
        inner.cancel_scope.cancel()
    assert bridge.session.connections == 1


async def test_seeks_the_engine_cannot_play(nursery: trio.Nursery) -> None:
    server = await start_server(nursery)
    no_komi = [*FLAKY, "--no-komi"]
    seeker = make_bridge(url(server, "tcp"), no_komi, seek="5 60 0 A 4")
    with pytest.raises(BridgeError, match="cannot play the seek"):
        await seeker.run()
    # accepting: a komi seek is passed over, a komi-0 seek of the same player taken
    alice = await LineClient.logged_in(server.tcp_port or 0, "alice")
    await alice.send("Seek 5 60 0 W 4 21 1 0 0 ")
    acceptor = make_bridge(url(server, "ws"), no_komi, accept_from="alice")
    async with trio.open_nursery() as inner:
        inner.start_soon(acceptor.run)
        await acceptor.wait_for(lambda: acceptor.state.settled, "the acceptor's login burst")
        assert not any(line.startswith("Accept") for line in acceptor.session.sent)
        await alice.send("Seek 5 60 0 W 0 21 1 0 0 ")
        await alice.expect("Game Start 1 *")
        await alice.send("Game#1 Resign")
    assert acceptor.finished[0][1] == "0-1"
    assert server.core.finished[0].komi == 0
    await alice.aclose()


async def test_an_engine_that_cannot_come_back_resigns_and_stops(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    server = await start_server(nursery)
    gone = [*FLAKY, "--mode", "gone", "--at", "2", "--marker", str(tmp_path / "crashed")]
    seeker = alice_seeking(url(server, "tcp"), "5 60 0 W", gone)
    acceptor = make_bridge(url(server, "tcp"), accept_from="alice")
    with trio.fail_after(30):
        async with trio.open_nursery() as inner:
            inner.start_soon(acceptor.run)
            with pytest.raises(BridgeError, match="the engine is gone"):
                await seeker.run()
            inner.cancel_scope.cancel()
    assert seeker.session.sent.count("Game#1 Resign") == 1
    assert server.core.finished[0].result == "0-1"  # white resigned


async def test_logged_in_from_elsewhere_stops_the_bot(nursery: trio.Nursery) -> None:
    """Two bots on one account would throw each other out in turn: the one the server
    tells so stops instead of reconnecting."""
    server = await start_server(nursery)
    first = alice_seeking(url(server, "tcp"), "5 60 0 A")
    second = alice_seeking(url(server, "ws"), "5 60 0 A")
    ended: list[SessionEnded] = []
    stopped = trio.Event()

    async def run_first() -> None:
        with pytest.raises(SessionEnded) as caught:
            await first.run()
        ended.append(caught.value)
        stopped.set()

    async with trio.open_nursery() as inner:
        inner.start_soon(run_first)
        await first.wait_for(lambda: first.name, "the first bot logged in", 30)
        inner.start_soon(second.run)
        await wait_event(stopped, "the first bot stopped", 30)
        assert second.name == "alice"
        inner.cancel_scope.cancel()
    assert "another window" in str(ended[0])
    assert first.session.connections == 1


async def one_answer(
    nursery: trio.Nursery, start: str, clock: str, log: Path, **settings: Any
) -> Bridge:
    """A bridge whose logging engine answers white's a1 in game 7 once (then 1-0) on a
    scripted server that sends the start and clock lines given; the bridge once done."""

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send(start)
        await conn.send(clock)
        await conn.send("Game#7 P A1")
        await conn.expect("Game#7 *")
        await conn.send("Game#7 Over 1-0")
        await trio.sleep(5)

    bridge = await scripted_bridge(nursery, script, [*FLAKY, "--log", str(log)], **settings)
    await play_both(bridge, limit=20)
    return bridge


def go_numbers(go: str) -> dict[str, int]:
    """The numbers of a `go` line by their word."""
    words = go.split()
    return {words[i]: int(words[i + 1]) for i in range(1, len(words) - 1, 2)}


@pytest.mark.parametrize("protocol", [2, 1, 0])
async def test_the_engine_gets_the_server_clocks_in_ms_and_the_increment(
    nursery: trio.Nursery, tmp_path: Path, protocol: int
) -> None:
    """Protocol 2: the increment from the game start line; protocols 0 and 1: from our
    seek (protocol 0 also has the clocks in whole seconds)."""
    start, clock = {
        2: (
            "Game Start 7 bobby vs Guest1 black 5 60 7 0 21 1 0 0 0 0 0",
            "Game#7 Timems 67000 60000",
        ),
        1: ("Game Start 7 5 bobby vs Guest1 black 60 0 21 1 0 0", "Game#7 Timems 67000 60000"),
        0: ("Game Start 7 5 bobby vs Guest1 black 60 0 21 1 0 0", "Game#7 Time 67 60"),
    }[protocol]

    log = tmp_path / "engine.log"
    await one_answer(nursery, start, clock, log, seek="5 60 7 B", protocol=protocol)
    lines = log.read_text().splitlines()
    go = next(line for line in lines if line.startswith("go "))
    position = lines[lines.index(go) - 1]
    assert position.startswith("position ") and position.endswith(" moves a1")
    fields = go_numbers(go)
    assert (fields["wtime"], fields["winc"], fields["binc"]) == (67000, 7000, 7000)
    assert 50_000 < fields["btime"] <= 60_000 - 100  # our clock minus the move overhead


@pytest.mark.parametrize(
    ("white", "black"),
    [(200_000_000_000_000, 60_000), (-5_000, 60_000), (60_000, 99_999_999_999_999_999_999)],
)
async def test_absurd_server_clocks_are_clamped_before_the_engine_sees_them(
    nursery: trio.Nursery,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    white: int,
    black: int,
) -> None:
    """A server that sends a negative or huge `Timems` gets a move all the same: the
    engine is sent clocks within 0..2^31-1 ms, and the clamping is logged."""

    log = tmp_path / "engine.log"
    start = "Game Start 7 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0"
    bridge = await one_answer(
        nursery, start, f"Game#7 Timems {white} {black}", log, seek="5 60 0 B"
    )
    assert bridge.finished[0][:2] == (7, "1-0")
    go = next(line for line in log.read_text().splitlines() if line.startswith("go "))
    fields = go_numbers(go)
    assert all(0 <= fields[k] <= 2**31 - 1 for k in ("wtime", "btime"))
    assert "clamped" in caplog.text
