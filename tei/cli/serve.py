"""`tei serve`: TEI over websocket for browser GUIs such as PTN Ninja."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from typing import ClassVar

import attrs
import trio

from adapters.web.tei_origins import OriginPatternError, OriginPolicy
from adapters.web.tei_socket import ServeConfig, TeiSocketServer, run_server
from tei.cli.engine import host_config, set_options
from tei.cli.fields import add_settings, setting, switch
from tei.cli.options import (
    GameOptions,
    bot_option,
    count_option,
    engine_command,
    engine_command_option,
    game_options,
    list_option,
    repeat_option,
    seconds_option,
    set_epilog,
    usage_error,
)
from tei.host.state import HostState
from tei.lines import SafeFormatter
from tei.transcript import Transcript
from tei.values import PORT, SECONDS, split_pair

log = logging.getLogger("tei.serve")

DEFAULT_PORT = 7731
#: loopback on IPv4 and IPv6: browsers may resolve `localhost` to either
DEFAULT_HOSTS = ("127.0.0.1", "::1")

EPILOG = """\
Each websocket connection (path /, one TEI line per text message) gets its own session:
a built-in bot hosted in process, or with '-- ENGINE ARGV...' a fresh engine process,
stopped (with everything it started) when the connection closes. Only pages whose Origin
is allowed may connect (default: https://ptn.ninja, http://localhost:*, http://127.0.0.1:*,
http://[::1]:*); programs that send no Origin are let in. See docs/gui.md.

examples:
  tei serve                                  Tak, strongest built-in bot, port 7731
  tei serve --bot random --game trike
  tei serve -- tiltak                        any TEI engine on stdin/stdout
  tei serve --allow-origin http://my.host:8080 --log /tmp/ws.log
"""


@attrs.frozen
class ServeOptions:
    TITLE: ClassVar[str] = ""

    host: list[str] | None = repeat_option(
        "--host",
        "address to listen on (repeatable; default: 127.0.0.1 and ::1). Anything but "
        "loopback lets other machines use your engine",
        "HOST",
    )
    port: int = setting(
        "--port", type=PORT, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT})"
    )
    bot: str | None = bot_option("built-in bot to serve (default: the strongest per game)")
    option: list[str] = list_option(
        "--option",
        "built-in bot: set a TEI option in each session before it starts, e.g. HalfKomi=4 "
        "(repeatable)",
    )
    allow_origin: list[str] = list_option(
        "--allow-origin",
        "also allow pages from ORIGIN, e.g. http://localhost:* or https://my.site (repeatable)",
        metavar="ORIGIN",
    )
    allow_any_origin: bool = switch(
        "--allow-any-origin",
        help="allow pages from any origin (any web page you visit could use the engine)",
    )
    max_sessions: int = count_option(
        "--max-sessions", 1, "sessions open at once; more are refused (default: 2)", default=2
    )
    idle_timeout: float = seconds_option(
        "--idle-timeout",
        help="close a session after S seconds without traffic either way (default: 1800; 0: never)",
        default=1800.0,
        type=SECONDS,
    )
    log: str | None = setting(
        "--log",
        metavar="FILE",
        help="append all traffic to FILE (as tei match, engine and check --log; tei playtak "
        "--log is its whole log)",
    )
    tei_v1: bool = switch("--tei-v1", help="built-in bot: also announce TEI v1 size lines")
    name: str = setting(
        "--name", default="tei-host", help="built-in bot: engine name for 'id name'"
    )
    verbose: bool = switch(
        "-v",
        "--verbose",
        help="log each session (not its traffic: that is --log FILE; tei check and tei "
        "playtak -v show the traffic)",
    )


@attrs.frozen
class ServedEngine:
    TITLE: ClassVar[str] = ""

    engine: list[str] = engine_command_option(
        "-- ENGINE ARGV", "serve this engine command instead of a built-in bot (after --)"
    )


#: `tei serve`'s settings, in the order of its help
SETTINGS = (ServeOptions, GameOptions, ServedEngine)


def configure(parser: argparse.ArgumentParser) -> None:
    set_epilog(parser, EPILOG)
    add_settings(parser, SETTINGS)


def _config(args: argparse.Namespace) -> ServeConfig:
    engine = engine_command(args)
    if engine and args.bot:
        raise ValueError("give either --bot or an engine command, not both")
    if engine and args.option:
        raise ValueError("--option is for the built-in bot; a GUI sets an engine's options")
    origins = OriginPolicy.build(tuple(args.allow_origin), args.allow_any_origin)
    host = host_config(args, game_options(args))
    if not engine:
        set_options(HostState(host), args.option)  # a bad one is named before any session
    options = tuple(split_pair(item, "--option") for item in args.option)
    idle = args.idle_timeout or None
    return ServeConfig(host, tuple(engine), origins, args.max_sessions, idle, options)


def run(args: argparse.Namespace) -> int:
    try:
        config = _config(args)
        transcript = Transcript.to_file(args.log, keep=0) if args.log else None
    except (ValueError, OriginPatternError) as exc:
        return usage_error("serve", exc)
    except OSError as exc:
        return usage_error("serve", f"cannot open log {args.log!r}: {exc}")
    server = TeiSocketServer(config, transcript)  # its host setup was checked by _config
    handler = logging.StreamHandler()
    handler.setFormatter(SafeFormatter("tei serve: %(message)s"))  # no control characters
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, handlers=[handler])
    hosts = args.host or list(DEFAULT_HOSTS)
    binds = [f"[{h}]:{args.port}" if ":" in h else f"{h}:{args.port}" for h in hosts]
    try:
        trio.run(_serve, server, binds)
    except OSError as exc:
        print(f"tei serve: cannot listen on {' '.join(binds)}: {exc}", file=sys.stderr)
        return 1
    finally:
        if transcript is not None:
            transcript.close()
    return 0


async def _serve(server: TeiSocketServer, binds: list[str]) -> None:
    """Serve until SIGINT, SIGTERM or SIGHUP; then every session ends and its engine is
    stopped before the process exits."""
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM, signal.SIGHUP) as signals:
        async with trio.open_nursery() as nursery:
            addresses = await nursery.start(run_server, server, binds)
            what = " ".join(server.config.engine) or f"built-in bot ({server.config.host.game})"
            for address in addresses:
                print(f"tei serve: {what} on {address.replace('http', 'ws', 1)}", file=sys.stderr)
            sys.stderr.flush()
            async for signum in signals:
                log.info("%s: closing the sessions", signal.Signals(signum).name)
                nursery.cancel_scope.cancel()
                break
