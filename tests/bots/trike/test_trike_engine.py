"""`tei engine --game trike` with the search bot, driven as a real subprocess."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.trike.game import TrikeGame
from tests.support.engine_pipe import EnginePipe

pytestmark = pytest.mark.process

Engine = EnginePipe


@pytest.fixture
def engine() -> Iterator[Engine]:
    started = Engine("--game", "trike")
    try:
        yield started
    finally:
        started.close()


def best(lines: list[str]) -> str:
    return lines[-1].split()[1]


def test_search_bot_serves_a_game(engine: Engine) -> None:
    engine.send("tei")
    handshake = engine.until("teiok")
    assert handshake[0] == "id name tei-host search"
    engine.send("setoption name Game value trike", "teinewgame 7", "isready")
    engine.until("readyok")
    game = TrikeGame.new({"size": "7"})
    while game.result is None and game.ply < 8:
        moves = " ".join(game.history_text())
        engine.send(f"position startpos moves {moves}", "go movetime 200")
        lines = engine.until("bestmove")
        infos = [line for line in lines if line.startswith("info depth")]
        assert infos, lines
        assert " pv " in infos[-1] and " nodes " in infos[-1]
        game.play_text(best(lines))
    assert game.ply == 8 or game.result is not None


def test_position_string_clock_and_depth(engine: Engine) -> None:
    engine.send("tei")
    engine.until("teiok")
    engine.send("setoption name Game value trike", "teinewgame 9")
    game = TrikeGame.new({"size": "9"})
    game.play_all(["d2", "c3"])
    position = game.position_string()
    game = TrikeGame.from_position_string(position)
    engine.send(f"position tps {position} moves c4", "go depth 3")
    answer = best(engine.until("bestmove"))
    game.play_text("c4")
    assert game.parse_action(answer) in game.legal()
    engine.send("position startpos moves e3", "go wtime 2000 btime 2000 winc 10 binc 10")
    first = TrikeGame.new({"size": "9"})
    first.play_text("e3")
    assert first.parse_action(best(engine.until("bestmove"))) in first.legal()


def test_infinite_search_answers_on_stop(engine: Engine) -> None:
    engine.send("tei")
    engine.until("teiok")
    engine.send("setoption name Game value trike", "teinewgame 13", "position startpos")
    engine.send("go infinite")
    engine.until("info depth 2")
    engine.send("stop")
    answer = best(engine.until("bestmove"))
    game = TrikeGame.new({"size": "13"})
    assert game.parse_action(answer) in game.legal()
