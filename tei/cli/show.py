"""`tei show`: print a position (TPS, TrikePS, TraxitPS) as a board picture (text or SVG)."""

from __future__ import annotations

import argparse
import sys
from typing import ClassVar

import attrs

from rules.game import GameError
from tei.cli.fields import add_settings, setting
from tei.cli.options import GameOptions, game_at, moves_option, usage_error


@attrs.frozen
class ShowOptions:
    TITLE: ClassVar[str] = ""

    position: list[str] = setting(
        "position",
        nargs="*",
        help="position string (the words may be given separately); default: the start position",
    )
    position_option: str | None = setting(
        "--position",
        "--tps",
        metavar="STRING",
        help="the position string as one argument (--tps for Tak, as in tei perft)",
    )
    moves: str = moves_option()
    svg: str | None = setting(
        "--svg",
        metavar="FILE",
        help="write an SVG picture of the position (the last move highlighted) to FILE;"
        " '-' for standard output instead of the text picture",
    )


#: `tei show`'s settings, in the order of its help
SETTINGS = (ShowOptions, GameOptions)


def configure(parser: argparse.ArgumentParser) -> None:
    add_settings(parser, SETTINGS)


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
