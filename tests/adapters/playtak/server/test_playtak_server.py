"""The local playtak server against raw clients: TCP lines from trio, and websocket-client
(synchronous, in a thread) as an independent websocket implementation."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
import trio
import websocket

from adapters.playtak.protocol import MAX_LINE
from adapters.playtak.server.listeners import LocalServer
from adapters.playtak.server.lobby import ServerSettings
from tests.support.playtak.lines import LineClient

pytestmark = pytest.mark.socket

StartServer = Callable[..., Awaitable[LocalServer]]


@pytest.fixture
def start_server(nursery: trio.Nursery) -> StartServer:
    async def start(**settings: object) -> LocalServer:
        server = LocalServer(ServerSettings(seed=7, **settings))  # type: ignore[arg-type]
        await nursery.start(server.serve)
        return server

    return start


async def start_game(
    server: LocalServer, seek: str = "Seek 5 180 10 W 4 21 1 0 0 "
) -> tuple[LineClient, LineClient]:
    """alice (white, protocol 2) against bobby (black, protocol 0): game 1."""
    alice = await LineClient.logged_in(server.tcp_port or 0, "alice")
    bobby = await LineClient.logged_in(server.tcp_port or 0, "bobby", protocol=0)
    await alice.send(seek)
    await bobby.expect("Seek new 1 alice*")
    await bobby.send("Accept 1")
    await alice.expect("Game Start*")
    await bobby.expect("Game Start*")
    return alice, bobby


async def relay(sender: LineClient, line: str, receiver: LineClient) -> None:
    """`sender` sends `line`, and `receiver` is told the same line."""
    await sender.send(line)
    await receiver.expect(line)


async def close_all(*clients: LineClient) -> None:
    for client in clients:
        await client.aclose()


async def test_login_sequence_matches_the_verified_transcript(start_server: StartServer) -> None:
    server = await start_server()
    client = await LineClient.connect(server.tcp_port or 0)
    assert await client.line() == "Welcome!"
    assert await client.line() == "Login or Register"
    await client.send("Protocol 2")
    assert await client.line() == "OK"
    await client.send("Client TakWeb-22.04.12")
    assert await client.line() == "OK"
    await client.send("Login alice password")
    assert await client.line() == "Welcome alice!"
    assert await client.line() == "Online 1"
    assert await client.line() == 'OnlinePlayers ["alice"]'
    await client.send("PING")
    assert await client.line() == "OK"
    await client.aclose()


async def test_login_refusals(start_server: StartServer) -> None:
    server = await start_server(users={"alice": "secret1"}, auto_register=False)
    client = await LineClient.connect(server.tcp_port or 0)
    await client.expect("Login or Register")
    for line, answer in [
        ("List", "NOK"),  # not before login
        ("PING", "OK"),  # but PING is
        ("Protocol 0", "NOK"),
        ("client Tiltak", "NOK"),  # the regex is case-sensitive
        ("Login abc password", "NOK"),  # name too short
        ("Login alice wrongpass", "Authentication failure"),
        ("Login carol password", "Authentication failure"),  # unknown user
    ]:
        await client.send(line)
        assert await client.line() == answer, line
    await client.send("Login alice secret1")
    assert await client.line() == "Welcome alice!"
    await client.aclose()
    # quit works before login too
    early = await LineClient.connect(server.tcp_port or 0)
    await early.expect("Login or Register")
    await early.send("quit")
    assert await early.closed() == []


async def test_a_newcomer_is_told_the_open_seeks_and_running_games(
    start_server: StartServer,
) -> None:
    server = await start_server()
    alice, bobby = await start_game(server)
    carol = await LineClient.logged_in(server.tcp_port or 0, "carol", protocol=0)
    await carol.send("Seek 6 600 20 B 4 30 1 1 0 ")
    await carol.expect("Seek new 2 carol*")
    dave = await LineClient.connect(server.tcp_port or 0)
    await dave.expect("Login or Register")
    await dave.send("Login dave secret1")
    lines = await dave.expect("GameList Add*")
    assert lines[0] == "Welcome dave!"
    assert "Seek new 2 carol 6 600 20 B 4 30 1 1 0 0 0 " in lines
    assert lines[-1] == "GameList Add 1 alice bobby 5 180 10 4 21 1 0 0 0 0"
    await close_all(alice, bobby, carol, dave)


async def test_guest_token_keeps_the_guest_name(start_server: StartServer) -> None:
    server = await start_server()
    token = "abcdefghijabcdefghij"
    names = []
    for login in (f"Login Guest {token}", "Login Guest", f"Login Guest {token}", "Login Guest x"):
        client = await LineClient.connect(server.tcp_port or 0)
        await client.expect("Login or Register")
        await client.send(login)
        names.append(await client.line())
        await client.aclose()
    assert names[0] == names[2]
    assert len({names[0], names[1], names[3]}) == 3
    assert all(n.startswith("Welcome Guest") for n in names)


async def test_seek_without_trailing_space_loses_its_komi(start_server: StartServer) -> None:
    server = await start_server()
    alice = await LineClient.logged_in(server.tcp_port or 0, "alice", protocol=0)
    await alice.send("Seek 5 180 10 W 4 21 1 0 0")
    trapped = (await alice.expect("Seek new*"))[-1]
    assert trapped == "Seek new 1 alice 5 180 10 W 0 21 1 0 0 0 0 "
    await alice.send("Seek 5 180 10 W 4 21 1 0 0 ")
    lines = await alice.expect("Seek new*")
    assert "Seek remove 1 alice 5 180 10 W 0 21 1 0 0 0 0 " in lines
    assert lines[-1] == "Seek new 2 alice 5 180 10 W 4 21 1 0 0 0 0 "
    await alice.aclose()


async def test_game_start_lines_per_protocol_and_move_order(start_server: StartServer) -> None:
    server = await start_server()
    alice, bobby = await start_game(server)
    assert alice.seen[-1] == "Game Start 1 alice vs bobby white 5 180 10 4 21 1 0 0 0 0 0"
    assert bobby.seen[-1] == "Game Start 1 5 alice vs bobby black 180 4 21 1 0 0"
    await alice.send("Game#1 P A1 C")
    assert await alice.expect("Error:*") == ["NOK", "Error:First move should be flat"]
    await bobby.send("Game#1 P B1")
    assert await bobby.expect("Error:*") == ["NOK", "Error:Not your turn"]
    await alice.send("Game#1 P A1")
    # the mover sees the clock then OK; the opponent the clock then the move
    assert await alice.expect("OK") == ["Game#1 Timems 190000 180000", "OK"]
    assert await bobby.expect("Game#1 P A1") == ["Game#1 Time 190 180", "Game#1 P A1"]
    await bobby.send("Game#1 P A1")
    assert await bobby.expect("Error:*") == ["NOK", "Error:Square not empty"]
    await bobby.send("Game#1 M A1 A2 1")
    assert await bobby.expect("Error:*") == ["NOK", "Error:First move should be place"]
    await relay(bobby, "Game#1 P E5", alice)
    await relay(alice, "Game#1 P B2 W", bobby)
    await relay(bobby, "Game#1 M A1 A2 1", alice)
    await alice.send("Game#1 M B2 B3 2")
    assert await alice.expect("Error:*") == ["NOK", "Error:Invalid move"]
    await alice.send("Game#1 Resign")
    assert (await alice.expect("Game#1 Over*"))[-1] == "Game#1 Over 0-1"
    assert (await bobby.expect("Game#1 Over*"))[-1] == "Game#1 Over 0-1"
    # after the game both may seek again
    await bobby.send("Seek 4 60 0 A 0 15 0 0 0 ")
    await alice.expect("Seek new 2 bobby*")
    await close_all(alice, bobby)


async def test_seek_and_accept_are_refused_during_a_game(start_server: StartServer) -> None:
    server = await start_server()
    alice, bobby = await start_game(server)
    await alice.send("Seek 5 180 10 W 4 21 1 0 0 ")
    assert await alice.line() == "NOK"
    carol = await LineClient.logged_in(server.tcp_port or 0, "carol")
    await carol.send("Seek 4 60 0 A 0 15 0 0 0 ")
    await bobby.expect("Seek new 2 carol*")
    await bobby.send("Accept 2")
    assert await bobby.line() == "NOK"
    await close_all(alice, bobby, carol)


async def test_draw_needs_both_offers(start_server: StartServer) -> None:
    server = await start_server()
    alice, bobby = await start_game(server)
    await alice.send("Game#1 OfferDraw")
    await alice.expect("OK")
    await bobby.expect("Game#1 OfferDraw")
    await bobby.send("Game#1 OfferDraw")
    assert (await bobby.expect("Game#1 Over*"))[-1] == "Game#1 Over 1/2-1/2"
    assert (await alice.expect("Game#1 Over*"))[-1] == "Game#1 Over 1/2-1/2"
    await close_all(alice, bobby)


@pytest.mark.parametrize(("komi", "result"), [(0, "F-0"), (2, "1/2-1/2"), (4, "0-F")])
async def test_full_board_flat_count_with_komi(
    start_server: StartServer, komi: int, result: str
) -> None:
    server = await start_server()
    alice, bobby = await start_game(server, f"Seek 3 60 0 W {komi} 10 0 0 0 ")
    # fills the 3x3 board without a road: white ends with 5 flats, black with 4
    plies = ["A3", "A2", "C3", "A1", "B1", "B2", "C2", "C1", "B3"]
    for index, square in enumerate(plies):
        mover = (alice, bobby)[index % 2]
        await mover.send(f"Game#1 P {square}")
        await mover.expect("OK")
    assert (await alice.expect("Game#1 Over*"))[-1] == f"Game#1 Over {result}"
    await close_all(alice, bobby)


async def test_time_loss(start_server: StartServer) -> None:
    server = await start_server()
    alice, bobby = await start_game(server, "Seek 4 1 0 W 0 15 0 0 0 ")
    await alice.send("Game#1 P A1")
    await alice.expect("OK")
    # black never moves: its second runs out
    lines = await alice.expect("Game#1 Over*")
    assert lines[-2:] == ["Game#1 Timems 1000 0", "Game#1 Over 1-0"]
    await close_all(alice, bobby)


async def test_disconnect_resume_and_abandon(start_server: StartServer) -> None:
    server = await start_server(reconnect_seconds=1.0)
    alice, bobby = await start_game(server)
    await relay(alice, "Game#1 P A1", bobby)
    await bobby.aclose()
    assert (await alice.expect("Message bobby*"))[-1] == (
        "Message bobby has disconnected. They have 1 seconds to reconnect"
    )
    bobby = await LineClient.logged_in(server.tcp_port or 0, "bobby")
    replay = await bobby.expect("Message Your game is resumed")
    assert replay[-4] == "Game Start 1 alice vs bobby black 5 180 10 4 21 1 0 0 0 0 0"
    assert replay[-3] == "Game#1 P A1"
    assert replay[-2].startswith("Game#1 Timems 190000 ")
    await alice.expect("Message bobby has reconnected.")
    await relay(bobby, "Game#1 P E5", alice)
    # now alice leaves for good
    await alice.send("quit")
    await alice.closed()
    assert (await bobby.expect("Game#1 Abandoned*"))[-1] == "Game#1 Abandoned. alice quit"
    await bobby.aclose()


async def test_logging_in_twice_disconnects_the_first(start_server: StartServer) -> None:
    server = await start_server()
    first = await LineClient.logged_in(server.tcp_port or 0, "alice")
    second = await LineClient.logged_in(server.tcp_port or 0, "alice")
    lines = await first.closed()
    assert "Message You've logged in from another window. Disconnecting" in lines
    await second.aclose()


async def test_silent_clients_are_dropped_pinging_ones_kept(start_server: StartServer) -> None:
    server = await start_server(idle_timeout=1.0, cleanup_interval=0.2)
    silent = await LineClient.logged_in(server.tcp_port or 0, "silent")
    pinger = await LineClient.logged_in(server.tcp_port or 0, "pinger")

    async def keep_pinging() -> None:
        while True:
            await pinger.send("PING")
            await trio.sleep(0.1)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(keep_pinging)
        await silent.send("List")  # only PING counts as activity
        await silent.closed()
        await pinger.expect('OnlinePlayers ["pinger"]')
        nursery.cancel_scope.cancel()
    await pinger.aclose()


async def test_chat_and_observe(start_server: StartServer) -> None:
    server = await start_server()
    alice, bobby = await start_game(server)
    await alice.send("Game#1 P A1")
    await alice.expect("OK")
    carol = await LineClient.logged_in(server.tcp_port or 0, "carol")
    await carol.send("Observe 1")
    lines = await carol.expect("Game#1 Timems*")
    assert "Observe 1 alice bobby 5 180 10 4 21 1 0 0 0 0" in lines
    assert "Game#1 P A1" in lines
    await carol.send("Tell alice hello there")
    assert await carol.expect("Told <alice> hello there")
    assert await alice.expect("Tell <carol> hello there")
    await carol.send("Shout hi all")
    await bobby.expect("Shout <carol> hi all")
    await close_all(alice, bobby, carol)


async def test_websocket_client_in_a_thread_plays_against_tcp(start_server: StartServer) -> None:
    server = await start_server()
    url = f"ws://127.0.0.1:{server.ws_port}/ws"
    seen: list[bytes] = []

    def ws_player() -> None:
        ws = websocket.create_connection(url, subprotocols=["binary"], timeout=10)
        try:
            assert ws.getsubprotocol() == "binary"

            def read_until(prefix: bytes) -> bytes:
                while True:
                    opcode, data = ws.recv_data()
                    assert opcode == websocket.ABNF.OPCODE_BINARY
                    seen.append(data)
                    if data.startswith(prefix):
                        return data

            read_until(b"Login or Register")
            ws.send("PING\nList")  # two commands in one frame are one (bad) command
            assert read_until(b"NOK") == b"NOK\n"
            ws.send("Protocol 2\n")
            ws.send_binary(b"Login wsuser secret1")
            read_until(b"Welcome wsuser!")
            ws.send("Seek 4 60 5 B 0 15 0 0 0 ")
            start = read_until(b"Game Start")
            assert start == b"Game Start 1 tcpuser vs wsuser black 4 60 5 0 15 0 0 0 0 0 0\n"
            assert read_until(b"Game#1 P") == b"Game#1 P A1\n"
            ws.send("Game#1 P D4")
            read_until(b"OK")
            ws.send("Game#1 Resign")
            assert read_until(b"Game#1 Over") == b"Game#1 Over 1-0\n"
        finally:
            ws.close()

    tcp = await LineClient.logged_in(server.tcp_port or 0, "tcpuser")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(trio.to_thread.run_sync, ws_player)
        await tcp.expect("Seek new 1 wsuser*")
        await tcp.send("Accept 1")
        await tcp.expect("Game Start*")
        await tcp.send("Game#1 P A1")
        await tcp.expect("Game#1 P D4")
        await tcp.expect("Game#1 Over 1-0")
    assert all(frame.endswith(b"\n") and frame.count(b"\n") == 1 for frame in seen)
    await tcp.aclose()


async def test_websocket_clients_must_offer_the_binary_subprotocol(
    start_server: StartServer,
) -> None:
    server = await start_server()
    url = f"ws://127.0.0.1:{server.ws_port}/ws"

    def connect(subprotocols: list[str] | None) -> bytes:
        ws = websocket.create_connection(url, subprotocols=subprotocols, timeout=10)
        try:
            return ws.recv_data()[1]
        finally:
            ws.close()

    for wrong in (None, ["chat"]):
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            await trio.to_thread.run_sync(connect, wrong)
        assert refused.value.status_code == 400
    # the server is still there for a client that offers it
    assert await trio.to_thread.run_sync(connect, ["binary"]) == b"Welcome!\n"


async def test_a_seek_for_one_opponent_is_refused_to_others(start_server: StartServer) -> None:
    server = await start_server()
    alice = await LineClient.logged_in(server.tcp_port or 0, "alice", protocol=0)
    carol = await LineClient.logged_in(server.tcp_port or 0, "carol")
    bobby = await LineClient.logged_in(server.tcp_port or 0, "bobby")
    await alice.send("Seek 5 180 10 W 4 21 1 0 0 Carol")
    assert (await alice.expect("Seek new*"))[
        -1
    ] == "Seek new 1 alice 5 180 10 W 4 21 1 0 0 0 0 Carol"
    assert (await bobby.expect("Seek new*"))[-1] == (
        "Seek new 1 alice 5 180 10 W 4 21 1 0 0 0 0 Carol 0"
    )
    await bobby.send("Accept 1")
    assert await bobby.line() == "NOK"
    await alice.send("Accept 1")  # not your own seek either
    assert await alice.line() == "NOK"
    await carol.send("Accept 1")  # the name matches without regard to case
    await carol.expect("Game Start 1 alice vs carol black*")
    await close_all(alice, bobby, carol)


async def test_a_client_sending_an_endless_line_is_dropped(start_server: StartServer) -> None:
    server = await start_server()
    alice = await LineClient.logged_in(server.tcp_port or 0, "alice")
    watcher = await LineClient.logged_in(server.tcp_port or 0, "bobby")
    await alice.stream.send_all(b"Shout " + b"x" * (MAX_LINE + 10))  # no newline, ever
    await alice.closed()
    await watcher.expect('OnlinePlayers ["bobby"]')  # alice is gone for the others too
    assert "alice" not in server.core.online
    await watcher.send("PING")  # and the server serves the others
    assert await watcher.expect("OK")
    await watcher.aclose()
