"""Line transports to a playtak server: websocket (`ws://`, `wss://`) and raw TCP (`tcp://`).

Both offer the same small interface: `send_line`, `receive_line` (raises
`TransportClosed` at the end) and `aclose`. Websocket: subprotocol `binary`, one command
per frame (a text frame ending in a newline, like the official web client); every
frame from the server holds one line. TCP: ISO-8859-1 lines ending in `\\n`.

`open_transport` connects step by step (TCP, TLS for wss://, the websocket upgrade), each
under its own deadline; a step that fails raises `ConnectFailed`, whose `failure` (from
`failures.classify`) names the cause and says whether trying again can help.
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
import ssl
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

import attrs
import trio
import trio_websocket

from adapters.playtak.errors import PlaytakError
from adapters.playtak.failures import (
    ConnectFailure,
    NotAnUpgrade,
    Step,
    classify,
    lost_in_words,
)
from adapters.playtak.protocol import ENCODING, MAX_LINE
from tei.errors import main_error
from tei.lines import LineSplitter, LongLine

log = logging.getLogger("playtak.transport")

DEFAULT_SERVER = "wss://playtak.com/ws"
DEFAULT_TCP_PORT = 10000


class TransportClosed(PlaytakError):
    """The connection ended (closed by either side, reset, or unusable)."""


class BadServerURL(PlaytakError, ValueError):
    """A server address that is not ws://, wss:// or tcp://host[:port]."""


class BadCaFile(PlaytakError, ValueError):
    """A --ca-file that cannot be read as PEM certificates."""


class ConnectFailed(TransportClosed):
    """No connection could be made; `failure` says why and whether retrying can help."""

    def __init__(self, address: ServerAddress | str, failure: ConnectFailure) -> None:
        super().__init__(f"cannot connect to {address}: {failure.cause}")
        self.failure = failure


@attrs.frozen
class ConnectSettings:
    """How to open a connection: whom to trust for TLS and the deadline of each step (s).

    The system's certificate authorities are always trusted (OpenSSL's defaults, which
    follow `SSL_CERT_FILE` and `SSL_CERT_DIR`); `ca_file` adds more. `insecure` skips
    verification altogether and is announced with a warning on every connect."""

    ca_file: Path | None = None
    insecure: bool = False
    connect_timeout: float = 20.0  # name lookup and TCP connect
    tls_timeout: float = 10.0
    upgrade_timeout: float = 10.0

    def ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        if self.ca_file is not None:
            try:
                context.load_verify_locations(cafile=self.ca_file)
            except (OSError, ssl.SSLError) as exc:
                reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or exc
                raise BadCaFile(
                    f"--ca-file {str(self.ca_file)!r}: cannot load certificates ({reason})"
                ) from None
        if self.insecure:
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        return context


DEFAULT_CONNECT = ConnectSettings()


#: a host name or an IP address (IPv6 without its brackets)
_HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")
#: `host:port` without a scheme (read as TCP)
_BARE_ADDRESS = re.compile(r"([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):[0-9]+")


def _bad_url(url: str, why: str) -> BadServerURL:
    return BadServerURL(
        f"bad server address {url!r} ({why}): use wss://host/ws, ws://host:port/ws "
        "or tcp://host:port"
    )


@attrs.frozen
class ServerAddress:
    scheme: str  # "tcp", "ws" or "wss"
    host: str
    port: int
    path: str = "/ws"

    @classmethod
    def parse(cls, url: str) -> ServerAddress:
        """`wss://playtak.com/ws`, `ws://127.0.0.1:9999/ws`, `tcp://playtak.com:10000`,
        or `host:port` (TCP); anything else (`ws:/host/ws`, `wss//host/ws`, a TCP path,
        a user or query part) raises BadServerURL naming it."""
        text = url.strip()
        if "://" not in text:
            if not _BARE_ADDRESS.fullmatch(text):
                raise _bad_url(url, "neither scheme://host nor host:port")
            text = "tcp://" + text
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError as exc:
            raise _bad_url(url, str(exc)) from None
        scheme = parts.scheme.lower()
        if scheme not in ("tcp", "ws", "wss"):
            raise _bad_url(url, f"scheme {parts.scheme!r}")
        host = parts.hostname or ""
        if not _HOST.fullmatch(host):
            raise _bad_url(url, f"host {host!r}" if host else "no host")
        extra = parts.username is not None or parts.query or parts.fragment
        if extra or (scheme == "tcp" and parts.path not in ("", "/")):
            raise _bad_url(url, "more than host[:port]" + ("" if scheme == "tcp" else "/path"))
        default = {"tcp": DEFAULT_TCP_PORT, "ws": 80, "wss": 443}[scheme]
        return cls(scheme, host, port or default, parts.path or "/ws")

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
        self._splitter = LineSplitter(MAX_LINE, ENCODING)
        self._pending: deque[str | LongLine] = deque()
        self._send_lock = trio.Lock()

    async def send_line(self, line: str) -> None:
        data = (line.rstrip("\n") + "\n").encode(ENCODING, "replace")
        try:
            async with self._send_lock:
                await self._stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            raise TransportClosed(lost_in_words(exc)) from None

    async def receive_line(self) -> str:
        while True:
            if self._pending:
                line = self._pending.popleft()
                if isinstance(line, LongLine):
                    raise TransportClosed(f"the server sent a line over {MAX_LINE} bytes")
                return line
            try:
                data = await self._stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                raise TransportClosed(lost_in_words(exc)) from None
            if not data:
                raise TransportClosed("the server closed the connection")
            self._pending.extend(self._splitter.feed_marked(data))

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
            raise TransportClosed(lost_in_words(exc)) from None

    async def receive_line(self) -> str:
        while not self._pending:
            try:
                message = await self._ws.get_message()
            except (trio_websocket.ConnectionClosed, trio.BrokenResourceError, OSError) as exc:
                raise TransportClosed(lost_in_words(exc)) from None
            text = message.decode(ENCODING) if isinstance(message, bytes) else message
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
    url: str | ServerAddress, settings: ConnectSettings = DEFAULT_CONNECT
) -> AsyncIterator[Transport]:
    """Connect to a server; raises ConnectFailed (a TransportClosed) when it cannot."""
    address = url if isinstance(url, ServerAddress) else ServerAddress.parse(url)
    stream = await _open_stream(address, settings)
    if address.scheme == "tcp":
        transport = TcpTransport(stream)
        try:
            yield transport
        finally:
            await transport.aclose()
        return
    async with _open_websocket(stream, address, settings.upgrade_timeout) as ws_transport:
        yield ws_transport


async def _open_stream(address: ServerAddress, settings: ConnectSettings) -> trio.abc.Stream:
    """TCP, and TLS for wss://, each step under its own deadline."""
    try:
        with trio.fail_after(settings.connect_timeout):
            tcp = await trio.open_tcp_stream(address.host, address.port)
    except (OSError, trio.TooSlowError) as exc:
        raise _failed(address, Step.CONNECT, exc, settings.connect_timeout) from None
    if address.scheme != "wss":
        return tcp
    try:
        if settings.insecure:
            log.warning(
                "--insecure: the certificate of %s is NOT verified; anyone on the way can "
                "read and change this connection",
                address,
            )
        context = settings.ssl_context()
        stream = trio.SSLStream(tcp, context, server_hostname=address.host, https_compatible=True)
        with trio.fail_after(settings.tls_timeout):
            await stream.do_handshake()
        return stream
    except BadCaFile as exc:
        await trio.aclose_forcefully(tcp)
        raise ConnectFailed(address, ConnectFailure(Step.TLS, str(exc), permanent=True)) from None
    except (trio.BrokenResourceError, trio.TooSlowError) as exc:
        await trio.aclose_forcefully(tcp)
        raise _failed(address, Step.TLS, exc, settings.tls_timeout) from None
    except BaseException:
        await trio.aclose_forcefully(tcp)
        raise


def _failed(
    address: ServerAddress, step: Step, error: BaseException, timeout: float
) -> ConnectFailed:
    failure = classify(step, error, host=address.host, port=address.port, timeout=timeout)
    return ConnectFailed(address, failure)


@asynccontextmanager
async def _open_websocket(
    stream: trio.abc.Stream, address: ServerAddress, timeout: float
) -> AsyncIterator[WebSocketTransport]:
    """The websocket upgrade over an open stream, then the connection until the body ends."""
    watched = _WatchedStream(stream)
    upgraded = False
    try:
        async with trio.open_nursery() as nursery:
            ws = await _upgrade(nursery, watched, address, timeout)
            upgraded = True
            try:
                yield WebSocketTransport(ws)
            finally:
                # a closing handshake unless cancelled (the reader task is gone then)
                if trio.current_effective_deadline() > -math.inf:
                    with trio.move_on_after(5.0), contextlib.suppress(Exception):
                        await ws.aclose()
                await trio.aclose_forcefully(watched)
    except BaseExceptionGroup as group:
        error = main_error(group)
        if upgraded or isinstance(error, ConnectFailed) or not isinstance(error, Exception):
            raise error from error.__cause__
        if not isinstance(error, trio_websocket.HandshakeError | OSError):
            # the websocket code choked on the answer (e.g. h11's LocalProtocolError)
            log.debug("unreadable answer to the websocket upgrade", exc_info=error)
            error = NotAnUpgrade()
        raise _failed(address, Step.UPGRADE, error, timeout) from None
    finally:
        if not upgraded:
            await trio.aclose_forcefully(watched)


async def _upgrade(
    nursery: trio.Nursery, stream: _WatchedStream, address: ServerAddress, timeout: float
) -> trio_websocket.WebSocketConnection:
    """Send the upgrade request and wait for the answer, the deadline or a hang-up (a
    refusal is raised by trio-websocket's reader task into `nursery`)."""
    host = address.host if address.port in (80, 443) else f"{address.host}:{address.port}"
    done: list[trio_websocket.WebSocketConnection] = []
    with trio.move_on_after(timeout) as deadline:
        async with trio.open_nursery() as race:

            async def upgrade() -> None:
                done.append(
                    await trio_websocket.wrap_client_stream(
                        nursery,
                        stream,  # type: ignore[arg-type]
                        host,
                        address.path,
                        subprotocols=["binary"],
                    )
                )
                race.cancel_scope.cancel()

            async def hang_up() -> None:
                await stream.ended.wait()
                race.cancel_scope.cancel()

            race.start_soon(upgrade)
            race.start_soon(hang_up)
    if done:
        return done[0]
    error: BaseException = stream.error or EOFError()
    if deadline.cancelled_caught and not stream.ended.is_set():
        error = trio.TooSlowError()
    raise _failed(address, Step.UPGRADE, error, timeout)


class _WatchedStream(trio.abc.Stream):
    """A stream that notes its end (EOF, an error, or closed), so that the wait for the
    websocket upgrade stops when the server hangs up instead of at the deadline."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        self.inner = inner
        self.ended = trio.Event()
        self.error: BaseException | None = None

    def _broke(self, exc: BaseException) -> None:
        self.error = self.error or exc
        self.ended.set()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        try:
            await self.inner.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            self._broke(exc)
            raise

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        try:
            data = await self.inner.receive_some(max_bytes)
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            self._broke(exc)
            raise
        if not data:
            self.ended.set()
        return data

    async def aclose(self) -> None:
        if not self.ended.is_set():  # closed by the websocket code: an unreadable answer
            self._broke(NotAnUpgrade())
        await self.inner.aclose()
