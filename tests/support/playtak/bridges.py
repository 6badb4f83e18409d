"""Building bridges and scripted servers for the playtak tests."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import attrs
import trio

from adapters.playtak import protocol as p
from adapters.playtak.bridge import Bridge, BridgeSettings
from adapters.playtak.seek_filter import SeekFilter
from adapters.playtak.server.listeners import LocalServer
from adapters.playtak.server.lobby import ServerSettings
from adapters.playtak.session import Credentials, Session, SessionSettings
from tei.seat import Launch
from tests.support.playtak.lines import LineClient

RANDOM_BOT = [sys.executable, "-m", "tei", "engine", "--game", "tak", "--bot", "random"]
SEARCH_BOT = [*RANDOM_BOT[:-1], "search"]
FLAKY = [sys.executable, str(Path(__file__).with_name("flaky_engine.py"))]
#: the results the server gives a finished game (`Game#1 Over R-0`)
RESULTS = {"R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2"}


#: the tests' sessions: short waits, quick reconnects (`server` is each bridge's own)
TEST_SESSION = SessionSettings(
    server="",
    ping_interval=2.0,
    dead_after=10.0,
    login_timeout=5.0,
    backoff_start=0.05,
    backoff_max=0.5,
    backoff_max_in_game=0.2,
)
SESSION_KEYS = frozenset(field.name for field in attrs.fields(SessionSettings))


def make_bridge(
    url: str,
    engine: Sequence[str] = RANDOM_BOT,
    *,
    user: str | None = None,
    seek: str | None = None,
    accept_from: str | None = None,
    games: int | None = 1,
    engine_options: dict[str, str] | None = None,
    **settings: Any,
) -> Bridge:
    """A bridge to `url` playing `engine`; `settings` are SessionSettings (over
    TEST_SESSION: `protocol`, `dead_after`, ...) and BridgeSettings, told apart by name."""
    session_settings = {k: settings.pop(k) for k in SESSION_KEYS & set(settings)}
    session = Session(
        attrs.evolve(TEST_SESSION, server=url, **session_settings),
        Credentials(user, "secret1" if user else None),
    )
    launch = Launch(tuple(engine), options=tuple((engine_options or {}).items()))
    settings.setdefault("seeks", (p.Seek.parse_spec(seek),) if seek else ())
    if accept_from:
        settings.setdefault("accept", SeekFilter(allow=frozenset({accept_from.lower()})))
    bridge_settings = BridgeSettings(games=games, move_overhead_ms=100, **settings)
    return Bridge(bridge_settings, session, launch)


async def start_server(nursery: trio.Nursery, **settings: object) -> LocalServer:
    """The local playtak server (a fixed seed) on free ports of 127.0.0.1."""
    server = LocalServer(ServerSettings(seed=3, **settings))  # type: ignore[arg-type]
    await nursery.start(server.serve)
    return server


def url(server: LocalServer, kind: str = "tcp") -> str:
    if kind == "tcp":
        return f"tcp://127.0.0.1:{server.tcp_port}"
    return f"ws://127.0.0.1:{server.ws_port}/ws"


Script = Callable[[LineClient], Awaitable[None]]


async def serve_script(
    nursery: trio.Nursery, script: Script, *, task_status: Any = trio.TASK_STATUS_IGNORED
) -> int:
    """A TCP server on 127.0.0.1 that runs `script` for every connection; its port."""

    async def handler(stream: trio.SocketStream) -> None:
        client = LineClient(stream)
        try:
            await script(client)
        except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            await stream.aclose()

    listeners = await nursery.start(partial(trio.serve_tcp, host="127.0.0.1"), handler, 0)
    port: int = listeners[0].socket.getsockname()[1]
    return port


async def scripted_bridge(
    nursery: trio.Nursery, script: Script, engine: Sequence[str] = RANDOM_BOT, **settings: Any
) -> Bridge:
    """A bridge (make_bridge with `settings`) to a scripted server running `script`."""
    port = await serve_script(nursery, script)
    return make_bridge(f"tcp://127.0.0.1:{port}", engine, **settings)


async def login_burst(
    conn: LineClient,
    name: str = "Guest1",
    extra: Sequence[str] = (),
    before_welcome: Sequence[str] = (),
) -> list[str]:
    """Greet, read the login commands, send `before_welcome`, welcome, send `extra`,
    answer the first PING (the end of the burst); returns the client's lines read."""
    await conn.send("Welcome!")
    await conn.send("Login or Register")
    lines = await conn.expect("Login *")
    for _command in lines[:-1]:  # Protocol, Client
        await conn.send("OK")
    for line in before_welcome:
        await conn.send(line)
    await conn.send(f"Welcome {name}!")
    for line in extra:
        await conn.send(line)
    lines += await conn.expect("PING")
    await conn.send("OK")
    return lines


async def wait_event(event: trio.Event, what: str, timeout: float = 20.0) -> None:
    """Wait for `event`; fail naming `what` when it is not set within `timeout` s."""
    with trio.move_on_after(timeout):
        await event.wait()
        return
    raise AssertionError(f"{what}: not within {timeout} s")


async def play_both(*bridges: Bridge, limit: float = 60.0) -> None:
    """Run the bridges until they all stop; fail after `limit` seconds."""
    with trio.fail_after(limit):
        async with trio.open_nursery() as nursery:
            for bridge in bridges:
                nursery.start_soon(bridge.run)


async def run_until(bridge: Bridge, event: trio.Event, what: str, timeout: float = 20.0) -> None:
    """Run `bridge` until `event` is set (then stop it); fail naming `what` on timeout."""
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bridge.run)
        await wait_event(event, what, timeout)
        nursery.cancel_scope.cancel()


class Counter:
    """Counts the calls (e.g. connections to a scripted server); `reached` is set once
    the count gets to `target`."""

    def __init__(self, target: int) -> None:
        self.count = 0
        self.target = target
        self.reached = trio.Event()

    def __call__(self) -> int:
        self.count += 1
        if self.count >= self.target:
            self.reached.set()
        return self.count
