"""`tei match`: play a local match between TEI engines or built-in bots.

With no engine given it plays a short demonstration match between two built-in Tak bots.
See docs/referee.md for every option.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from typing import Any

import trio

from adapters.referee.config import (
    DEFAULTS,
    NUMBERS,
    build_config,
    parse_engine_words,
    read_config_file,
)
from adapters.referee.engines import MatchError
from adapters.referee.report import ConsoleReporter, final_report, write_json
from adapters.referee.runner import Match, MatchProgress
from adapters.referee.schedule import TOURNAMENTS, alignment_warning
from adapters.referee.state import StateError, read_state
from adapters.stream.bus import EventBus
from adapters.stream.events import Event, GameOver
from adapters.stream.live_state import LiveState
from adapters.web.options import (
    LiveAddressError,
    LiveOptions,
    add_live_options,
    live_address,
)
from bots.registry import bot_names
from tei.cli.options import add_game_options, game_options, set_epilog, usage_error
from tei.closed_output import CLOSED_OUTPUT_STATUS, silence

EPILOG = """\
engine keys (for --engine and --each):
  cmd=COMMAND        the engine's command line (quote it when it has spaces)
  bot=NAME           a built-in bot instead of cmd (run as `tei engine --bot NAME`)
  name=NAME          name in records and tables (default: the command's or bot's name)
  dir=PATH           working directory;  arg=WORD  one more argument (repeatable)
  option.NAME=VALUE  a TEI option the engine declares (repeatable)
  tc=BASE+INC        clock in seconds, e.g. tc=10+0.1 or tc=1:30+1; tc=inf for none
  st=SECONDS         fixed time per move;  nodes=N  depth=N  passed on to `go`
  margin=MS          how far past its time a move may arrive (default 50)
  restart=on         a fresh process for every game (default auto: after a fault)

examples:
  tei match
  tei match --engine bot=search --engine bot=greedy --each tc=5+0.1 --games 10
  tei match --engine cmd="tiltak" option.Hash=256 --engine cmd=./mybot --each tc=60+1 \\
      --size 6 --komi 2 --games 100 --concurrency 4 --openings book.txt --ptnout out.ptn
  tei match --game traxit --players 3 --engine bot=search --engine bot=random \\
      --engine bot=random --games 6
  tei match --engine bot=search --engine bot=greedy --each st=0.1 --games 20 \\
      --resign movecount=3 score=600 --tinue-adjudication plies=5
  tei match --resume out.ptn.state
"""


def configure(parser: argparse.ArgumentParser) -> None:
    set_epilog(parser, EPILOG)
    add_game_options(parser)
    parser.set_defaults(game=None)  # so that a config file's game is kept unless given
    eng = parser.add_argument_group("engines")
    eng.add_argument(
        "--engine",
        action="append",
        nargs="+",
        metavar="KEY=VALUE",
        help="an engine of the match (repeat for each engine); keys below",
    )
    eng.add_argument("--each", nargs="+", metavar="KEY=VALUE", help="keys shared by every engine")
    eng.add_argument("--config", metavar="FILE", help="JSON file with the same settings")
    _schedule_options(parser)
    _judging_options(parser)
    _output_options(parser)
    add_live_options(parser, "the match (boards, clocks, engine output, standings, records)")


def _number(group: argparse._ArgumentGroup, flag: str, help: str) -> None:
    """A numeric option, range-checked as its config setting is (`NUMBERS`, by name)."""
    group.add_argument(flag, type=NUMBERS[flag[2:].replace("-", "_")], help=help)


def _schedule_options(parser: argparse.ArgumentParser) -> None:
    sch = parser.add_argument_group("schedule")
    sch.add_argument("--tournament", choices=TOURNAMENTS, help="default: round-robin")
    _number(sch, "--games", "games per encounter and round (default 2: a pair)")
    _number(sch, "--rounds", "rounds (default 1)")
    _number(sch, "--concurrency", "games played at once (default 1)")
    sch.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the games on a Dask cluster: tcp://HOST:8786 (a running `dask scheduler`)"
        " or local[:N] (N worker processes on this machine, listening on 127.0.0.1 only);"
        " whoever reaches a scheduler runs code on its workers; needs tei-host[cluster]",
    )
    sch.add_argument("--openings", nargs="+", metavar="FILE", help="opening book file(s)")
    sch.add_argument(
        "--openings-format",
        choices=("auto", "moves", "position", "tps", "ptn"),
        help="book format (default: auto, from the file)",
    )
    sch.add_argument(
        "--openings-order", choices=("sequential", "random"), help="default: sequential"
    )
    _number(sch, "--openings-start", "first book entry used (0-based)")
    _number(sch, "--openings-plies", "play at most this many actions of each opening")
    _number(sch, "--seed", "seed of the random opening order")


def _judging_options(parser: argparse.ArgumentParser) -> None:
    judge = parser.add_argument_group("judging and time")
    _number(
        judge, "--max-plies", "adjudicate a draw after this many plies (default 1000; 0 = never)"
    )
    _number(judge, "--grace", "seconds to wait for bestmove after stop (default 1)")
    _number(
        judge,
        "--timeout",
        "watchdog seconds: handshake, isready, moves without a time limit (default 60)",
    )
    judge.add_argument(
        "--sprt",
        nargs="+",
        metavar="KEY=VALUE",
        help="stop at an SPRT bound: elo0= elo1= [alpha=0.05] [beta=0.05] [model=pentanomial]",
    )
    judge.add_argument(
        "--resign",
        nargs="+",
        metavar="KEY=VALUE",
        help="adjudicate a loss by the engines' scores: movecount=N score=CP [twosided=true]",
    )
    judge.add_argument(
        "--draw",
        nargs="+",
        metavar="KEY=VALUE",
        help="adjudicate a draw by the engines' scores: movenumber=N movecount=M score=CP",
    )
    judge.add_argument(
        "--tinue-adjudication",
        nargs="*",
        metavar="plies=K",
        help="Tak: a proven forced road within K plies (default 5) wins the game",
    )


def _output_options(parser: argparse.ArgumentParser) -> None:
    out = parser.add_argument_group("output")
    out.add_argument(
        "--ptnout", "--pgnout", dest="records", metavar="FILE", help="append game records here"
    )
    out.add_argument("--log", metavar="FILE", help="append all engine traffic here")
    out.add_argument("--json", metavar="FILE", help="write a machine-readable summary here")
    out.add_argument(
        "--state",
        metavar="FILE",
        help="state file for resuming (default: RECORDS.state when --ptnout is given)",
    )
    out.add_argument(
        "--resume",
        metavar="FILE",
        help="continue the match saved in this state file (a line of another match or a game"
        " outside its schedule is refused, exit 2; complete records are never removed)",
    )
    out.add_argument("--event", help='PTN Event tag (default "tei match")')
    out.add_argument("--site", help='PTN Site tag (default "local")')
    out.add_argument("--quiet", action="store_true", help="print only the final table")


def demo_settings(game: str = "tak") -> dict[str, Any]:
    """The match `tei match` plays with no engines: two built-in bots, four games
    (search against greedy when both exist), with the game's default rules."""
    names = set(bot_names(game))
    if {"search", "greedy"} <= names:
        pair = ["search", "greedy"]
    elif "search" in names:
        pair = ["search", "random"]
    else:
        pair = ["random", "random"]
    return {
        "game": game,
        "rules": {},
        "engines": [{"bot": pair[0]}, {"bot": pair[1]}],
        "each": {"tc": "2+0.05"},
        "games": 4,
        "concurrency": 2 if (os.cpu_count() or 1) >= 2 else 1,
    }


def settings_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """One settings dict from the config file (if any) and the command line over it."""
    settings: dict[str, Any] = read_config_file(args.config) if args.config else {}
    rules = {str(k).lower(): str(v) for k, v in dict(settings.pop("rules", {}) or {}).items()}
    for key in ("size", "players", "komi", "teams"):
        if key in settings:
            rules[key] = settings.pop(key)
    rules.update(game_options(args))
    if args.game is not None:
        settings["game"] = args.game
    if not args.engine and not settings.get("engines"):
        demo = demo_settings(str(settings.get("game", "tak")))
        settings = {**demo, **settings}
        rules = {**demo["rules"], **rules}
    settings["rules"] = rules
    if args.engine:
        settings["engines"] = [parse_engine_words(words) for words in args.engine]
    if args.each:
        settings["each"] = {**dict(settings.get("each") or {}), **parse_engine_words(args.each)}
    for key in ("resign", "draw", "tinue_adjudication"):
        words = getattr(args, key, None)
        if words is not None:
            settings[key] = " ".join(words)
    for key in (
        "tournament",
        "games",
        "rounds",
        "concurrency",
        "cluster",
        "openings",
        "openings_format",
        "openings_order",
        "openings_start",
        "openings_plies",
        "seed",
        "max_plies",
        "grace",
        "timeout",
        "sprt",
        "records",
        "log",
        "json",
        "event",
        "site",
    ):
        value = getattr(args, key, None)
        if value is not None:
            settings[key] = value
    return anchored({**DEFAULTS, **settings})


def anchored(settings: dict[str, Any]) -> dict[str, Any]:
    """Settings that mean the same from any directory (they are kept for resuming): file
    paths made absolute, and engines given the current directory unless they have one."""
    out = dict(settings)
    for key in ("records", "log", "json"):
        if out.get(key):
            out[key] = os.path.abspath(out[key])
    out["openings"] = [os.path.abspath(p) for p in out.get("openings") or []]
    each = dict(out.get("each") or {})
    each["dir"] = os.path.abspath(each.get("dir") or os.getcwd())
    out["each"] = each
    out["engines"] = [
        {**entry, "dir": os.path.abspath(entry["dir"])} if entry.get("dir") else entry
        for entry in out.get("engines") or []
    ]
    return out


def save_json(path: str, progress: MatchProgress) -> bool:
    """Write the JSON summary; a failure is reported and never stops the match."""
    try:
        write_json(path, progress)
    except OSError as exc:
        print(f"tei match: cannot write the summary {path}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def run(args: argparse.Namespace) -> int:
    try:
        if args.resume:
            state = read_state(args.resume)
            settings = dict(state.settings)
            for key in ("concurrency", "cluster", "log", "json", "grace", "timeout"):
                if getattr(args, key, None) is not None:
                    settings[key] = getattr(args, key)
            state_path: str | None = args.resume
        else:
            state = None
            settings = settings_from_args(args)
            state_path = args.state or (
                f"{settings['records']}.state" if settings.get("records") else None
            )
        config = build_config(settings)
        match = Match.open(config, state_path=state_path, resume=state)
    except (MatchError, StateError) as exc:
        return usage_error("match", exc)
    warning = alignment_warning(config.games, len(match.schedule[0].seats))
    if warning and not args.quiet:
        print(f"tei match: warning: {warning}", file=sys.stderr)
    cpus = os.cpu_count() or 1
    if config.concurrency > cpus and not args.quiet:
        print(
            f"tei match: warning: --concurrency {config.concurrency} is more than the"
            f" {cpus} processors; engines will share them and may lose on time",
            file=sys.stderr,
        )
    try:
        live = live_address(args)
    except LiveAddressError as exc:
        return usage_error("match", exc)
    console = ConsoleReporter(sys.stdout, quiet=args.quiet)
    names = " vs ".join(e.name for e in config.engines)
    bus = EventBus(LiveState(title=f"tei match: {names} ({config.game})"))
    closed = False

    def show(event: Event) -> None:
        """The terminal's subscriber; a closed output (`| head`) stops the match at once."""
        nonlocal closed
        if closed:
            return
        try:
            console.on_event(event)
        except BrokenPipeError:
            closed = True
            silence()
            match.halt()

    bus.listen(show)

    if config.json:
        json_path = config.json

        def save_after_each_game(event: Event) -> None:
            if isinstance(event, GameOver):
                save_json(json_path, match.progress)

        bus.listen(save_after_each_game)
    match.publish = bus.publish
    code = 0
    try:
        if live is None:
            trio.run(match.run)
        else:
            run_live(match, bus, live)
    except (MatchError, StateError) as exc:
        console.close()
        return usage_error("match", exc)
    except KeyboardInterrupt:
        code = 130
    except Exception:  # a fault of the referee itself: records are safe, say so loudly
        console.close()
        traceback.print_exc()
        print(final_report(match.progress))
        print("tei match: internal error; finished games are saved", file=sys.stderr)
        return 1
    console.close()
    progress = match.progress
    if closed:
        left = progress.total - len(progress.finished)
        if left and state_path:
            print(
                f"tei match: the output was closed: stopped with {left} games left;"
                f" resume with: tei match --resume {state_path}",
                file=sys.stderr,
            )
        return CLOSED_OUTPUT_STATUS
    print(final_report(progress))
    if config.json and not save_json(config.json, progress):
        code = 1
    if progress.status == "interrupted":
        code = 130
        if state_path:
            print(f"Resume with: tei match --resume {state_path}")
    elif progress.status.startswith("error"):
        code = 1
    return code


def run_live(match: Match, bus: EventBus, live: LiveOptions) -> None:
    """Play the match while serving its live view; a bad address is a MatchError."""
    from adapters.web.live_feed import serve_while

    def announce(url: str) -> None:
        print(f"Live view: {url} (read-only, unauthenticated)", flush=True)

    try:
        trio.run(serve_while, bus, live.host, live.port, match.run, announce, live.max_watchers)
    except LiveAddressError as exc:
        raise MatchError(str(exc)) from None
