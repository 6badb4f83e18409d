"""A small HTTP client (h11 over trio sockets) for the live view's tests: plain GETs, a
server-sent-events watcher and one that never reads, talking to a server on 127.0.0.1;
and a `tei match --live` run with many watchers."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
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


async def stalled_watcher(url: str) -> trio.socket.SocketType:
    """An `/events` stream that is opened and never read (a tiny receive buffer, so the
    server's sends to it soon block). Close it to let it go."""
    host, port, _ = _target(url)
    sock = trio.socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await sock.connect((host, port))
    await sock.send(f"GET /events HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    return sock


def watched_match(args: list[str], watchers: int, timeout: float) -> tuple[float, list[str]]:
    """Run `tei match ARGS --live 0 --json FILE` with `watchers` event streams open (every
    other one never read, the rest read as fast as they come): (seconds, terminations)."""
    with tempfile.TemporaryDirectory() as tmp:
        summary = Path(tmp) / "match.json"
        command = [sys.executable, "-m", "tei", "match", *args, "--live", "0"]
        start = time.monotonic()
        proc = subprocess.Popen(
            [*command, "--quiet", "--json", str(summary)], stdout=subprocess.PIPE, text=True
        )
        opened: list[socket.socket] = []
        try:
            assert proc.stdout is not None
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
            assert found, "no live view address printed"
            port = int(found.group(1))
            for i in range(watchers):
                sock = socket.socket()
                if i % 2:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.connect(("127.0.0.1", port))
                sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                opened.append(sock)
                if i % 2 == 0:
                    threading.Thread(target=_read_all, args=(sock,), daemon=True).start()
            proc.communicate(timeout=timeout)
        finally:
            proc.kill()
            proc.wait()
            for sock in opened:
                sock.close()
        took = time.monotonic() - start
        assert proc.returncode == 0, proc.returncode
        results = json.loads(summary.read_text())["results"]
    return took, [r["termination"] for r in results]


def _read_all(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while sock.recv(65536):
            pass
