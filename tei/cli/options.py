"""Command-line pieces shared by subcommands: which game and its rules options, the
repeatable NAME=VALUE options, the engine command after `--`, and usage errors.

Every subcommand reads the rules options the same way: `game_options` gathers them from
the flags, `tei.game_rules.check_game_options` validates them against the game's option
specs (the one validation, also used by `tei match` for its config files and state).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from adapters.web.options import DEFAULT_MAX_WATCHERS
from rules.game import Game, GameError
from rules.registry import GAME_NAMES, game_class
from tei.cli.keys import Container, Parser
from tei.game_rules import check_game_options
from tei.values import UsageError, int_in, split_pair


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


def add_count(
    group: Container,
    flag: str,
    low: int,
    help: str,
    *,
    default: int | None = None,
    metavar: str = "N",
) -> None:
    """Declare an integer option of at least `low`: a smaller value or a word is a usage
    error that names the option and the bound (`tei.values.int_in`)."""
    group.add_argument(flag, type=int_in(low), default=default, metavar=metavar, help=help)


def add_live_options(parser: Parser, what: str) -> None:
    """The live view's options (`tei match`, `tei playtak`) in their own group: `--live
    [HOST:]PORT`, `--live-public`, `--live-max-watchers` (read by
    adapters.web.options.live_address); `what` says what the page shows."""
    group = parser.add_argument_group("live view")
    group.add_argument(
        "--live",
        metavar="[HOST:]PORT",
        help=f"serve a live web view of {what} on this address (host default 127.0.0.1,"
        " port 0 picks a free one); read-only and unauthenticated (docs/live.md)",
    )
    group.add_argument(
        "--live-public",
        action="store_true",
        help="allow --live on a non-loopback address (anyone who reaches it can watch)",
    )
    group.add_argument(
        "--live-max-watchers",
        type=_watchers,
        default=DEFAULT_MAX_WATCHERS,
        metavar="N",
        help=f"watchers served at once (default {DEFAULT_MAX_WATCHERS}); more are answered"
        " 503 (busy)",
    )


def _watchers(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= 10000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of watchers (1-10000)")
    return int(text)
