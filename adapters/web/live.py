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

Only public APIs: Hypercorn's `serve` and ASGI. Hypercorn writes to a socket shielded
from cancellation, so a send to a watcher that stops reading cannot be timed out; but it
closes the connection of an app that returns before its response is complete, which
ends such a send. So an event stream's sends run in a task of the server's own nursery
(`EventStream._pump`), and its ASGI call only waits for the response to be over (the
stream ended, the client left, the send stalled, or the server stops) and returns.

The address comes from `adapters.web.options` (127.0.0.1 unless told otherwise).
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Awaitable, Callable, MutableMapping
from functools import partial
from importlib import resources
from typing import Any

import attrs
import trio
from hypercorn.config import Config
from hypercorn.trio import serve
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
#: seconds a connection may stay idle, or take to send a whole request, before it is closed
IDLE_TIMEOUT = 5.0
#: seconds the server may take to stop once told to (it takes far less: a safety net)
STOP_LIMIT = 5.0
_STATIC = {
    "live.html": "text/html; charset=utf-8",
    "live.css": "text/css; charset=utf-8",
    "live.js": "text/javascript; charset=utf-8",
}
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
Client = tuple[str, int]
Message = MutableMapping[str, Any]


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
    """The open event streams: their cap, and the ones to end when their send stalls;
    also how long any connection may send no complete request."""

    max_watchers: int = DEFAULT_MAX_WATCHERS
    send_timeout: float = SEND_TIMEOUT
    idle_timeout: float = IDLE_TIMEOUT
    #: watchers now sending: client -> (time.monotonic() as the send began, the scope
    #: whose cancellation ends its response and so closes its connection)
    sending: dict[Client, tuple[float, trio.CancelScope]] = attrs.field(factory=dict)
    #: watchers disconnected for taking no data
    dropped: int = 0

    async def reap(self) -> None:
        """End, forever, the responses whose send has not gone through in time."""
        while True:
            await trio.sleep(self.send_timeout / 4)
            now = time.monotonic()
            for client, (since, response) in list(self.sending.items()):
                if now - since > self.send_timeout:
                    log.info(
                        "live view: %s:%s took no data for %gs: disconnected",
                        *client,
                        self.send_timeout,
                    )
                    self.dropped += 1
                    del self.sending[client]
                    response.cancel()


class EventStream:
    """The `/events` route (plain ASGI, to send each update's shared bytes as they are).

    The sends run in `senders`, a nursery outside Hypercorn's tasks: the ASGI call can
    then return while a send is blocked, and Hypercorn's closing of the connection ends
    that send. `stopping` ends every stream (the server is going)."""

    def __init__(
        self, bus: EventBus, watchers: Watchers, senders: trio.Nursery, stopping: trio.Event
    ) -> None:
        self.bus = bus
        self.watchers = watchers
        self.senders = senders
        self.stopping = stopping

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
        response = trio.CancelScope()  # cancelled: the response is over
        pump = trio.CancelScope()
        with self.bus.subscribe() as sub:
            self.senders.start_soon(self._pump, sub, client, send, response, pump)
            try:
                with response:  # over when the stream ends, stalls or is left
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(_end_on_disconnect, receive, response)
                        await self.stopping.wait()
                        response.cancel()
            finally:
                pump.cancel()  # before returning: the pump sends nothing after this

    async def _pump(
        self,
        sub: Subscription,
        client: Client,
        send: Send,
        response: trio.CancelScope,
        pump: trio.CancelScope,
    ) -> None:
        """The subscription's updates to the client until it closes; when the bus closed
        (the match is over) the response is ended properly."""
        ship = partial(self._send, send, client, response)
        with pump:
            try:
                await ship(_START)
                await ship(_body(b"retry: 2000\n\n"))
                while True:
                    update = None
                    with trio.move_on_after(KEEPALIVE):
                        update = await sub.next()
                        if update is None:
                            break
                    body = b": keep-alive\n\n" if update is None else sse([update, *sub.ready()])
                    await ship(_body(body))
                if self.bus.closed:
                    await ship({"type": "http.response.body", "body": b"", "more_body": False})
            except OSError:  # the client is gone
                pass
            except Exception:  # this watcher's fault: the others are served on
                log.exception("live view: an event stream failed")
            finally:
                response.cancel()

    async def _send(
        self, send: Send, client: Client, response: trio.CancelScope, message: Message
    ) -> None:
        await trio.lowlevel.checkpoint_if_cancelled()  # never after the ASGI call returned
        self.watchers.sending[client] = (time.monotonic(), response)
        try:
            await send(message)
        finally:
            self.watchers.sending.pop(client, None)


_START: Message = {
    "type": "http.response.start",
    "status": 200,
    "headers": [
        (b"content-type", b"text/event-stream; charset=utf-8"),
        (b"cache-control", b"no-cache"),
        (b"x-accel-buffering", b"no"),
    ],
}


def _body(data: bytes) -> Message:
    return {"type": "http.response.body", "body": data, "more_body": True}


async def _end_on_disconnect(receive: Receive, response: trio.CancelScope) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    response.cancel()


def live_app(bus: EventBus, events: EventStream) -> Starlette:
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
            Route("/events", events, methods=["GET"]),  # an ASGI app takes any method
            Route("/games/{name}", record),
        ]
    )


def bind(host: str, port: int) -> tuple[list[socket.socket], str]:
    """The listening sockets and the page's URL; LiveAddressError if they cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        sock = socket.create_server((host, port), family=family, backlog=100)
    except OSError as exc:
        raise LiveAddressError(
            f"cannot serve the live view on {host}:{port}: {exc.strerror or exc}"
        ) from None
    bound, bound_port = sock.getsockname()[:2]
    shown = f"[{bound}]" if family == socket.AF_INET6 else bound
    return [sock], f"http://{shown}:{bound_port}/"


def _config(sockets: list[socket.socket], idle_timeout: float) -> Config:
    """Hypercorn's settings; it takes the sockets over (it closes them when it stops)."""
    config = Config()
    config.bind = [f"fd://{sock.detach()}" for sock in sockets]
    config.accesslog = None
    config.loglevel = "WARNING"
    config.graceful_timeout = 0.5
    config.keep_alive_timeout = idle_timeout
    logging.getLogger("hypercorn.error").setLevel(logging.WARNING)
    return config


async def serve_sockets(
    bus: EventBus,
    sockets: list[socket.socket],
    watchers: Watchers,
    *,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the live view on bound `sockets` until cancelled; every connection is closed
    on the way out, even one whose client stopped reading.

    Hypercorn runs shielded, and is stopped through its shutdown trigger: cancelled, it
    would leave a stream whose send is blocked waiting for it for ever."""
    stopping = trio.Event()
    serving = trio.CancelScope(shield=True)
    async with trio.open_nursery() as nursery:
        app = live_app(bus, EventStream(bus, watchers, nursery, stopping))
        nursery.start_soon(watchers.reap)
        await nursery.start(_serve, app, _config(sockets, watchers.idle_timeout), stopping, serving)
        task_status.started()
        try:
            await trio.sleep_forever()
        finally:  # every stream ends now; Hypercorn then closes their connections
            stopping.set()
            serving.deadline = trio.current_time() + STOP_LIMIT


async def _serve(
    app: Starlette,
    config: Config,
    stopping: trio.Event,
    scope: trio.CancelScope,
    *,
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
) -> None:
    with scope:
        # Starlette is an ASGI app; its type is not spelled the way hypercorn spells ASGI
        await serve(app, config, shutdown_trigger=stopping.wait, task_status=task_status)  # type: ignore[arg-type]


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
