"""`tei engine`: serve a built-in bot as a TEI engine on stdin/stdout."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from bots.registry import bot_names, default_bot
from rules.registry import GAME_NAMES
from tei.host.loop import serve
from tei.host.options import OptionValueError
from tei.host.state import HostConfig, HostSetupError, HostState
from tei.numbers_cli import POSITIVE_SECONDS
from tei.options_cli import add_game_options, checked_game_options

EPILOG = """\
The engine speaks legacy TEI (what Tiltak, Taktician and racetrack speak) and accepts
TEI v1 commands too. It declares the option Game (combo of the games served), the rules
options of those games that engines are told (Tak: HalfKomi, Flats, Caps; Traxit:
Players, Teams, ShortGame, ...; see docs/rules.md) and the options of the bots. The game
options (--size, --komi, --rule, ...) set their defaults and are checked at start.
A GUI selects a game with 'setoption name Game value trike' before 'teinewgame'.

examples:
  tei engine                          Tak, strongest built-in bot
  tei engine --game trike --bot random
  tei engine --option HalfKomi=4 --log /tmp/traffic.log
  PYTHONPATH=. tei engine --bot my_bot:MyBot
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument(
        "--bot",
        metavar="NAME",
        help="the bot to serve: a built-in name (see --list) or module:Class naming any Bot "
        "subclass importable from PYTHONPATH (default: the strongest built-in bot per game)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a TEI option before the session starts, e.g. HalfKomi=4 (repeatable)",
    )
    parser.add_argument(
        "--log", metavar="FILE", help="append all traffic to FILE ('>' received, '<' sent)"
    )
    parser.add_argument(
        "--tei-v1",
        action="store_true",
        help="also announce TEI v1 'size ... halfkomi ...' lines (v1 commands are always read)",
    )
    parser.add_argument(
        "--limit-cap",
        type=POSITIVE_SECONDS,
        metavar="SECONDS",
        help="stop a 'go depth'/'go nodes' search (one with no clock or movetime) after "
        "SECONDS, as if 'stop' had come (default: no cap: the bot ends it, and the host "
        "stops it once its reports show the limit reached)",
    )
    parser.add_argument(
        "--name", default="tei-host", help="engine name for 'id name' (default: tei-host)"
    )
    parser.add_argument(
        "--list", action="store_true", help="list the games and bots available and exit"
    )
    add_game_options(parser)


def _list() -> int:
    for game in GAME_NAMES:
        try:
            names = bot_names(game)
        except Exception:  # a game whose bots cannot be looked up
            names = []
        default = default_bot(game) if names else "-"
        print(f"{game}: {' '.join(names) or '(none)'} (default: {default})")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.list:
        return _list()
    config = HostConfig(
        limit_cap=args.limit_cap,
        game=args.game,
        bot=args.bot,
        rules=checked_game_options(args),
        tei_v1=args.tei_v1,
        name=args.name,
    )
    try:
        state = HostState(config)
    except HostSetupError as exc:
        print(f"tei engine: {exc}", file=sys.stderr)
        return 2
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            print(f"tei engine: --option {item!r} is not NAME=VALUE", file=sys.stderr)
            return 2
        try:
            state.set_option(name.strip(), value.strip())
        except OptionValueError as exc:
            print(f"tei engine: --option {item!r}: {exc}", file=sys.stderr)
            return 2
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but protocol lines may reach the real stdout
    log: TextIO | None = None
    if args.log:
        try:
            log = open(args.log, "a", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            print(f"tei engine: cannot open log {args.log!r}: {exc}", file=sys.stderr)
            return 2
    try:
        return serve(state, sys.stdin.buffer, out, log)
    finally:
        if log is not None:
            log.close()
