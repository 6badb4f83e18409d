"""Perft: the published start-position counts, and the fast paths against the generic one."""

from __future__ import annotations

import pytest

from rules.game import Game, interface_perft
from rules.tak.game import TakGame


def generic_perft(game: Game[object], depth: int) -> int:
    """Perft through the public interface only (legal, play, undo, result), every action
    of the last ply played too."""
    return interface_perft(game, depth, bulk=False)


# (size, counts at depth 1, 2, ...) -- the cheap part of the published table
START_COUNTS = [
    (3, [9, 72, 1200, 17792]),
    (4, [16, 240, 7440, 216464]),
    (5, [25, 600, 43320, 2999784]),
    (6, [36, 1260, 132720, 13586048]),
    (7, [49, 2352, 339696]),
    (8, [64, 4032, 764064]),
]

# middle games with tall stacks, capstones, walls and crushes
MIDDLE_GAMES = [
    "2,x4/x,1C,x3/x,21,2S,x2/1,x,12,x2/x4,2 1 6",
    "x2,1,21C,x2/x,2,112S,x3/1,x,221,1,x2/x2,1S,12,2,x/2,x5/x5,12C 2 12",
    "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26",
]


# middle games with tall stacks, walls, capstones and crushes, with counts published
# for other Tak move generators: (TPS, depth, leaves)
PUBLISHED = [
    (
        "x,2,2,22S,2,111S/21S,22C,112,x,1112S,11S/x,2,112212,2,2S,2/x,2,121122,x,1112,211/"
        "21C,x,1,2S,21S,x/2S,x,212,1S,12S,1S 1 33",
        2,
        17322,
    ),
    (
        "x2,2,22,2C,1/21221S,1112,x,2211,1,2/x2,111S,x,11S,12S/11S,1S,2S,2,12S,1211C/"
        "x,12S,2,122S,x,212S/12,x2,1S,22222S,21121 2 31",
        2,
        11169,
    ),
    (
        "2,x,2,111S,2,12/2,122S,2122,1S,x,1/x,111,1,11S,x2/21122112C,x,212S,2S,2,1212S/"
        "1,112S,21221S,2S,x2/21,222,x,12S,x2 2 30",
        2,
        15300,
    ),
    (
        "1,x2,22S,1,x2/1,2S,122,1S,1,12,22/2,1,x,2,1221C,11S,21/x,1211S,221,1,12122S,121,1/"
        "2,122C,212111,1S,22,12,1/2S,2,x,12122,2,21,2S/x2,1S,1,2,1,2 2 41",
        2,
        43807,
    ),
    (
        "1,1,x5/x,12,1S,111,2S,211,2/12S,2,1C,21212S,212,21,2C/x,211S,122,2221,21,22,1/"
        "x,1,221,12,1,1,1112S/x,1,12222S,2,222,112121S,122/1,x,1,x,2,12,11S 2 41",
        2,
        63284,
    ),
    (
        "2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S/2S,1S,2S,1S,2S,1S,2S,1S/"
        "1S,2S,1S,111222111C,x,2S,1S,2S/2S,1S,2S,x,222111222C,1S,2S,1S/"
        "1S,2S,1S,2S,1S,2S,1S,2S/2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S 2 40",
        3,
        11632,
    ),
    (
        "x,1,1,1S,1S,1S,1S,1S/1,x,1,1,2S,2S,1C,1S/1,1,x,1,1,2C,2S,1S/1S,1,1,x,1,1,2S,1S/"
        "1S,2S,1,1,x,1,1,1S/1S,2S,2C,1,1,x,1,1/1S,1C,2S,2S,1,1,x,1/1S,1S,1S,1S,1S,1,1,x 2 50",
        2,
        3400,
    ),
    ("x3/x,111222111222111222,x/x3 2 10", 4, 13272),
    ("x5/x5/2S,211C,2C,212S,x/x5/x5 1 7", 2, 3314),
    ("x6/x4,1S,x/x2,21111S,1C,22122C,x/x6/x6/x6 2 11", 2, 11683),
    ("x7/1C,1112S,x,112211C,2S,2C,1S/x7/x3,222C,x3/x3,2S,x3/x3,1S,x3/x7 1 10", 2, 14248),
]


@pytest.mark.parametrize(("tps", "depth", "leaves"), PUBLISHED)
def test_published_middle_game_counts(tps: str, depth: int, leaves: int) -> None:
    assert TakGame.from_position_string(tps).perft(depth) == leaves


@pytest.mark.parametrize(("size", "counts"), START_COUNTS)
def test_start_position_counts(size: int, counts: list[int]) -> None:
    game = TakGame.new({"size": str(size)})
    assert [game.perft(depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("tps", MIDDLE_GAMES)
def test_fast_perft_agrees_with_generic(tps: str) -> None:
    game = TakGame.from_position_string(tps)
    for depth in (1, 2):
        generic = generic_perft(game, depth)
        assert game.perft(depth) == generic
        assert game.fast_board().perft_full(depth) == generic
    assert game.position_string() == TakGame.from_position_string(tps).position_string()


def test_divide_sums_to_perft() -> None:
    game = TakGame.from_position_string(MIDDLE_GAMES[1])
    rows = game.divide(2)
    assert len(rows) == len(game.legal())
    assert sum(count for _, count in rows) == game.perft(2)
    assert rows == [(m.ptn(), generic_perft_after(game, m, 1)) for m in game.legal()]


def test_terminal_positions_have_no_children() -> None:
    # white has a road on the c file; black to move
    game = TakGame.from_position_string("x2,1/2,x,1/2,x,1 2 3")
    assert game.result is not None and game.result.code == "R-0"
    assert game.perft(0) == 1
    assert game.perft(1) == 0 == generic_perft(game, 1)
    assert game.divide(2) == []


def generic_perft_after(game: TakGame, move: object, depth: int) -> int:
    game.play(move)  # type: ignore[arg-type]
    try:
        return generic_perft(game, depth)
    finally:
        game.undo()


def test_start_counts_through_the_generic_interface() -> None:
    for size, counts in START_COUNTS[:2]:
        game = TakGame.new({"size": str(size)})
        assert generic_perft(game, 3) == counts[2]


def test_draw_rules_fall_back_to_the_generic_perft() -> None:
    game = TakGame.new({"size": "4", "repetition": "true", "rule50": "true"})
    assert game.perft(3) == 7440
    assert sum(count for _, count in game.divide(2)) == 240
