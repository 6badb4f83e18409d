"""Bridges with real engine processes against the local server (TCP and websocket) and
against scripted servers that replay the protocol's quirks."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest
import trio

from adapters.playtak.bridge import Bridge, BridgeError
from adapters.playtak.live_game import play_server_move
from adapters.playtak.notation import ServerMove
from adapters.playtak.server.listeners import LocalServer
from adapters.playtak.server.lobby import ServerSettings
from adapters.playtak.session import SessionEnded
from rules.registry import new_game
from rules.tak.move import Move
from rules.tak.ptn import PtnGame
from tests.playtak_support.bridges import (
    FLAKY,
    SEARCH_BOT,
    login_burst,
    make_bridge,
    serve_script,
    wait_event,
)
from tests.playtak_support.guard import loopback_only  # noqa: F401
from tests.playtak_support.lines import LineClient

RESULTS = {"R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2"}


async def start_server(nursery: trio.Nursery, **settings: object) -> LocalServer:
    server = LocalServer(ServerSettings(seed=3, **settings))  # type: ignore[arg-type]
    await nursery.start(server.serve)
    return server


def url(server: LocalServer, kind: str) -> str:
    if kind == "tcp":
        return f"tcp://127.0.0.1:{server.tcp_port}"
    return f"ws://127.0.0.1:{server.ws_port}/ws"


async def play_both(*bridges: Bridge, limit: float = 60.0) -> None:
    with trio.fail_after(limit):
        async with trio.open_nursery() as nursery:
            for bridge in bridges:
                nursery.start_soon(bridge.run)


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
    seeker = make_bridge(
        url(server, first), user="alice", seek="4 60 2 A", games=2, ptn_dir=tmp_path / "a"
    )
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
    search = make_bridge(
        url(server, "ws"),
        SEARCH_BOT,
        user="alice",
        seek="4 20 1 A 2",
        ptn_dir=tmp_path,
        engine_options={"MaxDepth": "2"},
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
    seeker = make_bridge(
        url(server, "tcp"), user="alice", seek="4 60 5 W", protocol=0, ptn_dir=tmp_path
    )
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
    seeker = make_bridge(
        url(server, "tcp"), flaky, seek="5 60 0 W", ptn_dir=tmp_path, max_move_seconds=0.5
    )
    acceptor = make_bridge(url(server, "tcp"), accept_from="Guest1")
    await play_both(seeker, acceptor)
    assert marker.read_text() == mode
    assert seeker.seat.generation >= 2
    _, result, path = seeker.finished[0]
    assert result in RESULTS
    assert path is not None
    assert len(PtnGame.parse(path.read_text()).moves) > 6  # it played on after the failure
    check_records(server, seeker)


async def test_garbage_from_the_server_is_ignored_and_survived(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    connections = 0
    third = trio.Event()

    async def garbage(conn: LineClient) -> None:
        nonlocal connections
        connections += 1
        if connections == 3:
            third.set()
        if connections == 1:  # no greeting at all: only junk
            await conn.stream.send_all(b"\x00\xff\xfe junk\nHello?\n")
            await trio.sleep(30)
        await login_burst(conn, "Guest9")
        for line in [
            "\x01\x02\x03",
            "Game#1 Over 9-9",
            "Seek new x y",
            "Game Start 1 nonsense",
            "Game#4 P Z9",
            "tak.Game@557c7331",
            "OnlinePlayers {",
        ]:
            await conn.send(line)
        await conn.expect("Seek *")  # the bridge still seeks after all that
        await conn.stream.send_all(b"x" * 70_000)  # a line too long: the client hangs up
        await trio.sleep(30)

    port = await serve_script(nursery, garbage)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="5 60 0 A", login_timeout=0.5)
    async with trio.open_nursery() as inner:
        inner.start_soon(bridge.run)
        await wait_event(third, "a third connection after the junk and the long line")
        inner.cancel_scope.cancel()
    assert bridge.finished == []
    assert "ignored server line 'Game#1 Over 9-9'" in caplog.text
    assert "tak.Game@557c7331" in caplog.text


@pytest.mark.parametrize("early", [False, True])
async def test_resume_waits_for_the_resumed_message_before_moving(
    nursery: trio.Nursery, early: bool
) -> None:
    """The replay may come after the welcome (as on playtak.com) or even before it."""
    events: list[str] = []

    async def script(conn: LineClient) -> None:
        start = "Game Start 5 Guest1 vs bobby white 5 60 0 0 21 1 0 0 0 0 0"
        replay = [start, "Game#5 P A1", "Game#5 P E5", "Game#5 Timems 50000 50000"]
        if early:
            lines = await login_burst(conn, before_welcome=replay)
        else:
            lines = await login_burst(conn, extra=replay)
        events.extend(lines)
        await trio.sleep(0.3)
        events.append("<resumed>")
        await conn.send("Message Your game is resumed")
        line = await conn.expect("Game#5 *")
        events.append(line[-1])
        await conn.send("Game#5 Over 0-1")
        await trio.sleep(5)

    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="5 60 0 A")
    await play_both(bridge, limit=20)
    assert bridge.finished[0][:2] == (5, "0-1")
    assert not any(e.startswith("Seek") for e in events)  # never seeks during a game
    move = events[-1]
    assert events[-2] == "<resumed>"
    position = new_game("tak", {"size": "5"})
    position.play_all(["a1", "e5"])
    legal = position.legal()
    assert play_server_move(position, ServerMove.parse(move.removeprefix("Game#5 "))) in legal


async def test_a_game_joined_on_resume_is_dated_from_its_clocks(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """The bot (re)started while its game ran: the record's Date/Time is the game's
    start as the clocks tell it (here 40 s used, 20 by each side), not the resume."""

    async def script(conn: LineClient) -> None:
        start = "Game Start 5 Guest1 vs bobby white 5 60 0 0 21 1 0 0 0 0 0"
        await login_burst(
            conn, extra=[start, "Game#5 P A1", "Game#5 P E5", "Game#5 Timems 40000 40000"]
        )
        await conn.send("Message Your game is resumed")
        await conn.expect("Game#5 *")
        await conn.send("Game#5 Over 0-1")
        await trio.sleep(5)

    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="5 60 0 A", ptn_dir=tmp_path)
    await play_both(bridge, limit=20)
    path = bridge.finished[0][2]
    assert path is not None
    record = PtnGame.parse(path.read_text())
    stamp = f"{record.tag('Date')} {record.tag('Time')}"
    began = datetime.strptime(stamp, "%Y.%m.%d %H:%M:%S").replace(tzinfo=UTC)
    ago = (datetime.now(UTC) - began).total_seconds()
    assert 39 <= ago <= 60, ago


@pytest.mark.parametrize("accept", [False, True])
async def test_draw_offers_are_declined_unless_accepted(
    nursery: trio.Nursery, accept: bool
) -> None:
    sent: list[str] = []

    async def script(conn: LineClient) -> None:
        lines = await login_burst(conn)
        assert lines[:3] == ["Protocol 2", "Client tei-playtak", "Login Guest " + lines[2][12:]]
        await conn.expect("Seek 5 60 0 B 0 21 1 0 0 ")
        await conn.send("Game Start 2 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#2 Timems 60000 60000")
        await conn.send("Game#2 P A1")
        sent.extend(await conn.expect("Game#2 *"))
        await conn.send("Game#2 OfferDraw")
        with trio.move_on_after(1.0):
            sent.extend(await conn.expect("Game#2 OfferDraw"))
        await conn.send("Game#2 Over 1/2-1/2" if accept else "Game#2 Over 1-0")
        await trio.sleep(5)

    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="5 60 0 B", accept_draws=accept)
    await play_both(bridge, limit=20)
    assert ("Game#2 OfferDraw" in sent) == accept


async def test_a_refused_move_is_replaced_by_another(nursery: trio.Nursery) -> None:
    moves: list[str] = []

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send("Game Start 3 Guest1 vs bobby white 4 60 0 0 15 0 0 0 0 0 0")
        first = (await conn.expect("Game#3 *"))[-1]
        moves.append(first)
        await conn.send("NOK")
        await conn.send("Error:Invalid move")
        second = (await conn.expect("Game#3 *"))[-1]
        moves.append(second)
        await conn.send("Game#3 Timems 60000 60000")
        await conn.send("OK")
        await conn.send("Game#3 Abandoned. bobby quit")
        await trio.sleep(5)

    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="4 60 0 W")
    await play_both(bridge, limit=20)
    assert len(moves) == 2 and moves[0] != moves[1]
    assert bridge.finished[0][:2] == (3, "1-0")


async def test_a_silent_server_is_taken_for_dead(nursery: trio.Nursery) -> None:
    connections = 0
    third = trio.Event()

    async def silent(conn: LineClient) -> None:
        nonlocal connections
        connections += 1
        if connections == 3:
            third.set()
        await login_burst(conn)
        await trio.sleep(30)  # no answer to anything any more

    port = await serve_script(nursery, silent)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="5 60 0 A", dead_after=0.3)
    async with trio.open_nursery() as inner:
        inner.start_soon(bridge.run)
        await wait_event(third, "a third connection after two silent ones")
        inner.cancel_scope.cancel()
    assert bridge.session.connections >= 2


async def test_the_last_sent_list_of_a_warning_speaks_of_this_connection_only(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture
) -> None:
    connections = 0

    async def script(conn: LineClient) -> None:
        nonlocal connections
        connections += 1
        await login_burst(conn)
        await conn.expect("Seek *")
        if connections == 1:
            return  # dropped: the bot reconnects
        await conn.send("NOK")
        await trio.sleep(30)

    def warnings() -> list[str]:
        return [r.getMessage() for r in caplog.records if "said NOK" in r.getMessage()]

    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="5 60 0 A")
    async with trio.open_nursery() as inner:
        inner.start_soon(bridge.run)
        await bridge.wait_for(warnings, "the warning about the NOK", 20)
        inner.cancel_scope.cancel()
    warning = warnings()[0]
    assert warning.count("Login Guest") == 1, warning
    assert warning.count("Seek") == 1, warning


async def test_a_record_that_cannot_be_written_is_kept_and_retried(
    nursery: trio.Nursery, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The records folder turns into a file during game 1: the game still counts, the
    bot seeks again, and the record is written after game 2 once the folder is back."""
    folder = tmp_path / "ptn"

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        folder.rmdir()
        folder.write_text("not a folder")
        await conn.send("Game Start 1 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#1 Over 1-0")
        await conn.expect("Seek *")  # not idle: a new seek after the lost write
        folder.unlink()
        folder.mkdir()
        await conn.send("Game Start 2 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#2 Over 0-1")
        await trio.sleep(5)

    folder.mkdir()
    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="5 60 0 B", games=2, ptn_dir=folder)
    await play_both(bridge, limit=20)
    assert [(g, r) for g, r, _ in bridge.finished] == [(1, "1-0"), (2, "0-1")]
    assert all(path is not None and path.exists() for _, _, path in bridge.finished)
    assert "cannot write the record of game 1" in caplog.text
    records = sorted(p.name for p in folder.glob("*.ptn"))
    assert [name.split("-")[1] for name in records] == ["1", "2"]


async def test_pings_keep_an_idle_bot_connected(nursery: trio.Nursery) -> None:
    server = await start_server(nursery, idle_timeout=0.8, cleanup_interval=0.1)
    bridge = make_bridge(url(server, "tcp"), seek="5 60 0 A", ping_interval=0.1)
    async with trio.open_nursery() as inner:
        inner.start_soon(bridge.run)
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
    alice = await LineClient.connect(server.tcp_port or 0)
    await alice.login("alice")
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
    seeker = make_bridge(url(server, "tcp"), gone, seek="5 60 0 W")
    acceptor = make_bridge(url(server, "tcp"), accept_from="Guest1")
    with trio.fail_after(30):
        async with trio.open_nursery() as inner:
            inner.start_soon(acceptor.run)
            with pytest.raises(BridgeError, match="the engine is gone"):
                await seeker.run()
            inner.cancel_scope.cancel()
    assert seeker.session.sent.count("Game#1 Resign") == 1
    assert server.core.finished[0].result == "0-1"  # white resigned


async def test_a_time_loss_ends_the_game_and_the_bot_seeks_again(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    after: list[str] = []
    sought = trio.Event()

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek 4 60 0 W 0 15 0 0 0 ")
        await conn.send("Game Start 6 Guest1 vs bobby white 4 60 0 0 15 0 0 0 0 0 0")
        first = (await conn.expect("Game#6 *"))[-1]
        await conn.send("Game#6 Timems 59000 60000")
        await conn.send("OK")
        await conn.send("Game#6 P A1" if first != "Game#6 P A1" else "Game#6 P D4")
        # the bot's clock runs out while it thinks: the server ends the game
        await conn.send("Game#6 Timems 0 60000")
        await conn.send("Game#6 Over 0-1")
        after.extend(await conn.expect("Seek *"))
        sought.set()
        await trio.sleep(5)

    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="4 60 0 W", games=2, ptn_dir=tmp_path)
    async with trio.open_nursery() as inner:
        inner.start_soon(bridge.run)
        await wait_event(sought, "a seek after the lost game")
        inner.cancel_scope.cancel()
    game_id, result, path = bridge.finished[0]
    assert (game_id, result) == (6, "0-1")
    assert path is not None
    record = PtnGame.parse(path.read_text())
    assert (record.tag("Result"), record.tag("PlayTakID"), record.tag("Size")) == ("0-1", "6", "4")
    assert record.tag("Clock") == "1:00 +0"
    assert after[-1] == "Seek 4 60 0 W 0 15 0 0 0 "  # a new seek only after the game


async def test_a_game_the_server_does_not_resume_is_recorded_as_unfinished(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """After a drop, a login burst without the game's replay: it ended while we were
    away (aborted or abandoned); the record gets `*` and the bot seeks again."""
    connections = 0
    seeks: list[str] = []
    sought = trio.Event()

    async def script(conn: LineClient) -> None:
        nonlocal connections
        connections += 1
        if connections == 1:
            await login_burst(conn)
            await conn.expect("Seek *")
            await conn.send("Game Start 8 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
            await conn.send("Game#8 Timems 60000 60000")
            await conn.send("Game#8 P A1")
            await conn.expect("Game#8 *")
            return  # the connection drops
        lines = await login_burst(conn)
        assert not any(line.startswith("Seek") for line in lines)
        seeks.extend(await conn.expect("Seek *"))
        sought.set()
        await trio.sleep(5)

    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="5 60 0 B", games=2, ptn_dir=tmp_path)
    async with trio.open_nursery() as inner:
        inner.start_soon(bridge.run)
        await wait_event(sought, "a seek after the game that was not resumed")
        inner.cancel_scope.cancel()
    assert connections == 2
    game_id, result, path = bridge.finished[0]
    assert (game_id, result) == (8, "*")
    assert path is not None
    record = PtnGame.parse(path.read_text())
    assert record.tag("Result") == "*"
    assert len(record.moves) == 2


@pytest.mark.parametrize(
    ("seconds", "reason"),
    [(60, "too many engine failures"), (2, "no time to restart the engine")],
)
async def test_an_engine_that_keeps_crashing_makes_the_bot_resign(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture, seconds: int, reason: str
) -> None:
    """Restarted as long as time allows; then (or after three failures) the bot resigns
    once, and goes on to seek again."""
    caplog.set_level(logging.INFO)
    sent: list[str] = []
    sought = trio.Event()

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send(f"Game Start 4 Guest1 vs bobby white 5 {seconds} 0 0 21 1 0 0 0 0 0")
        sent.extend(await conn.expect("Game#4 *"))
        await conn.send("Game#4 Over 0-1")
        sent.extend(await conn.expect("Seek *"))
        sought.set()
        await trio.sleep(5)

    port = await serve_script(nursery, script)
    always_crashing = [*FLAKY, "--mode", "crash", "--at", "1"]  # no marker: every time
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", always_crashing, seek="5 60 0 W", games=2)
    async with trio.open_nursery() as inner:
        inner.start_soon(bridge.run)
        await wait_event(sought, "a seek after the resignation", 30)
        inner.cancel_scope.cancel()
    assert [line for line in sent if line.startswith("Game#4")] == ["Game#4 Resign"]
    assert reason in caplog.text
    assert bridge.finished[0][:2] == (4, "0-1")
    # three failures, each followed by a fresh process; or no restart at all
    assert bridge.seat.generation == (4 if seconds == 60 else 1)


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

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send(start)
        await conn.send(clock)
        await conn.send("Game#7 P A1")
        await conn.expect("Game#7 *")
        await conn.send("Game#7 Over 1-0")
        await trio.sleep(5)

    log = tmp_path / "engine.log"
    port = await serve_script(nursery, script)
    engine = [*FLAKY, "--log", str(log)]
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", engine, seek="5 60 7 B", protocol=protocol)
    await play_both(bridge, limit=20)
    lines = log.read_text().splitlines()
    go = next(line for line in lines if line.startswith("go "))
    position = lines[lines.index(go) - 1]
    assert position.startswith("position ") and position.endswith(" moves a1")
    words = go.split()
    fields = {words[i]: int(words[i + 1]) for i in range(1, len(words) - 1, 2)}
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

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send("Game Start 7 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send(f"Game#7 Timems {white} {black}")
        await conn.send("Game#7 P A1")
        await conn.expect("Game#7 *")
        await conn.send("Game#7 Over 1-0")
        await trio.sleep(5)

    log = tmp_path / "engine.log"
    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", [*FLAKY, "--log", str(log)], seek="5 60 0 B")
    await play_both(bridge, limit=20)
    assert bridge.finished[0][:2] == (7, "1-0")
    go = next(line for line in log.read_text().splitlines() if line.startswith("go "))
    words = go.split()
    fields = {words[i]: int(words[i + 1]) for i in range(1, len(words) - 1, 2)}
    assert all(0 <= fields[k] <= 2**31 - 1 for k in ("wtime", "btime"))
    assert "clamped" in caplog.text


async def test_a_refused_accept_waits_for_the_next_seek(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    accepts: list[str] = []

    async def script(conn: LineClient) -> None:
        await login_burst(conn, extra=["Seek new 1 alice 5 60 0 W 0 21 1 0 0 0 0 0 0"])
        accepts.extend(await conn.expect("Accept *"))
        await conn.send("NOK")  # the seek was taken by someone else
        await conn.send("Seek remove 1 alice 5 60 0 W 0 21 1 0 0 0 0 0 0")
        await conn.send("NOK")  # a stray refusal is only logged
        await conn.send("Seek new 2 alice 5 60 0 W 0 21 1 0 0 0 0 0 0")
        accepts.append((await conn.expect("Accept *"))[-1])
        await conn.send("Game Start 3 alice vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#3 Over 1-0")
        await trio.sleep(5)

    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", accept_from="alice")
    await play_both(bridge, limit=20)
    assert accepts[-2:] == ["Accept 1", "Accept 2"]
    assert "seek 1 is gone" in caplog.text
    assert "the server said NOK" in caplog.text
    assert bridge.finished[0][:2] == (3, "1-0")


async def test_logged_in_from_elsewhere_stops_the_bot(nursery: trio.Nursery) -> None:
    """Two bots on one account would throw each other out in turn: the one the server
    tells so stops instead of reconnecting."""
    server = await start_server(nursery)
    first = make_bridge(url(server, "tcp"), user="alice", seek="5 60 0 A")
    second = make_bridge(url(server, "ws"), user="alice", seek="5 60 0 A")
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


async def test_undo_requests_are_ignored_but_an_agreed_undo_is_followed(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    sent: list[str] = []

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send("Game Start 9 bobby vs Guest1 black 4 60 0 0 15 0 0 0 0 0 0")
        await conn.send("Game#9 P A1")
        sent.append((await conn.expect("Game#9 *"))[-1])
        await conn.send("Game#9 Timems 60000 59000")
        await conn.send("OK")
        await conn.send("Game#9 RequestUndo")
        await conn.send("Game#9 Undo")  # agreed (as if by an earlier request of ours)
        sent.append((await conn.expect("Game#9 *"))[-1])
        await conn.send("Game#9 Over 1-0")
        await trio.sleep(5)

    port = await serve_script(nursery, script)
    bridge = make_bridge(f"tcp://127.0.0.1:{port}", seek="4 60 0 B", ptn_dir=tmp_path)
    await play_both(bridge, limit=20)
    assert all(line.startswith("Game#9 P ") for line in sent)  # a move again, no RequestUndo
    path = bridge.finished[0][2]
    assert path is not None
    record = PtnGame.parse(path.read_text())
    assert len(record.moves) == 2  # a1, then the move played after the undo
    second = ServerMove.from_move(Move.from_ptn(record.moves[1]))
    assert second.to_text() == sent[1].removeprefix("Game#9 ")
