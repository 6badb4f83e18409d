"""The `tei` command: one front door, subcommands loaded lazily from their packages.

Each subcommand module offers `configure(parser)` and `run(args) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from rules import build
from tei.closed_output import CLOSED_OUTPUT_STATUS, is_closed_output, silence

#: name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "match": ("tei.cli.match", "play a local match between engines (default: two bots)"),
    "engine": ("tei.cli.engine", "serve a built-in bot as a TEI engine on stdin/stdout"),
    "check": ("tei.cli.check", "check a TEI engine for protocol compliance"),
    "perft": ("tei.cli.perft", "count leaf nodes of the move tree (rules self-test)"),
    "show": ("tei.cli.show", "print a position as a board picture"),
    "analyse": ("tei.cli.analyse", "annotate finished games with an engine's judgement"),
    "playtak": ("tei.cli.playtak", "play on a playtak.com-style server with an engine"),
    "serve": ("tei.cli.serve", "serve an engine over websocket to browser GUIs"),
}


def _load(name: str) -> ModuleType | None:
    module_name = SUBCOMMANDS[name][0]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            return None
        raise


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser; with `only`, just that subcommand's options are loaded."""
    return _build(only)[0]


def _build(only: str | None) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser and each subcommand's own parser."""
    parsers: dict[str, argparse.ArgumentParser] = {}
    parser = argparse.ArgumentParser(
        prog="tei",
        description="Engine host, driver and referee for Tak, Trike and Traxit over TEI.",
        epilog="Run 'tei COMMAND --help' for the options of a command.",
    )
    parser.add_argument(
        "--version",
        action="store_true",
        help="print the version and the build (compiled or pure Python, and why) and exit",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in SUBCOMMANDS.items():
        sub_parser = parsers[name] = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            module = _load(name)
            if module is not None:
                module.configure(sub_parser)
    return parser, parsers


def build_line() -> str:
    """`VERSION, BUILD`: the package version and the build this process runs
    (bots.compiled.describe), as `id version` carries it."""
    from importlib import metadata

    from bots import compiled

    try:
        version = metadata.version("tei-host")
    except metadata.PackageNotFoundError:
        version = "(not installed)"
    return f"{version}, {compiled.describe()}"


def version_line() -> str:
    """What `tei --version` prints: `tei-host VERSION, BUILD`."""
    return f"tei-host {build_line()}"


def main(argv: Sequence[str] | None = None) -> int:
    build.guard()  # before any game core is imported: never a stale compiled module
    args_list = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in args_list if a in SUBCOMMANDS), None)
    parser, parsers = _build(only=chosen or "")
    args, extra = parser.parse_known_args(args_list)
    if extra:  # an unknown option of a subcommand: its own usage, not the top-level one
        (parsers[args.command] if args.command else parser).error(
            f"unrecognized arguments: {' '.join(extra)}"
        )
    if args.version and args.command is None:
        print(version_line())
        return 0
    if args.command is None:
        parser.print_help()
        return 0
    module = _load(args.command)
    if module is None:
        print(f"tei: '{args.command}' is not available in this build", file=sys.stderr)
        return 2
    try:
        code: int = module.run(args)
    except KeyboardInterrupt:
        return 130
    except (BrokenPipeError, BaseExceptionGroup) as exc:
        if not is_closed_output(exc):
            raise
        silence()
        return CLOSED_OUTPUT_STATUS
    return code


if __name__ == "__main__":
    sys.exit(main())
