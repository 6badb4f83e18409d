"""Tak core behaviours a mutation run found untested by the feature tests (docs/mutation.md)."""

from __future__ import annotations

import time

import pytest

from rules.game import GameError, NotationError, OptionError
from rules.tak.board import Board, code_ptn
from rules.tak.game import TakGame, TakOptions, komi_text
from rules.tak.move import Move
from rules.tak.position import Position
from rules.tak.ptn import PtnGame, parse_many
from rules.tak.tinue import defended, is_tak, is_tinue, mark, solve, tinue, win_in_one


def test_a_move_code_of_one_piece_is_written_without_a_count() -> None:
    game = TakGame.from_position_string("x5/x5/x5/x5/12,1,x3 1 5")
    assert code_ptn(game.code_of(Move.from_ptn("b1>")), 5) == "b1>"
    assert code_ptn(game.code_of(Move.from_ptn("2a1>")), 5) == "2a1>"


def test_a_set_up_stack_hashes_like_the_same_stack_played_there() -> None:
    game = TakGame.from_position_string("x5/x5/x5/x5/1,2,x3 2 5")
    game.play_text("b1<")  # a1: black on white
    again = TakGame.from_position_string(game.position_string())
    assert again.position_string() == game.position_string()
    assert again.hash_key() == game.hash_key()


def test_a_wall_that_moves_stays_a_wall() -> None:
    game = TakGame.from_position_string("x5/x5/x5/x5/1S,x4 1 5")
    game.play_text("a1>")
    assert game.position().stacks[:2] == ("", "1S")


def test_taking_back_a_placement_leaves_the_square_and_reserves_as_they_were() -> None:
    game = TakGame.from_position_string("x5/x5/x5/x5/x,1,x3 1 5")
    reserves = game.reserves()
    for placement in ("a1", "Sa1", "Ca1"):
        game.play_text(placement)
        game.undo()
        assert game.reserves() == reserves
    game.play_text("b1<")  # a white flat onto the emptied square
    assert game.position().stacks[0] == "1"


def test_a_ptn_record_keeps_its_comments_before_the_first_move() -> None:
    ptn = PtnGame(tags={"Size": "5"}, comments=["opening: book 7"])
    ptn.add_move("a1")
    text = ptn.text()
    assert "\n{opening: book 7}\n" in text
    assert PtnGame.parse(text).comments == ["opening: book 7"]


def test_a_komi_of_nothing_is_taken() -> None:
    assert PtnGame(tags={"Size": "5", "Komi": "0"}).options()["halfkomi"] == "0"


def test_a_bad_tps_square_is_named_with_its_1_based_row() -> None:
    with pytest.raises(NotationError, match=r"'Q' in TPS row 2 \('x,Q,x'\)"):
        Position.from_tps("x3/x,Q,x/x3 1 1")


def test_the_winning_move_can_be_a_one_piece_slide_onto_a_foreign_stack() -> None:
    """No placement wins here; only d2- (covering the black d1) completes the road, and
    d2 could also slide up or left (onto the black c2)."""
    game = TakGame.from_position_string("x4/x4/x2,2,1/1,1,1,2 1 5")
    code = game.fast_board().winning_move()
    assert code is not None and game.move_of(code).ptn() == "d2-"
    game.play_code(code)
    assert game.result is not None and game.result.winners == (0,)


@pytest.mark.parametrize(("d1", "win"), [("2S", "e2-*"), ("2C", None), ("2", "e2-")])
def test_a_lone_capstone_wins_by_flattening_a_wall_never_a_capstone(
    d1: str, win: str | None
) -> None:
    game = TakGame.from_position_string(f"x5/x5/x5/x3,2,1C/1,1,1,1,{d1} 1 5")
    code = game.fast_board().winning_move()
    assert (None if code is None else game.move_of(code).ptn()) == win


@pytest.mark.parametrize(("komi", "half"), [("0", 0), ("0.5", 1), ("2.5", 5)])
def test_a_komi_of_zero_or_any_half_flat_is_taken(komi: str, half: int) -> None:
    assert TakOptions.parse({"komi": komi}).half_komi == half


@pytest.mark.parametrize("komi", ["0.3", "-0.5", "-1", "inf"])
def test_a_komi_that_is_no_half_flat_or_negative_is_refused_naming_it(komi: str) -> None:
    with pytest.raises(OptionError, match=f"komi={komi!r}: need a multiple of 0.5, >= 0"):
        TakOptions.parse({"komi": komi})


def test_a_size_option_must_agree_with_the_position_it_comes_with() -> None:
    empty = "x5/x5/x5/x5/x5 1 1"
    assert TakGame.from_position_string(empty, {"size": "5"}).options.size == 5
    with pytest.raises(GameError, match="option size=6 but the position is 5x5"):
        TakGame.from_position_string(empty, {"size": "6"})


def test_a_file_road_threat_is_completed_on_the_last_rank() -> None:
    game = TakGame.from_position_string("x5/1,x4/1,x4/1,2,x3/1,2,x3 1 5")
    code = game.fast_board().winning_move()
    assert code is not None and game.move_of(code).ptn() == "a5"


def test_placing_the_last_piece_in_hand_to_win_on_flats_is_a_win_in_one() -> None:
    """White has one stone left (nine in the b2 stack) and leads on flats: any flat
    placement ends the game, and white wins it; no road is in reach."""
    game = TakGame.from_tps("x2,22222/x,111111111,x/x3 1 10")
    code = win_in_one(game.fast_board())
    assert code is not None
    game.play(game.move_of(code))
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == ((0,), "flats")


# ---- the tinue solver (rules/tak/tinue.py) -------------------------------------------
FORK_AFTER_D2 = "2,2,x3/x3,1,x/x3,1,x/1,1,1,1,x/x5 2 6"  # test_tak_tinue's FORK after d2


def test_a_tak_is_judged_on_a_position_set_up_from_tps() -> None:
    """No move played on the game object: the side that just moved is the position's."""
    game = TakGame.from_tps(FORK_AFTER_D2)
    assert game.ply == 0
    assert is_tak(game) and is_tinue(game) and mark(game) == "''"


@pytest.mark.parametrize(
    "tps",
    [
        "x3/x,2222222221,x/1,1,x 2 10",  # black to move, one stone left; white leads
        "x3/x,1111111112,x/2,2,x 1 10",  # the same with the colours swapped
    ],
)
def test_a_tak_answered_only_by_moves_that_lose_on_flats_is_tinue(tps: str) -> None:
    """The defender's every move places its last piece (blocking c1 too): the game ends
    on flats at once, which the side that made the tak wins."""
    game = TakGame.from_tps(tps)
    taker = 1 - game.turn
    assert is_tak(game) and is_tinue(game) and mark(game) == "''"
    line = defended(game.fast_board())
    assert line is not None and len(line) == 1
    game.play(game.move_of(line[0]))
    assert game.result is not None and game.result.reason == "flats"
    assert game.result.winners == (taker,)


def test_a_tak_whose_every_answer_loses_on_flats_is_found_as_a_tinue() -> None:
    game = TakGame.from_tps("x3/x,2222222221,x/1,x2 1 10")  # black has one stone left
    line = tinue(game, 3)
    assert line is not None and len(line) == 2  # the tak, then any reply ends the game
    game.play_all([move.ptn() for move in line])
    assert game.result is not None and game.result.winners == (0,)


def test_filling_the_last_square_to_win_on_flats_is_a_one_ply_tinue() -> None:
    """b2 is the only empty square (white has pieces to spare): any placement there fills
    the board, and white has four flats to black's none."""
    game = TakGame.from_tps("1,2S,1/2S,x,2S/1,2S,1 1 5")
    line = tinue(game, 1)
    assert line is not None and len(line) == 1
    game.play(line[0])
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == ((0,), "flats")


def test_a_deadline_already_past_stops_the_search_whatever_the_budget() -> None:
    """This five-ply tinue takes 25 positions to prove; the clock is read every
    CLOCK_EVERY (16) of them, so a passed deadline gives up before the proof."""
    board = TakGame.from_tps("2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x,2,x3 1 6").fast_board()
    assert solve(board.copy(), 5) is not None
    assert solve(board, 5, budget=10**6, deadline=time.monotonic() - 1) is None


def test_a_winning_slide_found_after_one_reply_is_not_played_after_another() -> None:
    """The defender's replies are tried in turn, each first against the winning move found
    after the one before. Deep in this search that move is a slide (b1+) and a later
    reply leaves b1 empty: the slide is no threat there, nor legal. No tinue within 5."""
    game = TakGame.from_tps("x,1,1,2/1S,x,1,22/1,x2,1S/1,12S,x2 1 13")
    assert tinue(game, 5) is None
    assert not is_tinue(game, 4)


def test_a_slide_that_fills_the_board_to_win_on_flats_is_a_win_in_one() -> None:
    """b2 is the last empty square. A flat placed there only draws (7 flats each); 2a2>11
    drops one piece on b2 and one on black's c2 flat: 8 to 6, a win on flats, no road."""
    game = TakGame.from_tps("1,2,1,2/2,1,2,1/111,x,2,2S/2,1,1S,2 1 10")
    line = tinue(game, 1)
    assert line is not None and [move.ptn() for move in line] == ["2a2>11"]
    game.play(line[0])
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == ((0,), "flats")


def test_the_tinue_mark_declines_when_a_repetition_could_end_the_game_first() -> None:
    """The fork of test_tak_tinue after its position came round twice: d2 is tak, but a
    third repetition could draw the game within the line, so no tinue is claimed."""
    game = TakGame.from_tps("2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x5 1 6", {"repetition": "true"})
    game.play_all(["d4+", "a5-", "d5-", "a4+", "d2"])  # quiet plies back to the start
    assert is_tak(game) and not is_tinue(game) and mark(game) == "'"
    assert is_tinue(TakGame.from_tps(FORK_AFTER_D2))  # the same position without the rule


def test_the_50_ply_rule_bounds_the_tinue_search_to_the_plies_left() -> None:
    """46 quiet plies played: a 3-ply search ends by ply 49 and is answered; a 4-ply one
    could reach the 50th quiet ply (a draw), so tinue() declines it."""
    game = TakGame.from_tps("2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x5 1 6", {"rule50": "true"})
    for _ in range(11):
        game.play_all(["d4+", "a5-", "d5-", "a4+"])  # quiet plies back to the start
    game.play_all(["d4+", "a5-"])
    assert game.quiet_plies == 46
    assert tinue(game, 3) is not None
    assert tinue(game, 4) is None


def test_the_first_move_of_ones_own_can_start_a_tinue() -> None:
    """3x3 after the opening placements (a1 for black, b2 for white): white's first piece
    of its own, c2, starts a forced road within 7 plies."""
    game = TakGame.new({"size": "3"})
    game.play_all(["a1", "b2"])
    line = tinue(game, 7)
    assert line is not None and line[0].ptn() == "c2"
    game.play_all([move.ptn() for move in line])
    assert game.result is not None and game.result.winners == (0,)


def test_with_two_stones_a_side_the_first_own_piece_wins_on_flats() -> None:
    """flats=2: after the opening placements white's last stone ends the game, 2 flats
    to 1: a win in one at ply 2 already."""
    game = TakGame.new({"size": "3", "flats": "2", "caps": "0"})
    game.play_all(["a1", "b2"])
    line = tinue(game, 1)
    assert line is not None
    game.play(line[0])
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == ((0,), "flats")


def test_flats_are_at_most_200() -> None:
    assert TakGame.new({"flats": "200"}).reserves()[0] == (200, 1)
    with pytest.raises(OptionError, match=r"flats='201': must be 0\.\.200"):
        TakGame.new({"flats": "201"})


def test_an_odd_half_komi_is_written_with_its_half() -> None:
    assert komi_text(5) == "2.5"


_BACK_AND_FORTH = ["a1", "c3", "c3-", "a1+", "c2+", "a2-", "c3-", "a1+"]


def test_an_undone_and_replayed_move_counts_its_position_once() -> None:
    game = TakGame.new({"size": "3", "repetition": "true"})
    game.play_all(_BACK_AND_FORTH[:6])  # the position after ply 2, a second time
    game.undo()
    game.play_all(["a2-", "c3-", "a1+", "c2+", "a2-"])  # and a third: a draw
    assert game.result is not None and game.result.reason == "repetition"


def test_divide_with_repetition_ends_lines_at_the_third_occurrence() -> None:
    counts = {}
    for repetition in ("true", "false"):
        game = TakGame.new({"size": "3", "repetition": repetition})
        game.play_all(_BACK_AND_FORTH)  # c2+ a2- would repeat the position a third time
        counts[repetition] = dict(game.divide(3))
        assert sum(counts[repetition].values()) == game.perft(3)
    assert counts["true"]["c2+"] < counts["false"]["c2+"]


def test_divide_at_depth_0_lists_no_moves() -> None:
    assert TakGame.new({"size": "5"}).divide(0) == []


@pytest.mark.parametrize(
    ("tps", "win"),
    [
        ("1,1,x/x3/x3 1 2", "c3"),  # set up at ply 2: a road can already be made
        # black's stone carried off a stack tops c1: the road a1-c1 (read from the stack)
        ("x3/x,1,12/2,2,1 2 5", "c2-"),
    ],
)
def test_the_winning_move_of_a_set_up_position(tps: str, win: str) -> None:
    board = TakGame.from_tps(tps).fast_board().copy()
    move = board.winning_move()
    assert move is not None and code_ptn(move, board.size) == win


def test_the_full_perft_agrees_with_the_fast_one() -> None:
    board = TakGame.new({"size": "4"}).fast_board().copy()
    assert [board.perft_full(depth) for depth in range(4)] == [1, 16, 240, 7440]
    assert [board.perft(depth) for depth in range(4)] == [1, 16, 240, 7440]


def test_a_slide_of_a_tall_stack_hashes_as_the_position_set_up_anew() -> None:
    """Six carried pieces, a black one fifth from the bottom: the hash keys of pieces
    past the fourth of a slide, picked up and dropped."""
    game = TakGame.from_tps("x6/x6/x6/x6/x6/2121221,x5 1 10")
    game.play(game.parse_action("6a1>"))
    board = game.fast_board()
    assert board.tps() == "x6/x6/x6/x6/x6/2,121221,x4 2 10"
    assert board.hash == TakGame.from_tps(board.tps()).fast_board().hash


def test_the_road_squares_of_each_colour_are_its_own_flats_and_capstones() -> None:
    board = TakGame.from_tps("1,1S,1C,x2/x5/x5/x5/2,2,x3 1 3").fast_board()
    assert board.road_bits(0) == board.white & ~board.walls and board.road_bits(0).bit_count() == 2
    assert board.road_bits(1) == board.black


def test_a_new_board_starts_at_ply_0_with_the_swapped_placements() -> None:
    board = Board(5, 21, 1, 0)
    assert board.ply == 0
    board.make(board.moves()[0])
    board.make(board.moves()[0])  # black places a white stone
    assert board.tps() == "x5/x5/x5/x5/2,1,x3 1 2"


def test_a_record_with_a_result_but_no_result_tag_ends_with_it() -> None:
    record = PtnGame()
    record.add_move("a1")
    record.add_move("e5")
    record.result = "R-0"
    assert record.text() == "\n1. a1 e5\nR-0\n"


def test_an_unfinished_result_tag_leaves_the_game_unfinished() -> None:
    assert PtnGame.parse('[Result "*"]\n\n1. a1 e5').result is None


def test_a_skipped_ply_leaves_the_moves_after_it() -> None:
    assert [game.moves for game in parse_many("1. -- e5 2. a1 b1")] == [["e5", "a1", "b1"]]


def test_a_tps_tag_without_a_move_number_numbers_from_1() -> None:
    record = PtnGame()
    record.set_tag("TPS", "x5/x5/x5/x5/x5 2 x")
    record.add_move("a1")
    assert record.text() == '[TPS "x5/x5/x5/x5/x5 2 x"]\n\n1. a1\n'


def test_a_move_made_without_a_crush_is_no_crush() -> None:
    move = Move(0, 0, "F", "+", (1,))
    assert move == Move.from_ptn("a1+") and move.ptn() == "a1+"


@pytest.mark.parametrize(("file", "rank", "name"), [(-1, 0, "(-1,0)"), (0, 8, "(0,8)")])
def test_a_square_off_the_board_is_named_by_its_coordinates(
    file: int, rank: int, name: str
) -> None:
    assert Move(file, rank).square == name
