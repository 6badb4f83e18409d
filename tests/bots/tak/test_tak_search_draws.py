"""The Tak search bot and the optional draw rules (repetition, rule50) of the game."""

from __future__ import annotations

import threading

import pytest

from bots import Info, Limits
from bots.registry import make_bot
from rules.tak.game import TakGame

# white is far ahead on flats; each side has one flat to shuffle (white a1-b1, black e5-e4)
AHEAD = "x4,2/1,1,1,x2/1,1,x3/x5/1,x4 1 10"
SHUFFLE = ("a1>", "e5-", "b1<", "e4+")


def search(game: TakGame) -> tuple[str, Info]:
    """The search bot's move at depth 3 and its last report with a score."""
    infos: list[Info] = []
    bot = make_bot("tak", "search")
    move = bot.think(game.copy(), Limits(depth=3), threading.Event(), infos.append)
    assert move in game.legal()
    scored = [info for info in infos if info.score_cp is not None]
    return game.format_action(move), scored[-1]


def shuffled(plies: int, rules: dict[str, str]) -> TakGame:
    game = TakGame.from_tps(AHEAD, {"size": "5", **rules})
    for i in range(plies):
        game.play(game.parse_action(SHUFFLE[i % 4]))
    assert game.result is None and game.turn == 1
    return game


def test_a_behind_side_takes_the_fifty_ply_draw_when_the_rule_is_on() -> None:
    game = shuffled(49, {"rule50": "true"})
    assert game.quiet_plies == 49
    move, info = search(game)
    assert info.score_cp == 0
    game.play(game.parse_action(move))
    assert game.result is not None and game.result.reason == "rule50"


def test_a_behind_side_takes_the_repetition_draw_when_the_rule_is_on() -> None:
    game = shuffled(7, {"repetition": "true"})
    move, info = search(game)
    assert (move, info.score_cp) == ("e4+", 0)
    game.play(game.parse_action(move))
    assert game.result is not None and game.result.reason == "repetition"


@pytest.mark.parametrize("plies", [7, 49])
def test_without_the_rules_the_same_positions_are_lost(plies: int) -> None:
    _, info = search(shuffled(plies, {}))
    assert info.score_cp is not None and info.score_cp < 0


def test_the_game_reports_position_counts_and_quiet_plies() -> None:
    game = shuffled(7, {})
    start = TakGame.from_tps(AHEAD).hash_key()
    assert game.position_counts()[start] == 2
    assert game.quiet_plies == 7
    game.play(game.parse_action("a2"))
    assert game.quiet_plies == 0
