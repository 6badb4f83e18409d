"""`tei playtak`: run a TEI engine (or a built-in bot) on a playtak.com-style server."""

from __future__ import annotations

import argparse
import contextlib
import logging
import logging.handlers
import os
import re
import shlex
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import trio

from adapters.playtak import protocol as p
from adapters.playtak.bridge import Bridge, BridgeError, BridgeSettings, EngineLog
from adapters.playtak.commands import GUEST_TOKEN_RE
from adapters.playtak.game_policy import ChatTemplate, ScorePolicy
from adapters.playtak.live_view import BridgeWatch
from adapters.playtak.seek_filter import (
    SeekFilter,
)
from adapters.playtak.session import (
    Credentials,
    Session,
    SessionEnded,
    SessionSettings,
)
from adapters.playtak.transport import (
    BadCaFile,
    BadServerURL,
    ConnectSettings,
    ServerAddress,
)
from adapters.web.options import (
    LiveAddressError,
    LiveOptions,
    live_address,
)
from bots.registry import bot_name, bot_names, default_bot
from tei.cli.config import (
    COMMAND_LINE,
    DEFAULT,
    ConfigError,
    Settings,
    settings,
)
from tei.cli.engines import named_engine
from tei.cli.options import usage_error
from tei.cli.playtak_options import (
    FILTER,
    accept_filters,
    option_table,
)
from tei.cli.playtak_options import configure as configure
from tei.driver import tei_command
from tei.errors import main_error
from tei.lines import SafeFormatter
from tei.seat import Launch
from tei.transcript import Transcript
from tei.values import split_pair


def _engine_argv(args: argparse.Namespace) -> list[str]:
    if args.engine:
        return shlex.split(args.engine) + list(getattr(args, "engine_args", ()))
    bot = args.bot or default_bot("tak")
    return list(tei_command("engine", "--game", "tak", "--bot", bot))


class LogFile(logging.handlers.RotatingFileHandler):
    """`--log FILE`: when a line cannot be written (a full disk, /dev/full) stderr says so
    once, not with a traceback per line; the log goes on on stderr, the file is tried
    again with every line, and stderr says when it is written again."""

    failing = False
    _failed_now = False

    def emit(self, record: logging.LogRecord) -> None:
        self._failed_now = False
        super().emit(record)
        if self.failing and not self._failed_now:
            self.failing = False
            sys.stderr.write(f"tei playtak: the log {self.baseFilename} is written again\n")

    def handleError(self, record: logging.LogRecord) -> None:
        self._failed_now = True
        if not self.failing:
            self.failing = True
            error = sys.exc_info()[1]
            why = getattr(error, "strerror", None) or error
            sys.stderr.write(
                f"tei playtak: cannot write the log {self.baseFilename} ({why}): "
                "the log goes on on stderr only, the file is tried again with every line\n"
            )

    def close(self) -> None:
        with contextlib.suppress(OSError):  # its last lines could not be written: said above
            super().close()


@contextlib.contextmanager
def _logging(args: argparse.Namespace) -> Iterator[None]:
    """Log to stderr (and --log FILE) while the command runs; restore the root logger."""
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if args.log is not None:
        handlers.append(
            LogFile(
                args.log,
                maxBytes=args.log_max_bytes,
                backupCount=args.log_backups,
                encoding="utf-8",
            )
        )
    # foreign text (names, chat, engine errors) is logged with its control characters escaped
    formatter = SafeFormatter("%(asctime)s %(name)s %(levelname)s %(message)s")
    for handler in handlers:
        handler.setFormatter(formatter)
    root.handlers = handlers
    level = "debug" if args.verbose else args.log_level
    root.setLevel(getattr(logging, level.upper()))
    quiet = logging.getLogger("trio-websocket")  # frame-level noise, even with -v
    quiet_level = quiet.level
    quiet.setLevel(logging.INFO)
    try:
        yield
    finally:
        quiet.setLevel(quiet_level)
        for handler in handlers:
            handler.close()
        root.setLevel(saved[0])
        root.handlers = saved[1]


def _engine_settings(args: argparse.Namespace) -> dict[str, str]:
    return dict(split_pair(item, "--engine-option") for item in args.engine_option)


def _seeks(args: argparse.Namespace) -> tuple[p.Seek, ...]:
    return tuple(p.Seek.parse_spec(text) for text in args.seek or ())


#: checks of one setting each beyond its type (dest, check of the merged arguments)
CHECKS: tuple[tuple[str, Callable[[argparse.Namespace], object]], ...] = (
    ("seek", _seeks),
    ("server", lambda args: ServerAddress.parse(args.server)),
    ("ca_file", lambda args: ConnectSettings(ca_file=args.ca_file).ssl_context()),
    ("engine_option", _engine_settings),
    ("live", live_address),
)


def run(args: argparse.Namespace) -> int:
    try:
        # the command line over --config FILE over the defaults
        merged = settings(args, option_table())
        args = with_named_engine(merged.apply(args), merged)
    except ConfigError as exc:
        return usage_error("playtak", exc)
    if args.print_config:
        print(merged.render(), end="", flush=True)
    problem = _bad_settings(args, merged)
    if problem:
        return usage_error("playtak", problem)
    if args.print_config:
        return 0
    games = _game_settings(args, _seeks(args))
    with _logging(args):
        warning = _readable_password(args, merged)
        if warning:
            logging.getLogger("playtak").warning("%s", warning)
        return _play(args, games, _password(args), _engine_settings(args))


def with_named_engine(args: argparse.Namespace, merged: Settings) -> argparse.Namespace:
    """`args` with the engine of `--engine-conf NAME` as if given by --engine or --bot,
    --engine-name, --engine-option (those given win) and its folder; ConfigError names
    the engines file, its line and the engine."""
    args.engine_dir = None
    if args.engine_conf is None:
        return args
    try:
        named = named_engine(args.engines, args.engine_conf, "--engine-conf")
    except ConfigError as exc:
        blamed = [merged.blame(problem, "engine_conf") for problem in exc.problems]
        raise ConfigError(blamed) from None
    entry = named.entry
    if "cmd" in entry:
        args.engine = entry["cmd"]
        args.engine_args = tuple(entry.get("arg", ()))
    else:
        args.bot = entry["bot"]
    if not merged.given("engine_name"):
        args.engine_name = entry.get("name")
    own = [f"{name}={value}" for name, value in dict(entry.get("options") or {}).items()]
    args.engine_option = own + list(args.engine_option)
    args.engine_dir = entry.get("dir")
    return args


def _game_settings(args: argparse.Namespace, seeks: tuple[p.Seek, ...]) -> BridgeSettings:
    """The bridge's settings of seeks, accepting, resign, draws, undo and chat; a bad one
    raises ValueError naming its option."""
    accepting = args.accept or args.accept_from
    given = [flag.names[0] for flag in accept_filters() if _is_set(args, flag.names[0])]
    if given and not accepting:
        raise ValueError(f"{given[0]} filters the seeks we accept: give --accept too")
    accept = None
    if accepting:
        if args.accept_opponents != "any" and args.protocol < 2:
            raise ValueError("--accept-opponents needs --protocol 2 (bot flags in seeks)")
        allow = ",".join(filter(None, (args.allow, args.accept_from)))
        accept = SeekFilter.parse(
            sizes=args.accept_size,
            time=args.accept_time,
            inc=args.accept_inc,
            komi=args.accept_komi,
            colors=args.accept_color,
            rated=args.accept_rated,
            tournament=args.accept_tournament,
            opponents=args.accept_opponents,
            allow=allow or None,
            block=args.block,
            prefer=(seeks[0].time, seeks[0].inc) if seeks else None,
        )
    greeting, goodbye = (
        None if text is None else ChatTemplate.parse(text, flag)
        for flag, text in (("--greeting", args.greeting), ("--goodbye", args.goodbye))
    )
    return BridgeSettings(
        seeks=seeks,
        seek_rotate_seconds=args.seek_rotate,
        accept=accept,
        games=args.games,
        ptn_dir=args.ptn_dir,
        move_overhead_ms=args.move_overhead,
        policy=ScorePolicy.parse(args.resign, args.draw, args.accept_draws, args.undo),
        greeting=greeting,
        goodbye=goodbye,
        max_move_seconds=args.max_move_time,
        site=site_name(args.server),
        ponder=args.ponder,
    )


def _is_set(args: argparse.Namespace, flag: str) -> bool:
    """The option `flag` was given a value other than its default."""
    name = flag.removeprefix("--").replace("-", "_")
    value = getattr(args, name)
    return value is not None and value != getattr(FILTER, name.removeprefix("accept_"), None)


def _named_dests(message: object, merged: Settings) -> list[str]:
    """The dests of the options that `message` names (`--accept-size ...`)."""
    keys = merged.table.by_key()
    named = re.findall(r"--([a-z][a-z-]*)", str(message))
    return [keys[key].dest for key in named if key in keys]


def _readable_password(args: argparse.Namespace, merged: Settings) -> str | None:
    """A warning when the config file holds the password and others may read it."""
    if merged.sources["password"] in (DEFAULT, COMMAND_LINE):
        return None
    try:
        mode = args.config.stat().st_mode
    except OSError:
        return None
    if not mode & (stat.S_IRGRP | stat.S_IROTH):
        return None
    return (
        f"{args.config} holds the password and other users may read it: "
        f"chmod 600 it, or give the password in ${args.password_env} instead"
    )


def _password(args: argparse.Namespace) -> str | None:
    return args.password or os.environ.get(args.password_env)


def _bad_settings(args: argparse.Namespace, merged: Settings) -> str | None:
    """What is wrong with the settings (a file's key and line named), or None."""
    if not args.seek and not args.accept and not args.accept_from:
        return (
            "give --seek SPEC, --accept or --accept-from NAME "
            "(or the key seek, accept or accept-from)"
        )
    for dest, check in CHECKS:
        try:
            check(args)
        except (ValueError, BadServerURL, BadCaFile, LiveAddressError) as exc:
            return merged.blame(exc, dest)
    try:
        _game_settings(args, _seeks(args))
    except ValueError as exc:
        return merged.blame(exc, *_named_dests(exc, merged))
    found = _bad_arguments(args, _password(args))
    return merged.blame(found[1], *found[0]) if found else None


def _bad_arguments(
    args: argparse.Namespace, password: str | None
) -> tuple[tuple[str, ...], str] | None:
    """What is wrong with the options together (each one's range is checked as it is
    parsed): the dests concerned and the message, or None."""
    if args.user and not password:
        return ("user", "password"), f"--user needs --password or ${args.password_env}"
    refused = Credentials(args.user, password).problem()
    if refused:
        return ("user", "password"), f"the server would refuse {refused}"
    if args.dead_after <= args.ping_interval:
        # a healthy connection must not be taken for dead between two PINGs
        return (
            ("dead_after", "ping_interval"),
            "--dead-after must be longer than --ping-interval",
        )
    if args.ponder and args.engine:
        return (
            ("ponder", "engine"),
            "--ponder works with bots (--bot: built-in or module:Class) only: TEI has no "
            "ponder command, so a foreign --engine is sent nothing new",
        )
    if args.bot and ":" not in args.bot and args.bot not in bot_names("tak"):
        known = ", ".join(bot_names("tak"))
        return ("bot", "engine_conf"), (
            f"no bot {args.bot!r} for tak; known: {known}, or give module:Class"
        )
    if args.guest_token and not GUEST_TOKEN_RE.fullmatch(args.guest_token):
        return ("guest_token",), "--guest-token must be 20 lower-case letters"
    why = None if args.log is None else unwritable_file(args.log)
    if why:
        return ("log",), f"--log {why}"
    if args.ptn_dir is not None:
        why = unwritable_folder(args.ptn_dir)
        if why:
            return ("ptn_dir",), f"--ptn-dir {why}"
    return None


def unwritable_file(path: Path) -> str | None:
    """Why the file `path` cannot be appended to (a missing one is not made), or None."""
    try:
        if path.exists():
            with open(path, "a", encoding="utf-8"):
                pass
        elif not os.access(path.parent, os.W_OK | os.X_OK):
            reason = "no such folder" if not path.parent.is_dir() else "permission denied"
            return f"{str(path)!r} cannot be written: {reason}"
    except OSError as exc:
        return f"{str(path)!r} cannot be written: {exc.strerror or exc}"
    return None


def unwritable_folder(path: Path) -> str | None:
    """Why records cannot be written in the folder `path` (made if missing), or None."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".write-test-"):
            pass
    except OSError as exc:
        return f"{str(path)!r} cannot be written: {exc.strerror or exc}"
    return None


def site_name(url: str) -> str:
    """The PTN `Site` of a server: `PlayTak.com` for playtak.com, else `host:port`."""
    address = ServerAddress.parse(url)
    if address.host.lower() == "playtak.com" or address.host.lower().endswith(".playtak.com"):
        return "PlayTak.com"
    return f"{address.host}:{address.port}"


def _play(
    args: argparse.Namespace,
    settings: BridgeSettings,
    password: str | None,
    options: dict[str, str],
) -> int:
    credentials = Credentials(args.user, password if args.user else None, args.guest_token)
    session = Session(
        SessionSettings(
            server=args.server,
            connect=ConnectSettings(ca_file=args.ca_file, insecure=args.insecure),
            protocol=args.protocol,
            client_name=args.client_name,
            ping_interval=args.ping_interval,
            dead_after=args.dead_after,
            backoff_max=args.max_backoff,
        ),
        credentials,
    )
    name = args.engine_name or (None if args.engine else bot_name(args.bot or default_bot("tak")))
    launch = Launch(tuple(_engine_argv(args)), name, args.engine_dir, tuple(options.items()))
    transcript = Transcript(EngineLog(), keep=1) if args.verbose else None
    bridge = Bridge(settings, session, launch, transcript=transcript)
    try:
        finished = _run_bridge(bridge, live_address(args))
    except LiveAddressError as exc:
        logging.getLogger("playtak").error("%s", exc)
        return 2
    except BaseExceptionGroup as group:
        error = main_error(group)
        if not isinstance(error, SessionEnded | BridgeError):
            raise
        logging.getLogger("playtak").error("%s", error)
        return 1
    except (SessionEnded, BridgeError) as exc:
        logging.getLogger("playtak").error("%s", exc)
        return 1
    for game_id, result, path in finished:
        print(f"game {game_id}: {result}" + (f" ({path})" if path else ""))
    return 0


def _run_bridge(bridge: Bridge, live: LiveOptions | None) -> list[tuple[int, str, Path | None]]:
    """Run the bridge until done or signalled, serving the live view when asked."""
    if live is None:
        return trio.run(bridge.run_until_signal)
    from adapters.stream.bus import EventBus
    from adapters.stream.live_state import LiveState
    from adapters.web.live_feed import serve_while

    bus = EventBus(LiveState(title=f"tei playtak on {bridge.settings.site}"))
    bridge.watch = BridgeWatch(bus.publish, bridge.settings.site, bridge.settings.games)

    def announce(url: str) -> None:
        logging.getLogger("playtak").info("live view: %s (read-only, unauthenticated)", url)

    run = bridge.run_until_signal
    return trio.run(serve_while, bus, live.host, live.port, run, announce, live.max_watchers)
