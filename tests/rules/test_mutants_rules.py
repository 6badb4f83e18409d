"""Rules-core behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

import random
import re

import pytest

from rules.game import OptionSpec
from rules.registry import new_game
from rules.traxit.board import xy_cell
from rules.traxit.game import TraxitGame
from rules.traxit.tiles import parse_tile, route_table
from rules.trike.errors import OffLine, TrikeOptionError
from rules.trike.game import TrikeGame
from tei.game_rules import TeiSettings
from tests.rules.traxit.test_traxit_props import tree_count


@pytest.mark.parametrize("game", ["trike", "traxit"])
def test_perft_and_divide_at_depth_0_count_the_position_alone(game: str) -> None:
    position = new_game(game, {"size": "4"} if game == "trike" else None)
    assert position.perft(0) == 1
    assert position.divide(0) == []


def test_o_wins_for_the_seat_that_swapped_into_it() -> None:
    game = TrikeGame.new({"size": "4"})
    game.play_all(
        ["a1", "swap", "b1", "c1", "d1", "b3", "b2", "a3", "a2"]
    )  # after the swap seat 0 plays O
    assert game.result is not None
    assert (game.result.winners, game.result.code) == ((0,), "O 3-2")


def test_a_trike_position_read_back_hashes_like_the_game_that_reached_it() -> None:
    game = TrikeGame.new({"size": "5"})
    game.play_all(["c2", "b2", "b4", "c3"])
    again = TrikeGame.from_position_string(game.position_string())
    assert again.position_string() == game.position_string()
    assert again.hash_key() == game.hash_key()


def test_the_trike_board_size_goes_in_teinewgame_not_setoption() -> None:
    told = TeiSettings.of("trike", {"size": "7"})
    assert (told.size, told.settings) == (7, ())


def test_trike_boards_go_up_to_size_19_and_no_further() -> None:
    assert TrikeGame.new({"size": "19"}).size == 19
    with pytest.raises(TrikeOptionError, match="size='20'"):
        TrikeGame.new({"size": "20"})


@pytest.mark.parametrize(
    ("position", "tile", "moves"),
    [
        # the second seat of two, both pawns free
        (
            "TX 1GG5/8/2x2x2/8/8/2x2x2/2R5/3R4 R@S,G@N G:choose 1.1 7fff,ffff 0,0 00",
            "T01",
            ["b8-b7", "b8-a8", "c8-c7", "c8-d8"],
        ),
        # the second seat of three, whose first pawn (a2) alone can move with T03
        (
            "TX 3G1G2/8/B1x5/8/6R1/5x2/B7/6R1 R@S,B@W,G@N B:choose 1.1 fdff,ffff,ffff 0,0,0 000",
            "T03",
            ["a2-e2"],
        ),
    ],
)
def test_a_traxit_seat_that_can_move_with_its_tile_must_move(
    position: str, tile: str, moves: list[str]
) -> None:
    game = TraxitGame.from_position_string(position)
    game.play_text(tile)
    assert [str(action) for action in game.legal()] == moves


def test_traxit_team_partners_are_the_seats_across() -> None:
    game = TraxitGame.new({"players": "4", "teams": "true"})
    assert [game.partners(seat) for seat in range(4)] == [(0, 2), (1, 3), (0, 2), (1, 3)]


def test_traxit_turn_labels_show_the_totals_only_where_a_set_ends() -> None:
    game = TraxitGame.new()
    rng = random.Random(3)
    while game.result is None:
        game.play(rng.choice(game.legal()))
    totals = [after for _label, after in game.turn_labels() if after]
    assert [total.split(":")[0] for total in totals] == ["set 1", "set 2", "set 3", "set 4"]


def test_traxit_tile_t16_walks_east_northeast_southeast_south() -> None:
    """Its one diagonal step down (SE): from c5 the unturned tile ends on f4 via d5, e6, f5."""
    start = xy_cell(2, 4)
    path = [xy_cell(3, 4), xy_cell(4, 5), xy_cell(5, 4), xy_cell(5, 3)]
    routes = dict(route_table()[parse_tile("T16")][start])
    assert sum(1 << cell for cell in path) in routes[path[-1]]


def test_a_trike_game_before_its_first_checker_scores_nothing_and_renders() -> None:
    game = TrikeGame.new({"size": "4"})
    assert game.colour_scores() == (0, 0)
    assert game.render_svg().startswith("<svg")  # no result to note


def test_a_trike_pawn_on_the_first_cell_still_moves_along_lines_only() -> None:
    game = TrikeGame.new({"size": "4"})
    game.play(0)  # the pawn on a4, cell 0
    with pytest.raises(OffLine, match="b2 is not on a line from the pawn at a4"):
        game.play(4)


@pytest.mark.parametrize("options", [{}, {"players": "3"}, {"players": "4", "teams": "true"}])
def test_every_traxit_state_of_a_game_sets_up_again_from_its_position_string(
    options: dict[str, str],
) -> None:
    """Each pawn pair is kept in cell order and the finished game's mover is seat 0, as a
    position string read back gives them."""
    game = TraxitGame.new(options)
    while game.result is None:
        game.play(game.legal()[len(game.history) % len(game.legal())])
        again = TraxitGame.from_position_string(game.position_string(), options)
        assert (again.state, again.turn) == (game.state, game.turn)


def test_a_traxit_set_scores_both_pawns_of_a_seat() -> None:
    # Set 1, round 4: red (d4, e3) moves e3-e2: d4 100 + e2 25 at the set's end
    game = TraxitGame.from_position_string(
        "TX 1G4G1/8/2x2x2/8/3R4/2x1Rx2/8/8 R@S,G@N R:T01 1.4 fff1,fff8 0,0 00"
    )
    game.play_text("e3-e2")
    game.play_text("T04")
    game.play_text(sorted(game.format_action(a) for a in game.legal())[0])
    assert game.position_string().split()[6] == "125,0"


def test_traxit_perft_counts_the_leaves_that_play_reaches() -> None:
    game = TraxitGame.new({})
    game.play_all(["@c1", "@f8", "@e1", "@d8"])  # the pawns placed: tiles and moves
    assert [game.perft(depth) for depth in range(4)] == [tree_count(game, d) for d in range(4)]
    finished = TraxitGame.new({})
    while finished.result is None:
        finished.play(finished.legal()[len(finished.history) % len(finished.legal())])
    assert finished.perft(1) == 0


def test_a_traxit_game_shows_its_current_position() -> None:
    game = TraxitGame.new({})
    game.play_all(["@c1", "@f8", "@e1"])
    again = TraxitGame.from_position_string(game.position_string())
    assert game.render() == again.render()
    assert game.render_svg(last=False) == again.render_svg(last=False)


def test_a_team_game_labels_each_set_with_the_teams_sums() -> None:
    game = TraxitGame.new({"players": "4", "teams": "true"})
    while game.result is None:
        game.play(game.legal()[len(game.history) % len(game.legal())])
    afters = [after for _label, after in game.turn_labels() if after]
    assert len(afters) == 4
    assert all(re.search(r"; teams R\+G \d+ B\+Y \d+$", after) for after in afters)


@pytest.mark.parametrize(("low", "high", "text"), [(3, None, ">= 3"), (None, 8, "<= 8")])
def test_an_int_option_bounded_on_one_side_says_which(
    low: int | None, high: int | None, text: str
) -> None:
    assert OptionSpec("n", "int", "", "a count", low, high).values_text() == text


def test_divide_reports_each_root_action_as_it_is_done() -> None:
    game = TrikeGame.new({"size": "4"})
    seen: list[tuple[str, int]] = []
    counts = game.divide(2, lambda action, count: seen.append((action, count)))
    assert seen == counts and len({action for action, _ in seen}) == len(seen) > 1
