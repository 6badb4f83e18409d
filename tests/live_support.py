"""A small HTTP client (h11 over trio sockets) for the live view's tests: plain GETs and
a server-sent-events watcher, talking to a server on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import h11
import trio


def _target(url: str) -> tuple[str, int, str]:
    parts = urlsplit(url)
    assert parts.hostname == "127.0.0.1", url
    return parts.hostname, parts.port or 80, parts.path or "/"


async def get(url: str) -> tuple[int, dict[str, str], bytes]:
    """GET `url`: (status, headers, body)."""
    host, port, path = _target(url)
    stream = await trio.open_tcp_stream(host, port)
    conn = h11.Connection(h11.CLIENT)
    async with stream:
        request = h11.Request(method="GET", target=path, headers=[("Host", f"{host}:{port}")])
        await stream.send_all(conn.send(request) + conn.send(h11.EndOfMessage()))
        status, headers, body = 0, {}, b""
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(await stream.receive_some(65536))
            elif isinstance(event, h11.Response):
                status = event.status_code
                headers = {k.decode().lower(): v.decode() for k, v in event.headers}
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
                return status, headers, body


class Watcher:
    """One open `/events` stream; `message()` returns the next (event name, data)."""

    def __init__(self, stream: trio.SocketStream, conn: h11.Connection) -> None:
        self.stream = stream
        self.conn = conn
        self.buffer = ""
        self.headers: dict[str, str] = {}

    async def _more(self) -> None:
        while True:
            event = self.conn.next_event()
            if event is h11.NEED_DATA:
                data = await self.stream.receive_some(65536)
                if not data:
                    raise EOFError("the server closed the event stream")
                self.conn.receive_data(data)
            elif isinstance(event, h11.Response):
                assert event.status_code == 200, event
                self.headers = {k.decode().lower(): v.decode() for k, v in event.headers}
            elif isinstance(event, h11.Data):
                self.buffer += bytes(event.data).decode()
                return
            else:
                raise EOFError(f"the event stream ended: {event!r}")

    async def message(self, timeout: float = 10.0) -> tuple[str, Any]:
        """The next message with data (comments and `retry` skipped)."""
        with trio.fail_after(timeout):
            while True:
                while "\n\n" not in self.buffer:
                    await self._more()
                block, self.buffer = self.buffer.split("\n\n", 1)
                name, data = "message", None
                for line in block.splitlines():
                    key, _, value = line.partition(": ")
                    if key == "event":
                        name = value
                    elif key == "data":
                        data = json.loads(value)
                if data is not None:
                    return name, data


@asynccontextmanager
async def watch(url: str) -> AsyncIterator[Watcher]:
    """An open event stream of the live page at `url` (its root)."""
    host, port, _ = _target(url)
    stream = await trio.open_tcp_stream(host, port)
    conn = h11.Connection(h11.CLIENT)
    request = h11.Request(method="GET", target="/events", headers=[("Host", f"{host}:{port}")])
    await stream.send_all(conn.send(request))
    async with stream:
        yield Watcher(stream, conn)
