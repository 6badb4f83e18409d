"""The Trike search bot: legal answers, limits, stop, reports, and tactics."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import Info, Limits
from bots.registry import default_bot, make_bot
from bots.trike.bitboard import BitEval
from bots.trike.bot import TrikeSearchBot
from bots.trike.eval import TEMPO, evaluate, region
from bots.trike.search import Searcher
from rules.game import Outcome
from rules.registry import new_game
from rules.trike.game import TrikeGame
from tests.support.trike import random_game


def think(
    game: TrikeGame, limits: Limits, bot: TrikeSearchBot | None = None
) -> tuple[int, list[Info]]:
    infos: list[Info] = []
    action = (bot or TrikeSearchBot()).think(game.copy(), limits, threading.Event(), infos.append)
    return action, infos


def test_registry_makes_it_the_default() -> None:
    assert default_bot("trike") == "search"
    assert isinstance(make_bot("trike", "search"), TrikeSearchBot)


@pytest.mark.parametrize(("size", "plies"), [(7, 0), (7, 1), (7, 2), (13, 0), (13, 1), (9, 12)])
def test_answers_legally_within_depth(size: int, plies: int) -> None:
    game = random_game(size, 3, plies)
    action, infos = think(game, Limits(depth=2))
    assert action in game.legal()
    assert infos and max(info.depth or 0 for info in infos) <= 2
    last = infos[-1]
    assert last.pv and last.pv[0] == game.format_action(action)
    assert last.nodes is not None and last.nodes > 0 and last.nps is not None
    assert last.time_ms is not None
    assert (last.score_cp is None) == (last.solved is not None)


def test_node_limit_ends_the_search() -> None:
    game = random_game(13, 5, 3)
    bot = TrikeSearchBot()
    infos: list[Info] = []
    action = bot.think(game.copy(), Limits(nodes=2_000), threading.Event(), infos.append)
    assert action in game.legal()
    assert all((info.nodes or 0) <= 2_000 + 64 for info in infos)
    # the cut-short depth still ends with a report of the move played
    assert infos[-1].pv[0] == game.format_action(action)
    assert bytes(bot.searcher.board) == bytes(game.board)


@pytest.mark.parametrize("limits", [Limits(movetime=50), Limits(infinite=True), Limits()])
def test_a_stop_already_set_ends_the_search_before_any_node(limits: Limits) -> None:
    # the flag is checked before each root move and every 64 nodes, so a stop that comes
    # during the first depth (on the largest board) is not left waiting for it to finish
    game = random_game(19, 4, 3)
    bot = TrikeSearchBot()
    stop = threading.Event()
    stop.set()
    action = bot.think(game.copy(), limits, stop, lambda info: None)
    assert action in game.legal()
    assert bot.searcher.nodes == 0
    assert bytes(bot.searcher.board) == bytes(game.board)


def test_stop_is_honoured_in_infinite_mode() -> None:
    game = random_game(13, 6, 2)
    stop = threading.Event()
    answer: list[int] = []
    worker = threading.Thread(
        target=lambda: answer.append(
            TrikeSearchBot().think(game.copy(), Limits(infinite=True), stop, lambda info: None)
        )
    )
    worker.start()
    stop.set()
    worker.join(30)
    assert not worker.is_alive()
    assert answer and answer[0] in game.legal()


def midgames(spread: int) -> Iterator[TrikeGame]:
    """Unfinished 6x6 games after 6 to 5 + spread seeded random plies."""
    for seed in range(200):
        game = random_game(6, seed, 6 + seed % spread)
        if game.result is None:
            yield game


def outcome_after(game: TrikeGame, action: int) -> Outcome | None:
    game.play(action)
    outcome = game.result
    game.undo()
    return outcome


def won(outcome: Outcome | None, seat: int) -> bool:
    return outcome is not None and outcome.winners == (seat,)


def lost(outcome: Outcome | None, seat: int) -> bool:
    return outcome is not None and outcome.winners != (seat,)


def loses_at_once(game: TrikeGame, action: int) -> bool:
    """Whether the action ends the game lost for its player, or lets the reply win."""
    seat = game.turn
    game.play(action)
    try:
        if game.result is not None:
            return lost(game.result, seat)
        return any(lost(outcome_after(game, reply), seat) for reply in game.legal())
    finally:
        game.undo()


def test_takes_an_immediate_winning_trap() -> None:
    found = 0
    for game in midgames(10):
        seat = game.turn
        winning = [a for a in game.legal() if won(outcome_after(game, a), seat)]
        if not winning:
            continue
        found += 1
        action, infos = think(game, Limits(depth=3))
        assert action in winning
        assert infos[-1].solved == "win"
    assert found >= 3


def test_avoids_handing_over_an_immediate_win() -> None:
    checked = 0
    for game in midgames(12):
        safe = [action for action in game.legal() if not loses_at_once(game, action)]
        if not safe or len(safe) == len(game.legal()):
            continue
        checked += 1
        action, _ = think(game, Limits(depth=3))
        assert action in safe
    assert checked >= 3


def test_beats_random_on_a_small_board() -> None:
    wins = 0
    for seed in range(4):
        game = TrikeGame.new({"size": "7"})
        players = [TrikeSearchBot(), make_bot("trike", "random", {"Seed": str(seed + 1)})]
        if seed % 2:
            players.reverse()
        while game.result is None:
            action = players[game.turn].think(
                game.copy(), Limits(depth=3), threading.Event(), lambda info: None
            )
            game.play(action)
        outcome = game.result
        wins += outcome.winners == ((0,) if seed % 2 == 0 else (1,))
    assert wins == 4


def test_searcher_make_unmake_keeps_the_hash() -> None:
    game = random_game(9, 11, 1)
    searcher = Searcher()
    searcher.load(game)
    start = (bytes(searcher.board), searcher.pawn, searcher.colour, searcher.key)
    moves = searcher.moves()
    for move in moves:
        undo = searcher.make(move)
        child = game.copy()
        child.play(move)
        assert searcher.key == child.hash_key()
        searcher.unmake(move, undo)
    assert (bytes(searcher.board), searcher.pawn, searcher.colour, searcher.key) == start


def test_evaluation_region_and_symmetry() -> None:
    game = random_game(9, 2, 9)
    cells = region(game.board, game.pawn, game.geo.neighbours)
    assert all(not game.board[c] for c in cells)
    flipped = bytearray(3 - v if v else 0 for v in game.board)
    own = evaluate(game.board, game.pawn, game.to_move, game.geo.neighbours)
    other = evaluate(game.board, game.pawn, 3 - game.to_move, game.geo.neighbours)
    assert own + other == 2 * TEMPO
    assert own == evaluate(flipped, game.pawn, 3 - game.to_move, game.geo.neighbours)


def test_finished_or_foreign_games_are_refused() -> None:
    with pytest.raises(ValueError, match="over"):
        think(TrikeGame.from_position_string("3:X/xo/3:o:-"), Limits(depth=1))
    tak = new_game("tak")
    with pytest.raises(ValueError, match="tak"):
        TrikeSearchBot().think(tak, Limits(depth=1), threading.Event(), lambda info: None)


def wins_for_the_seat_to_act(game: TrikeGame) -> bool:
    """Plain minimax over the whole game tree (tiny boards only)."""
    outcome = game.result
    if outcome is not None:
        return outcome.winners == (game.turn,)
    for action in game.legal():
        game.play(action)
        reply_wins = wins_for_the_seat_to_act(game)
        game.undo()
        if not reply_wins:
            return True
    return False


@pytest.mark.parametrize("seed", range(14))
def test_search_proves_the_same_result_as_full_minimax(seed: int) -> None:
    # seeds 12 and 13: the empty side-3 and side-4 boards (the swap decides them)
    size, plies = {12: (3, 0), 13: (4, 0)}.get(seed, (4, 1 + seed % 4))
    game = random_game(size, seed, plies)
    if game.result is not None:
        game = random_game(size, seed, 1)
    _, infos = think(game, Limits(depth=40))
    assert infos[-1].solved == ("win" if wins_for_the_seat_to_act(game) else "loss")


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=3, max_value=19), st.integers(0, 2**32), st.integers(1, 200))
def test_bitboard_evaluation_equals_the_reference(size: int, seed: int, plies: int) -> None:
    game = random_game(size, seed, plies)
    fast = BitEval(game.geo)
    x_bits = sum(fast.bit[c] for c, colour in enumerate(game.board) if colour == 1)
    o_bits = sum(fast.bit[c] for c, colour in enumerate(game.board) if colour == 2)
    for colour in (1, 2):
        expected = evaluate(game.board, game.pawn, colour, game.geo.neighbours)
        assert fast.evaluate(x_bits, o_bits, game.pawn, colour) == expected
    assert fast.dilate(fast.bit[game.pawn]) == sum(
        fast.bit[n] for n in game.geo.neighbours[game.pawn]
    )
