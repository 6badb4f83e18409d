"""Reverse futility pruning in the Tak search: fewer nodes, the same forced wins and blocks."""

from __future__ import annotations

import threading

import pytest

from bots import Info, Limits
from bots.tak.bot import TakSearchBot
from bots.tak.search import FUTILITY_MARGIN
from rules.tak.game import TakGame

MIDDLE_5 = "x4,1/x2,112C,1,x/x2,2,x2/2,12,x,12S,x/2,21S,1,x,1 1 13"
#: white to move has a road in three plies (d2, threatening e2 and e4, is one way)
FORK = "2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x5 1 6"
#: black threatens a road at e5; white has no road of its own and must block there
BLACK_FIRST = "2,2,2,2,x/x5/x3,1,x/1,1,1,x2/x5 1 6"


def search(tps: str, depth: int, margin: int) -> tuple[str, list[Info], TakSearchBot]:
    bot = TakSearchBot()
    bot.set_option("FutilityMargin", str(margin))
    infos: list[Info] = []
    game = TakGame.from_tps(tps)
    move = bot.think(game.copy(), Limits(depth=depth), threading.Event(), infos.append)
    assert move in game.legal()
    return game.format_action(move), infos, bot


def test_the_option_sets_the_margin_and_defaults_to_the_module_constant() -> None:
    _, _, bot = search(MIDDLE_5, 1, 0)
    assert bot.searcher.futility == 0
    _, _, default = search(MIDDLE_5, 1, FUTILITY_MARGIN)
    assert default.searcher.futility == FUTILITY_MARGIN > 0
    assert TakSearchBot().settings["FutilityMargin"] == str(FUTILITY_MARGIN)


def test_futility_pruning_needs_fewer_nodes_for_the_same_depth() -> None:
    _, with_it, _ = search(MIDDLE_5, 5, FUTILITY_MARGIN)
    _, without, _ = search(MIDDLE_5, 5, 0)
    assert with_it[-1].depth == without[-1].depth == 5
    assert (with_it[-1].nodes or 0) < (without[-1].nodes or 0)


@pytest.mark.parametrize("margin", [0, FUTILITY_MARGIN, 1])
def test_the_fork_is_still_found_and_reported_solved(margin: int) -> None:
    _, infos, _ = search(FORK, 4, margin)
    assert infos[-1].solved == "win"
    assert any(info.solved == "win" for info in infos if (info.depth or 9) <= 3)


@pytest.mark.parametrize("margin", [0, FUTILITY_MARGIN, 1])
def test_a_road_in_one_of_the_opponent_is_still_blocked(margin: int) -> None:
    move, infos, _ = search(BLACK_FIRST, 4, margin)
    assert move in {"e5", "Se5", "Ce5"}
    assert infos[-1].solved != "win"
