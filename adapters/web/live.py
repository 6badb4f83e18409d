"""The live view: a read-only web page following an event bus (Starlette on Hypercorn/trio).

Routes (all GET, no authentication: anyone who can reach the port can watch):

  /                    the page (plain HTML, CSS and a script served from this package)
  /static/NAME         its files
  /state               the page state now, as JSON (what a late joiner starts from)
  /events              server-sent events: `snapshot` (the whole state) first and after
                       falling behind, then `patch` per event (see LiveState.patch)
  /games/ID.EXT        a finished game's record (PTN for Tak) as a download

The address comes from `adapters.web.options` (127.0.0.1 unless told otherwise).
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from importlib import resources
from typing import TypeVar

import trio
from hypercorn.config import Config
from hypercorn.trio.run import worker_serve
from hypercorn.utils import wrap_app
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from adapters.referee.event_bus import EventBus
from adapters.web.options import LiveAddressError

T = TypeVar("T")

#: seconds between keep-alive comments on an idle event stream
KEEPALIVE = 15.0
_STATIC = {
    "live.html": "text/html; charset=utf-8",
    "live.css": "text/css; charset=utf-8",
    "live.js": "text/javascript; charset=utf-8",
}


def _static(name: str) -> bytes:
    return resources.files("adapters.web").joinpath("static", name).read_bytes()


def live_app(bus: EventBus) -> Starlette:
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
        return JSONResponse(bus.state.snapshot())

    async def events(request: Request) -> Response:
        return StreamingResponse(
            _stream(bus),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

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
            Route("/events", events),
            Route("/games/{name}", record),
        ]
    )


async def _stream(bus: EventBus) -> AsyncIterator[str]:
    """The event stream of one watcher: its subscription's updates as SSE messages."""
    with bus.subscribe() as sub:
        yield "retry: 2000\n\n"
        while True:
            update = None
            with trio.move_on_after(KEEPALIVE):
                update = await sub.next()
                if update is None:
                    return
            if update is None:
                yield ": keep-alive\n\n"
                continue
            kind = "snapshot" if update.reset else "patch"
            yield f"event: {kind}\ndata: {json.dumps(update.data, separators=(',', ':'))}\n\n"


def url_of(binds: list[str]) -> str:
    """The page's address from Hypercorn's bound addresses."""
    return binds[0].rstrip("/") + "/"


async def serve_live(
    bus: EventBus,
    host: str,
    port: int,
    *,
    task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the live view until cancelled; `task_status.started` gets the page's URL.

    An address that cannot be bound raises LiveAddressError before the server starts."""
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    config.accesslog = None
    config.loglevel = "WARNING"
    config.graceful_timeout = 0.5
    logging.getLogger("hypercorn.error").setLevel(logging.WARNING)
    try:
        sockets = config.create_sockets()
        for sock in sockets.insecure_sockets:
            sock.listen(config.backlog)
    except OSError as exc:
        raise LiveAddressError(
            f"cannot serve the live view on {host}:{port}: {exc.strerror or exc}"
        ) from None
    app = wrap_app(live_app(bus), config.wsgi_max_body_size, None)  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        binds = await nursery.start(partial(worker_serve, app, config, sockets=sockets))
        task_status.started(url_of(binds))


async def serve_while(
    bus: EventBus,
    host: str,
    port: int,
    main: Callable[[], Awaitable[T]],
    announce: Callable[[str], None] = lambda url: None,
) -> T:
    """Serve the live view of `bus` while `main()` runs; `announce(url)` once it listens.

    The event streams end (and the server stops) when `main` returns or fails; errors of
    `main` and LiveAddressError (before `main` starts) come out as they are."""
    config_error: LiveAddressError | None = None
    failure: Exception | KeyboardInterrupt | None = None
    result: T | None = None
    async with trio.open_nursery() as nursery:
        try:
            url = await nursery.start(serve_live, bus, host, port)
        except LiveAddressError as exc:
            config_error = exc
        else:
            announce(url)
            try:
                result = await main()
            except (Exception, KeyboardInterrupt) as exc:
                failure = exc
            finally:
                bus.close()
                nursery.cancel_scope.cancel()
    if config_error is not None:
        raise config_error
    if failure is not None:
        raise failure
    return result  # type: ignore[return-value]
