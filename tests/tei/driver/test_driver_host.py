"""The driver against our own engine host (`python -m tei engine`) with the real game cores."""

from __future__ import annotations

import sys

import pytest
import trio

from rules.registry import new_game
from tei.driver import Limits, Transcript, open_engine
from tei.transcript import TO_ENGINE

pytestmark = pytest.mark.process

HOST = [sys.executable, "-m", "tei", "engine"]


def sent(transcript: Transcript) -> list[str]:
    return [e.line for e in transcript if e.direction == TO_ENGINE]


async def test_a_whole_tak_game_with_komi() -> None:
    transcript = Transcript()
    rules = {"size": "3", "halfkomi": "4"}
    async with open_engine([*HOST, "--bot", "random"], transcript=transcript) as engine:
        assert engine.games == frozenset({"tak"})
        await engine.new_game("tak", rules)
        game = new_game("tak", rules)
        while game.result is None and game.ply < 200:
            result = await engine.play(game, Limits(movetime=20), deadline=trio.current_time() + 30)
            game.play(result.action)
        assert game.result is not None
    lines = sent(transcript)
    assert not [line for line in lines if "name Game" in line]  # a Tak engine: legacy TEI
    assert "setoption name HalfKomi value 4" in lines


async def test_trike_moves_from_the_host_are_legal() -> None:
    transcript = Transcript()
    argv = [*HOST, "--game", "trike", "--bot", "random"]
    async with open_engine(argv, transcript=transcript) as engine:
        await engine.new_game("trike", {"size": "7"})
        game = new_game("trike", {"size": "7"})
        for _ in range(6):
            clock = Limits(wtime=3000, btime=3000, winc=50, binc=50)
            result = await engine.play(game, clock, deadline=trio.current_time() + 30)
            game.play(result.action)
        assert game.ply == 6
    assert "setoption name Game value trike" in sent(transcript)
    assert "teinewgame 7" in sent(transcript)


async def test_traxit_three_players_get_the_acting_clock_twice() -> None:
    transcript = Transcript()
    rules = {"players": "3"}
    argv = [*HOST, "--game", "traxit", "--bot", "random"]
    async with open_engine(argv, transcript=transcript) as engine:
        await engine.new_game("traxit", rules)
        game = new_game("traxit", rules)
        assert game.players == 3
        seats = set()
        for _ in range(8):
            seats.add(game.turn)
            limits = Limits(wtime=5000, btime=7000, winc=10, binc=20)
            result = await engine.play(game, limits, deadline=trio.current_time() + 30)
            game.play(result.action)
    lines = sent(transcript)
    assert "setoption name Players value 3" in lines
    gos = [line for line in lines if line.startswith("go ")]
    assert set(gos) <= {
        "go wtime 5000 btime 5000 winc 10 binc 10",
        "go wtime 7000 btime 7000 winc 20 binc 20",
    }
    assert len(seats) > 1


async def test_analysis_of_the_search_bot_streams_infos() -> None:
    async with open_engine([*HOST, "--bot", "search"]) as engine:
        await engine.new_game("tak", {"size": "5"})
        game = new_game("tak", {"size": "5"})
        game.play_all(["a1", "e5"])
        async with engine.analyse(game) as analysis:
            async for info in analysis:
                if info.depth is not None:
                    break
        assert analysis.bestmove is not None
        assert game.parse_action(analysis.bestmove) in game.legal()


async def test_tei_v1_engines_get_size_and_komi_in_teinewgame() -> None:
    transcript = Transcript()
    rules = {"size": "6", "halfkomi": "4"}
    async with open_engine([*HOST, "--tei-v1"], transcript=transcript) as engine:
        assert engine.sizes is not None and 6 in engine.sizes.sizes
        await engine.new_game("tak", rules)
        game = new_game("tak", rules)
        result = await engine.play(game, Limits(movetime=50), deadline=trio.current_time() + 30)
        assert result.action in game.legal()
    lines = sent(transcript)
    assert "teinewgame size 6 halfkomi 4" in lines
    assert not any(line.startswith("setoption name HalfKomi") for line in lines)
