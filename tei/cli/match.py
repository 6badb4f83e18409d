"""`tei match`: play a local match between TEI engines or built-in bots.

With no engine given it plays a short demonstration match between two built-in Tak bots.
See docs/referee.md for every option.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path

import trio

from adapters.referee.config import build_config
from adapters.referee.engines import MatchError
from adapters.referee.facts import Status
from adapters.referee.progress import MatchProgress
from adapters.referee.report import ConsoleReporter, final_report, write_json
from adapters.referee.runner import Match
from adapters.referee.schedule import alignment_warning
from adapters.referee.settings import RESUMABLE
from adapters.referee.state import StateError, read_state
from adapters.stream.bus import EventBus
from adapters.stream.events import Event, GameOver
from adapters.stream.live_state import LiveState
from adapters.web.options import (
    LiveAddressError,
    LiveOptions,
    live_address,
)
from tei.cli.config import COMMAND_LINE, DEFAULT, ConfigError, Settings, settings
from tei.cli.match_json import read_json_config
from tei.cli.match_options import configure as configure
from tei.cli.match_options import option_table, settings_of, with_demo
from tei.cli.options import usage_error
from tei.closed_output import CLOSED_OUTPUT_STATUS, silence


def save_json(path: str, progress: MatchProgress) -> bool:
    """Write the JSON summary; a failure is reported and never stops the match."""
    try:
        write_json(path, progress)
    except OSError as exc:
        print(f"tei match: cannot write the summary {path}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def merged_settings(args: argparse.Namespace) -> Settings:
    """The command line over --config FILE over the defaults (the demonstration match
    when no engine is given); ConfigError names a bad file, key or value."""
    table = option_table()
    return with_demo(settings(args, table, lambda text, path: read_json_config(table, text, path)))


def json_refusal(merged: Settings) -> str:
    """Why a JSON config is refused, with the TOML it means."""
    title = f"# the settings of {merged.file} as a TOML config file"
    toml = merged.render(skip=(DEFAULT, COMMAND_LINE), title=title)
    return (
        f"{merged.file}: a JSON config; tei match reads TOML config files (as tei playtak)."
        " Write these settings to a .toml file, or convert it with --print-config:\n"
        + toml.rstrip()
    )


def print_config(merged: Settings) -> int:
    """--print-config: the merged settings as TOML, then status 2 if they are bad."""
    print(merged.render(), end="", flush=True)
    try:
        build_config(settings_of(merged))
    except (MatchError, ConfigError) as exc:
        return usage_error("match", exc)
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        merged = merged_settings(args)
    except ConfigError as exc:
        return usage_error("match", exc)
    if args.print_config:
        return print_config(merged)
    if merged.converted_from is not None:
        return usage_error("match", json_refusal(merged))
    args = merged.apply(args)
    try:
        if args.resume:
            state = read_state(args.resume)
            settings = dict(state.settings)
            for key in RESUMABLE:
                if merged.given(key):
                    value = merged.values[key]
                    settings[key] = str(value) if isinstance(value, Path) else value
            state_path: str | None = args.resume
        else:
            state = None
            settings = settings_of(merged)
            state_path = str(args.state) if args.state else None
            if state_path is None and settings.get("records"):
                state_path = f"{settings['records']}.state"
        config = build_config(settings)
        match = Match.open(config, state_path=state_path, resume=state, force=args.force)
    except (MatchError, StateError, ConfigError) as exc:
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
    left = progress.total - len(progress.finished)
    resume = f"resume with: tei match --resume {state_path}" if state_path else "no state file"
    if closed:
        if left and state_path:
            print(
                f"tei match: the output was closed: stopped with {left} games left; {resume}",
                file=sys.stderr,
            )
        return CLOSED_OUTPUT_STATUS
    print(final_report(progress))
    if config.json and not save_json(config.json, progress):
        code = 1
    if match.log_failure is not None:
        print(f"tei match: {match.log_failure}; the match went on without it", file=sys.stderr)
        code = 1
    if match.failure is not None:
        print(
            f"tei match: {match.failure}; stopped with {left} of {progress.total} games left"
            " (running games abandoned); the games finished before are in the state file:"
            f" once the file can be written, {resume}",
            file=sys.stderr,
        )
        return 1
    if progress.status is Status.INTERRUPTED:
        code = 130
        if state_path:
            print(f"Resume with: tei match --resume {state_path}")
    elif progress.status is Status.ERROR:
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
