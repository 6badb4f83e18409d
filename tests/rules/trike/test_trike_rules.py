"""Trike rules core: board, notation, pie rule, end and score, position strings, perft."""

from __future__ import annotations

import pytest

from rules.game import GameError, IllegalAction, NotationError, PositionError
from rules.registry import game_class, new_game
from rules.trike.errors import (
    ActionSyntaxError,
    BlockedLine,
    CellError,
    GameOverError,
    ImpossiblePosition,
    OccupiedCell,
    OffLine,
    PositionStringError,
    SwapNotAllowed,
    TrikeOptionError,
    WrongOrigin,
)
from rules.trike.game import SWAP, TrikeGame
from rules.trike.geometry import geometry


def trike(size: int = 7, moves: str = "") -> TrikeGame:
    game = TrikeGame.new({"size": str(size)})
    game.play_all(moves.split())
    return game


def test_registry_and_default_size() -> None:
    assert game_class("trike") is TrikeGame
    game = new_game("trike")
    assert isinstance(game, TrikeGame) and game.size == 13
    assert game.position_string() == "13:" + "/".join(str(n) for n in range(1, 14)) + ":x:-"


@pytest.mark.parametrize("size", range(3, 20))
def test_board_shape(size: int) -> None:
    geo = geometry(size)
    assert geo.cells == size * (size + 1) // 2
    degrees = sorted(len(n) for n in geo.neighbours)
    assert degrees.count(2) == 3 and set(degrees) <= {2, 4, 6}
    corners = {geo.names[i] for i, n in enumerate(geo.neighbours) if len(n) == 2}
    assert corners == {"a1", f"{'abcdefghijklmnopqrs'[size - 1]}1", f"a{size}"}
    assert geo.parse_cell(f"a{size}") == 0  # the apex comes first in position-string order


def test_directions_match_the_spec() -> None:
    geo = geometry(7)
    targets = {geo.names[ray[0]] for ray in geo.rays[geo.parse_cell("c3")]}
    # right, left, up-right, down-left, down-right, up-left
    assert targets == {"d3", "b3", "c4", "c2", "d2", "b4"}


def test_bad_options_are_named() -> None:
    with pytest.raises(TrikeOptionError, match="size='2'"):
        TrikeGame.new({"size": "2"})
    with pytest.raises(TrikeOptionError, match="size='x'"):
        TrikeGame.new({"size": "x"})
    with pytest.raises(TrikeOptionError, match="xseat"):
        TrikeGame.new({"xseat": "2"})
    # an option of another game is refused, named
    with pytest.raises(TrikeOptionError, match="unknown Trike option 'halfkomi'"):
        TrikeGame.new({"size": "5", "halfkomi": "0"})


def test_spec_position_examples() -> None:
    assert trike().position_string() == "7:1/2/3/4/5/6/7:x:-"
    assert trike(moves="d2").position_string() == "7:1/2/3/4/5/3X2/7:o:s"
    assert trike(moves="d2 swap").position_string() == "7:1/2/3/4/5/3X2/7:o:-"
    assert trike(moves="d2 c3").position_string() == "7:1/2/3/4/2O2/3x2/7:x:-"


def test_first_move_anywhere_then_lines_only() -> None:
    game = trike()
    assert len(game.legal()) == 28
    game.play_text("a7")
    # apex: two lines of six cells, plus swap
    assert sorted(game.format_action(a) for a in game.legal()) == sorted(
        [f"a{r}" for r in range(1, 7)]
        + [f"{f}{7 - i}" for i, f in enumerate("bcdefg", 1)]
        + ["swap"]
    )


def test_swap_is_a_seat_swap() -> None:
    game = trike(moves="d2")
    assert game.turn == 1 and game.colour_of(0) == "X"
    board = game.position_string()
    game.play_text("swap")
    assert game.turn == 0, "player 1 now makes colour O's move"
    assert game.colour_of(0) == "O" and game.colour_of(1) == "X"
    assert game.position_string() == board.replace(":s", ":-")
    game.play_text("c3")
    assert game.turn == 1 and game.format_action(game.history[1]) == "swap"
    game.undo()
    game.undo()
    assert game.colour_of(0) == "X" and game.position_string() == board


def test_swap_at_the_wrong_time() -> None:
    with pytest.raises(SwapNotAllowed):
        trike().play_text("swap")
    with pytest.raises(SwapNotAllowed):
        trike(moves="d2 c3").play_text("swap")
    with pytest.raises(SwapNotAllowed):
        trike(moves="d2 swap").play_text("swap")


@pytest.mark.parametrize(
    ("moves", "text", "error"),
    [
        ("", "h1", CellError),
        ("", "a0", CellError),
        ("", "7d", CellError),
        ("", "", ActionSyntaxError),
        ("", "d2-", ActionSyntaxError),
        ("d2", "d2", OccupiedCell),
        ("d2", "a7", OffLine),
        ("d2 d4", "d1", BlockedLine),
        ("d2 c3", "d2-c4", WrongOrigin),
        ("", "d2-d3", WrongOrigin),
    ],
)
def test_bad_actions_raise_named_errors(moves: str, text: str, error: type[GameError]) -> None:
    game = trike(moves=moves)
    before = game.position_string()
    with pytest.raises(error) as info:
        game.play_text(text)
    assert isinstance(info.value, (NotationError, IllegalAction))
    assert game.position_string() == before


def test_from_to_is_accepted() -> None:
    game = trike(moves="d2")
    action = game.parse_action("D2-C3")
    assert game.format_action(action) == "c3"


def small_end() -> TrikeGame:
    # side 3: the pawn on the apex, both neighbours full; X has apex and a2, O has b2
    return TrikeGame.from_position_string("3:X/xo/3:o:-")


def test_trapped_pawn_ends_with_scores() -> None:
    game = small_end()
    outcome = game.result
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.code == "X 2-1" and outcome.reason == "trapped"
    assert outcome.scores == (2.0, 1.0)
    assert game.legal() == [] and game.perft(1) == 0
    with pytest.raises(GameOverError):
        game.play(geometry(3).parse_cell("a1"))
    owned = TrikeGame.from_position_string("3:X/xo/3:o:-", {"xseat": "1"}).result
    assert owned is not None and owned.winners == (1,) and owned.scores == (1.0, 2.0)


def test_last_two_movers_both_score() -> None:
    # the final move has distance 1, so the previous mover's checker lies next to the pawn
    game = trike(3, "a1 b1 c1 b2 a2 a3")
    outcome = game.result
    assert outcome is not None and outcome.scores is not None
    assert min(outcome.scores) >= 1 and sum(outcome.scores) == 3


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("7:1/2/3/4/5/6/7:x", PositionStringError),
        ("20:1:x:-", PositionStringError),
        ("7:1/2/3/4/5/6:x:-", PositionStringError),
        ("7:1/2/3/4/5/6/8:x:-", PositionStringError),
        ("7:1/2/3/4/5/6/7:y:-", PositionStringError),
        ("7:1/2/3/4/5/6/7:x:?", PositionStringError),
        ("7:1/2/3/4/5/6/6z:x:-", PositionStringError),
        ("7:1/2/3/4/5/6/7:o:-", ImpossiblePosition),
        ("7:1/2/3/4/5/6/7:x:s", ImpossiblePosition),
        ("7:1/2/3/4/5/3x2/7:o:-", ImpossiblePosition),
        ("7:1/2/3/4/5/3X2/7:x:-", ImpossiblePosition),
        ("7:1/2/3/4/5/2XX2/7:o:-", ImpossiblePosition),
        ("7:1/2/3/4/5/2oO2/7:x:-", ImpossiblePosition),
        ("7:1/2/3/4/2O2/3x2/7:x:s", ImpossiblePosition),
    ],
)
def test_bad_position_strings(text: str, error: type[GameError]) -> None:
    with pytest.raises(error, match="position"):
        TrikeGame.from_position_string(text)
    assert issubclass(error, (NotationError, PositionError))


def test_position_size_must_match_option() -> None:
    with pytest.raises(ImpossiblePosition, match="side 7"):
        TrikeGame.from_position_string("7:1/2/3/4/5/6/7:x:-", {"size": "9"})


def test_loaded_position_seats() -> None:
    text = "7:1/2/3/4/5/3X2/7:o:-"
    assert TrikeGame.from_position_string(text).turn == 1
    assert TrikeGame.from_position_string(text, {"xseat": "1"}).turn == 0
    game = TrikeGame.from_position_string("7:1/2/3/4/5/3X2/7:o:s")
    assert game.start_position == "7:1/2/3/4/5/3X2/7:o:s"
    game.play_text("swap")
    assert game.turn == 0 and game.ply == 1


def test_perft_small_counts() -> None:
    for size in range(3, 20):
        assert trike(size).perft(1) == size * (size + 1) // 2
    # side 3: from each of the 6 cells the pawn sees exactly 4 cells, plus swap
    assert trike(3).perft(2) == 6 * (4 + 1)
    assert trike(3).divide(2) == [(name, 5) for name in geometry(3).names]


def test_undo_at_start_and_copy_independence() -> None:
    with pytest.raises(GameError):
        trike().undo()
    game = trike(moves="d2 swap c3")
    other = game.copy()
    other.play_text("c5")
    assert game.ply == 3 and other.ply == 4
    assert other.colour_of(0) == "O" and game.hash_key() != other.hash_key()
    assert SWAP in trike(moves="d2").legal()


def test_render_shows_coordinates() -> None:
    picture = trike(moves="d2 c3").render()
    lines = picture.splitlines()
    assert lines[0].split() == ["7", "."]
    assert lines[6].split()[0] == "1" and lines[7].split() == list("abcdefg")
    assert "O" in lines[4] and "x" in lines[5]
    assert "X to move (player1)" in picture
    assert "trapped" in small_end().render()
