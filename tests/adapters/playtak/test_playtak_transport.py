"""Server addresses, line transports and the reconnect schedule."""

from __future__ import annotations

import socket
from functools import partial

import pytest
import trio
import trio_websocket

from adapters.playtak.session import SessionSettings
from adapters.playtak.transport import (
    BadServerURL,
    ServerAddress,
    TransportClosed,
    open_transport,
)

pytestmark = pytest.mark.socket


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("wss://playtak.com/ws", ServerAddress("wss", "playtak.com", 443, "/ws")),
        ("ws://127.0.0.1:9999/ws", ServerAddress("ws", "127.0.0.1", 9999, "/ws")),
        ("ws://localhost:9999", ServerAddress("ws", "localhost", 9999, "/ws")),
        ("tcp://playtak.com:10000", ServerAddress("tcp", "playtak.com", 10000)),
        ("tcp://playtak.com", ServerAddress("tcp", "playtak.com", 10000)),
        ("playtak.com:10002", ServerAddress("tcp", "playtak.com", 10002)),
    ],
)
def test_server_addresses(url: str, address: ServerAddress) -> None:
    assert ServerAddress.parse(url) == address


@pytest.mark.parametrize("url", ["http://playtak.com", "tcp://", "ws://host:port/ws", "udp://x:1"])
def test_bad_server_addresses_name_the_input(url: str) -> None:
    with pytest.raises(BadServerURL, match="bad server address"):
        ServerAddress.parse(url)


def test_reconnect_waits_stay_short_during_a_game() -> None:
    settings = SessionSettings()
    delay = settings.backoff_start
    waits_idle, waits_in_game = [], []
    for _ in range(12):
        waits_idle.append(settings.reconnect_wait(delay, in_game=False, jitter=1.2))
        waits_in_game.append(settings.reconnect_wait(delay, in_game=True, jitter=1.2))
        delay = min(delay * 2, settings.backoff_max)
    assert waits_idle[0] < waits_idle[3] < waits_idle[-1] == pytest.approx(72.0)
    assert max(waits_in_game) == pytest.approx(6.0)  # far inside the 120 s resume window
    assert sum(waits_in_game[:10]) < 120


async def test_tcp_lines_are_split_and_stripped(nursery: trio.Nursery) -> None:
    async def handler(stream: trio.SocketStream) -> None:
        await stream.send_all(b"Welcome!\r\nLogin or Register\nGame#1 P A1\nhalf")
        await stream.send_all(b" a line\n" + b"x" * 70_000)
        await trio.sleep(5)

    listeners = await nursery.start(partial(trio.serve_tcp, host="127.0.0.1"), handler, 0)
    port = listeners[0].socket.getsockname()[1]
    lines = []
    with pytest.raises(TransportClosed, match="over"):
        async with open_transport(f"tcp://127.0.0.1:{port}") as transport:
            while True:
                lines.append(await transport.receive_line())
    assert lines == ["Welcome!", "Login or Register", "Game#1 P A1", "half a line"]


async def test_connection_refused_is_a_closed_transport() -> None:
    with trio.socket.socket() as sock:  # a port nobody listens on
        await sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    for url in (f"tcp://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"):
        with pytest.raises(TransportClosed, match="cannot connect"):
            async with open_transport(url):
                pass


async def test_websocket_offers_binary_and_reads_one_line_per_frame(
    nursery: trio.Nursery,
) -> None:
    offered: list[list[str]] = []
    received: list[str | bytes] = []

    async def handler(request: trio_websocket.WebSocketRequest) -> None:
        offered.append(list(request.proposed_subprotocols))
        ws = await request.accept(subprotocol="binary")
        await ws.send_message(b"Welcome!\n")
        await ws.send_message(b"two\nlines\n")  # tolerated, though playtak never does it
        await ws.send_message("text frame")
        received.append(await ws.get_message())
        await ws.aclose()

    server = await nursery.start(trio_websocket.serve_websocket, handler, "127.0.0.1", 0, None)
    async with open_transport(f"ws://127.0.0.1:{server.port}/ws") as transport:
        lines = [await transport.receive_line() for _ in range(4)]
        await transport.send_line("PING")
        with pytest.raises(TransportClosed):
            await transport.receive_line()
    assert offered == [["binary"]]
    assert lines == ["Welcome!", "two", "lines", "text frame"]
    assert received == ["PING\n"]  # one command per frame, newline-terminated


async def test_tests_cannot_reach_beyond_127_0_0_1() -> None:
    """The guard every playtak test runs under: even the default server is out of reach."""
    with pytest.raises(AssertionError, match=r"only 127\.0\.0\.1"):
        async with open_transport("tcp://playtak.com:10000"):
            pass
    with pytest.raises(AssertionError, match=r"only 127\.0\.0\.1"), socket.socket() as sock:
        sock.connect(("10.0.0.1", 10000))


def test_keep_alive_defaults_fit_the_server_timeouts() -> None:
    from adapters.playtak.server.lobby import ServerSettings
    from tei.cli.playtak_options import option_table

    settings = SessionSettings()
    assert settings.ping_interval == 30.0
    # the server drops a client that sent no PING for 60 s; a PING's OK keeps us talking
    assert settings.ping_interval < ServerSettings().idle_timeout < settings.dead_after
    defaults = {option.dest: option.default for option in option_table().options}
    assert (defaults["ping_interval"], defaults["dead_after"], defaults["max_backoff"]) == (
        settings.ping_interval,
        settings.dead_after,
        settings.backoff_max,
    )
