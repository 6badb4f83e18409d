"""`tei engine`: serve a built-in bot as a TEI engine on stdin/stdout."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from typing import BinaryIO, ClassVar, TextIO

import attrs

from bots.registry import bot_names, default_bot
from rules.registry import GAME_NAMES
from tei.cli import build_line
from tei.cli.fields import add_settings, setting, switch
from tei.cli.options import (
    GameOptions,
    bot_option,
    checked_game_options,
    list_option,
    seconds_option,
    set_epilog,
    usage_error,
)
from tei.errors import OptionValueError
from tei.host.loop import serve
from tei.host.state import HostConfig, HostSetupError, HostState
from tei.values import UsageError, float_in, split_pair

EPILOG = """\
The engine speaks legacy TEI (what Tiltak, Taktician and racetrack speak) and accepts
TEI v1 commands too. It declares the options of the game it serves (--game; Tak:
HalfKomi, Flats, Caps; Traxit: Players, Teams, ShortGame, ...; see docs/rules.md), for
Trike and Traxit also the option Game with that one game, and the options of the bot.
The game options (--size, --komi, --rule, ...) set their defaults and are checked at start.

examples:
  tei engine                          Tak, strongest built-in bot
  tei engine --game trike --bot random
  tei engine --option HalfKomi=4 --log /tmp/traffic.log
  PYTHONPATH=. tei engine --bot my_bot:MyBot
"""


@attrs.frozen
class EngineOptions:
    TITLE: ClassVar[str] = ""

    bot: str | None = bot_option(
        "the bot to serve: a built-in name (see --list) or module:Class naming any Bot "
        "subclass importable from PYTHONPATH (default: the strongest built-in bot per game)"
    )
    option: list[str] = list_option(
        "--option", "set a TEI option before the session starts, e.g. HalfKomi=4 (repeatable)"
    )
    log: str | None = setting(
        "--log",
        metavar="FILE",
        help="append all traffic to FILE ('>' received, '<' sent), as tei match, check and "
        "serve --log do (tei playtak --log is its whole log)",
    )
    strict: bool = switch(
        "--strict",
        help="when the bot fails (raises, returns something that is not a legal action, or "
        "overruns its time), write the traceback or the bad value on stderr and exit with "
        "status 1 (default: answer with a stand-in move, after an 'info string error: bot "
        "failed: ...' or 'bot overran its time: ...' line)",
    )
    overrun_grace: float | None = setting(
        "--overrun-grace",
        type=float_in(0),
        metavar="MS",
        help="wait for the bot's own move until the move's whole time (movetime, or the "
        "side's clock) plus MS milliseconds before answering for it with 'bot overran its "
        "time' (default: the host's own deadline, just within the movetime or at a share "
        "of the clock); tei match gives its built-in bots their margin= this way",
    )
    tei_v1: bool = switch(
        "--tei-v1",
        help="also announce TEI v1 'size ... halfkomi ...' lines (v1 commands are always read)",
    )
    limit_cap: float | None = seconds_option(
        "--limit-cap",
        help="stop a 'go depth'/'go nodes' search (one with no clock or movetime) after "
        "S seconds, as if 'stop' had come (default: no cap: the bot ends it, and the host "
        "stops it once its reports show the limit reached)",
    )
    name: str = setting(
        "--name", default="tei-host", help="engine name for 'id name' (default: tei-host)"
    )
    list: bool = switch("--list", help="list the games and bots available and exit")


#: `tei engine`'s settings, in the order of its help
SETTINGS = (EngineOptions, GameOptions)


def configure(parser: argparse.ArgumentParser) -> None:
    set_epilog(parser, EPILOG)
    add_settings(parser, SETTINGS)


def _list() -> int:
    for game in GAME_NAMES:
        try:
            names = bot_names(game)
        except Exception:  # a game whose bots cannot be looked up
            names = []
        default = default_bot(game) if names else "-"
        print(f"{game}: {' '.join(names) or '(none)'} (default: {default})")
    return 0


def host_config(args: argparse.Namespace, rules: Mapping[str, str]) -> HostConfig:
    """The host's configuration from the options `tei engine` and `tei serve` share
    (`--game`, `--bot`, the rules options as `rules`, `--tei-v1`, `--name`, and
    `--limit-cap` where the command has it)."""
    return HostConfig(
        limit_cap=getattr(args, "limit_cap", None),
        game=args.game,
        bot=args.bot,
        rules=rules,
        tei_v1=args.tei_v1,
        name=args.name,
        version=build_line(),
        strict=getattr(args, "strict", False),
        overrun_grace_ms=getattr(args, "overrun_grace", None),
    )


def set_options(state: HostState, items: Sequence[str]) -> None:
    """Each `--option NAME=VALUE` set on the host in turn; UsageError names a bad one."""
    for item in items:
        name, value = split_pair(item, "--option")
        try:
            state.set_option(name, value)
        except OptionValueError as exc:
            raise UsageError(f"--option {item!r}: {exc}") from None


def protocol_output() -> BinaryIO:
    """The real stdout, for protocol lines alone: file descriptor 1 is pointed at stderr
    (and `sys.stdout` with it), so nothing a bot writes, by `print` or `os.write(1, ...)`
    or from a C extension, can reach the GUI."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def run(args: argparse.Namespace) -> int:
    if args.list:
        return _list()
    config = host_config(args, checked_game_options(args))
    try:
        state = HostState(config)
        set_options(state, args.option)
    except (HostSetupError, UsageError) as exc:
        return usage_error("engine", exc)
    out = protocol_output()
    log: TextIO | None = None
    if args.log:
        try:
            log = open(args.log, "a", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            return usage_error("engine", f"cannot open log {args.log!r}: {exc}")
    try:
        return serve(state, sys.stdin.buffer, out, log)
    finally:
        if log is not None:
            log.close()
