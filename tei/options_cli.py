"""Command-line options shared by subcommands: which game, and its rules options."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from rules.registry import GAME_NAMES


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """--game, --size, --komi, --players, --teams, --short-game, --rule K=V."""
    group = parser.add_argument_group("game")
    group.add_argument("--game", default="tak", choices=GAME_NAMES, help="game (default: tak)")
    group.add_argument(
        "--size", type=int, help="board size: Tak 3-8 (default 5), Trike side 3-19 (default 13)"
    )
    group.add_argument(
        "--komi", type=float, help="Tak komi in flats, a multiple of 0.5 (default 0)"
    )
    group.add_argument("--players", type=int, help="Traxit players 2-4 (default 2)")
    group.add_argument("--teams", action="store_true", help="Traxit team play (4 players)")
    group.add_argument(
        "--short-game", action="store_true", help="Traxit short game: 3 sets of 3 rounds"
    )
    group.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any other rules option of the game core (repeatable), e.g. flats=25",
    )


def _usage_error(message: str) -> NoReturn:
    """A bad command-line value: the message on stderr and exit status 2, as argparse does."""
    print(f"tei: {message}", file=sys.stderr)
    raise SystemExit(2)


def game_options(args: argparse.Namespace) -> dict[str, str]:
    """The rules options (strings, as every core takes them) from parsed arguments."""
    options: dict[str, str] = {}
    if getattr(args, "size", None) is not None:
        options["size"] = str(args.size)
    komi = getattr(args, "komi", None)
    if komi is not None:
        half = komi * 2
        if half != int(half):
            _usage_error(f"--komi {komi} is not a multiple of 0.5")
        options["halfkomi"] = str(int(half))
    if getattr(args, "players", None) is not None:
        options["players"] = str(args.players)
    if getattr(args, "teams", False):
        options["teams"] = "true"
    if getattr(args, "short_game", False):
        options["shortgame"] = "true"
    for item in getattr(args, "rule", []) or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            _usage_error(f"--rule {item!r} is not KEY=VALUE")
        options[key.strip().lower()] = value.strip()
    return options
