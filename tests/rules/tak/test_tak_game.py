"""The Tak rules through the Game interface: openings, slides, walls, roads, endings."""

from __future__ import annotations

import pytest

from rules.game import GameError, IllegalAction, NotationError
from rules.registry import game_class, new_game
from rules.tak.game import TakGame
from rules.tak.move import Move


def legal_texts(game: TakGame) -> set[str]:
    return {move.ptn() for move in game.legal()}


def test_registered_as_tak() -> None:
    assert game_class("tak") is TakGame
    game = new_game("tak", {"size": "4"})
    assert isinstance(game, TakGame) and game.size == 4 and game.players == 2


def test_first_plies_place_an_opponent_flat() -> None:
    game = TakGame.new({"size": "5"})
    assert legal_texts(game) == {f"{f}{r}" for f in "abcde" for r in range(1, 6)}
    for text in ("Sa1", "Ca1"):
        with pytest.raises(IllegalAction):
            game.play_text(text)
    game.play_text("a1")
    assert game.position().stacks[0] == "2"
    assert game.reserves() == ((21, 1), (20, 1))
    assert "a1+" not in legal_texts(game) and "Sb1" not in legal_texts(game)
    game.play_text("e5")
    assert game.position().stacks[24] == "1"
    assert game.turn == 0 and game.move_number == 2
    assert {"e5-", "e5<", "Sb2", "Cb2", "b2"} <= legal_texts(game)
    assert "a1+" not in legal_texts(game)  # a1 is black


def test_carry_limit_is_the_board_size() -> None:
    game = TakGame.from_position_string("x3/x3/12121,x2 1 8")
    assert "3a1+" in legal_texts(game) and "3a1>12" in legal_texts(game)
    with pytest.raises(IllegalAction, match="4a1\\+"):
        game.play_text("4a1+")
    with pytest.raises(IllegalAction):
        game.play_text("3a1+111")  # runs off the board


def test_nothing_moves_onto_a_capstone_or_a_wall() -> None:
    game = TakGame.from_position_string("x5/x5/x5/x5/1,2C,1S,x2 1 5")
    moves = legal_texts(game)
    assert "a1>" not in moves and "a1+" in moves
    game = TakGame.from_position_string("x5/x5/x5/x5/1C,2S,x3 1 5")
    assert "a1>*" in legal_texts(game)  # the capstone flattens the wall
    game = TakGame.from_position_string("x5/x5/x5/x5/1,2S,x3 1 5")
    assert "a1>" not in legal_texts(game)
    game = TakGame.from_position_string("x5/x5/x5/x5/1C,2C,x3 1 5", {"caps": "1"})
    assert "a1>" not in legal_texts(game)


def test_capstone_flattens_a_wall_only_alone_and_last() -> None:
    game = TakGame.from_position_string("x5/x5/x5/x5/21C,x,2S,x2 1 5")
    moves = legal_texts(game)
    assert "2a1>11*" in moves
    assert "2a1>" in moves and "2a1>2*" not in moves  # stops short of the wall
    assert "a1>" in moves and "a1>*" not in moves
    assert not any(m.startswith("2a1>") and m.endswith("2*") for m in moves)
    move = game.parse_action("2a1>11")  # the crush mark is added
    assert move.crush and move.ptn() == "2a1>11*"
    game.play(move)
    assert game.position_string() == "x5/x5/x5/x5/x,2,21C,x2 2 5"
    game.undo()
    game.play(Move.from_ptn("2a1>11"))  # play() adds the mark too
    assert game.history_text() == ["2a1>11*"]
    game.undo()
    with pytest.raises(IllegalAction, match="no wall to flatten"):
        game.parse_action("a1>*")


def test_flattening_a_wall_is_undone_exactly() -> None:
    game = TakGame.from_position_string("x5/x5/x5/x5/1C,2S,x3 1 5")
    before = (game.position_string(), game.hash_key())
    game.play_text("a1>*")
    assert game.position().stacks[1] == "21C"
    game.undo()
    assert (game.position_string(), game.hash_key()) == before


def test_road_wins() -> None:
    game = TakGame.from_position_string("x3/1,1,x/2,2,x 1 5")
    game.play_text("c2")
    assert game.result is not None
    assert (game.result.code, game.result.winners, game.result.reason) == ("R-0", (0,), "road")
    assert game.legal() == []
    with pytest.raises(IllegalAction, match="over"):
        game.play_text("c3")
    game.undo()
    game.play_text("Sc2")  # a wall is not part of a road
    assert game.result is None
    game.play_text("c1")
    assert game.result is not None and game.result.code == "0-R"


def test_a_road_needs_flats_or_capstones_edge_to_edge() -> None:
    game = TakGame.from_position_string("x4/x4/1,1,1C,x/x4 1 5", {"caps": "1"})
    assert game.result is None
    game.play_text("d2")
    assert game.result is not None and game.result.code == "R-0"
    # a diagonal chain is no road
    game = TakGame.from_position_string("x2,1/x,1,x/1,x2 2 5")
    assert game.result is None


def test_double_road_goes_to_the_mover() -> None:
    game = TakGame.from_position_string("x3/1,1,x/2,2,21 1 5")
    game.play_text("c1+")
    assert game.result is not None and game.result.code == "R-0"
    # uncovering only the opponent's road loses
    game = TakGame.from_position_string("x3/1,x2/2,2,21 1 5")
    game.play_text("c1+")
    assert game.result is not None and game.result.code == "0-R"


def test_full_board_counts_flats_with_komi() -> None:
    tps = "1,2,1/2,1,2/1,2,x 1 6"
    cases = [
        ({}, "c1", "F-0", (0,), (5.0, 4.0)),
        ({"halfkomi": "2"}, "c1", "1/2-1/2", (0, 1), (5.0, 4.0)),
        ({"halfkomi": "3"}, "c1", "0-F", (1,), (5.0, 4.0)),
        ({"komi": "1.5"}, "c1", "0-F", (1,), (5.0, 4.0)),
        ({}, "Sc1", "1/2-1/2", (0, 1), (4.0, 4.0)),
    ]
    for options, move, code, winners, scores in cases:
        game = TakGame.from_position_string(tps, options)
        assert game.result is None
        game.play_text(move)
        assert game.result is not None
        assert (game.result.code, game.result.winners) == (code, winners)
        assert (game.result.reason, game.result.scores) == ("flats", scores)
        assert game.flat_counts() == tuple(int(s) for s in scores)


def test_running_out_of_pieces_ends_the_game() -> None:
    tps = "x5/x5/x5/x5/1,2,x3 1 3"
    game = TakGame.from_position_string(tps, {"flats": "2", "caps": "0"})
    game.play_text("c1")
    assert game.result is not None and game.result.code == "F-0"
    game = TakGame.from_position_string(tps, {"flats": "2", "caps": "1"})
    game.play_text("c1")
    assert game.result is None  # white still holds a capstone
    game.play_text("d1")
    assert game.result is None
    game.play_text("Cc2")  # white is out: 2 flats each (a capstone is no flat)
    assert game.result is not None and game.result.code == "1/2-1/2"
    assert game.result.scores == (2.0, 2.0)


SHUFFLE = ["d4<", "a1+", "c4>", "a2-"]


def test_threefold_repetition_is_a_draw_when_enabled() -> None:
    for enabled in (True, False):
        game = TakGame.new({"size": "4", "repetition": str(enabled).lower()})
        game.play_all(["a1", "d4"])
        game.play_all(SHUFFLE)
        assert game.result is None  # the position after ply 2 seen twice
        game.play_all(SHUFFLE[:3])
        assert game.result is None
        game.play_text(SHUFFLE[3])
        if enabled:
            assert game.result is not None
            assert (game.result.code, game.result.reason) == ("1/2-1/2", "repetition")
            game.undo()
            assert game.result is None
        else:
            assert game.result is None


def test_fifty_plies_without_placement_is_a_draw_when_enabled() -> None:
    game = TakGame.new({"size": "4", "rule50": "true"})
    game.play_all(["a1", "d4"])
    for ply in range(49):
        game.play_text(SHUFFLE[ply % 4])
    assert game.result is None
    game.play_text(SHUFFLE[49 % 4])
    assert game.result is not None and game.result.reason == "rule50"
    assert game.perft(1) == 0
    game.undo()
    game.undo()  # 48 slides: back to the position after the opening, white to move
    game.play_text("b2")  # a placement starts the count again
    black_first = ["a1+", "d4<", "a2-", "c4>"]
    for ply in range(49):
        game.play_text(black_first[ply % 4])
    assert game.result is None
    game.play_text(black_first[49 % 4])
    assert game.result is not None and game.result.reason == "rule50"


def test_undo_copy_history_and_errors() -> None:
    game = TakGame.new({"size": "5"})
    with pytest.raises(GameError, match="nothing to undo"):
        game.undo()
    game.play_all(["a1", "e5", "Ce1", "Sd1", "e1<"])
    assert game.history_text() == ["a1", "e5", "Ce1", "Sd1", "e1<*"]
    assert game.ply == 5 and len(game.history) == 5
    assert game.position_string() == "x4,1/x5/x5/x5/2,x2,21C,x 2 3"
    twin = game.copy()
    assert twin.undo().ptn() == "e1<*"
    assert game.ply == 5 and twin.ply == 4
    assert twin.position_string() == "x4,1/x5/x5/x5/2,x2,2S,1C 1 3"
    with pytest.raises(NotationError):
        game.play_text("zz")
    with pytest.raises(IllegalAction, match="illegal move 'd1\\+'"):
        game.play_text("d1+")  # black to move; d1 is white's
    with pytest.raises(IllegalAction, match="f1 is off the 5x5 board"):
        game.play_text("f1")
    with pytest.raises(IllegalAction):
        game.play("a1")  # type: ignore[arg-type]


def test_hash_depends_on_position_and_side_not_on_path() -> None:
    one = TakGame.new({"size": "5"})
    one.play_all(["a1", "e5", "b2", "d4", "c3"])
    two = TakGame.new({"size": "5"})
    two.play_all(["a1", "e5", "c3", "d4", "b2"])
    assert one.position_string() == two.position_string()
    assert one.hash_key() == two.hash_key()
    again = TakGame.from_position_string(one.position_string())
    assert again.hash_key() == one.hash_key()
    other_side = TakGame.from_position_string(one.position_string().replace(" 2 3", " 1 3"))
    assert other_side.hash_key() != one.hash_key()


def test_fast_board_for_bots() -> None:
    game = TakGame.from_position_string("x3/1,1,x/2,2,x 1 5")
    board = game.fast_board()
    code = board.winning_move()
    assert code is not None and game.move_of(code).ptn() == "c2"
    assert board.count_moves() == len(board.moves()) == len(game.legal())
    assert board.tps() == game.position_string() and repr(board) == f"Board({board.tps()!r})"
    board.make(code)
    assert board.result() == (0, "road") and board.has_road(0) and not board.has_road(1)
    assert game.result is None  # the copy is independent
    game.play_code(code)
    assert game.result is not None
    assert game.code_of(game.history[-1]) == code
    with pytest.raises(IllegalAction):
        TakGame.new().play_code(1 << 6)  # no wall on the first ply
    quiet = TakGame.from_position_string("x3/x3/2,x,1 1 3").fast_board()
    assert quiet.winning_move() is None
    # moving a wall away uncovers the flat that completes the road
    uncover = TakGame.from_position_string("22S,2,2,2/1,x3/1,1,1,22/x,1S,x2 2 11")
    code = uncover.fast_board().winning_move()
    assert code is not None and uncover.move_of(code).ptn() == "a4-"
    # a capstone placement completes a road when no stones are left
    capped = TakGame.from_position_string("x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 9", {"flats": "4"})
    code = capped.fast_board().winning_move()
    assert code is not None and capped.move_of(code).ptn() == "Ce3"


def test_a_spread_square_belongs_to_the_top_piece_dropped_there() -> None:
    # a1 holds (bottom to top) black, white, black, white: each drop of two puts a black
    # piece under a white one, so b1 and c1 are white's
    game = TakGame.from_position_string("x5/x5/x5/x5/2121,x4 1 5")
    game.play_text("4a1>22")
    assert game.position().stacks[:3] == ("", "21", "21")
    assert game.flat_counts() == (2, 0)
    assert not {"2b1+", "2c1+", "b1+", "c1+"} & legal_texts(game)  # black's turn
    game.play_text("e5")
    assert {"2b1+", "2c1+"} <= legal_texts(game)


def test_a_spread_completes_a_road_with_the_top_pieces_it_drops() -> None:
    # e1 holds white, then black, white, black, white: carrying four drops white on
    # black on d1 and c1, which joins white's a1 and b1 to e1
    game = TakGame.from_position_string("x5/x5/x5/x5/1,1,x2,12121 1 5")
    game.play_text("4e1<22")
    assert game.position().stacks[:5] == ("1", "1", "21", "21", "1")
    assert game.result is not None and game.result.code == "R-0"
