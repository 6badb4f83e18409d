"""Command-line options shared by subcommands: which game, and its rules options.

Every subcommand reads the rules options the same way: `game_options` gathers them from
the flags, `check_game_options` validates them against the game's option specs (the
one validation, also used by `tei match` for its config files and state).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any, NoReturn

from rules.game import GameError, OptionError
from rules.registry import GAME_NAMES, game_class

#: rules option -> the flag that sets it (for "drop --komi" hints)
FLAGS = {
    "size": "--size",
    "komi": "--komi",
    "halfkomi": "--komi",
    "players": "--players",
    "teams": "--teams",
    "shortgame": "--short-game",
}


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """--game, --size, --komi, --players, --teams, --short-game, --rule K=V."""
    group = parser.add_argument_group("game")
    group.add_argument("--game", default="tak", choices=GAME_NAMES, help="game (default: tak)")
    group.add_argument(
        "--size", type=int, help="board size: Tak 3-8 (default 5), Trike side 3-19 (default 13)"
    )
    group.add_argument("--komi", help="Tak komi in flats, a multiple of 0.5 (default 0)")
    group.add_argument("--players", type=int, help="Traxit players 2-4 (default 2)")
    group.add_argument(
        "--teams", action="store_true", help="Traxit team play (2 against 2: means --players 4)"
    )
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


def _usage_error(message: str, command: str | None = None) -> NoReturn:
    """A bad command-line value: the message on stderr and exit status 2, as argparse does."""
    print(f"tei {command}: {message}" if command else f"tei: {message}", file=sys.stderr)
    raise SystemExit(2)


def check_game_options(game: str, rules: Mapping[str, Any]) -> dict[str, str]:
    """`rules` validated and normalised for `game` (see `Game.validate_options`).

    GameError names the bad option; one that belongs to other games says so and which
    flag to drop (`komi is a Tak rule; trike has none (drop --komi)`).
    """
    cls = game_class(game)
    try:
        checked = cls.validate_options(rules)
        cls.new(checked)  # what only a game can check (e.g. Traxit's list of tiles)
        return checked
    except OptionError as exc:
        key = exc.option.strip().lower()
        if key in {spec.name for spec in cls.option_specs()}:
            raise
        owners = [
            name.capitalize()
            for name in GAME_NAMES
            if name != cls.name and key in {s.name for s in game_class(name).option_specs()}
        ]
        if not owners:
            raise
        flag = FLAGS.get(key, f"--rule {key}=...")
        raise OptionError(
            f"{key} is a {' and '.join(owners)} rule; {cls.name} has none (drop {flag})",
            exc.option,
            exc.value,
        ) from None


def checked_game_options(args: argparse.Namespace) -> dict[str, str]:
    """`game_options(args)` validated for `args.game`; a usage error (exit 2) if bad."""
    try:
        return check_game_options(args.game, game_options(args))
    except GameError as exc:
        _usage_error(str(exc), getattr(args, "command", None))


def game_options(args: argparse.Namespace) -> dict[str, str]:
    """The rules options (strings, as every core takes them) from parsed arguments."""
    options: dict[str, str] = {}
    if getattr(args, "size", None) is not None:
        options["size"] = str(args.size)
    komi = getattr(args, "komi", None)
    if komi is not None:
        options["komi"] = komi
    if getattr(args, "players", None) is not None:
        options["players"] = str(args.players)
    if getattr(args, "teams", False):
        options["teams"] = "true"
    if getattr(args, "short_game", False):
        options["shortgame"] = "true"
    for item in getattr(args, "rule", []) or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            _usage_error(f"--rule {item!r} is not KEY=VALUE", getattr(args, "command", None))
        options[key.strip().lower()] = value.strip()
    return options
