"""`tei playtak`'s command line: its options (each with a config-file key), their
defaults (read off the settings classes, written once) and its help."""

from __future__ import annotations

import argparse
from pathlib import Path

from adapters.playtak.bridge import BridgeSettings
from adapters.playtak.game_policy import UNDO_CHOICES
from adapters.playtak.seek_filter import (
    OPPONENT_CHOICES,
    RATED_CHOICES,
    TOURNAMENT_CHOICES,
    SeekFilter,
)
from adapters.playtak.session import (
    SessionSettings,
)
from adapters.playtak.transport import (
    DEFAULT_SERVER,
)
from tei.cli.config import Command, finish
from tei.cli.keys import Declared, OptionTable, Parser
from tei.cli.options import add_count, add_live_options, add_pairs_option
from tei.values import POSITIVE_SECONDS, float_in

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
`move-overhead = 500`; a repeatable one takes a list: `seek = ["5 300 5", "6 600 10"]`,
or one plain value: `seek = "5 300 5"`); the command line overrides the file. Relative
paths in the file are taken from the file's folder.

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


#: --log-level choices, quietest last
LOG_LEVELS = ("debug", "info", "warning")


def declare(real: argparse.ArgumentParser) -> OptionTable:
    """Declare every option on `real`; each is a key of the config file."""
    parser = Declared(real, SECRET_KEYS)
    _engine_options(parser)
    _account_options(parser)
    _game_options(parser)
    _connection_options(parser)
    add_live_options(parser, "the bot's current game and the games it finished in this run")
    logs = parser.add_argument_group("logging")
    logs.add_argument(
        "--log",
        type=Path,
        metavar="FILE",
        help="also write the log (what stderr shows) to FILE; tei match, engine and serve "
        "write engine traffic with --log instead",
    )
    logs.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default="info",
        help="the least important messages logged (default info; -v means debug)",
    )
    rotate_at = "start a new --log file once it holds N bytes (default 0: never)"
    add_count(logs, "--log-max-bytes", 0, rotate_at, default=0)
    backups = "old --log files kept as FILE.1 ... FILE.N with --log-max-bytes (default 5)"
    add_count(logs, "--log-backups", 1, backups, default=5)
    logs.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="log every line sent and read (the server's and the engine's), at the debug "
        "level: means --log-level debug",
    )
    parser.add_argument_group("pondering").add_argument(
        "--ponder",
        action="store_true",
        help="bots (--bot) keep searching on the opponent's time, on the reply "
        "they expect, with standard go infinite / stop (default off; refused with --engine)",
    )
    # last: every option above is a key of the config file
    return finish(parser, "bot's settings")


def _engine_options(parser: Parser) -> None:
    engine = parser.add_argument_group("engine (one of)")
    which = engine.add_mutually_exclusive_group()
    which.add_argument("--engine", metavar="CMD", help="TEI engine command line (shell words)")
    which.add_argument(
        "--bot",
        metavar="NAME",
        help="a built-in bot, or module:Class naming any Bot subclass importable through "
        "PYTHONPATH; run as `tei engine` (default: search)",
    )
    which.add_argument(
        "--engine-conf",
        metavar="NAME",
        help="the engine of this name in the --engines file (its command or bot, name, "
        "options and folder; its time control is the server's)",
    )
    engine.add_argument(
        "--engines",
        type=Path,
        metavar="FILE",
        help="named engines (TOML, as tei match --engines: docs/engines.toml)",
    )
    add_pairs_option(engine, "--engine-option", "set an engine option before play (repeatable)")
    engine.add_argument("--engine-name", metavar="NAME", help="name of the engine in logs")


def _account_options(parser: Parser) -> None:
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


def _game_options(parser: Parser) -> None:
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
    add_count(games, "--games", 1, "stop after N games (default: never)")
    overhead = BRIDGE.move_overhead_ms
    lag = f"ms kept back from our clock for network lag (default {overhead})"
    add_count(games, "--move-overhead", 0, lag, default=overhead, metavar="MS")
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


def _accept_options(parser: Parser) -> None:
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


def _in_game_options(parser: Parser) -> None:
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


def _connection_options(parser: Parser) -> None:
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


#: `tei playtak`'s options and the keys of its config file, from one declaration
COMMAND = Command(declare, EPILOG)
configure = COMMAND.configure
option_table = COMMAND.table
