"""Connect failures over real sockets on 127.0.0.1: each named in the log; the transient
ones retried with backoff, the permanent ones ending the session."""

from __future__ import annotations

import socket
import struct

import pytest
import trio
import trio_websocket

from adapters.playtak import protocol as p
from adapters.playtak.session import Credentials, Session, SessionEnded, SessionSettings
from adapters.playtak.transport import ConnectSettings
from tests.support.playtak.tls import serve_tcp
from tests.support.playtak.waiting import Tally, watch_log

pytestmark = pytest.mark.socket


class Idle:
    """A handler that only listens."""

    in_game = False

    async def connected(self, name: str) -> None:
        pass

    async def settled(self) -> None:
        pass

    async def event(self, event: p.ServerEvent) -> None:
        pass

    async def disconnected(self) -> None:
        pass


def session(url: str) -> Session:
    settings = SessionSettings(server=url, login_timeout=5, backoff_start=0.05, backoff_max=0.2)
    return Session(settings, Credentials())


async def retried(url: str, words: str, times: int = 2) -> list[str]:
    """Run a session on `url` until `words` were logged `times` times; those messages."""
    with watch_log(words) as log:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session(url).run, Idle())
            await log.matches.reach(times)
            nursery.cancel_scope.cancel()
    return log.with_text()


async def ended(url: str) -> str:
    """Run a session on `url` that must end at once; why it ended."""
    with trio.move_on_after(10):
        try:
            await session(url).run(Idle())
        except SessionEnded as exc:
            return str(exc)
    raise AssertionError(f"the session on {url} did not end within 10 s")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def test_a_refused_connection_is_named_and_retried() -> None:
    port = free_port()
    for url in (f"tcp://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"):
        messages = await retried(url, "connection refused")
        assert messages[0] == (
            f"cannot connect to {url}: connection refused (nothing listens on port {port})"
        )


async def test_a_name_that_cannot_resolve_is_named_fast_and_retried() -> None:
    url = "wss://nonexistent.invalid:443/ws"
    with trio.fail_after(5):
        messages = await retried(url, "cannot resolve the host name 'nonexistent.invalid'")
    assert messages[0].startswith(f"cannot connect to {url}: ")


async def _read_request(stream: trio.SocketStream) -> None:
    """Read a client's HTTP request up to its blank line."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = await stream.receive_some(4096)
        if not chunk:
            return
        data += chunk


async def test_a_reset_during_the_upgrade_is_named_and_retried(nursery: trio.Nursery) -> None:
    accepted = Tally("connections")

    async def reset(stream: trio.SocketStream) -> None:
        accepted.add()
        await _read_request(stream)
        stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    port = await serve_tcp(nursery, reset)
    messages = await retried(f"ws://127.0.0.1:{port}/ws", "connection reset by the server")
    assert messages[0].endswith("during the websocket upgrade")
    assert accepted.count >= 2


@pytest.mark.parametrize(
    ("scheme", "step"), [("ws", "websocket upgrade"), ("wss", "TLS handshake")]
)
async def test_a_server_that_hangs_up_at_once_is_named_and_retried(
    nursery: trio.Nursery, scheme: str, step: str
) -> None:
    async def hang_up(stream: trio.SocketStream) -> None:
        await stream.receive_some(4096)

    port = await serve_tcp(nursery, hang_up)
    with trio.fail_after(5):  # not the deadline of any step: the hang-up ends the wait
        await retried(
            f"{scheme}://127.0.0.1:{port}/ws", f"the server closed the connection during the {step}"
        )


@pytest.mark.parametrize("answer", [b"Welcome!\r\n\r\n", b"\x16\x03\x01garbage\r\n\r\n"])
async def test_an_answer_that_is_not_http_is_named_and_retried(
    nursery: trio.Nursery, answer: bytes
) -> None:
    async def babble(stream: trio.SocketStream) -> None:
        await _read_request(stream)
        await stream.send_all(answer)
        await stream.receive_some(4096)

    port = await serve_tcp(nursery, babble)
    with trio.fail_after(5):
        await retried(f"ws://127.0.0.1:{port}/ws", "upgrade cannot be read")


async def test_a_plain_line_server_on_a_ws_address_times_out_and_is_retried(
    nursery: trio.Nursery,
) -> None:
    async def playtak_over_tcp(stream: trio.SocketStream) -> None:
        await stream.send_all(b"Welcome!\nLogin or Register\n")
        while await stream.receive_some(4096):
            pass

    port = await serve_tcp(nursery, playtak_over_tcp)
    url = f"ws://127.0.0.1:{port}/ws"
    settings = SessionSettings(
        server=url, connect=ConnectSettings(upgrade_timeout=0.3), backoff_start=0.05
    )
    with watch_log("no answer to the websocket upgrade within 0.3 s") as log:
        async with trio.open_nursery() as inner:
            inner.start_soon(Session(settings, Credentials()).run, Idle())
            await log.matches.reach(2)
            inner.cancel_scope.cancel()


async def _websocket_server(nursery: trio.Nursery, status: int, served: Tally) -> int:
    async def handler(request: trio_websocket.WebSocketRequest) -> None:
        served.add()
        await request.reject(status, body=b"not here\n")

    server = await nursery.start(trio_websocket.serve_websocket, handler, "127.0.0.1", 0, None)
    port: int = server.port
    return port


async def test_an_upgrade_refused_with_4xx_ends_the_session(nursery: trio.Nursery) -> None:
    served = Tally("upgrade requests")
    port = await _websocket_server(nursery, 403, served)
    url = f"ws://127.0.0.1:{port}/ws"
    why = await ended(url)
    assert why == (
        f"cannot connect to {url}: the server refused the websocket upgrade with "
        "HTTP 403 Forbidden: not here"
    )
    assert served.count == 1


async def test_an_upgrade_refused_with_5xx_is_retried(nursery: trio.Nursery) -> None:
    served = Tally("upgrade requests")
    port = await _websocket_server(nursery, 503, served)
    await retried(f"ws://127.0.0.1:{port}/ws", "HTTP 503 Service Unavailable")
    assert served.count >= 2


async def test_a_server_closing_after_login_is_named_and_retried(nursery: trio.Nursery) -> None:
    from adapters.playtak.server.listeners import LocalServer

    server = LocalServer()
    await nursery.start(server.serve)
    handler = Idle()
    logins = Tally("logins")

    async def connected(name: str) -> None:
        logins.add()
        server.drop(name)

    handler.connected = connected  # type: ignore[method-assign]
    with watch_log("connection lost") as log:
        async with trio.open_nursery() as inner:
            inner.start_soon(session(f"ws://127.0.0.1:{server.ws_port}/ws").run, handler)
            await logins.reach(2)
            inner.cancel_scope.cancel()
    assert log.with_text()[0] in (
        "connection lost: the server closed the connection",
        "connection lost: the connection dropped without a websocket close",
    )
