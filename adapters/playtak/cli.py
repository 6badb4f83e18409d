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
from adapters.playtak.game_policy import UNDO_CHOICES, ChatTemplate, ScorePolicy
from adapters.playtak.live_view import BridgeWatch
from adapters.playtak.seek_filter import (
    OPPONENT_CHOICES,
    RATED_CHOICES,
    TOURNAMENT_CHOICES,
    SeekFilter,
)
from adapters.playtak.session import (
    Credentials,
    Session,
    SessionEnded,
    SessionSettings,
)
from adapters.playtak.transport import (
    DEFAULT_SERVER,
    BadCaFile,
    BadServerURL,
    ConnectSettings,
    ServerAddress,
)
from adapters.web.options import (
    LiveAddressError,
    LiveOptions,
    add_live_options,
    live_address,
)
from bots.registry import bot_names, default_bot
from tei.config_file import (
    COMMAND_LINE,
    DEFAULT,
    ConfigError,
    Settings,
    add_config_options,
    settings,
)
from tei.errors import main_error
from tei.lines import SafeFormatter
from tei.numbers_cli import POSITIVE_SECONDS, float_in, int_in
from tei.options_cli import add_pairs_option, set_epilog, split_pair, usage_error
from tei.seat import Launch
from tei.transcript import Transcript

EPILOG = """\
examples:
  tei playtak --config bot.toml                    (settings from a file: docs/playtak-bot.toml)
  tei playtak --config bot.toml --games 1 --print-config      (the merged settings, then exit)
  tei playtak --bot search --seek "6 600 10 A 4 30 1 0 0"          (guest, playtak.com)
  PLAYTAK_PASSWORD=... tei playtak --user MyBot --engine "./my-engine --threads 2" --seek "5 300 5"
  tei playtak --server tcp://127.0.0.1:10000 --bot random --accept-from alice --games 1
  tei playtak --bot search --accept --accept-size 5,6 --accept-time 180:900 --seek "5 300 5" \\
      --resign "movecount=3 score=900" --greeting "Hi {opponent}, good game!"

Every option is also a key of the --config file (its long name, with dashes:
`move-overhead = 500`; a repeatable one takes a list: `seek = ["5 300 5", "6 600 10"]`);
the command line overrides the file. Relative paths in the file are taken from the
file's folder.

Seeks of others that pass the --accept filters are taken first; while none is there, the
--seek list is posted in turn. A seek is "size time increment [colour komi flats caps
unrated tournament [trigger amount]] [opponent]": times in seconds, colour W, B or A
(random; the bot's colour), komi in half-flats (4 = 2 flats), flats and caps the
reserves (default: the standard ones of the size), unrated/tournament 0 or 1, extra
time: `amount` seconds at move `trigger`. Our seek is posted after login and again after
every game, never during one. The bot reconnects by itself and resumes a running game;
SIGTERM or Ctrl-C stop it. A connection that cannot work (an untrusted or mismatched
certificate, a websocket upgrade refused with HTTP 4xx, a refused login) stops it with
status 1.
Try it offline with the local server: python -m adapters.playtak.server
"""


#: the defaults of the options that fill these settings are theirs (one source; the
#: help states them, and a test checks that it does)
BRIDGE = BridgeSettings()
SESSION = SessionSettings()
FILTER = SeekFilter()

#: config keys whose values --print-config masks
SECRET_KEYS = ("password", "guest-token")


def configure(parser: argparse.ArgumentParser) -> None:
    set_epilog(parser, EPILOG)
    _engine_options(parser)
    _account_options(parser)
    _game_options(parser)
    _connection_options(parser)
    add_live_options(parser, "the bot's current game and the games it finished in this run")
    logs = parser.add_argument_group("logging")
    logs.add_argument("--log", type=Path, metavar="FILE", help="also write the log to FILE")
    logs.add_argument(
        "--log-max-bytes",
        type=int_in(0),
        default=0,
        metavar="N",
        help="start a new --log file once it holds N bytes (default 0: never)",
    )
    logs.add_argument(
        "--log-backups",
        type=int_in(1),
        default=5,
        metavar="N",
        help="old --log files kept as FILE.1 ... FILE.N with --log-max-bytes (default 5)",
    )
    logs.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="log every line sent and read (the server's and the engine's)",
    )
    parser.add_argument_group("pondering").add_argument(
        "--ponder",
        action="store_true",
        help="built-in bots (--bot) keep searching on the opponent's time, on the reply "
        "they expect, with standard go infinite / stop (default off; refused with --engine)",
    )
    # last: every option above is a key of the config file
    add_config_options(parser, SECRET_KEYS, "bot's settings")


def _engine_options(parser: argparse.ArgumentParser) -> None:
    engine = parser.add_argument_group("engine (one of)")
    which = engine.add_mutually_exclusive_group()
    which.add_argument("--engine", metavar="CMD", help="TEI engine command line (shell words)")
    which.add_argument(
        "--bot", metavar="NAME", help="a built-in bot, run as `tei engine` (default: search)"
    )
    add_pairs_option(engine, "--engine-option", "set an engine option before play (repeatable)")
    engine.add_argument("--engine-name", metavar="NAME", help="name of the engine in logs")


def _account_options(parser: argparse.ArgumentParser) -> None:
    account = parser.add_argument_group("account (default: a guest)")
    account.add_argument("--user", help="playtak user name")
    account.add_argument("--password", help="password (prefer --password-env)")
    account.add_argument(
        "--password-env",
        default="PLAYTAK_PASSWORD",
        metavar="VAR",
        help="environment variable holding the password (default PLAYTAK_PASSWORD)",
    )
    account.add_argument(
        "--guest-token",
        metavar="TOKEN",
        help="20 lower-case letters: log in as the same guest again (default: a new one "
        "per run, reused on reconnects)",
    )


def _game_options(parser: argparse.ArgumentParser) -> None:
    games = parser.add_argument_group("games")
    games.add_argument(
        "--seek",
        action="append",
        metavar="SPEC",
        help="post this seek (see below); repeat it for a list posted in turn",
    )
    rotate = BRIDGE.seek_rotate_seconds
    games.add_argument(
        "--seek-rotate",
        type=POSITIVE_SECONDS,
        default=rotate,
        metavar="S",
        help=f"replace a seek nobody took by the next of the list after S s (default {rotate:g})",
    )
    games.add_argument(
        "--games", type=int_in(1), metavar="N", help="stop after N games (default: never)"
    )
    overhead = BRIDGE.move_overhead_ms
    games.add_argument(
        "--move-overhead",
        type=int_in(0),
        default=overhead,
        metavar="MS",
        help=f"ms kept back from our clock for network lag (default {overhead})",
    )
    games.add_argument(
        "--max-move-time",
        type=POSITIVE_SECONDS,
        metavar="S",
        help="restart an engine that has not answered after S seconds (default: a quarter "
        "of the clock left, at least 30 s)",
    )
    games.add_argument("--ptn-dir", type=Path, metavar="DIR", help="write each game as PTN here")
    _accept_options(parser)
    _in_game_options(parser)


#: the filters of other players' seeks: flag, metavar or choices, help
ACCEPT_FILTERS: tuple[tuple[str, str | tuple[str, ...], str], ...] = (
    ("--accept-size", "LIST", "board sizes, e.g. 5,6"),
    ("--accept-time", "MIN:MAX", "base time in seconds, e.g. 180:900 (MIN: or :MAX open)"),
    ("--accept-inc", "MIN:MAX", "increment in seconds"),
    ("--accept-komi", "LIST", "komi in half-flats, e.g. 0,4"),
    ("--accept-color", "LIST", "the colours we play: W, B, A (random), e.g. A,W"),
    ("--accept-rated", RATED_CHOICES, "rated or unrated games"),
    ("--accept-tournament", TOURNAMENT_CHOICES, "tournament games"),
    ("--accept-opponents", OPPONENT_CHOICES, "bot accounts or humans (needs --protocol 2)"),
    ("--allow", "NAMES", "only these players (commas between)"),
    ("--block", "NAMES", "never these players"),
)


def _accept_options(parser: argparse.ArgumentParser) -> None:
    accept = parser.add_argument_group(
        "accepting seeks of other players (filters: default any)",
        "The best acceptable seek is taken: one addressed to us first, then the time\n"
        "control closest to our first --seek (base + 40 x increment), then the oldest.\n"
        "While none is there, our own seeks are posted.",
    )
    accept.add_argument(
        "--accept", action="store_true", help="accept the seeks that pass the filters below"
    )
    accept.add_argument(
        "--accept-from", metavar="NAME", help="accept the seeks of this player (--accept --allow)"
    )
    for flag, shape, text in ACCEPT_FILTERS:
        if isinstance(shape, tuple):
            default = getattr(FILTER, flag.removeprefix("--accept-"))
            accept.add_argument(
                flag, choices=shape, default=default, help=f"{text} (default {default})"
            )
        else:
            accept.add_argument(flag, metavar=shape, help=text)


def _in_game_options(parser: argparse.ArgumentParser) -> None:
    play = parser.add_argument_group("resign, draws, undo and chat (default: none)")
    play.add_argument(
        "--resign",
        metavar="WORDS",
        help="resign once our engine scored -CP or worse on N moves in a row: "
        '"movecount=N score=CP" (as tei match; never with an engine without scores)',
    )
    play.add_argument(
        "--draw",
        metavar="WORDS",
        help="offer a draw once N full moves are played and our engine scored within CP "
        'of 0 on M moves in a row: "movenumber=N movecount=M score=CP"; offers are '
        "accepted while that holds",
    )
    play.add_argument(
        "--accept-draws", action="store_true", help="accept every draw offer (default: decline)"
    )
    play.add_argument(
        "--undo",
        choices=UNDO_CHOICES,
        default=UNDO_CHOICES[0],
        help="answer to the opponent's undo requests (default refuse)",
    )
    play.add_argument(
        "--greeting",
        metavar="TEXT",
        help="told to the opponent when a game starts; {me} and {opponent} are the names",
    )
    play.add_argument(
        "--goodbye", metavar="TEXT", help="told to the opponent when a game ends (as --greeting)"
    )


#: the connection's timing options: flag, type, default seconds, help
TIMINGS = (
    ("--ping-interval", POSITIVE_SECONDS, SESSION.ping_interval, "PING every S s (30)"),
    (
        "--dead-after",
        POSITIVE_SECONDS,
        SESSION.dead_after,
        "reconnect when the server is silent this long (90)",
    ),
    (
        "--max-backoff",
        float_in(1),
        SESSION.backoff_max,
        "longest wait between reconnects outside games (60; 5 during a game)",
    ),
)


def _connection_options(parser: argparse.ArgumentParser) -> None:
    conn = parser.add_argument_group("connection")
    conn.add_argument(
        "--server",
        default=SESSION.server,
        metavar="URL",
        help=f"wss://host/ws, ws://host:port/ws or tcp://host:port (default {DEFAULT_SERVER})",
    )
    conn.add_argument(
        "--ca-file",
        type=Path,
        metavar="PEM",
        help="also trust the certificate authorities in this PEM file for wss:// (the "
        "system's, or those of $SSL_CERT_FILE, stay trusted)",
    )
    conn.add_argument(
        "--insecure",
        action="store_true",
        help="do not verify the server's TLS certificate (a warning is logged on every "
        "connect; for tests only)",
    )
    conn.add_argument(
        "--protocol",
        type=int,
        choices=(0, 1, 2),
        default=SESSION.protocol,
        help="protocol version (default 2)",
    )
    conn.add_argument(
        "--client-name",
        default=SESSION.client_name,
        metavar="NAME",
        help="sent with `Client` (default tei-playtak)",
    )
    for flag, kind, default, text in TIMINGS:
        conn.add_argument(flag, type=kind, default=default, metavar="S", help=text)


def _engine_argv(args: argparse.Namespace) -> list[str]:
    if args.engine:
        return shlex.split(args.engine)
    bot = args.bot or default_bot("tak")
    return [sys.executable, "-m", "tei", "engine", "--game", "tak", "--bot", bot]


@contextlib.contextmanager
def _logging(args: argparse.Namespace) -> Iterator[None]:
    """Log to stderr (and --log FILE) while the command runs; restore the root logger."""
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if args.log is not None:
        handlers.append(
            logging.handlers.RotatingFileHandler(
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
    root.setLevel(logging.DEBUG if args.verbose else logging.INFO)
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
        merged = settings(args)  # the command line over --config FILE over the defaults
    except ConfigError as exc:
        return usage_error("playtak", exc)
    args = merged.apply(args)
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


def _game_settings(args: argparse.Namespace, seeks: tuple[p.Seek, ...]) -> BridgeSettings:
    """The bridge's settings of seeks, accepting, resign, draws, undo and chat; a bad one
    raises ValueError naming its option."""
    accepting = args.accept or args.accept_from
    given = [flag for flag, _, _ in ACCEPT_FILTERS if _is_set(args, flag)]
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
    if args.dead_after <= args.ping_interval:
        # a healthy connection must not be taken for dead between two PINGs
        return (
            ("dead_after", "ping_interval"),
            "--dead-after must be longer than --ping-interval",
        )
    if args.ponder and args.engine:
        return (
            ("ponder", "engine"),
            "--ponder works with the built-in bots (--bot) only: TEI has no ponder command, "
            "so a foreign --engine is sent nothing new",
        )
    if args.bot and args.bot not in bot_names("tak"):
        return ("bot",), f"no bot {args.bot!r} for tak; known: {', '.join(bot_names('tak'))}"
    if args.guest_token and not GUEST_TOKEN_RE.fullmatch(args.guest_token):
        return ("guest_token",), "--guest-token must be 20 lower-case letters"
    if args.ptn_dir is not None:
        why = unwritable_folder(args.ptn_dir)
        if why:
            return ("ptn_dir",), f"--ptn-dir {why}"
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
    launch = Launch(tuple(_engine_argv(args)), args.engine_name, None, tuple(options.items()))
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
