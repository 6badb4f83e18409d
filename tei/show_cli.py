"""`tei show`: print a position (TPS, TrikePS, TraxitPS) as a board picture (text or SVG)."""

from __future__ import annotations

import argparse
import sys

from rules.game import GameError
from rules.registry import game_class
from tei.options_cli import add_game_options, checked_game_options


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
    parser.add_argument(
        "--moves", default="", help="actions to play from the position first, space-separated"
    )
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="write an SVG picture of the position (the last move highlighted) to FILE;"
        " '-' for standard output instead of the text picture",
    )
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    options = checked_game_options(args)
    cls = game_class(args.game)
    try:
        text = args.position_option or " ".join(args.position)
        game = cls.from_position_string(text, options) if text else cls.new(options)
        game.play_all(args.moves.split())
    except GameError as exc:
        print(f"tei show: {exc}", file=sys.stderr)
        return 2
    if args.svg is not None:
        try:
            picture = game.render_svg()
        except GameError as exc:
            print(f"tei show: {exc}", file=sys.stderr)
            return 2
        if args.svg == "-":
            sys.stdout.write(picture)
            return 0
        try:
            with open(args.svg, "w", encoding="utf-8") as out:
                out.write(picture)
        except OSError as exc:
            print(f"tei show: cannot write {args.svg}: {exc.strerror}", file=sys.stderr)
            return 2
    print(game.render())
    result = game.result
    if result is not None:
        print(f"game over: {result.code} ({result.reason})")
    print(game.position_string())
    return 0
