"""Command-line pieces shared by subcommands: which game and its rules options, the
repeatable NAME=VALUE options, the engine command after `--`, and usage errors.

Every subcommand reads the rules options the same way: `game_options` gathers them from
the flags, `check_game_options` validates them against the game's option specs (the
one validation, also used by `tei match` for its config files and state).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any, NoReturn

from rules.game import Game, GameError, OptionError
from rules.registry import GAME_NAMES, game_class
from tei.cli.keys import Container, Parser
from tei.errors import TeiError

#: rules option -> the flag that sets it (for "drop --komi" hints)
FLAGS = {
    "size": "--size",
    "komi": "--komi",
    "halfkomi": "--komi",
    "players": "--players",
    "teams": "--teams",
    "shortgame": "--short-game",
}


def set_epilog(parser: argparse.ArgumentParser, text: str) -> None:
    """`text` after the options in --help, printed as written (its examples keep their lines)."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = text


def add_game_options(parser: Parser) -> None:
    """--game, --size, --komi, --players, --teams, --short-game, --rule K=V."""
    group = parser.add_argument_group("game")
    group.add_argument("--game", default="tak", choices=GAME_NAMES, help="game (default: tak)")
    group.add_argument(
        "--size",
        type=int,
        metavar="N",
        help="board size: Tak 3-8 (default 5), Trike side 3-19 (default 13)",
    )
    group.add_argument("--komi", help="Tak komi in flats, a multiple of 0.5 (default 0)")
    group.add_argument("--players", type=int, metavar="N", help="Traxit players 2-4 (default 2)")
    group.add_argument(
        "--teams", action="store_true", help="Traxit team play (2 against 2: means --players 4)"
    )
    group.add_argument(
        "--short-game", action="store_true", help="Traxit short game: 3 sets of 3 rounds"
    )
    add_pairs_option(
        group,
        "--rule",
        "any other rules option of the game core (repeatable), e.g. flats=25",
        metavar="KEY=VALUE",
    )


class UsageError(TeiError, ValueError):
    """A bad command-line value; the message names the flag and the value."""


def usage_error(command: str | None, message: object) -> int:
    """`tei COMMAND: message` on stderr; returns 2, the exit status of a usage error."""
    print(f"tei {command}: {message}" if command else f"tei: {message}", file=sys.stderr)
    return 2


def _usage_error(message: str, command: str | None = None) -> NoReturn:
    """A bad command-line value: the message on stderr and exit status 2, as argparse does."""
    raise SystemExit(usage_error(command, message))


def add_pairs_option(
    parser: Container,
    flag: str,
    help: str,
    metavar: str = "NAME=VALUE",
) -> None:
    """A repeatable `flag NAME=VALUE` option (a list of the words given; see `split_pair`)."""
    parser.add_argument(flag, action="append", default=[], metavar=metavar, help=help)


def split_pair(
    item: str, flag: str, form: str = "NAME=VALUE", separator: str = "="
) -> tuple[str, str]:
    """`NAME=VALUE` as its two parts, stripped; UsageError (`--option 'x' is not
    NAME=VALUE`) when the separator or the name is missing."""
    name, sep, value = item.partition(separator)
    if not sep or not name.strip():
        raise UsageError(f"{flag} {item!r} is not {form}")
    return name.strip(), value.strip()


def add_engine_command(parser: argparse.ArgumentParser, metavar: str, help: str) -> None:
    """The engine's command line as the last arguments, after `--`."""
    parser.add_argument("engine", nargs=argparse.REMAINDER, metavar=metavar, help=help)


def engine_command(args: argparse.Namespace) -> list[str]:
    """The engine command line given after `--` (empty if none)."""
    argv = list(args.engine)
    return argv[1:] if argv[:1] == ["--"] else argv


def add_moves_option(parser: argparse.ArgumentParser) -> None:
    """--moves: actions played from the position before anything else."""
    parser.add_argument(
        "--moves", default="", help="actions to play from the position first, space-separated"
    )


def game_at(args: argparse.Namespace, position: str) -> Game[Any]:
    """The game of the command line (--game, its options checked as `checked_game_options`
    does) at `position`, its start when empty, after --moves; GameError names a bad one."""
    options = checked_game_options(args)
    cls = game_class(args.game)
    game = cls.from_position_string(position, options) if position else cls.new(options)
    game.play_all(args.moves.split())
    return game


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
        try:
            key, value = split_pair(item, "--rule", "KEY=VALUE")
        except UsageError as exc:
            _usage_error(str(exc), getattr(args, "command", None))
        options[key.lower()] = value
    return options
