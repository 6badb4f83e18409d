"""TEI over websocket: each connection its own engine session (`tei serve`).

One TEI line per text message both ways (a message holding several lines is split, its
empty lines skipped, at most `tei.lines.MAX_MESSAGE_LINES` of them read; the answers go
one line per message). A session is either a built-in bot hosted in process
by the engine host's loop (`tei.host.loop.serve_lines`) or a fresh engine subprocess
(`tei.driver.process.EngineProcess`: own process group, stopped with the session, no
orphans). The app is a Starlette app, served by Hypercorn's trio worker.

Before accepting, the server checks the page's `Origin` (refused: HTTP 403) and the
number of sessions (refused: close code 1013 with the reason). A session ends when the
client closes, sends `quit`, stays idle (nothing either way) for the idle timeout, or its
engine exits; the close reason says which. The client's messages are read by a task of
their own, so a client that leaves is seen at once and nothing it sent is passed on after
that. Bad input (a binary frame, a line over the host's limit, a message of too many
lines) gets an `info string error: ...` line and the session goes on.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import attrs
import trio
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from adapters.web.tei_origins import OriginPolicy
from adapters.web.tei_relay import RelayState
from tei import protocol as p
from tei.driver import EngineTerminated
from tei.driver.process import EngineProcess
from tei.errors import OptionValueError
from tei.host.loop import serve_lines
from tei.host.state import HostConfig, HostSetupError, HostState
from tei.lines import MAX_LINE, LongLine, bound, message_lines
from tei.transcript import Transcript

log = logging.getLogger("tei.serve")

#: a client that takes no answer for this long (seconds) is treated as gone
SEND_TIMEOUT = 10.0
#: lines received and not yet taken by the session; more are dropped (with an error)
WAITING_LINES = 1024
#: close codes: normal, policy (origin), internal error (engine), try again later (full)
CLOSE_NORMAL, CLOSE_POLICY, CLOSE_ENGINE, CLOSE_FULL = 1000, 1008, 1011, 1013


@attrs.frozen
class ServeConfig:
    """What `tei serve` serves: `engine` (an argv) or else the host's bot per `host`."""

    host: HostConfig = attrs.field(factory=HostConfig)
    engine: tuple[str, ...] = ()
    origins: OriginPolicy = attrs.field(factory=OriginPolicy)
    max_sessions: int = 2
    #: seconds without traffic either way before a session is closed; None = never
    idle_timeout: float | None = 1800.0
    #: TEI options (name, value) set on each hosted bot's session before its first line
    options: tuple[tuple[str, str], ...] = ()

    def host_state(self) -> HostState:
        """A fresh session of the built-in bot, its options set."""
        state = HostState(self.host)
        for name, value in self.options:
            state.set_option(name, value)
        return state


class _Session:
    """One accepted websocket: its lines in, its lines out, its idle deadline."""

    def __init__(self, ws: WebSocket, name: str, idle_timeout: float | None) -> None:
        self.ws = ws
        self.name = name
        self.idle_timeout = idle_timeout
        self.idle_scope = trio.CancelScope()
        self.gone = False
        self._send_lock = trio.Lock()
        self._to_lines, self._from_receive = trio.open_memory_channel[str | LongLine](WAITING_LINES)
        self.touch()

    def touch(self) -> None:
        if self.idle_timeout is not None:
            self.idle_scope.deadline = trio.current_time() + self.idle_timeout

    async def send(self, line: str) -> None:
        """One line to the client; raises once the client is gone or stops reading."""
        async with self._send_lock:
            if self.gone:
                raise OSError("the client is gone")
            try:
                with trio.fail_after(SEND_TIMEOUT):
                    await self.ws.send_text(line)
            except BaseException:
                self.gone = True
                raise
        self.touch()

    async def receive(self) -> None:
        """Read the client's messages until it leaves, handing their lines to `lines()`.

        Never waits for the session: a disconnect is seen at once, and from then on no
        line is passed on. A message gives at most MAX_MESSAGE_LINES lines, its empty
        lines skipped unseen; a line that finds WAITING_LINES lines not yet taken is
        dropped. Each is told with one error line per message, as is a binary message."""
        try:
            while not self.gone:
                try:
                    message = await self.ws.receive()
                except Exception:  # the connection broke
                    message = {"type": "websocket.disconnect"}
                self.touch()
                if message["type"] == "websocket.disconnect":
                    self.gone = True
                    break
                text = message.get("text")
                if text is None:
                    size = len(message.get("bytes") or b"")
                    await self._tell(f"binary message of {size} bytes ignored (TEI is text)")
                    continue
                got = message_lines(text)
                dropped = 0
                for line in got.lines:
                    try:
                        self._to_lines.send_nowait(bound(line, MAX_LINE))
                    except trio.WouldBlock:
                        dropped += 1
                if got.dropped:
                    await self._tell(got.describe())
                if dropped:
                    await self._tell(
                        f"{dropped} lines dropped: {WAITING_LINES} lines were waiting already"
                    )
        finally:  # on cancel (the session ended): the close is still ours to send
            self._to_lines.close()

    async def _tell(self, text: str) -> None:
        with contextlib.suppress(Exception):  # a client that is gone is seen by `receive`
            await self.send(_error_line(text))

    async def lines(self) -> AsyncIterator[str | LongLine]:
        """The client's lines until it leaves (those not yet taken then are dropped)."""
        async for line in self._from_receive:
            if self.gone:
                return
            yield line

    async def close(self, code: int, reason: str) -> None:
        if self.gone:
            return
        self.gone = True
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason[:120])


class TeiSocketServer:
    """The sessions of one `tei serve`; `app` is the ASGI application."""

    def __init__(self, config: ServeConfig, transcript: Transcript | None = None) -> None:
        self.config = config
        self.transcript = transcript
        self.active = 0
        self.started = 0
        if not config.engine:
            config.host_state()  # a bad setup or option fails now rather than in every session
        self.app = Starlette(routes=[WebSocketRoute("/", self.endpoint)])

    async def endpoint(self, ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if not self.config.origins.allows(origin):
            log.warning("refused a connection from origin %r", origin)
            await ws.close(CLOSE_POLICY)  # before accept: the client gets HTTP 403
            return
        await ws.accept()
        if self.active >= self.config.max_sessions:
            log.warning("refused a session: %d already open", self.active)
            limit = self.config.max_sessions
            with contextlib.suppress(Exception):
                await ws.close(CLOSE_FULL, f"too many sessions: at most {limit} at a time")
            return
        self.active += 1
        self.started += 1
        session = _Session(ws, f"session-{self.started}", self.config.idle_timeout)
        log.info("%s opened (origin %r)", session.name, origin)
        try:
            code, reason = await self._run(session)
        finally:
            self.active -= 1
        log.info("%s closed: %s", session.name, reason)
        await session.close(code, reason)

    async def _run(self, session: _Session) -> tuple[int, str]:
        outcome = (CLOSE_NORMAL, f"idle for {self.config.idle_timeout:g} s")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.receive)
            with session.idle_scope:
                if self.config.engine:
                    outcome = await self._relay(session)
                else:
                    outcome = await self._host(session)
            nursery.cancel_scope.cancel()
        return outcome

    async def _host(self, session: _Session) -> tuple[int, str]:
        try:
            state = self.config.host_state()
        except (HostSetupError, OptionValueError) as exc:
            return CLOSE_ENGINE, str(exc)
        await serve_lines(state, session.lines(), session.send, self.transcript, session.name)
        return CLOSE_NORMAL, "session ended"

    async def _relay(self, session: _Session) -> tuple[int, str]:
        async with trio.open_nursery() as nursery:
            try:
                engine = await EngineProcess.start(
                    nursery,
                    self.config.engine,
                    on_line=str,
                    name=session.name,
                    transcript=self.transcript,
                )
            except EngineTerminated as exc:
                with contextlib.suppress(Exception):
                    await session.send(_error_line(str(exc)))
                return CLOSE_ENGINE, "the engine could not be started"
            try:
                return await _pump(session, engine)
            finally:
                await engine.shutdown()


async def _pump(session: _Session, engine: EngineProcess[str]) -> tuple[int, str]:
    """Lines both ways until the client or the engine is gone."""
    relay = RelayState()
    outcome: list[tuple[int, str]] = []

    async def to_engine(scope: trio.CancelScope) -> None:
        with contextlib.suppress(EngineTerminated):  # seen by from_engine as its exit
            async for item in session.lines():
                if isinstance(item, LongLine):
                    await session.send(_error_line(item.describe()))
                    continue
                relay.from_client(item)
                await engine.send_line(item)
                if _is_quit(item):
                    break
            outcome.append((CLOSE_NORMAL, "session ended"))
            scope.cancel()

    async def from_engine(scope: trio.CancelScope) -> None:
        while (line := await engine.receive()) is not None:
            if relay.from_engine(line):
                with contextlib.suppress(Exception):
                    await session.send(line)
        if outcome:
            return
        code = await engine.exit_code(1.0)
        why = f"the engine exited (exit code {code})"
        with contextlib.suppress(Exception):
            for text in relay.on_engine_exit(why):
                await session.send(text)
        outcome.append((CLOSE_ENGINE, why))
        scope.cancel()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(to_engine, nursery.cancel_scope)
        nursery.start_soon(from_engine, nursery.cancel_scope)
    return outcome[0] if outcome else (CLOSE_NORMAL, "session ended")


def _error_line(text: str) -> str:
    return p.Info(string=f"error: {text}").to_line()


def _is_quit(line: str) -> bool:
    return line.strip().lower() == "quit"


async def run_server(
    server: TeiSocketServer,
    binds: list[str],
    *,
    task_status: Any = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve until cancelled; `task_status.started` gets the bound addresses."""
    from hypercorn.config import Config
    from hypercorn.trio import serve

    config = Config()
    config.bind = binds
    config.accesslog = None
    config.loglevel = "WARNING"
    config.websocket_max_message_size = 4 << 20  # larger ones: closed with 1009
    # Starlette is an ASGI app; its type is not spelled the way hypercorn spells ASGI
    await serve(server.app, config, task_status=task_status)  # type: ignore[arg-type]
