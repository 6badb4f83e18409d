"""`tei engine --bot greedy|search` for Tak, driven as a real subprocess."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading

import pytest

from rules.tak.game import TakGame

WAIT = 30.0  # liveness limit only: a hung engine fails the test instead of blocking it


class Engine:
    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tei", "engine", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def until(self, prefix: str) -> list[str]:
        seen: list[str] = []
        while True:
            line = self.lines.get(timeout=WAIT)
            assert line is not None, f"engine exited while waiting for {prefix!r}: {seen}"
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


@pytest.mark.parametrize(
    ("bot", "go"),
    [
        ("greedy", "go movetime 300"),
        ("search", "go nodes 400"),
        ("search", "go wtime 900 btime 900 winc 10 binc 10"),
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
