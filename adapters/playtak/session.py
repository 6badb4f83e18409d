"""A logged-in connection to a playtak server that stays up: login, keep-alive, reconnect.

`Session.run(handler)` connects, logs in (`Protocol`, `Client`, `Login`), then feeds every
server event to the handler while a `PING` goes out every `ping_interval` seconds. A
connection that stays silent for `dead_after` seconds is taken for dead. On any drop it
reconnects with exponential backoff and jitter, capped low while the handler is in a
game (the server keeps a game only ~120 s); only a connection that lasted resets it. A
connect failure that retrying cannot cure (see `failures`) ends the session.
Right after login it sends one `PING`: its `OK` marks the end of the login burst (seeks,
games and any resumed game are replayed before it), reported as `handler.settled()`.
"""

from __future__ import annotations

import logging
import random
from collections import deque
from collections.abc import Awaitable
from typing import Protocol

import attrs
import trio

from adapters.playtak import protocol as p
from adapters.playtak.commands import NAME_RE, PASSWORD_RE
from adapters.playtak.errors import PlaytakError
from adapters.playtak.repeats import Repeats
from adapters.playtak.transport import (
    DEFAULT_CONNECT,
    DEFAULT_SERVER,
    ConnectFailed,
    ConnectSettings,
    Transport,
    TransportClosed,
    open_transport,
)
from tei.errors import main_error

log = logging.getLogger("playtak.session")


class SessionEnded(PlaytakError):
    """The session cannot go on (wrong password, refused name, logged in elsewhere, a
    connection that cannot work: an untrusted certificate, an upgrade refused with 4xx)."""


class NotConnected(PlaytakError):
    """A command was sent while no connection is up."""


@attrs.frozen
class Credentials:
    """A user and password, or a guest (with a token to keep the same guest name)."""

    user: str | None = None
    password: str | None = attrs.field(default=None, repr=False)
    guest_token: str | None = None

    def login_command(self) -> p.Login | p.LoginGuest:
        if self.user is None:
            return p.LoginGuest(self.guest_token)
        return p.Login(self.user, self.password or "")

    def problem(self) -> str | None:
        """Why the server would refuse this login before checking it (a user name or a
        password of the wrong shape; the password itself is never shown), or None."""
        if self.user is None:
            return None
        if not NAME_RE.fullmatch(self.user):
            return f"the user name {self.user!r}: playtak takes {NAME_RULE}"
        if not PASSWORD_RE.fullmatch(self.password or ""):
            shape = f"{len(self.password or '')} characters" + (
                " with a space" if any(c.isspace() for c in self.password or "") else ""
            )
            return f"the password of {self.user} ({shape}): playtak takes {PASSWORD_RULE}"
        return None

    def __str__(self) -> str:
        return "a guest" if self.user is None else repr(self.user)


#: how many unreadable lines of each first word are logged
UNREAD_LIMIT = 5
UNREAD_SAID = f"up to {UNREAD_LIMIT} times per first word"


#: the login shapes the server takes (commands.NAME_RE and PASSWORD_RE), in words
NAME_RULE = "4 to 16 letters, digits or _, beginning with a letter"
PASSWORD_RULE = "6 to 50 characters without spaces"


@attrs.frozen
class SessionSettings:
    server: str = DEFAULT_SERVER
    connect: ConnectSettings = DEFAULT_CONNECT
    protocol: int = 2
    client_name: str = "tei-playtak"
    ping_interval: float = 30.0
    dead_after: float = 90.0
    login_timeout: float = 30.0
    backoff_start: float = 1.0
    backoff_max: float = 60.0
    backoff_max_in_game: float = 5.0
    #: a connection that lasted this long resets the backoff (quick drops keep doubling it)
    stable_after: float = 60.0

    def reconnect_wait(self, delay: float, in_game: bool, jitter: float = 1.0) -> float:
        """Seconds to wait before the next attempt: the doubling `delay`, capped (low
        during a game, so a resume fits in the server's reconnect window), times jitter."""
        cap = self.backoff_max_in_game if in_game else self.backoff_max
        return min(delay, cap) * jitter


class Handler(Protocol):
    """What a session reports to (the bridge)."""

    @property
    def in_game(self) -> bool: ...

    async def connected(self, name: str) -> None: ...

    async def settled(self) -> None: ...

    async def event(self, event: p.ServerEvent) -> None: ...

    async def disconnected(self) -> None: ...


class Session:
    """Owns the connection; `send` works whenever a logged-in connection is up."""

    def __init__(self, settings: SessionSettings, credentials: Credentials) -> None:
        if credentials.user is None and credentials.guest_token is None:
            credentials = attrs.evolve(credentials, guest_token=p.LoginGuest.fresh().token)
        self.settings = settings
        self.credentials = credentials
        self.name: str | None = None
        self.connections = 0
        self.sent: deque[str] = deque(maxlen=8)
        self._transport: Transport | None = None
        self._settle_pending = False
        self._early: list[p.ServerEvent] = []
        self._quitting = False
        #: lines we cannot read, told apart by their first word: a few of each are logged
        self._unread = Repeats(limit=UNREAD_LIMIT)

    @property
    def connected(self) -> bool:
        return self._transport is not None

    async def send(self, command: p.ClientCommand) -> None:
        """Send one command; raises NotConnected when the connection is down."""
        transport = self._transport
        if transport is None:
            raise NotConnected(f"not connected; {command.to_line()!r} not sent")
        line = command.to_line()
        shown = _masked(command)
        self.sent.append(shown)
        log.debug("> %s", shown)
        try:
            await transport.send_line(line)
        except TransportClosed as exc:
            raise NotConnected(str(exc)) from None

    async def quit(self) -> None:
        """Say `quit` and expect the server to close: that close is no lost connection."""
        self._quitting = True
        await self.send(p.Quit())

    def recent(self) -> str:
        """The last commands sent, for error reports."""
        return " | ".join(self.sent)

    async def run(self, handler: Handler) -> None:
        """Stay connected until cancelled; SessionEnded on a fatal refusal."""
        delay = self.settings.backoff_start
        while True:
            logged_in = False
            since = 0.0
            try:
                try:
                    async with open_transport(
                        self.settings.server, self.settings.connect
                    ) as transport:
                        self.connections += 1
                        self.sent.clear()  # "last sent" speaks of this connection only
                        log.info("connected to %s", self.settings.server)
                        await self._login(transport)
                        logged_in = True
                        since = trio.current_time()
                        self._transport = transport
                        await handler.connected(self.name or "")
                        early, self._early = self._early, []
                        for event in early:
                            await self._deliver(handler.event(event))
                        await self._serve(transport, handler)
                except BaseExceptionGroup as group:
                    raise main_error(group) from None
            except ConnectFailed as exc:
                if exc.failure.permanent:
                    raise SessionEnded(str(exc)) from None
                log.warning("%s", exc)
            except TransportClosed as exc:
                if self._quitting:
                    log.info("the server closed the connection after quit")
                    self._transport = None
                    return
                log.warning("connection lost: %s", exc)
            except trio.TooSlowError:
                log.warning("the server did not complete the login in time")
            finally:
                self._transport = None
            if logged_in:
                await handler.disconnected()
                if trio.current_time() - since >= self.settings.stable_after:
                    delay = self.settings.backoff_start  # it was a good connection
            wait = self.settings.reconnect_wait(delay, handler.in_game, random.uniform(0.8, 1.2))
            log.info("reconnecting in %.1f s", wait)
            await trio.sleep(wait)
            delay = min(delay * 2, self.settings.backoff_max)

    async def _receive(self, transport: Transport, timeout: float) -> p.ServerEvent:
        with trio.move_on_after(timeout):
            line = await transport.receive_line()
            log.debug("< %s", line)
            event = p.parse_server_line(line)
            if isinstance(event, p.Unknown) and self._unread.first(line.split(" ", 1)[0][:20]):
                why = f" ({event.reason})" * bool(event.reason)
                log.info("ignored server line %r%s (said %s)", line, why, UNREAD_SAID)
            return event
        raise TransportClosed(f"nothing from the server for {timeout:.0f} s")

    async def _login(self, transport: Transport) -> None:
        """Greeting, Protocol, Client, Login; SessionEnded when the server refuses."""
        self._early = []
        with trio.fail_after(self.settings.login_timeout):
            while not isinstance(
                await self._receive(transport, self.settings.dead_after), p.LoginPrompt
            ):
                pass
            commands: list[p.ClientCommand] = []
            if self.settings.protocol > 0:
                commands.append(p.ProtocolCmd(self.settings.protocol))
            if self.settings.client_name:
                commands.append(p.ClientCmd(self.settings.client_name))
            login = self.credentials.login_command()
            for command in [*commands, login]:
                line = command.to_line()
                shown = _masked(command)
                self.sent.append(shown)
                log.debug("> %s", shown)
                await transport.send_line(line)
            replies = len(commands)
            while True:
                event = await self._receive(transport, self.settings.dead_after)
                if isinstance(event, p.Ok | p.Nok) and replies:
                    replies -= 1
                    if isinstance(event, p.Nok):
                        log.warning("the server refused %r", commands[-replies - 1].to_line())
                elif isinstance(event, p.LoggedIn):
                    self.name = event.name
                    break
                elif isinstance(event, p.AuthFailure):
                    raise SessionEnded(f"login as {self.credentials.user!r}: wrong password")
                elif isinstance(event, p.Nok):
                    raise SessionEnded(
                        f"the server refused the login of {self.credentials} (NOK: it takes a "
                        f"user name of {NAME_RULE} and a password of {PASSWORD_RULE})"
                    )
                elif not isinstance(event, p.Unknown):
                    self._early.append(event)  # e.g. a resumed game replayed before the welcome
            log.info("logged in as %s", self.name)
            self._settle_pending = True
            await transport.send_line(p.Ping().to_line())

    async def _serve(self, transport: Transport, handler: Handler) -> None:
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._pinger, transport)
                while True:
                    event = await self._receive(transport, self.settings.dead_after)
                    if isinstance(event, p.LoggedInElsewhere):
                        raise SessionEnded("logged in from another window: this session stops")
                    await self._deliver(handler.event(event))
                    if self._settle_pending and isinstance(event, p.Ok):
                        self._settle_pending = False
                        await self._deliver(handler.settled())
        except BaseExceptionGroup as group:
            raise main_error(group) from None

    async def _deliver(self, call: Awaitable[None]) -> None:
        """Run a handler hook; a bug in it is logged, it never ends the session."""
        try:
            await call
        except (SessionEnded, NotConnected, TransportClosed):
            raise
        except Exception:
            log.exception("error while handling a server event")

    async def _pinger(self, transport: Transport) -> None:
        while True:
            await trio.sleep(self.settings.ping_interval)
            self.sent.append("PING")
            await transport.send_line(p.Ping().to_line())


def _masked(command: p.ClientCommand) -> str:
    """A command as it may be logged: no password, no guest token."""
    if isinstance(command, p.Login):
        return f"Login {command.name} ****"
    if isinstance(command, p.LoginGuest) and command.token:
        return "Login Guest ****"
    return command.to_line()
