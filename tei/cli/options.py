"""Command-line pieces shared by subcommands: which game and its rules options, the
repeatable NAME=VALUE options, the engine command after `--`, and usage errors.

Every subcommand reads the rules options the same way: `GameOptions` declares them and
gathers them from the flags, `tei.game_rules.check_game_options` validates them against
the game's option specs (the one validation, also used by `tei match` for its config
files and state).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, NoReturn

import attrs

from adapters.web.options import DEFAULT_MAX_WATCHERS
from rules.game import Game, GameError
from rules.registry import GAME_NAMES, game_class
from tei.cli.fields import flags, of, setting, switch
from tei.game_rules import FLAGS, check_game_options
from tei.values import POSITIVE_SECONDS, UsageError, int_in, split_pair


def set_epilog(parser: argparse.ArgumentParser, text: str) -> None:
    """`text` after the options in --help, printed as written (its examples keep their lines)."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = text


def list_option(flag: str, help: str, metavar: str = "NAME=VALUE") -> Any:
    """A field: a repeatable option, a list of the values given (by default `NAME=VALUE`
    words: see `tei.values.split_pair`)."""
    return setting(flag, action="append", default=[], metavar=metavar, help=help)


def repeat_option(flag: str, help: str, metavar: str) -> Any:
    """A field: a repeatable option, the list of the values given (None when none is)."""
    return setting(flag, action="append", metavar=metavar, help=help)


def count_option(
    flag: str, low: int, help: str, *, default: int | None = None, metavar: str = "N"
) -> Any:
    """A field: an integer option of at least `low`; a smaller value or a word is a usage
    error that names the option and the bound (`tei.values.int_in`)."""
    return setting(flag, type=int_in(low), default=default, metavar=metavar, help=help)


def seconds_option(
    flag: str,
    help: str,
    *,
    default: float | None = None,
    type: Callable[[str], float] = POSITIVE_SECONDS,
) -> Any:
    """A field: a time in seconds (`S`), more than 0 unless `type` says otherwise."""
    return setting(flag, type=type, default=default, metavar="S", help=help)


def words_option(flag: str, help: str, **flag_words: Any) -> Any:
    """A field: one option of several KEY=VALUE words (`--each tc=10 st=1`)."""
    return setting(flag, nargs="+", metavar="KEY=VALUE", help=help, **flag_words)


def path_option(*names: str, help: str, metavar: str = "FILE") -> Any:
    """A field: a file or folder (a relative one in a config file is taken from the
    file's folder)."""
    return setting(*names, type=Path, metavar=metavar, help=help)


def bot_option(help: str) -> Any:
    """A field: --bot NAME, the built-in bot (or module:Class) a command runs."""
    return setting("--bot", metavar="NAME", help=help)


def moves_option() -> Any:
    """A field: --moves, actions played from the position before anything else."""
    return setting(
        "--moves", default="", help="actions to play from the position first, space-separated"
    )


def engine_command_option(metavar: str, help: str) -> Any:
    """A field: the engine's command line as the last arguments, after `--`."""
    return setting("engine", nargs=argparse.REMAINDER, metavar=metavar, help=help)


@attrs.frozen
class GameOptions:
    """--game and its rules options: every command that plays a game has them."""

    TITLE: ClassVar[str] = "game"

    game: str = setting("--game", default="tak", choices=GAME_NAMES, help="game (default: tak)")
    size: int | None = setting(
        "--size",
        type=int,
        metavar="N",
        help="board size: Tak 3-8 (default 5), Trike side 3-19 (default 13)",
    )
    komi: str | None = setting("--komi", help="Tak komi in flats, a multiple of 0.5 (default 0)")
    players: int | None = setting(
        "--players", type=int, metavar="N", help="Traxit players 2-4 (default 2)"
    )
    teams: bool = switch("--teams", help="Traxit team play (2 against 2: means --players 4)")
    short_game: bool = switch("--short-game", help="Traxit short game: 3 sets of 3 rounds")
    rule: list[str] = list_option(
        "--rule",
        "any other rules option of the game core (repeatable), e.g. flats=25",
        metavar="KEY=VALUE",
    )

    def rules(self) -> dict[str, str]:
        """The rules options (strings, as every core takes them), each flag under its rules
        name (`tei.game_rules.FLAGS`); UsageError names a bad --rule."""
        name_of = {flag: name for name, flag in reversed(FLAGS.items())}
        out: dict[str, str] = {}
        for field, flag in flags(GameOptions):
            name, value = name_of.get(flag.names[0]), getattr(self, field.name)
            if name is not None and value is not None and value is not False:
                out[name] = "true" if value is True else str(value)
        for item in self.rule:
            key, value = split_pair(item, "--rule", "KEY=VALUE")
            out[key.lower()] = value
        return out


def usage_error(command: str | None, message: object) -> int:
    """`tei COMMAND: message` on stderr; returns 2, the exit status of a usage error."""
    print(f"tei {command}: {message}" if command else f"tei: {message}", file=sys.stderr)
    return 2


def _usage_error(message: str, command: str | None = None) -> NoReturn:
    """A bad command-line value: the message on stderr and exit status 2, as argparse does."""
    raise SystemExit(usage_error(command, message))


def engine_command(args: argparse.Namespace) -> list[str]:
    """The engine command line given after `--` (empty if none)."""
    argv = list(args.engine)
    return argv[1:] if argv[:1] == ["--"] else argv


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
    """The rules options (strings, as every core takes them) from parsed arguments; a bad
    --rule is a usage error (exit 2)."""
    try:
        return of(GameOptions, args).rules()
    except UsageError as exc:
        _usage_error(str(exc), getattr(args, "command", None))


def live_view_options(shows: str) -> type:
    """The settings class of the live view's options (`tei match`, `tei playtak`): `--live
    [HOST:]PORT`, `--live-public`, `--live-max-watchers` (read by
    adapters.web.options.live_address); `shows` says what the page shows."""

    @attrs.frozen
    class LiveViewOptions:
        TITLE: ClassVar[str] = "live view"

        live: str | None = setting(
            "--live",
            metavar="[HOST:]PORT",
            help=f"serve a live web view of {shows} on this address (host default 127.0.0.1,"
            " port 0 picks a free one); read-only and unauthenticated (docs/live.md)",
        )
        live_public: bool = switch(
            "--live-public",
            help="allow --live on a non-loopback address (anyone who reaches it can watch)",
        )
        live_max_watchers: int = setting(
            "--live-max-watchers",
            type=_watchers,
            default=DEFAULT_MAX_WATCHERS,
            metavar="N",
            help=f"watchers served at once (default {DEFAULT_MAX_WATCHERS}); more are answered"
            " 503 (busy)",
        )

    return LiveViewOptions


def _watchers(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= 10000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of watchers (1-10000)")
    return int(text)
