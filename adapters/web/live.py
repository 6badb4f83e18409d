"""The live view: a read-only web page following an event bus (Starlette on Hypercorn/trio).

Routes (all GET, no authentication: anyone who can reach the port can watch):

  /                    the page (plain HTML, CSS and a script served from this package)
  /static/NAME         its files
  /state               the page state now, as JSON (what a late joiner starts from)
  /events              server-sent events: `snapshot` (the whole state) first and after
                       falling behind, then `patch` per event (see LiveState.patch);
                       503 past `max_watchers` streams
  /games/ID.EXT        a finished game's record (PTN for Tak) as a download

Each update's JSON is encoded once (by the bus) and shared by every watcher. A watcher
that falls behind gets the state as a snapshot shared with the others; one whose
connection takes no data for `send_timeout` seconds is disconnected (the page reconnects
by itself). `tei match` and `tei playtak` run this server in a thread of its own
(adapters/web/live_feed.py), so none of this costs the match's loop anything.

The address comes from `adapters.web.options` (127.0.0.1 unless told otherwise).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from functools import partial
from importlib import resources
from typing import Any

import attrs
import trio
from hypercorn.config import Config, Sockets
from hypercorn.trio.tcp_server import TCPServer
from hypercorn.trio.worker_context import WorkerContext
from hypercorn.typing import ConnectionState
from hypercorn.utils import parse_socket_addr, repr_socket_addr, wrap_app
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from adapters.stream.bus import EventBus, Subscription, Update
from adapters.web.options import DEFAULT_MAX_WATCHERS, LiveAddressError

log = logging.getLogger("tei.live")

#: seconds between keep-alive comments on an idle event stream
KEEPALIVE = 15.0
#: seconds a watcher's connection may take no data before it is disconnected
SEND_TIMEOUT = 10.0
_STATIC = {
    "live.html": "text/html; charset=utf-8",
    "live.css": "text/css; charset=utf-8",
    "live.js": "text/javascript; charset=utf-8",
}
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
Client = tuple[str, int]


def sse(updates: list[Update]) -> bytes:
    """Updates as server-sent events (their JSON is shared, only the framing is added)."""
    parts: list[bytes] = []
    for update in updates:
        parts += (
            b"event: snapshot\ndata: " if update.reset else b"event: patch\ndata: ",
            update.payload,
            b"\n\n",
        )
    return b"".join(parts)


def _static(name: str) -> bytes:
    return resources.files("adapters.web").joinpath("static", name).read_bytes()


@attrs.define
class Watchers:
    """The open event streams: their cap, and the connections to cut when one stalls."""

    max_watchers: int = DEFAULT_MAX_WATCHERS
    send_timeout: float = SEND_TIMEOUT
    #: open connections by client address (filled by `serve_sockets`)
    connections: dict[Client, trio.SocketStream] = attrs.field(factory=dict)
    #: watchers now sending: client -> (time.monotonic() as the send began, subscription)
    sending: dict[Client, tuple[float, Subscription]] = attrs.field(factory=dict)
    #: watchers disconnected for taking no data
    dropped: int = 0

    def cut(self, client: Client) -> None:
        """Close a client's connection (wakes a send blocked on it)."""
        stream = self.connections.pop(client, None)
        if stream is not None:
            stream.socket.close()

    async def reap(self) -> None:
        """Disconnect, forever, the watchers whose send has not gone through in time."""
        while True:
            await trio.sleep(self.send_timeout / 4)
            now = time.monotonic()
            for client, (since, sub) in list(self.sending.items()):
                if now - since > self.send_timeout:
                    log.info(
                        "live view: %s:%s took no data for %gs: disconnected",
                        *client,
                        self.send_timeout,
                    )
                    self.dropped += 1
                    del self.sending[client]
                    sub.close()
                    self.cut(client)


class EventStream:
    """The `/events` route (plain ASGI, to send each update's shared bytes as they are)."""

    def __init__(self, bus: EventBus, watchers: Watchers) -> None:
        self.bus = bus
        self.watchers = watchers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.watchers.max_watchers
        if self.bus.subscribers >= limit:
            busy = PlainTextResponse(
                f"too many watchers: at most {limit} at a time (--live-max-watchers)\n",
                status_code=503,
                headers={"Retry-After": "30"},
            )
            await busy(scope, receive, send)
            return
        host, port = scope.get("client") or ("", 0)
        client: Client = (host, port)
        with self.bus.subscribe() as sub:
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [
                        (b"content-type", b"text/event-stream; charset=utf-8"),
                        (b"cache-control", b"no-cache"),
                        (b"x-accel-buffering", b"no"),
                    ],
                }
            )
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_until_disconnect, receive, nursery.cancel_scope)
                await self._pump(sub, client, send)
                nursery.cancel_scope.cancel()

    async def _pump(self, sub: Subscription, client: Client, send: Send) -> None:
        """The subscription's updates to the client until it closes; when the bus closed
        (the match is over) the response is ended properly."""
        await self._send(send, b"retry: 2000\n\n", client, sub)
        while True:
            update = None
            with trio.move_on_after(KEEPALIVE):
                update = await sub.next()
                if update is None:
                    break
            body = b": keep-alive\n\n" if update is None else sse([update, *sub.ready()])
            await self._send(send, body, client, sub)
        if self.bus.closed:
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _send(self, send: Send, body: bytes, client: Client, sub: Subscription) -> None:
        self.watchers.sending[client] = (time.monotonic(), sub)
        try:
            await send({"type": "http.response.body", "body": body, "more_body": True})
        finally:
            self.watchers.sending.pop(client, None)


async def _until_disconnect(receive: Receive, scope: trio.CancelScope) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    scope.cancel()


def live_app(bus: EventBus, watchers: Watchers | None = None) -> Starlette:
    """The ASGI app serving the page and the event stream of `bus`."""

    async def page(request: Request) -> Response:
        return Response(_static("live.html"), media_type=_STATIC["live.html"])

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return PlainTextResponse("not found", status_code=404)
        return Response(
            _static(name), media_type=_STATIC[name], headers={"Cache-Control": "no-cache"}
        )

    async def state(request: Request) -> Response:
        return Response(bus.snapshot_update().payload, media_type="application/json")

    async def record(request: Request) -> Response:
        game_id, _, ext = request.path_params["name"].partition(".")
        over = bus.state.record(int(game_id)) if game_id.isdigit() else None
        if over is None or ext != over.record_format:
            return PlainTextResponse("no such finished game", status_code=404)
        filename = f"game-{over.game + 1}.{over.record_format}"
        return PlainTextResponse(
            over.record,
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    return Starlette(
        routes=[
            Route("/", page),
            Route("/static/{name}", static),
            Route("/state", state),
            Route("/events", EventStream(bus, watchers or Watchers())),
            Route("/games/{name}", record),
        ]
    )


def url_of(binds: list[str]) -> str:
    """The page's address from Hypercorn's bound addresses."""
    return binds[0].rstrip("/") + "/"


def _config(host: str, port: int) -> Config:
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    config.accesslog = None
    config.loglevel = "WARNING"
    config.graceful_timeout = 0.5
    logging.getLogger("hypercorn.error").setLevel(logging.WARNING)
    return config


def bind(host: str, port: int) -> tuple[Sockets, str]:
    """The listening sockets and the page's URL; LiveAddressError if they cannot be had."""
    try:
        sockets = _config(host, port).create_sockets()
        for sock in sockets.insecure_sockets:
            sock.listen(100)
    except OSError as exc:
        raise LiveAddressError(
            f"cannot serve the live view on {host}:{port}: {exc.strerror or exc}"
        ) from None
    binds = [
        f"http://{repr_socket_addr(s.family, s.getsockname())}" for s in sockets.insecure_sockets
    ]
    return sockets, url_of(binds)


async def serve_sockets(
    bus: EventBus,
    sockets: Sockets,
    watchers: Watchers,
    *,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the live view on bound `sockets` until cancelled; every connection is closed
    on the way out, even one whose client stopped reading."""
    config = _config("127.0.0.1", 0)
    app = wrap_app(live_app(bus, watchers), config.wsgi_max_body_size, None)  # type: ignore[arg-type]
    context = WorkerContext(None)

    async def connection(stream: trio.SocketStream) -> None:
        try:
            client = parse_socket_addr(stream.socket.family, stream.socket.getpeername())
        except OSError:  # gone already
            await stream.aclose()
            return
        if client is not None:
            watchers.connections[client] = stream
        try:
            await TCPServer(app, config, context, ConnectionState({}), stream)  # type: ignore[arg-type]
        except Exception:  # one connection's fault: the others are served on
            log.exception("live view: a connection failed")
        finally:
            if client is not None and watchers.connections.get(client) is stream:
                del watchers.connections[client]

    listeners = [
        trio.SocketListener(trio.socket.from_stdlib_socket(sock))
        for sock in sockets.insecure_sockets
    ]
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(watchers.reap)
            await nursery.start(trio.serve_listeners, connection, listeners)
            task_status.started()
            try:
                await trio.sleep_forever()
            finally:  # before waiting for the connections: a send blocked on one ends now
                for client in list(watchers.connections):
                    watchers.cut(client)
    finally:
        for sock in sockets.insecure_sockets:
            sock.close()


async def serve_live(
    bus: EventBus,
    host: str,
    port: int,
    *,
    watchers: Watchers | None = None,
    task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the live view in this trio run until cancelled; `task_status.started` gets
    the page's URL. An address that cannot be bound raises LiveAddressError at once."""
    sockets, url = bind(host, port)
    async with trio.open_nursery() as nursery:
        await nursery.start(partial(serve_sockets, bus, sockets, watchers or Watchers()))
        task_status.started(url)
