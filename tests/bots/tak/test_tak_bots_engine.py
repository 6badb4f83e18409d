"""`tei engine --bot greedy|search` for Tak, driven as a real subprocess."""

from __future__ import annotations

import pytest

from rules.tak.game import TakGame
from tests.support.engine_pipe import EnginePipe

pytestmark = pytest.mark.process

Engine = EnginePipe


@pytest.mark.parametrize(
    ("bot", "go"),
    [
        ("greedy", "go movetime 300"),
        ("search", "go nodes 400"),
        # a clock that plans a few hundred ms: a loaded machine still finishes a first depth
        ("search", "go wtime 6000 btime 6000 winc 60 binc 60"),
    ],
)
def test_engine_answers_a_legal_bestmove(bot: str, go: str) -> None:
    engine = Engine("--bot", bot)
    try:
        engine.send("tei")
        handshake = engine.until("teiok")
        assert any(line.startswith("id name") and bot in line for line in handshake)
        moves = ["a1", "e5", "c3", "c2"]
        engine.send("setoption name HalfKomi value 4", "teinewgame 5", "isready")
        engine.until("readyok")
        engine.send(f"position startpos moves {' '.join(moves)}", go)
        lines = engine.until("bestmove")
        assert not any("error" in line for line in lines), lines
        game = TakGame.new({"size": "5", "halfkomi": "4"})
        game.play_all(moves)
        game.parse_action(lines[-1].split()[1])  # raises on an illegal move
        assert any(line.startswith("info") and " pv " in line for line in lines[:-1])
    finally:
        engine.close()
