"""`tei playtak`'s command line: its settings classes (each field an option and a key of
the config file), their defaults (read off the library's settings classes, written once)
and its help."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import attrs

from adapters.playtak.bridge import BridgeSettings
from adapters.playtak.game_policy import UNDO_CHOICES
from adapters.playtak.seek_filter import (
    OPPONENT_CHOICES,
    RATED_CHOICES,
    TOURNAMENT_CHOICES,
    SeekFilter,
)
from adapters.playtak.session import SessionSettings
from adapters.playtak.transport import DEFAULT_SERVER
from tei.cli.config import Command
from tei.cli.fields import Flag, flags, setting, switch
from tei.cli.options import (
    bot_option,
    count_option,
    list_option,
    live_view_options,
    path_option,
    repeat_option,
    seconds_option,
)
from tei.values import float_in

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

#: --log-level choices, quietest last
LOG_LEVELS = ("debug", "info", "warning")


@attrs.frozen
class EngineOptions:
    TITLE: ClassVar[str] = "engine (one of)"
    EXCLUSIVE: ClassVar[tuple[str, ...]] = ("engine", "bot", "engine_conf")

    engine: str | None = setting(
        "--engine", metavar="CMD", help="TEI engine command line (shell words)"
    )
    bot: str | None = bot_option(
        "a built-in bot, or module:Class naming any Bot subclass importable through "
        "PYTHONPATH; run as `tei engine` (default: search)"
    )
    engine_conf: str | None = setting(
        "--engine-conf",
        metavar="NAME",
        help="the engine of this name in the --engines file (its command or bot, name, "
        "options and folder; its time control is the server's)",
    )
    engines: Path | None = path_option(
        "--engines", help="named engines (TOML, as tei match --engines: docs/engines.toml)"
    )
    engine_option: list[str] = list_option(
        "--engine-option", "set an engine option before play (repeatable)"
    )
    engine_name: str | None = setting(
        "--engine-name", metavar="NAME", help="name of the engine in logs"
    )


@attrs.frozen
class AccountOptions:
    TITLE: ClassVar[str] = "account (default: a guest)"

    user: str | None = setting("--user", help="playtak user name")
    password: str | None = setting(
        "--password", secret=True, help="password (prefer --password-env)"
    )
    password_env: str = setting(
        "--password-env",
        default="PLAYTAK_PASSWORD",
        metavar="VAR",
        help="environment variable holding the password (default PLAYTAK_PASSWORD)",
    )
    guest_token: str | None = setting(
        "--guest-token",
        secret=True,
        metavar="TOKEN",
        help="20 lower-case letters: log in as the same guest again (default: a new one "
        "per run, reused on reconnects)",
    )


@attrs.frozen
class GamesOptions:
    TITLE: ClassVar[str] = "games"

    seek: list[str] | None = repeat_option(
        "--seek", "post this seek (see below); repeat it for a list posted in turn", "SPEC"
    )
    seek_rotate: float = seconds_option(
        "--seek-rotate",
        help="replace a seek nobody took by the next of the list after S s (default "
        f"{BRIDGE.seek_rotate_seconds:g})",
        default=BRIDGE.seek_rotate_seconds,
    )
    games: int | None = count_option("--games", 1, "stop after N games (default: never)")
    move_overhead: int = count_option(
        "--move-overhead",
        0,
        f"ms kept back from our clock for network lag (default {BRIDGE.move_overhead_ms})",
        default=BRIDGE.move_overhead_ms,
        metavar="MS",
    )
    max_move_time: float | None = seconds_option(
        "--max-move-time",
        help="restart an engine that has not answered after S seconds (default: a quarter "
        "of the clock left, at least 30 s)",
    )
    ptn_dir: Path | None = path_option(
        "--ptn-dir", help="write each game as PTN here", metavar="DIR"
    )


def _choice(name: str, choices: tuple[str, ...], text: str) -> Any:
    """A filter of fixed choices, its default the filter's own."""
    default: str = getattr(FILTER, name)
    return setting(
        f"--accept-{name}", choices=choices, default=default, help=f"{text} (default {default})"
    )


@attrs.frozen
class AcceptOptions:
    TITLE: ClassVar[str] = "accepting seeks of other players (filters: default any)"
    DESCRIPTION: ClassVar[str] = (
        "The best acceptable seek is taken: one addressed to us first, then the time\n"
        "control closest to our first --seek (base + 40 x increment), then the oldest.\n"
        "While none is there, our own seeks are posted."
    )

    accept: bool = switch("--accept", help="accept the seeks that pass the filters below")
    accept_from: str | None = setting(
        "--accept-from", metavar="NAME", help="accept the seeks of this player (--accept --allow)"
    )
    accept_size: str | None = setting("--accept-size", metavar="LIST", help="board sizes, e.g. 5,6")
    accept_time: str | None = setting(
        "--accept-time",
        metavar="MIN:MAX",
        help="base time in seconds, e.g. 180:900 (MIN: or :MAX open)",
    )
    accept_inc: str | None = setting("--accept-inc", metavar="MIN:MAX", help="increment in seconds")
    accept_komi: str | None = setting(
        "--accept-komi", metavar="LIST", help="komi in half-flats, e.g. 0,4"
    )
    accept_color: str | None = setting(
        "--accept-color", metavar="LIST", help="the colours we play: W, B, A (random), e.g. A,W"
    )
    accept_rated: str = _choice("rated", RATED_CHOICES, "rated or unrated games")
    accept_tournament: str = _choice("tournament", TOURNAMENT_CHOICES, "tournament games")
    accept_opponents: str = _choice(
        "opponents", OPPONENT_CHOICES, "bot accounts or humans (needs --protocol 2)"
    )
    allow: str | None = setting(
        "--allow", metavar="NAMES", help="only these players (commas between)"
    )
    block: str | None = setting("--block", metavar="NAMES", help="never these players")


def accept_filters() -> list[Flag]:
    """The filters of other players' seeks (what needs --accept), in order."""
    return [
        flag for field, flag in flags(AcceptOptions) if field.name not in ("accept", "accept_from")
    ]


def _score_rule(flag: str, text: str) -> Any:
    """A rule on our engine's scores, its words in one argument (`ScorePolicy.parse`)."""
    return setting(flag, metavar="WORDS", help=text)


@attrs.frozen
class InGameOptions:
    TITLE: ClassVar[str] = "resign, draws, undo and chat (default: none)"

    resign: str | None = _score_rule(
        "--resign",
        "resign once our engine scored -CP or worse on N moves in a row: "
        '"movecount=N score=CP" (as tei match; never with an engine without scores)',
    )
    draw: str | None = _score_rule(
        "--draw",
        "offer a draw once N full moves are played and our engine scored within CP "
        'of 0 on M moves in a row: "movenumber=N movecount=M score=CP"; offers are '
        "accepted while that holds",
    )
    accept_draws: bool = switch("--accept-draws", help="accept every draw offer (default: decline)")
    undo: str = setting(
        "--undo",
        choices=UNDO_CHOICES,
        default=UNDO_CHOICES[0],
        help="answer to the opponent's undo requests (default refuse)",
    )
    greeting: str | None = setting(
        "--greeting",
        metavar="TEXT",
        help="told to the opponent when a game starts; {me} and {opponent} are the names",
    )
    goodbye: str | None = setting(
        "--goodbye", metavar="TEXT", help="told to the opponent when a game ends (as --greeting)"
    )


@attrs.frozen
class ConnectionOptions:
    TITLE: ClassVar[str] = "connection"

    server: str = setting(
        "--server",
        default=SESSION.server,
        metavar="URL",
        help=f"wss://host/ws, ws://host:port/ws or tcp://host:port (default {DEFAULT_SERVER})",
    )
    ca_file: Path | None = path_option(
        "--ca-file",
        help="also trust the certificate authorities in this PEM file for wss:// (the "
        "system's, or those of $SSL_CERT_FILE, stay trusted)",
        metavar="PEM",
    )
    insecure: bool = switch(
        "--insecure",
        help="do not verify the server's TLS certificate (a warning is logged on every "
        "connect; for tests only)",
    )
    protocol: int = setting(
        "--protocol",
        type=int,
        choices=(0, 1, 2),
        default=SESSION.protocol,
        help="protocol version (default 2)",
    )
    client_name: str = setting(
        "--client-name",
        default=SESSION.client_name,
        metavar="NAME",
        help="sent with `Client` (default tei-playtak)",
    )
    ping_interval: float = seconds_option(
        "--ping-interval", help="PING every S s (30)", default=SESSION.ping_interval
    )
    dead_after: float = seconds_option(
        "--dead-after",
        help="reconnect when the server is silent this long (90)",
        default=SESSION.dead_after,
    )
    max_backoff: float = seconds_option(
        "--max-backoff",
        help="longest wait between reconnects outside games (60; 5 during a game)",
        default=SESSION.backoff_max,
        type=float_in(1),
    )


@attrs.frozen
class LoggingOptions:
    TITLE: ClassVar[str] = "logging"

    log: Path | None = path_option(
        "--log",
        help="also write the log (what stderr shows) to FILE; tei match, engine and serve "
        "write engine traffic with --log instead",
    )
    log_level: str = setting(
        "--log-level",
        choices=LOG_LEVELS,
        default="info",
        help="the least important messages logged (default info; -v means debug)",
    )
    log_max_bytes: int = count_option(
        "--log-max-bytes",
        0,
        "start a new --log file once it holds N bytes (default 0: never)",
        default=0,
    )
    log_backups: int = count_option(
        "--log-backups",
        1,
        "old --log files kept as FILE.1 ... FILE.N with --log-max-bytes (default 5)",
        default=5,
    )
    verbose: bool = switch(
        "-v",
        "--verbose",
        help="log every line sent and read (the server's and the engine's), at the debug "
        "level: means --log-level debug",
    )


@attrs.frozen
class PonderOptions:
    TITLE: ClassVar[str] = "pondering"

    ponder: bool = switch(
        "--ponder",
        help="bots (--bot) keep searching on the opponent's time, on the reply "
        "they expect, with standard go infinite / stop (default off; refused with --engine)",
    )


#: `tei playtak`'s settings, in the order of its help and of --print-config
SETTINGS = (
    EngineOptions,
    AccountOptions,
    GamesOptions,
    AcceptOptions,
    InGameOptions,
    ConnectionOptions,
    live_view_options("the bot's current game and the games it finished in this run"),
    LoggingOptions,
    PonderOptions,
)

#: `tei playtak`'s options and the keys of its config file, from one declaration
COMMAND = Command.of(SETTINGS, EPILOG, "bot's settings")
configure = COMMAND.configure
option_table = COMMAND.table
