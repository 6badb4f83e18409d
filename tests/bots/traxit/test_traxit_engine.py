"""`tei engine --game traxit` with the search bot, as a real subprocess: one `go` per kind
of action (setup, choose, move, relocate), for 2, 3 and 4 players."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.traxit.game import TraxitGame
from tests.support.engine_pipe import EnginePipe

pytestmark = pytest.mark.process

Engine = EnginePipe


@pytest.fixture
def engine() -> Iterator[Engine]:
    eng = Engine("--game", "traxit", "--bot", "search")
    try:
        eng.send("tei")
        eng.until("teiok")
        yield eng
    finally:
        eng.close()


RELOCATE = "TX 8/8/2x2x2/5G2/4R3/2xG1x2/1R6/8 R@S,G@N R:traxit:T05 1.1 ffff,ffff 0,0 00"


@pytest.mark.parametrize(
    ("players", "moves", "kind"),
    [
        ("2", "", "place"),
        ("3", "@b1 @a2", "place"),
        ("2", "@b1 @b8 @c1 @c8", "choose"),
        ("4", "@b1 @a2 @b8 @h2 @c1 @a3 @c8 @h3", "choose"),
        ("2", "@b1 @b8 @c1 @c8 T08", "move"),
        ("3", "@b1 @a2 @b8 @c1 @a3 @c8 T02", "move"),
    ],
)
def test_go_answers_each_kind_of_action(
    engine: Engine, players: str, moves: str, kind: str
) -> None:
    engine.send(f"setoption name Players value {players}", "teinewgame", "isready")
    engine.until("readyok")
    engine.send(f"position startpos moves {moves}".rstrip(), "go depth 3")
    lines = engine.until("bestmove")
    answer = lines[-1].split()[1]
    game = TraxitGame.new({"players": players})
    game.play_all(moves.split())
    action = game.parse_action(answer)  # raises when illegal
    assert action.kind == kind
    assert any(line.startswith("info depth") for line in lines)


def test_go_relocates_after_traxit(engine: Engine) -> None:
    engine.send("teinewgame", "isready")
    engine.until("readyok")
    engine.send(f"position tps {RELOCATE}", "go movetime 300")
    answer = engine.until("bestmove")[-1].split()[1]
    game = TraxitGame.from_position_string(RELOCATE)
    assert game.parse_action(answer).kind == "relocate"


def test_team_short_game_plays_to_the_end(engine: Engine) -> None:
    engine.send(
        "setoption name Players value 4",
        "setoption name Teams value true",
        "setoption name ShortGame value true",
        "teinewgame",
        "isready",
    )
    engine.until("readyok")
    game = TraxitGame.new({"players": "4", "teams": "true", "shortgame": "true"})
    while game.result is None:
        engine.send("position startpos moves " + " ".join(game.history_text()), "go depth 1")
        game.play_text(engine.until("bestmove")[-1].split()[1])
    assert game.ply == 8 + 9 * 4 * 2
