"""The Tak search bot's `Level` option: declared, validated, and it changes the play."""

from __future__ import annotations

import threading

import pytest

from bots.base import Info, Limits
from bots.registry import make_bot
from rules.tak.game import TakGame
from tests.support.engine_pipe import EnginePipe

MIDDLE = "x4,1/x2,112C,1,x/x2,2,x2/2,12,x,12S,x/2,21S,1,x,1 1 13"
PLACE_WIN = "x5/x5/x5/2,2,2,x2/1,1,1,1,x 1 4"


def search(tps: str, limits: Limits, **settings: str) -> tuple[str, list[Info]]:
    game = TakGame.from_tps(tps)
    infos: list[Info] = []
    bot = make_bot("tak", "search", settings)
    move = bot.think(game.copy(), limits, threading.Event(), infos.append)
    assert move in game.legal()
    return game.format_action(move), infos


@pytest.mark.process
def test_the_level_is_declared_over_tei_and_refused_out_of_range() -> None:
    engine = EnginePipe("--bot", "search")
    try:
        engine.send("tei")
        handshake = engine.until("teiok")
        assert "option name Level type spin default 10 min 1 max 10" in handshake
        engine.send("setoption name Level value 11", "isready")
        lines = engine.until("readyok")
        assert any("Level" in line and "11" in line for line in lines[:-1]), lines
        engine.send("setoption name Level value 3", "teinewgame 5", "isready")
        assert not any("error" in line for line in engine.until("readyok"))
        engine.send("position startpos moves a1 e5", "go depth 4")
        lines = engine.until("bestmove")
        depths = [int(w[w.index("depth") + 1]) for w in map(str.split, lines) if "depth" in w]
        assert depths and max(depths) <= 2  # level 3 searches two plies at most
    finally:
        engine.close()


@pytest.mark.parametrize("value", ["0", "11", "x", ""])
def test_a_bad_level_is_a_value_error_naming_it(value: str) -> None:
    with pytest.raises(ValueError, match="Level"):
        make_bot("tak", "search", {"Level": value})


def test_low_levels_search_shallower() -> None:
    _, full = search(MIDDLE, Limits(depth=4))
    _, low = search(MIDDLE, Limits(depth=4), Level="1", Seed="5")
    assert max(i.depth or 0 for i in full) == 4
    assert max(i.depth or 0 for i in low) == 1


def test_low_levels_vary_their_moves_and_the_top_level_does_not() -> None:
    low = {search(MIDDLE, Limits(depth=4), Level="1", Seed=str(s))[0] for s in range(1, 13)}
    top = {search(MIDDLE, Limits(depth=3), Seed=str(s))[0] for s in range(1, 4)}
    assert len(low) >= 2 and len(top) == 1


@pytest.mark.parametrize("level", ["1", "5"])
def test_every_level_takes_a_road_in_one(level: str) -> None:
    for seed in range(1, 6):
        move, infos = search(PLACE_WIN, Limits(depth=3), Level=level, Seed=str(seed))
        assert move == "e1" and infos[-1].solved == "win" and infos[-1].score_cp is None
