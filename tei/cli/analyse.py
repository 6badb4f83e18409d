"""`tei analyse`: annotate finished games with any TEI engine. See docs/analyse.md."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, ClassVar, TextIO

import attrs
import trio

from adapters.analyse.judge import BLUNDER, INACCURACY, MISTAKE, Eval, Thresholds
from adapters.analyse.records import AnalyseError, GameText, RecordError, positions, read_games
from adapters.analyse.review import review, summary_line, wanted
from adapters.analyse.runner import Job, analyse_positions
from adapters.analyse.state import AnalyseState, StateWriter, read_state
from adapters.analyse.writer import annotate, spans_notes
from adapters.referee.config import engine_spec, parse_engine_words
from adapters.referee.engines import EngineSpec, MatchError, probe_engines
from adapters.referee.settings import MAX_CONCURRENCY
from tei.cli.config import ConfigError
from tei.cli.engines import read_engines
from tei.cli.fields import add_settings, setting, switch
from tei.cli.match_options import resolve_named
from tei.cli.options import (
    GameOptions,
    checked_game_options,
    seconds_option,
    set_epilog,
    usage_error,
    words_option,
)
from tei.driver import Limits
from tei.values import int_in

EPILOG = """\
--engine takes the keys of `tei match --engine` (cmd=, bot=, name=, dir=, arg=,
option.NAME=VALUE, conf=NAME with --engines FILE); --limit takes st=SECONDS, nodes=N
or depth=N (default st=0.5).

examples:
  tei analyse games.ptn --engine bot=search --limit depth=3 --out annotated.ptn
  tei analyse games.ptn --engine cmd=tiltak --limit st=1 --out annotated.ptn \\
      --json summary.json --concurrency 2
  tei analyse games.txt --game trike --engine bot=search --limit nodes=2000 --out a.txt
  tei analyse games.ptn --engine cmd=tiltak --out annotated.ptn --resume
  tei analyse games.ptn --engines engines.toml --engine conf=tiltak --out annotated.ptn
"""

#: the settings that must be the same to resume an analysis
SAME_TO_RESUME = ("games", "game", "rules", "engine", "engines", "limit")


def _mark(flag: str, default: int, mark: str) -> Any:
    return setting(
        flag,
        type=int_in(1),
        default=default,
        metavar="N",
        help=f"a move losing at least N is marked {mark} (default {default})",
    )


@attrs.frozen
class AnalyseOptions:
    TITLE: ClassVar[str] = ""

    games: str = setting("games", metavar="GAMES", help="the record file (PTN for Tak)")
    engine: list[str] = words_option("--engine", help="the engine (keys below)", required=True)
    engines: str | None = setting(
        "--engines",
        metavar="FILE",
        help="the named-engines file (TOML, as for tei match) that conf=NAME reads",
    )
    limit: list[str] = words_option(
        "--limit",
        help="the search per position: st=SECONDS, nodes=N or depth=N (default st=0.5)",
        default=["st=0.5"],
    )
    out: str = setting("--out", required=True, metavar="OUT", help="the annotated records")
    json: str | None = setting("--json", metavar="FILE", help="a summary per game and player")
    concurrency: int = setting(
        "--concurrency",
        type=int_in(1, MAX_CONCURRENCY),
        default=1,
        metavar="N",
        help=f"engine processes at once, 1..{MAX_CONCURRENCY} (default 1)",
    )
    timeout: float = seconds_option(
        "--timeout",
        help="how much longer than its limit an engine may take per position before it is"
        " restarted (default 30)",
        default=30.0,
    )


@attrs.frozen
class MarkOptions:
    TITLE: ClassVar[str] = "marks (lost value in the engine's unit: centi-flats)"

    inaccuracy: int = _mark("--inaccuracy", INACCURACY, "?!")
    mistake: int = _mark("--mistake", MISTAKE, "?")
    blunder: int = _mark("--blunder", BLUNDER, "??")


@attrs.frozen
class ResumeOption:
    TITLE: ClassVar[str] = ""

    resume: bool = switch(
        "--resume", help="continue the analysis of the same command from its state file OUT.state"
    )


#: `tei analyse`'s settings, in the order of its help
SETTINGS = (AnalyseOptions, MarkOptions, ResumeOption, GameOptions)


def configure(parser: argparse.ArgumentParser) -> None:
    set_epilog(parser, EPILOG)
    add_settings(parser, SETTINGS)


def settings_of(args: argparse.Namespace) -> dict[str, Any]:
    """The settings of the analysis, JSON-able (kept in the state file)."""
    return {
        "games": str(Path(args.games).resolve()),
        "game": args.game,
        "rules": checked_game_options(args),
        "engine": list(args.engine),
        "engines": None if args.engines is None else str(Path(args.engines).resolve()),
        "limit": list(args.limit),
    }


def spec_of(settings: dict[str, Any]) -> tuple[EngineSpec, Limits]:
    """The engine and the limits of each search; MatchError naming a bad key."""
    entry = parse_engine_words(settings["engine"])
    if "conf" in entry:
        path = settings.get("engines")
        try:
            engines = None if path is None else read_engines(Path(path))
            entry = resolve_named(entry, engines, lambda why, *_: why, {}, settings["game"], 1)
        except ConfigError as exc:
            raise MatchError(str(exc)) from None
    limit = parse_engine_words(settings["limit"])
    unknown = set(limit) - {"st", "nodes", "depth"}
    if unknown or not limit:
        raise MatchError(f"--limit takes st=SECONDS, nodes=N or depth=N, not {settings['limit']}")
    entry.update(limit)
    spec = engine_spec(entry, settings["game"], 1)
    control = spec.control
    limits = Limits(movetime=control.movetime_ms, nodes=control.nodes, depth=control.depth)
    return spec, limits


class Progress:
    """A progress bar on a terminal (nothing elsewhere) and lines printed above it."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.done = total, 0
        self.stream = stream
        self.bar = stream.isatty()

    def step(self) -> None:
        self.done += 1
        self.draw()

    def draw(self) -> None:
        if self.bar and self.total:
            filled = 30 * self.done // self.total
            bar = "#" * filled + "-" * (30 - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} positions")
            self.stream.flush()

    def line(self, text: str) -> None:
        if self.bar:
            self.stream.write("\r\x1b[K")
        print(text, file=self.stream, flush=True)
        self.draw()

    def end(self) -> None:
        if self.bar and self.total:
            self.stream.write("\n")


def run(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    out, state_path = Path(args.out), Path(args.out + ".state")
    thresholds = Thresholds(args.inaccuracy, args.mistake, args.blunder)
    if not thresholds.inaccuracy <= thresholds.mistake <= thresholds.blunder:
        return usage_error("analyse", "need --inaccuracy <= --mistake <= --blunder")
    try:
        spec, limits = spec_of(settings)
        text = Path(args.games).read_text(encoding="utf-8")
    except MatchError as exc:
        return usage_error("analyse", exc)
    except (OSError, UnicodeDecodeError) as exc:
        return usage_error("analyse", f"cannot read {args.games}: {exc}")
    digest = hashlib.sha256(text.encode()).hexdigest()
    try:
        previous = resumed(state_path, settings, digest) if args.resume else None
    except AnalyseError as exc:
        return usage_error("analyse", exc)
    if previous is None and state_path.exists():
        return usage_error(
            "analyse", f"{state_path} exists: add --resume to continue it, or remove it"
        )
    if previous is not None:
        print(f"resuming {state_path}: {len(previous.evals)} positions done", file=sys.stderr)
    games = read_games(text, settings["game"], settings["rules"])
    for bad in games:
        if isinstance(bad, RecordError):
            print(f"{args.games}:{bad.line}: game {bad.number}: {bad.why}", file=sys.stderr)
    good = [g for g in games if isinstance(g, GameText)]
    try:
        trio.run(_probe, spec, settings)
    except MatchError as exc:
        return usage_error("analyse", exc)
    evals = dict(previous.evals) if previous else {}
    states = {g.number: positions(settings["game"], g) for g in good}
    todo = {
        g.number: [p for p in wanted(states[g.number]) if (g.number, p) not in evals] for g in good
    }
    jobs = [
        Job(g.number, ply, states[g.number][ply], tuple(sorted(g.rules.items())))
        for g in good
        for ply in todo[g.number]
    ]
    progress = Progress(len(jobs), sys.stderr)
    writer = StateWriter(state_path, None if previous else settings, digest)
    reviews: dict[int, dict[str, Any]] = {}
    by_number = {g.number: g for g in good}

    def finished(number: int) -> None:
        record = by_number[number]
        found = {p: evals[(number, p)] for p in wanted(states[number]) if (number, p) in evals}
        done = review(record, states[number], found, thresholds)
        reviews[number] = {"review": done}
        progress.line(summary_line(done.summary))

    def on_eval(job: Job, found: Eval) -> None:
        if found.unanalysed is None:
            writer.eval(job.game, job.ply, found)
        evals[(job.game, job.ply)] = found
        todo[job.game].remove(job.ply)
        progress.step()
        if not todo[job.game]:
            finished(job.game)

    for number, left in todo.items():
        if not left:
            finished(number)
    try:
        trio.run(
            lambda: analyse_positions(
                jobs,
                spec,
                limits,
                game=settings["game"],
                concurrency=args.concurrency,
                timeout=args.timeout,
                on_eval=on_eval,
            )
        )
    except BaseException as exc:
        if not interrupted(exc):
            raise
        progress.end()
        writer.close()
        print(
            f"tei analyse: interrupted after {progress.done} of {progress.total} positions;"
            f" the state is in {state_path}: run the same command with --resume",
            file=sys.stderr,
        )
        return 130
    progress.end()
    writer.close()
    notes = {}
    for number, entry in reviews.items():
        notes.update(spans_notes(by_number[number].spans, entry["review"].notes))
    summaries = [reviews[g.number]["review"].summary for g in good]
    errors = [
        {"game": bad.number, "line": bad.line, "error": bad.why}
        for bad in games
        if isinstance(bad, RecordError)
    ]
    try:
        out.write_text(annotate(text, notes), encoding="utf-8")
        if args.json:
            data = {"settings": settings, "games": summaries, "errors": errors}
            Path(args.json).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        return usage_error("analyse", f"cannot write: {exc}")
    complete = all(e.unanalysed is None for e in evals.values())
    if complete:
        state_path.unlink(missing_ok=True)
    unjudged = sum(s["unanalysed"] for s in summaries)
    print(
        f"tei analyse: {len(good)} games written to {out}"
        + (f", {len(errors)} records not analysed" if errors else "")
        + (f", {unjudged} moves unjudged (--resume retries them)" if not complete else ""),
        file=sys.stderr,
    )
    return 1 if errors else 0


def interrupted(exc: BaseException) -> bool:
    """A Ctrl-C, alone or in trio's exception group (the workers stopped by it)."""
    if isinstance(exc, BaseExceptionGroup):
        return exc.split(KeyboardInterrupt)[1] is None
    return isinstance(exc, KeyboardInterrupt)


async def _probe(spec: EngineSpec, settings: dict[str, Any]) -> None:
    await probe_engines([spec], settings["game"], settings["rules"], transcript=None, timeout=30)


def resumed(path: Path, settings: dict[str, Any], digest: str) -> AnalyseState | None:
    """The state to resume (None when there is no state file); AnalyseError when it is of
    another analysis (the message names what differs)."""
    if not path.exists():
        return None
    state = read_state(path)
    for key in SAME_TO_RESUME:
        if state.settings.get(key) != settings.get(key):
            raise AnalyseError(
                f"{path} is of another analysis: its {key} is {state.settings.get(key)!r},"
                f" not {settings.get(key)!r}"
            )
    if state.input_sha256 != digest:
        raise AnalyseError(f"{settings['games']} changed since {path} was written")
    return state
