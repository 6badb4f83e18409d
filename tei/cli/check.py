"""`tei check ENGINE_CMD...`: run the TEI compliance checks against an engine."""

from __future__ import annotations

import argparse
import json
import sys
from typing import ClassVar, TextIO

import attrs
import trio

from tei.check import CHECKS, SESSION_CHECKS, CheckResult, check_engine, check_names
from tei.cli.fields import add_settings, setting, switch
from tei.cli.options import (
    GameOptions,
    checked_game_options,
    engine_command,
    engine_command_option,
    list_option,
    seconds_option,
    set_epilog,
    usage_error,
)
from tei.closed_output import silence
from tei.lines import printable
from tei.transcript import Transcript

EPILOG = """\
Put the engine command after '--' so that its own options are not read as ours.

examples:
  tei check -- tiltak
  tei check --game trike -- python -m tei engine --game trike
  tei check --size 6 --komi 2 --timeout 10 -v -- ./my-engine --threads 1
  tei check --transcript traffic.log -- taktician tei
  tei check --json -- tiltak > report.json

Checks, in order: handshake, {checks}.
Exit status: 0 when every check run passes, 1 when one fails, 2 on a usage error.
"""


@attrs.frozen
class CheckOptions:
    TITLE: ClassVar[str] = ""

    timeout: float = seconds_option(
        "--timeout",
        help="longest wait for any answer of the engine, in seconds (default: 5)",
        default=5.0,
    )
    start_timeout: float | None = seconds_option(
        "--start-timeout",
        help="longest wait for teiok after each start of the engine (default: --timeout); "
        "for engines that load a lot at start",
    )
    transcript: str | None = setting(
        "--transcript",
        "--log",
        metavar="FILE",
        help="append the full traffic to FILE (time, engine, direction, line), as "
        "--log does in tei match, engine and serve (tei playtak --log is its whole log)",
    )
    verbose: bool = switch(
        "-v",
        "--verbose",
        help="print the traffic live on stderr (tei playtak -v logs it; tei serve -v "
        "logs each session)",
    )
    json: bool = switch(
        "--json",
        help="print one JSON document instead of the text lines: engine, game, rules, "
        "passed, counts and every check's name, status (pass/fail/skip), detail and excerpt",
    )
    skip: list[str] = list_option(
        "--skip",
        "do not run this check (repeatable; quote names with spaces), e.g. "
        "--skip 'bare go + stop' for an engine known to need limits",
        metavar="CHECK",
    )


@attrs.frozen
class EngineCommand:
    TITLE: ClassVar[str] = ""

    engine: list[str] = engine_command_option("ENGINE_CMD", "the engine's command line (after --)")


#: `tei check`'s settings, in the order of its help
SETTINGS = (CheckOptions, GameOptions, EngineCommand)


def configure(parser: argparse.ArgumentParser) -> None:
    names = ", ".join([name for name, _ in CHECKS] + list(SESSION_CHECKS))
    set_epilog(parser, EPILOG.format(checks=names))
    add_settings(parser, SETTINGS)


def print_result(result: CheckResult, out: TextIO) -> None:
    try:
        out.write(printable(result.to_line()) + "\n")  # details quote the engine
        for line in result.excerpt:
            out.write(f"      | {line}\n")
        out.flush()
    except BrokenPipeError:
        silence(out)


def json_report(
    argv: list[str], game: str, rules: dict[str, str], results: list[CheckResult]
) -> dict[str, object]:
    """The whole run as one JSON-ready mapping (what `--json` prints)."""
    counts = {status: 0 for status in ("pass", "fail", "skip")}
    for result in results:
        counts[result.status] += 1
    return {
        "engine": argv,
        "game": game,
        "rules": rules,
        "passed": counts["fail"] == 0,
        "counts": counts,
        "checks": [result.to_json() for result in results],
    }


def run(args: argparse.Namespace) -> int:
    argv = engine_command(args)
    if not argv:
        return usage_error("check", "give the engine command, e.g. 'tei check -- tiltak'")
    unknown = [name for name in args.skip if name not in check_names()]
    if unknown:
        known = ", ".join(check_names())
        return usage_error("check", f"no such check {unknown[0]!r}; checks: {known}")
    rules = checked_game_options(args)
    live: TextIO | None = sys.stderr if args.verbose else None
    try:
        if args.transcript:
            transcript = Transcript.to_file(args.transcript, keep=200_000, also=live)
        else:
            transcript = Transcript(live, keep=200_000)
    except OSError as exc:
        return usage_error("check", f"cannot write {args.transcript}: {exc}")
    out = sys.stdout
    if not args.json:
        try:
            out.write(f"checking {' '.join(argv)} ({args.game})\n")
        except BrokenPipeError:
            silence(out)

    def report(result: CheckResult) -> None:
        if not args.json:
            print_result(result, out)

    async def main() -> list[CheckResult]:
        return await check_engine(
            argv,
            game=args.game,
            rules=rules,
            timeout=args.timeout,
            start_timeout=args.start_timeout,
            transcript=transcript,
            report=report,
            skip=args.skip,
        )

    try:
        results = trio.run(main)
    finally:
        transcript.close()
    failed = [r for r in results if not r.passed]
    if args.json:
        try:
            json.dump(json_report(argv, args.game, rules, results), out, indent=2)
            out.write("\n")
            out.flush()
        except BrokenPipeError:
            silence(out)
        return 1 if failed else 0
    skipped = sum(r.skipped for r in results)
    ran = len(results) - skipped
    note = f" ({skipped} skipped)" if skipped else ""
    try:
        out.write(f"{ran - len(failed)}/{ran} checks passed{note}\n")
        out.flush()
    except BrokenPipeError:
        silence(out)
    return 1 if failed else 0
