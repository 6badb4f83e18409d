"""A playtak-compatible server on your own machine, for tests and for trying bots offline.

    python -m adapters.playtak.server --port 10000 --ws-port 9999

Raw TCP speaks one line per message; the websocket listener answers with subprotocol
`binary` and sends one binary frame per line, like playtak.com. All game logic lives in
the sans-IO `LobbyCore`; this module only moves lines and wakes the clock.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import logging
import math
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

import attrs
import trio
import trio_websocket

from adapters.playtak.protocol import ENCODING, MAX_LINE
from adapters.playtak.server.lobby import LobbyCore, Output, ServerSettings
from adapters.playtak.watch import Changes
from tei.lines import LineSplitter, LongLine, SafeFormatter
from tei.values import PORT, POSITIVE_SECONDS, SECONDS, SEED, UsageError, split_pair

log = logging.getLogger("playtak.server")


@attrs.define
class LocalServer:
    """Runs a `LobbyCore` behind TCP and websocket listeners."""

    settings: ServerSettings = attrs.field(factory=ServerSettings)
    core: LobbyCore = attrs.field(init=False)
    tcp_port: int | None = None
    ws_port: int | None = None
    _channels: dict[int, trio.MemorySendChannel[str | None]] = attrs.field(factory=dict)
    _next_id: int = 1
    _changed: trio.Event = attrs.field(factory=trio.Event)
    #: told after every change of the core (a line handled, a tick, a connection)
    changes: Changes = attrs.field(factory=Changes, init=False)

    def __attrs_post_init__(self) -> None:
        self.core = LobbyCore(self.settings, trio.current_time())

    async def wait_for(
        self, predicate: Callable[[], object], what: str, timeout: float = 10.0
    ) -> None:
        """Wait until `predicate()` holds (checked after every change of the core)."""
        await self.changes.wait_for(predicate, what, timeout)

    # ---- plumbing ----------------------------------------------------------------------
    def _dispatch(self, outputs: list[Output]) -> None:
        for conn_id, line in outputs:
            channel = self._channels.get(conn_id)
            if channel is not None:
                log.debug("%d < %s", conn_id, line)
                with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                    channel.send_nowait(line)
        self._changed.set()
        self.changes.notify()

    def drop(self, name: str) -> bool:
        """Close the connection of a logged-in player as if the network failed."""
        conn_id = self.core.online.get(name)
        channel = self._channels.get(conn_id) if conn_id is not None else None
        if channel is None:
            return False
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            channel.send_nowait(None)
        return True

    async def _clock(self) -> None:
        while True:
            self._changed = trio.Event()
            with trio.move_on_at(self.core.next_deadline()):
                await self._changed.wait()
            self._dispatch(self.core.tick(trio.current_time()))

    async def _serve_connection(
        self,
        lines: AsyncIterator[str],
        send: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
    ) -> None:
        conn_id = self._next_id
        self._next_id += 1
        sender, receiver = trio.open_memory_channel[str | None](math.inf)
        self._channels[conn_id] = sender

        async def writer(cancel: trio.CancelScope) -> None:
            async with receiver:
                async for line in receiver:
                    if line is None:
                        break
                    try:
                        await send(line)
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        break
                    except trio_websocket.ConnectionClosed:
                        break
            with trio.CancelScope(shield=True):
                await close()
            cancel.cancel()

        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(writer, nursery.cancel_scope)
                self._dispatch(self.core.connect(conn_id, trio.current_time()))
                try:
                    async for line in lines:
                        log.debug("%d > %s", conn_id, line)
                        self._dispatch(self.core.receive(conn_id, line, trio.current_time()))
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    pass
                except trio_websocket.ConnectionClosed:
                    pass
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    sender.send_nowait(None)
        except Exception:  # one broken connection must never stop the server
            log.exception("connection %d failed", conn_id)
        finally:
            del self._channels[conn_id]
            self._dispatch(self.core.disconnect(conn_id, trio.current_time()))

    # ---- transports --------------------------------------------------------------------
    async def _tcp_handler(self, stream: trio.SocketStream) -> None:
        async def lines() -> AsyncIterator[str]:
            splitter = LineSplitter(MAX_LINE, ENCODING)
            while True:
                data = await stream.receive_some(4096)
                if not data:
                    return
                for line in splitter.feed_marked(data):
                    if isinstance(line, LongLine):
                        return  # a client sending endless lines is dropped
                    yield line

        async def send(line: str) -> None:
            await stream.send_all((line + "\n").encode(ENCODING, "replace"))

        await self._serve_connection(lines(), send, stream.aclose)

    async def _ws_handler(self, request: trio_websocket.WebSocketRequest) -> None:
        try:
            if "binary" not in request.proposed_subprotocols:
                # playtak.com answers `binary` all the same, which such a client refuses
                log.info("websocket client without subprotocol 'binary' refused")
                await request.reject(400, body=b"offer the websocket subprotocol 'binary'\n")
                return
            ws = await request.accept(subprotocol="binary")
        except (trio_websocket.ConnectionClosed, trio.BrokenResourceError, OSError):
            return  # gone during the handshake

        async def lines() -> AsyncIterator[str]:
            while True:
                message = await ws.get_message()
                if isinstance(message, bytes):
                    message = message.decode(ENCODING)
                yield message.removesuffix("\n").removesuffix("\r")

        async def send(line: str) -> None:
            await ws.send_message((line + "\n").encode(ENCODING, "replace"))

        await self._serve_connection(lines(), send, ws.aclose)

    async def serve(
        self,
        host: str = "127.0.0.1",
        tcp_port: int | None = 0,
        ws_port: int | None = 0,
        *,
        task_status: trio.TaskStatus[LocalServer] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Listen (port 0: any free port; None: no such listener) until cancelled."""
        async with trio.open_nursery() as nursery:
            if tcp_port is not None:
                serve_tcp = functools.partial(trio.serve_tcp, host=host)
                listeners = await nursery.start(serve_tcp, self._tcp_handler, tcp_port)
                self.tcp_port = listeners[0].socket.getsockname()[1]
            if ws_port is not None:
                server = await nursery.start(
                    trio_websocket.serve_websocket, self._ws_handler, host, ws_port, None
                )
                self.ws_port = server.port
            nursery.start_soon(self._clock)
            task_status.started(self)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m adapters.playtak.server",
        description="A local playtak-compatible server (TCP lines and websocket) for "
        "trying bots offline. Point `tei playtak --server tcp://127.0.0.1:PORT` at it.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument(
        "--port",
        type=PORT,
        default=10000,
        metavar="PORT",
        help="TCP port (default 10000; 0: any free port)",
    )
    parser.add_argument(
        "--ws-port",
        type=PORT,
        default=9999,
        metavar="PORT",
        help="websocket port (default 9999; 0: any free)",
    )
    parser.add_argument("--no-websocket", action="store_true", help="no websocket listener")
    parser.add_argument(
        "--user",
        action="append",
        default=[],
        metavar="NAME:PASSWORD",
        help="an account (repeatable); other names register on first login",
    )
    parser.add_argument(
        "--no-auto-register", action="store_true", help="refuse names not given with --user"
    )
    parser.add_argument(
        "--reconnect-time",
        type=SECONDS,
        default=120.0,
        metavar="S",
        help="seconds a player who dropped has to come back (120)",
    )
    parser.add_argument(
        "--tournament-reconnect-time",
        type=SECONDS,
        default=900.0,
        metavar="S",
        help="the same for tournament games (900)",
    )
    parser.add_argument(
        "--idle-timeout",
        type=POSITIVE_SECONDS,
        default=60.0,
        metavar="S",
        help="drop clients that sent no PING for S seconds (60)",
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME",
        help="flag this account as a bot (repeatable): seeks and games show it, and as "
        "black it wins when white does not move within 300 s",
    )
    parser.add_argument("--seed", type=SEED, metavar="N", help="seed for random colours")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every line")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        users = dict(split_pair(item, "--user", "NAME:PASSWORD", ":") for item in args.user)
    except UsageError as exc:
        print(f"playtak server: {exc}", file=sys.stderr)
        return 2
    handler = logging.StreamHandler()
    handler.setFormatter(SafeFormatter("%(asctime)s %(name)s %(message)s"))  # no control chars
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, handlers=[handler])
    settings = ServerSettings(
        users=users,
        auto_register=not args.no_auto_register,
        reconnect_seconds=args.reconnect_time,
        tournament_reconnect_seconds=args.tournament_reconnect_time,
        idle_timeout=args.idle_timeout,
        cleanup_interval=min(30.0, args.idle_timeout / 2),
        seed=args.seed,
        bots=frozenset(args.bot),
    )

    async def run() -> None:
        server = LocalServer(settings)
        async with trio.open_nursery() as nursery:
            ws_port = None if args.no_websocket else args.ws_port
            await nursery.start(server.serve, args.host, args.port, ws_port)
            print(f"playtak server on tcp://{args.host}:{server.tcp_port}", flush=True)
            if server.ws_port:
                print(f"websocket on ws://{args.host}:{server.ws_port}/ws", flush=True)

    try:
        trio.run(run)
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
