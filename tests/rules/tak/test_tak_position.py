"""TPS in and out, position validation, options and the board picture."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.game import GameError, NotationError, PositionError
from rules.tak.game import TakGame, TakOptions
from rules.tak.position import Position


@pytest.mark.parametrize(
    "tps",
    [
        "x5/x5/x5/x5/x5 1 1",
        "x3/x3/x3 2 7",
        "x2,1/2,x,1/2,x,1 2 3",
        "x4,1/x5/x5/x5/2,x2,21C,x 2 3",
        "2,x4/x,1C,x3/x,21,2S,x2/1,x,12,x2/x4,2 1 6",
        "x8/x8/x8/x8/x8/x8/x8/1212121212S,x7 1 40",
    ],
)
def test_tps_round_trips(tps: str) -> None:
    assert Position.from_tps(tps).tps() == tps
    assert TakGame.from_position_string(tps).position_string() == tps


def test_runs_of_empty_squares_are_merged() -> None:
    assert Position.from_tps("x,x,x/x,x,x/1,x,x 2 2").tps() == "x3/x3/1,x2 2 2"


def test_rows_run_from_the_top_rank() -> None:
    position = Position.from_tps("2,x2/x3/x2,12S 1 4")
    assert position.stacks[6] == "2"  # a3
    assert position.stacks[2] == "12S"  # c1
    assert (position.turn, position.move, position.ply) == (0, 4, 6)


@pytest.mark.parametrize(
    ("parse", "error"),
    [(Position.from_tps, NotationError), (TakGame.from_position_string, GameError)],
    ids=["Position", "TakGame"],
)
@pytest.mark.parametrize(
    ("tps", "named"),
    [
        ("x5/x5/x5/x5/x5 1", "3 fields"),
        ("x5/x5/x5/x5/x5 1 1 extra", "3 fields"),
        ("x5/x5/x5/x5/x5/x5/x5/x5/x5 1 1", "9 rows"),
        ("x2/x2 1 1", "2 rows"),
        ("x5/x5/x4/x5/x5 1 1", "row 3 .* has 4 squares, expected 5"),
        ("x5/x5/x6/x5/x5 1 1", "row 3 .* has 6 squares, expected 5"),
        ("x5/x5/x2,1,1,1,1/x5/x5 1 1", "has 6 squares"),
        ("x5/x5/x4,3/x5/x5 1 1", "unknown piece or square '3'"),
        ("x5/x5/x4,1F/x5/x5 1 1", "unknown piece or square '1F'"),
        ("x5/x5/x4,S/x5/x5 1 1", "unknown piece or square 'S'"),
        ("x5/x5/x4,1SC/x5/x5 1 1", "unknown piece or square '1SC'"),
        ("x5/x5/x0,x5/x5/x5 1 1", "unknown piece or square 'x0'"),
        ("x5/x5/x5/x5/x5 3 1", "side to move must be 1 or 2"),
        ("x5/x5/x5/x5/x5 1 0", "move number"),
        ("x5/x5/x5/x5/x5 1 one", "move number"),
    ],
)
def test_bad_tps_is_named(
    parse: Callable[[str], object], error: type[GameError], tps: str, named: str
) -> None:
    with pytest.raises(error, match=named):
        parse(tps)


def test_too_many_pieces_for_the_size() -> None:
    with pytest.raises(PositionError, match="white has 11 stones"):
        TakGame.from_position_string("11111111111,x2/x3/x3 1 9")
    with pytest.raises(PositionError, match=r"black has 1 capstones.*0"):
        TakGame.from_position_string("2C,x2/x3/x3 1 9")
    with pytest.raises(PositionError, match="black has 2 capstones"):
        TakGame.from_position_string("2C,2C,x3/x5/x5/x5/x5 1 9")
    # custom reserves are honoured
    game = TakGame.from_position_string("2C,2C,x3/x5/x5/x5/x5 1 9", {"caps": "2"})
    assert game.reserves() == ((21, 2), (21, 0))


#: values each Tak option refuses: the error names the option and the value
BAD_OPTION_VALUES = {
    "size": ["9", "2", "five"],
    "halfkomi": ["-1", "1.5"],
    "komi": ["0.25", "x", "inf", "nan"],
    "flats": ["-3"],
    "caps": ["many"],
    "repetition": ["maybe"],
    "rule50": ["2"],
}


@pytest.mark.parametrize(
    ("key", "value"),
    [(key, value) for key, values in BAD_OPTION_VALUES.items() for value in values],
)
def test_bad_option_values_are_named(key: str, value: str) -> None:
    with pytest.raises(GameError, match=f"{key}='{value}'"):
        TakGame.new({key: value})


def test_an_unknown_option_is_named() -> None:
    with pytest.raises(GameError, match="unknown Tak option 'colour'"):
        TakGame.new({"colour": "red"})


def test_options_and_reserves() -> None:
    assert TakOptions.parse(None) == TakOptions()
    for size, stones, caps in [
        (3, 10, 0),
        (4, 15, 0),
        (5, 21, 1),
        (6, 30, 1),
        (7, 40, 2),
        (8, 50, 2),
    ]:
        game = TakGame.new({"size": str(size)})
        assert game.reserves() == ((stones, caps), (stones, caps))
        assert game.position_string() == "/".join([f"x{size}"] * size) + " 1 1"
    opts = TakOptions.parse(
        {"Size": "6", "komi": "2.5", "flats": "25", "caps": "2", "rule50": "true"}
    )
    assert (opts.size, opts.half_komi, opts.stones, opts.caps, opts.rule50) == (6, 5, 25, 2, True)
    with pytest.raises(GameError, match="size=6 but the position is 5x5"):
        TakGame.from_position_string("x5/x5/x5/x5/x5 1 1", {"size": "6"})


def test_render_shows_board_stacks_reserves_and_side() -> None:
    game = TakGame.from_position_string("x4,1/x5/x5/x5/2,x2,21C,x 2 3")
    picture = game.render()
    lines = picture.splitlines()
    assert lines[1].startswith(" 5 ") and "1" in lines[1]
    assert any(line.startswith(" 1 ") and "21C" in line for line in lines)
    assert "a" in lines[-4] and "e" in lines[-4]
    assert "white (1) in hand: 20 stones, 0 caps" in picture
    assert "black (2) in hand: 19 stones, 1 caps" in picture
    assert picture.endswith("black to move, move 3")
    assert game.seat_name(0) == "white" and game.seat_name(1) == "black"
    assert game.start_position == "x4,1/x5/x5/x5/2,x2,21C,x 2 3"
    assert TakGame.new().start_position is None
