"""Traxit rules: the rulebook examples, setup, TRAXIT, scoring, options and errors."""

from __future__ import annotations

import pytest

from rules.game import GameError, IllegalAction, NotationError, PositionError
from rules.registry import new_game
from rules.traxit.board import LEVEL, POINTS, parse_cell
from rules.traxit.game import TraxitGame
from rules.traxit.tiles import TILES, orientations

# The rulebook's first example: red on c1 and f1, green on c8 and g8, obstacles on the
# level-3 corners; red has been given the L tile T08.
EXAMPLE_L = "TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00"


def texts(game: TraxitGame) -> set[str]:
    return {game.format_action(a) for a in game.legal()}


def test_board_levels_and_points() -> None:
    counts = {lv: sum(1 for c in range(64) if LEVEL[c] == lv) for lv in (1, 2, 3, 4)}
    assert counts == {1: 28, 2: 20, 3: 12, 4: 4}
    assert {POINTS[parse_cell(n)] for n in ("d4", "e4", "d5", "e5")} == {100}
    # the rulebook's scoring figure: e7 + c4 = 75, g1 + d4 = 100
    assert POINTS[parse_cell("e7")] + POINTS[parse_cell("c4")] == 75
    assert POINTS[parse_cell("g1")] + POINTS[parse_cell("d4")] == 100


def test_rulebook_l_tile_example_has_exactly_three_moves() -> None:
    game = TraxitGame.from_position_string(EXAMPLE_L)
    assert game.turn == 0 and game.seat_name(0) == "R"
    assert texts(game) == {"c1-b4", "c1-f2", "f1-e4"}


def test_mirror_option_adds_the_mirrored_moves() -> None:
    game = TraxitGame.from_position_string(EXAMPLE_L, {"allow_mirror": "true"})
    assert texts(game) == {"c1-b4", "c1-f2", "f1-e4", "c1-d4", "f1-c2", "f1-g4"}


def test_rulebook_diagonal_example_is_traxit() -> None:
    # Red on e4 and b2 with the diagonal-2 tile T05: b2 has no route at all (c3 is an
    # obstacle, the others leave the board), and e4 only e4-g6 and e4-c2 on an otherwise
    # empty board; with pawns on those two diagonals (green on f5 and d3) red is TRAXIT.
    open_board = TraxitGame.from_position_string(
        "TX 2G3G1/8/2x2x2/8/4R3/2x2x2/1R6/8 R@S,G@N R:choose 1.1 ffff,ffff 0,0 00"
    )
    open_board.play_text("T05")
    assert texts(open_board) == {"e4-g6", "e4-c2"}

    game = TraxitGame.from_position_string(
        "TX 8/8/2x2x2/5G2/4R3/2xG1x2/1R6/8 R@S,G@N R:choose 1.1 ffff,ffff 0,0 00"
    )
    game.play_text("T05")
    assert game.position_string().split()[3] == "R:traxit:T05"
    assert game.turn == 1  # green, who gave the tile, relocates
    moves = texts(game)
    assert "!e4-h2" in moves and "!b2-a1" in moves
    assert all(m.startswith(("!e4-", "!b2-")) for m in moves)
    # every empty edge cell, for either pawn
    assert len(moves) == 2 * 28
    game.play_text("!e4-h2")
    assert "R" in game.position_string().split()[1].split("/")[6]  # h2 on rank 2
    assert game.position_string().split()[5] == "ffef,ffff"  # T05 is spent


def test_setup_rows_and_order() -> None:
    game = new_game("traxit", {"players": "4"})
    assert isinstance(game, TraxitGame)
    order = []
    rows = {0: "1", 1: "a", 2: "8", 3: "h"}
    for _ in range(8):
        seat = game.turn
        order.append(seat)
        legal = texts(game)
        assert len(legal) in (5, 6)
        assert all(t[1] == rows[seat] or t[2] == rows[seat] for t in legal)
        assert not {"@a1", "@h1", "@a8", "@h8"} & legal
        game.play_text(sorted(legal)[0])
    assert order == [0, 1, 2, 3, 0, 1, 2, 3]
    # after setup, the seat before seat 0 (the start player) chooses seat 0's tile
    assert game.turn == 3
    assert len(game.legal()) == 16
    with pytest.raises(IllegalAction, match="choose a tile"):
        game.play_text("@b1")


def test_obstacles_by_player_count() -> None:
    boards = {n: new_game("traxit", {"players": str(n)}).position_string() for n in (2, 3, 4)}
    assert boards[2].split()[1] == "8/8/2x2x2/8/8/2x2x2/8/8"
    assert boards[3].split()[1] == "8/8/2x5/8/8/5x2/8/8"  # c6 and f3
    assert boards[4].split()[1] == "8/8/8/8/8/8/8/8"
    assert boards[3].split()[2] == "R@S,B@W,G@N"


def play_round_robin(game: TraxitGame, moves: list[str]) -> None:
    for text in moves:
        game.play_text(text)


def bonus_position(bonus_per: str) -> TraxitGame:
    # Set 1, round 4: red (d4, e3) moves e3-e4 with T01 and has both pawns on top.
    return TraxitGame.from_position_string(
        "TX 1G4G1/8/2x2x2/8/3R4/2x1Rx2/8/8 R@S,G@N R:T01 1.4 fff1,fff8 0,0 00",
        {"bonus_per": bonus_per},
    )


def test_bonus_once_per_set_and_scoring() -> None:
    game = bonus_position("set")
    game.play_text("e3-e4")
    assert game.position_string().split()[7] == "10"
    game.play_text("T04")  # red gives green a one-step diagonal
    game.play_text(sorted(texts(game))[0])
    words = game.position_string().split()
    assert words[4] == "2.1"
    assert words[6] == "250,0"  # 100 + 100 + 50 bonus; green on the edge scores 0
    assert words[7] == "10"  # still both on top: the bonus is earned again in set 2


def test_bonus_once_per_game_option() -> None:
    game = bonus_position("game")
    assert game.position_string().endswith("bonus=game")
    play_round_robin(game, ["e3-e4", "T04"])
    game.play_text(sorted(texts(game))[0])
    words = game.position_string().split()
    assert words[6] == "250,0" and words[7] == "20"


def finish_randomly(game: TraxitGame) -> None:
    while game.result is None:
        game.play(game.legal()[len(game.history) % len(game.legal())])


@pytest.mark.parametrize(
    ("options", "plies"),
    [
        ({}, 4 + 16 * 2 * 2),
        ({"players": "3"}, 6 + 16 * 3 * 2),
        ({"players": "4", "teams": "true"}, 8 + 16 * 4 * 2),
        ({"shortgame": "true"}, 4 + 9 * 2 * 2),
    ],
)
def test_a_game_ends_after_its_sets(options: dict[str, str], plies: int) -> None:
    game = new_game("traxit", options)
    assert isinstance(game, TraxitGame)
    finish_randomly(game)
    assert game.ply == plies  # no TRAXIT in this walk would change the count: both are 2 plies
    result = game.result
    assert result is not None and result.reason == "score"
    assert result.scores is not None and len(result.scores) == game.players
    assert game.legal() == []


def test_team_outcome_and_code() -> None:
    text = (
        "TX 8/8/8/3BY3/3RG3/8/8/1R1B1G1Y R@S,B@W,G@N,Y@E end 4.4 0000,0000,0000,0000 "
        "400,300,100,150 0000 team"
    )
    result = TraxitGame.from_position_string(text).result
    assert result is not None
    assert result.winners == (0, 2) and result.code == "RG 500 - BY 450"
    tie = TraxitGame.from_position_string(text.replace("400,300", "350,300")).result
    assert tie is not None and tie.winners == (0, 1, 2, 3)


def test_free_for_all_tie_is_shared() -> None:
    result = TraxitGame.from_position_string(
        "TX 1G4G1/8/2x5/8/8/5x2/8/1R1R1B1B R@S,B@W,G@N end 4.4 0000,0000,0000 100,100,50 000"
    ).result
    assert result is not None
    assert result.winners == (0, 1) and result.code == "R 100 - B 100 - G 50"
    assert result.scores == (100.0, 100.0, 50.0)


def test_short_game_tiles_from_seed_and_list() -> None:
    a = new_game("traxit", {"shortgame": "1", "seed": "7"}).position_string()
    b = new_game("traxit", {"shortgame": "1", "seed": "7"}).position_string()
    c = new_game("traxit", {"shortgame": "1", "seed": "8"}).position_string()
    assert a == b and a != c
    assert all(bin(int(p, 16)).count("1") == 9 for p in a.split()[5].split(","))
    assert a.split()[4] == "1.1/3x3"
    listed = new_game("traxit", {"shortgame": "1", "tiles": "T01,T02,T03,T04,T05,T06,T07,T08,T09"})
    assert listed.position_string().split()[5] == "01ff,01ff"
    with pytest.raises(GameError, match="9 tiles"):
        new_game("traxit", {"shortgame": "1", "tiles": "T01,T02"})
    with pytest.raises(GameError, match="short game"):
        new_game("traxit", {"tiles": "T01"})


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"players": "5"}, "players"),
        ({"players": "3", "teams": "true"}, "teams"),
        ({"bonus_per": "round"}, "bonus_per"),
        ({"allow_mirror": "maybe"}, "allow_mirror"),
        ({"seed": "x", "shortgame": "1"}, "seed"),
    ],
)
def test_bad_options_are_named(options: dict[str, str], needle: str) -> None:
    with pytest.raises(GameError, match=needle):
        new_game("traxit", options)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("XX 8/8/8/8/8/8/8/8", "TX"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00", "8 ranks"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R1 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00", "rank 1"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2Q2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00", "'Q'"),
        ("TX 2G3G1/8/2x2x2/8/3x4/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00", "d4"),
        ("TX 2G3G1/8/2x5/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00", "obstacles"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R5 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00", "2 pawns"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 7fff,ffff 0,0 00", "tiles left"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 5.1 ffff,ffff 0,0 00", "clock"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,R@N R:T08 1.1 ffff,ffff 0,0 00", "repeats"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T99 1.1 ffff,ffff 0,0 00", "T99"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:traxit:T08 1.1 ffff,ffff 0,0 00", "not"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00 team", "team"),
        ("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,-5 00", "negative"),
        ("TX 8/8/2x2x2/8/8/2x2x2/8/1R6 R@S,G@N R:place 1.1 ffff,ffff 0,0 00", "placing"),
        ("TX 8/8/2x2x2/8/8/2x2x2/R7/8 R@S,G@N G:place 1.1 ffff,ffff 0,0 00", "start row"),
        ("TX 1G4G1/8/2x5/8/8/5x2/8/1R1R4 R@S,B@W,G@N end 4.4 0000,0000,0000 0,0,0 000", "B"),
    ],
)
def test_bad_position_strings_are_named(text: str, needle: str) -> None:
    with pytest.raises((NotationError, PositionError), match=needle):
        TraxitGame.from_position_string(text)


def test_players_option_must_match_the_position() -> None:
    with pytest.raises(PositionError, match="players=3"):
        TraxitGame.from_position_string(EXAMPLE_L, {"players": "3"})


@pytest.mark.parametrize("text", ["", "T17", "@i1", "c1-", "!c1", "c1f2", "zz-a1"])
def test_bad_action_text_is_named(text: str) -> None:
    game = TraxitGame.from_position_string(EXAMPLE_L)
    with pytest.raises(NotationError):
        game.parse_action(text)


def test_illegal_actions_are_refused_without_change() -> None:
    game = TraxitGame.from_position_string(EXAMPLE_L)
    before = game.position_string()
    for text, needle in [("c1-d4", "not a move"), ("T01", "move a pawn"), ("!c1-a1", "move")]:
        with pytest.raises(IllegalAction, match=needle):
            game.play_text(text)
    assert game.position_string() == before and game.ply == 0
    game.play_text("c1-f2")
    game.play_text("T08")  # red gives green T08: green still holds all its tiles
    game.play_text(sorted(texts(game))[0])
    assert game.turn == 1  # green chooses red's next tile; red's T08 is spent
    with pytest.raises(IllegalAction, match="no tile T08"):
        game.play_text("T08")
    assert game.ply == 3


def test_tiles_are_distinct_under_turns_and_reversal() -> None:
    shapes = [frozenset(orientations(t.steps)) for t in TILES]
    assert len(set(shapes)) == len(TILES) == 16
    for tile, shape in zip(TILES, shapes, strict=True):
        reversed_same = tuple(reversed(tile.steps)) == tile.steps
        assert len(shape) <= 8
        assert len(shape) == 4 or not reversed_same


def test_render_shows_board_and_seats() -> None:
    picture = TraxitGame.from_position_string(EXAMPLE_L).render()
    assert "a b c d e f g h" in picture
    assert "R moves with T08" in picture
    assert picture.splitlines()[0].startswith("8 ")
