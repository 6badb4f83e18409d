"""Line transports to a playtak server: websocket (`ws://`, `wss://`) and raw TCP (`tcp://`).

Both offer the same small interface: `send_line`, `receive_line` (raises
`TransportClosed` at the end) and `aclose`. Websocket: subprotocol `binary`, one command
per frame (a text frame ending in a newline, like the official web client); every
frame from the server holds one line. TCP: ISO-8859-1 lines ending in `\\n`.
"""

from __future__ import annotations

import contextlib
import ssl
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import attrs
import trio
import trio_websocket

from adapters.playtak.errors import PlaytakError

DEFAULT_SERVER = "wss://playtak.com/ws"
DEFAULT_TCP_PORT = 10000
MAX_LINE = 64 * 1024


class TransportClosed(PlaytakError):
    """The connection ended (closed by either side, reset, or unusable)."""


class BadServerURL(PlaytakError, ValueError):
    """A server address that is not ws://, wss:// or tcp://host[:port]."""


@attrs.frozen
class ServerAddress:
    scheme: str  # "tcp", "ws" or "wss"
    host: str
    port: int
    path: str = "/ws"

    @classmethod
    def parse(cls, url: str) -> ServerAddress:
        """`wss://playtak.com/ws`, `ws://127.0.0.1:9999/ws`, `tcp://playtak.com:10000`,
        or `host:port` (TCP)."""
        text = url.strip()
        if "://" not in text:
            text = "tcp://" + text
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError as exc:
            raise BadServerURL(f"bad server address {url!r}: {exc}") from None
        scheme = parts.scheme.lower()
        if scheme not in ("tcp", "ws", "wss") or not parts.hostname:
            raise BadServerURL(
                f"bad server address {url!r}: use wss://host/ws, ws://host:port/ws "
                "or tcp://host:port"
            )
        default = {"tcp": DEFAULT_TCP_PORT, "ws": 80, "wss": 443}[scheme]
        return cls(scheme, parts.hostname, port or default, parts.path or "/ws")

    def __str__(self) -> str:
        if self.scheme == "tcp":
            return f"tcp://{self.host}:{self.port}"
        return f"{self.scheme}://{self.host}:{self.port}{self.path}"


class Transport(ABC):
    """One open connection that carries lines."""

    @abstractmethod
    async def send_line(self, line: str) -> None: ...

    @abstractmethod
    async def receive_line(self) -> str: ...

    @abstractmethod
    async def aclose(self) -> None: ...


class TcpTransport(Transport):
    def __init__(self, stream: trio.abc.Stream) -> None:
        self._stream = stream
        self._buffer = bytearray()
        self._send_lock = trio.Lock()

    async def send_line(self, line: str) -> None:
        data = (line.rstrip("\n") + "\n").encode("iso-8859-1", "replace")
        try:
            async with self._send_lock:
                await self._stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            raise TransportClosed(str(exc)) from None

    async def receive_line(self) -> str:
        while True:
            index = self._buffer.find(b"\n")
            if index >= 0:
                raw = bytes(self._buffer[:index])
                del self._buffer[: index + 1]
                return raw.decode("iso-8859-1").rstrip("\r")
            if len(self._buffer) > MAX_LINE:
                raise TransportClosed(f"the server sent a line over {MAX_LINE} bytes")
            try:
                data = await self._stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                raise TransportClosed(str(exc)) from None
            if not data:
                raise TransportClosed("the server closed the connection")
            self._buffer += data

    async def aclose(self) -> None:
        with trio.CancelScope(shield=True):
            await self._stream.aclose()


class WebSocketTransport(Transport):
    def __init__(self, ws: trio_websocket.WebSocketConnection) -> None:
        self._ws = ws
        self._pending: deque[str] = deque()
        self._send_lock = trio.Lock()

    async def send_line(self, line: str) -> None:
        try:
            async with self._send_lock:
                await self._ws.send_message(line.rstrip("\n") + "\n")
        except (trio_websocket.ConnectionClosed, trio.BrokenResourceError, OSError) as exc:
            raise TransportClosed(str(exc)) from None

    async def receive_line(self) -> str:
        while not self._pending:
            try:
                message = await self._ws.get_message()
            except (trio_websocket.ConnectionClosed, trio.BrokenResourceError, OSError) as exc:
                raise TransportClosed(str(exc)) from None
            text = message.decode("iso-8859-1") if isinstance(message, bytes) else message
            if len(text) > MAX_LINE:
                raise TransportClosed(f"the server sent a frame over {MAX_LINE} bytes")
            # one line per frame; tolerate several lines in one frame
            self._pending.extend(text.removesuffix("\n").split("\n"))
        return self._pending.popleft().rstrip("\r")

    async def aclose(self) -> None:
        with trio.CancelScope(shield=True):
            await self._ws.aclose()


@asynccontextmanager
async def open_transport(
    url: str | ServerAddress, *, connect_timeout: float = 20.0
) -> AsyncIterator[Transport]:
    """Connect to a server; raises TransportClosed when it cannot."""
    address = url if isinstance(url, ServerAddress) else ServerAddress.parse(url)
    if address.scheme == "tcp":
        try:
            with trio.fail_after(connect_timeout):
                stream = await trio.open_tcp_stream(address.host, address.port)
        except (OSError, trio.TooSlowError) as exc:
            raise TransportClosed(f"cannot connect to {address}: {exc}") from None
        transport = TcpTransport(stream)
        try:
            yield transport
        finally:
            await transport.aclose()
        return
    context = ssl.create_default_context() if address.scheme == "wss" else None
    connected = False
    try:
        async with trio_websocket.open_websocket(
            address.host,
            address.port,
            address.path,
            use_ssl=context if context is not None else False,
            subprotocols=["binary"],
            connect_timeout=connect_timeout,
            disconnect_timeout=5.0,
        ) as ws:
            connected = True
            try:
                yield WebSocketTransport(ws)
            finally:
                # after a close started by the server, trio-websocket's client keeps its
                # TCP stream open (it waits for the server to hang up): close it here
                raw: trio.abc.AsyncResource | None = getattr(ws, "_stream", None)
                if raw is not None:
                    with trio.CancelScope(shield=True), contextlib.suppress(Exception):
                        await raw.aclose()
    except (OSError, trio_websocket.HandshakeError, trio_websocket.ConnectionTimeout) as exc:
        if connected:
            raise
        raise TransportClosed(f"cannot connect to {address}: {exc}") from None
