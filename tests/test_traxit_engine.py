"""`tei engine --game traxit` with the search bot, as a real subprocess: one `go` per kind
of action (setup, choose, move, relocate), for 2, 3 and 4 players."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from rules.traxit.game import TraxitGame

WAIT = 30.0  # liveness limit: a hung engine fails the test instead of blocking it


class Engine:
    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tei", "engine", "--game", "traxit", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix: str) -> list[str]:
        seen = []
        while True:
            line = self.lines.get(timeout=WAIT)
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def engine() -> Iterator[Engine]:
    eng = Engine("--bot", "search")
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
