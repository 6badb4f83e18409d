"""`tei match`'s command line: its options (each a key of its TOML config file, from the
same declaration; a setting's default, range and choices from the match's settings,
`adapters.referee.settings`), the demonstration match, and the settings dict a match is
built from (kept in the state file for resuming)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

import attrs

from adapters.referee.config import engine_spec, merge_engine, parse_engine_words
from adapters.referee.engines import MatchError
from adapters.referee.settings import DECLARED, DEFAULTS, named
from bots.registry import bot_names
from tei.cli.config import Command, Settings
from tei.cli.engines import EngineFile, read_engines
from tei.cli.fields import setting, switch
from tei.cli.options import GameOptions, game_options, live_view_options, path_option, words_option

EPILOG = """\
engine keys (for --engine and --each):
  cmd=COMMAND        the engine's command line (quote it when it has spaces)
  bot=NAME           a built-in bot instead of cmd (run as `tei engine --bot NAME`)
  conf=NAME          the engine NAME of the --engines file (keys given here win)
  name=NAME          name in records and tables (default: the command's or bot's name)
  dir=PATH           working directory;  arg=WORD  one more argument (repeatable)
  option.NAME=VALUE  a TEI option the engine declares (repeatable)
  tc=BASE+INC        clock in seconds, e.g. tc=10+0.1 or tc=1:30+1; tc=inf for none
  st=S              fixed time per move;  nodes=N  depth=N  passed on to `go`
  margin=MS          how far past its time a move may arrive (default 50)
  restart=on         a fresh process for every game (default auto: after a fault)

examples:
  tei match
  tei match --engine bot=search --engine bot=greedy --each tc=5+0.1 --games 10
  tei match --engine cmd="tiltak" option.Hash=256 --engine cmd=./mybot --each tc=60+1 \\
      --size 6 --komi 2 --games 100 --concurrency 4 --openings book.txt --ptnout out.ptn
  tei match --engines engines.toml --engine conf=tiltak --engine conf=mybot --games 20
  tei match --game traxit --players 3 --engine bot=search --engine bot=random \\
      --engine bot=random --games 6
  tei match --engine bot=search --engine bot=greedy --each st=0.1 --games 20 \\
      --resign movecount=3 score=600 --tinue-adjudication plies=5
  tei match --config match.toml --games 4 --print-config
  tei match --resume out.ptn.state

Every option but --resume and --force is also a key of the --config file (its long name without
the dashes; a repeatable option takes a list of what the option takes, one plain value
being a list of one): engine = ["bot=search name=a", "cmd=./mybot name=b"],
each = ["tc=10+0.1"], games = 20, ptnout = "games.ptn". The command line overrides
the file (an option given there replaces the file's list). See docs/referee.md.
"""

#: the source --print-config names for the demonstration match's settings
DEMO_SOURCE = "the demonstration match (no engine given)"


def _known(flag: str, help: str, metavar: str | None = None) -> Any:
    """The option of the match setting of its name (`adapters.referee.settings`): its
    default, its choices and, for a number, its range-checked type are the setting's."""
    name = flag[2:].replace("-", "_")
    declared = DECLARED[name]
    if declared.number is not None:
        metavar = metavar or "N"
    return setting(
        flag,
        type=declared.number,
        choices=declared.choices,
        default=DEFAULTS[name],
        metavar=metavar,
        help=help,
    )


@attrs.frozen
class EngineOptions:
    TITLE: ClassVar[str] = "engines"

    engine: list[list[str]] | None = setting(
        "--engine",
        action="append",
        nargs="+",
        metavar="KEY=VALUE",
        help="an engine of the match (repeat for each engine); keys below",
    )
    each: list[str] | None = words_option("--each", help="keys shared by every engine")
    engines_file: Path | None = path_option(
        "--engines",
        help="named engines for conf=NAME (TOML, one table per engine: docs/engines.toml)",
    )


@attrs.frozen
class ScheduleOptions:
    TITLE: ClassVar[str] = "schedule"

    tournament: str = _known("--tournament", "default: round-robin")
    games: int = _known("--games", "games per encounter and round (default 2: a pair)")
    rounds: int = _known("--rounds", "rounds (default 1)")
    concurrency: int = _known("--concurrency", "games played at once (default 1)")
    cluster: str | None = setting(
        "--cluster",
        metavar="ADDRESS",
        help="play the games on a Dask cluster: tcp://HOST:8786 (a running `dask scheduler`)"
        " or local[:N] (N worker processes on this machine, listening on 127.0.0.1 only);"
        " whoever reaches a scheduler runs code on its workers; needs tei-host[cluster]",
    )
    openings: list[Path] | None = setting(
        "--openings", nargs="+", type=Path, metavar="FILE", help="opening book file(s)"
    )
    openings_format: str = _known("--openings-format", "book format (default: auto, from the file)")
    openings_order: str = _known("--openings-order", "default: sequential")
    openings_start: int = _known("--openings-start", "first book entry used (0-based)")
    openings_plies: int | None = _known(
        "--openings-plies", "play at most this many actions of each opening"
    )
    seed: int | None = _known("--seed", "seed of the random opening order")


@attrs.frozen
class JudgingOptions:
    TITLE: ClassVar[str] = "judging and time"

    max_plies: int = _known(
        "--max-plies", "adjudicate a draw after this many plies (default 1000; 0 = never)"
    )
    grace: float = _known("--grace", "seconds to wait for bestmove after stop (default 1)", "S")
    timeout: float = _known(
        "--timeout",
        "watchdog seconds: handshake, isready, moves without a time limit (default 60)",
        "S",
    )
    sprt: list[str] | None = words_option(
        "--sprt",
        help="stop at an SPRT bound: elo0= elo1= [alpha=0.05] [beta=0.05] [model=pentanomial]",
    )
    resign: list[str] | None = words_option(
        "--resign",
        help="adjudicate a loss by the engines' scores: movecount=N score=CP [twosided=true]",
    )
    draw: list[str] | None = words_option(
        "--draw", help="adjudicate a draw by the engines' scores: movenumber=N movecount=M score=CP"
    )
    tinue_adjudication: list[str] | None = setting(
        "--tinue-adjudication",
        nargs="*",
        metavar="plies=K",
        help="Tak: a proven forced road within K plies (default 5) wins the game",
    )


@attrs.frozen
class OutputOptions:
    TITLE: ClassVar[str] = "output"

    records: Path | None = path_option("--ptnout", "--pgnout", help="append game records here")
    log: Path | None = path_option(
        "--log",
        help="append all engine traffic here (as tei engine and tei serve --log; "
        "tei playtak --log is its whole log)",
    )
    json: Path | None = path_option("--json", help="write a machine-readable summary here")
    state: Path | None = path_option(
        "--state", help="state file for resuming (default: RECORDS.state when --ptnout is given)"
    )
    resume: str | None = setting(
        "--resume",
        metavar="FILE",
        setting=False,
        help="continue the match saved in this state file (a line of another match or a game"
        " outside its schedule is refused, exit 2; complete records are never removed)",
    )
    force: bool = switch(
        "--force",
        setting=False,
        help="start a new match even when the state file holds an unfinished one (it is"
        " replaced; without --force that is refused, exit 2)",
    )
    event: str = _known("--event", 'PTN Event tag (default "tei match")')
    site: str = _known("--site", 'PTN Site tag (default "local")')
    quiet: bool = switch("--quiet", help="print only the final table")


#: `tei match`'s settings, in the order of its help and of --print-config
SETTINGS = (
    GameOptions,
    EngineOptions,
    ScheduleOptions,
    JudgingOptions,
    OutputOptions,
    live_view_options("the match (boards, clocks, engine output, standings, records)"),
)


def demo_values(game: str = "tak") -> dict[str, Any]:
    """The match `tei match` plays with no engines, by dest: two built-in bots, four
    games (search against greedy when both exist), two at once on two processors."""
    names = set(bot_names(game))
    if {"search", "greedy"} <= names:
        pair = ["search", "greedy"]
    elif "search" in names:
        pair = ["search", "random"]
    else:
        pair = ["random", "random"]
    return {
        "engine": [[f"bot={pair[0]}"], [f"bot={pair[1]}"]],
        "each": ["tc=2+0.05"],
        "games": 4,
        "concurrency": 2 if (os.cpu_count() or 1) >= 2 else 1,
    }


def with_demo(merged: Settings) -> Settings:
    """The settings, the demonstration match filling what is not given when no engine is."""
    if merged.given("engine"):
        return merged
    return merged.fill(demo_values(str(merged.values["game"])), DEMO_SOURCE)


def settings_of(merged: Settings) -> dict[str, Any]:
    """The match's settings dict (as the state file keeps it) from the merged settings;
    MatchError names a bad engine spec (and the file's line when the file gave it)."""
    values = merged.values
    engines = None if values["engines_file"] is None else read_engines(values["engines_file"])
    settings: dict[str, Any] = {key: values[key] for key in named("value") if key in values}
    settings["rules"] = game_options(argparse.Namespace(**values, command="match"))
    try:
        each = parse_engine_words(values["each"] or [])
        entries = [parse_engine_words(words) for words in values["engine"]]
    except MatchError as exc:
        raise MatchError(merged.blame(exc, "engine", "each")) from None
    if "conf" in each:
        raise MatchError(merged.blame("conf=NAME names one engine: give it in --engine", "each"))
    settings["each"] = each
    settings["engines"] = [
        resolve_named(entry, engines, merged.blame, each, str(values["game"]), number)
        for number, entry in enumerate(entries, 1)
    ]
    for key in named("words"):
        words = values[key]
        settings[key] = None if words is None else " ".join(words)
    for key in named("path"):
        settings[key] = None if values[key] is None else str(values[key])
    for key in named("paths"):
        settings[key] = [str(path) for path in values[key] or []]
    return anchored({**DEFAULTS, **settings})


def resolve_named(
    entry: Mapping[str, Any],
    engines: EngineFile | None,
    blame: Callable[..., str],
    each: Mapping[str, Any],
    game: str,
    number: int,
) -> dict[str, Any]:
    """An engine entry with its `conf=NAME` resolved: the named engine's keys under its
    own; MatchError names the engines file, the line and the engine when they are bad."""
    conf = entry.get("conf")
    if conf is None:
        return dict(entry)
    if engines is None:
        why = f"conf={conf}: give the engines file too (--engines FILE)"
        raise MatchError(blame(why, "engine"))
    named = engines.get(conf)
    resolved = merge_engine(named.entry, {k: v for k, v in entry.items() if k != "conf"})
    try:
        engine_spec(merge_engine(each, resolved), game, number)
    except MatchError as exc:
        raise MatchError(f"{named.place()}: {exc}") from None
    return resolved


def anchored(settings: dict[str, Any]) -> dict[str, Any]:
    """Settings that mean the same from any directory (they are kept for resuming): file
    paths made absolute, and engines given the current directory unless they have one."""
    out = dict(settings)
    for key in named("path"):
        if out.get(key):
            out[key] = os.path.abspath(out[key])
    for key in named("paths"):
        out[key] = [os.path.abspath(p) for p in out.get(key) or []]
    each = dict(out.get("each") or {})
    each["dir"] = os.path.abspath(each.get("dir") or os.getcwd())
    out["each"] = each
    out["engines"] = [
        {**entry, "dir": os.path.abspath(entry["dir"])} if entry.get("dir") else entry
        for entry in out.get("engines") or []
    ]
    return out


#: `tei match`'s options and the keys of its config file, from one declaration
COMMAND = Command.of(SETTINGS, EPILOG, "match settings")
configure = COMMAND.configure
option_table = COMMAND.table
