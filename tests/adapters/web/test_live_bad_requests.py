"""Bad requests to the live view, as raw bytes on a real socket on 127.0.0.1: each gets a
clear status (or, for a request that never ends, the connection closed) and the server
serves on; a stream left by a broken request frees its watcher's place."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from functools import partial

import pytest
import trio

from adapters.stream.bus import EventBus
from adapters.stream.live_state import LiveState
from adapters.web.live import Watchers, serve_live
from tests.support.live import get

pytestmark = pytest.mark.socket

#: seconds a connection may send no complete request here (5 by default)
IDLE = 1.0


@pytest.fixture
async def served(nursery: trio.Nursery) -> AsyncIterator[tuple[EventBus, str]]:
    bus = EventBus(LiveState(title="bad requests"))
    url = await nursery.start(
        partial(serve_live, watchers=Watchers(idle_timeout=IDLE)), bus, "127.0.0.1", 0
    )
    yield bus, url
    bus.close()


async def exchange(url: str, raw: bytes) -> bytes:
    """Send `raw`, then read until the server closes the connection (at most 15 s)."""
    port = int(url.rsplit(":", 1)[1].strip("/"))
    sock = trio.socket.socket()
    with sock:
        await sock.connect(("127.0.0.1", port))
        if raw:
            await sock.send(raw)
        received = b""
        with trio.fail_after(15):
            while data := await sock.recv(65536):
                received += data
    return received


async def still_serves(url: str) -> None:
    assert (await get(f"{url}state"))[0] == 200


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"NONSENSE\r\n\r\n", b"400"),
        (b"GET /st\xffate HTTP/1.1\r\nHost: x\r\n\r\n", b"400"),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 20_000, b"431"),
        (
            b"POST /state HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            b"405",
        ),
        (b"GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", b"404"),
        (b"POST /events HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", b"405"),
    ],
)
async def test_a_bad_request_gets_its_status_and_the_server_serves_on(
    served: tuple[EventBus, str], raw: bytes, status: bytes
) -> None:
    _, url = served
    answer = await exchange(url, raw)
    assert answer.startswith(b"HTTP/1.1 " + status), answer
    await still_serves(url)


async def test_a_broken_request_body_on_the_event_stream_frees_its_place(
    served: tuple[EventBus, str],
) -> None:
    bus, url = served
    raw = b"GET /events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"
    answer = await exchange(url, raw)
    assert answer.startswith(b"HTTP/1.1 "), answer
    with trio.fail_after(10):
        await bus.wait_subscribers(0)
    await still_serves(url)


@pytest.mark.parametrize("raw", [b"GET / HTTP/1.1\r\nHo", b""], ids=["half a request", "nothing"])
async def test_a_request_that_never_ends_is_closed_after_a_while(
    served: tuple[EventBus, str], raw: bytes
) -> None:
    _, url = served
    start = time.monotonic()
    assert await exchange(url, raw) == b""  # closed without an answer
    assert time.monotonic() - start >= IDLE - 0.2
    await still_serves(url)
