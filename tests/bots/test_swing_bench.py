"""benchmarks/tak_swing.py: positions read from a game record, one process per tempo,
the tempo given really used (no timing and no figure of strength is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT

pytestmark = pytest.mark.process

SWING = ROOT / "benchmarks" / "tak_swing.py"
GAME = """[Size "5"]
[Komi "0"]
[Result "0-F"]

1. d3 e4 2. d4 Cc4 3. Cc3 d2 4. b3 d1 5. d4- d4 6. a3 Se3 7. c5 b4 8. d5 e3<
9. c3>* e3 10. c3 c4- 11. b5 a5 12. e5 c2 0-F
"""


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    record = tmp_path / "games.ptn"
    record.write_text(GAME)
    argv = [sys.executable, str(SWING), str(record), *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def test_each_tempo_is_a_row_beside_the_shipped_weights(tmp_path: Path) -> None:
    done = run(tmp_path, "--size", "5", "--plies", "10", "16", "--depth", "4",
               "--tempo", "0", "1000")  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("2 positions of ")
    rows = {line.split("|")[1].strip(): line.split("|")[2:4] for line in lines[3:]}
    assert list(rows) == ["shipped", "tempo 0", "tempo 1000"]
    assert all(count.strip() == "2" for count, _ in rows.values())
    # a tempo of 1000 adds about 2000 to every step from one parity to the other: the
    # worker searched with the file it was given
    low, high = (float(rows[name][1]) for name in ("tempo 0", "tempo 1000"))
    assert high > low + 1000


def test_a_record_without_games_of_the_size_is_named(tmp_path: Path) -> None:
    done = run(tmp_path, "--size", "6")
    assert done.returncode == 2
    assert "no game of size 6 in" in done.stderr
    done = run(tmp_path, "--depth", "3")
    assert done.returncode == 2
    assert "--depth must be at least 4" in done.stderr
