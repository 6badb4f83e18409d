"""`tei show`: print a position (TPS, TrikePS, TraxitPS) as a board picture (text or SVG)."""

from __future__ import annotations

import argparse
import sys

from rules.game import GameError
from tei.cli.options import add_game_options, add_moves_option, game_at, usage_error


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        nargs="*",
        help="position string (the words may be given separately); default: the start position",
    )
    parser.add_argument(
        "--position",
        "--tps",
        dest="position_option",
        metavar="STRING",
        help="the position string as one argument (--tps for Tak, as in tei perft)",
    )
    add_moves_option(parser)
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="write an SVG picture of the position (the last move highlighted) to FILE;"
        " '-' for standard output instead of the text picture",
    )
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    try:
        game = game_at(args, args.position_option or " ".join(args.position))
        picture = game.render_svg() if args.svg is not None else None
    except GameError as exc:
        return usage_error("show", exc)
    if picture is not None:
        if args.svg == "-":
            sys.stdout.write(picture)
            return 0
        try:
            with open(args.svg, "w", encoding="utf-8") as out:
                out.write(picture)
        except OSError as exc:
            return usage_error("show", f"cannot write {args.svg}: {exc.strerror}")
    print(game.render())
    result = game.result
    if result is not None:
        print(f"game over: {result.code} ({result.reason})")
    print(game.position_string())
    return 0
