"""benchmarks/strength.py: rows and opponents read from the command line, the table
written from `tei match` summaries, and one end-to-end run of two built-in bots (no
timing is asserted)."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support import ROOT

pytestmark = pytest.mark.process

BENCH = ROOT / "benchmarks"


@pytest.fixture(scope="module")
def strength() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        import strength

        yield strength
    finally:
        sys.path.remove(str(BENCH))


def test_a_row_is_read_and_games_are_even(strength: ModuleType) -> None:
    row = strength.parse_row("tiltak, 6, 2, 10+0.1, 99")
    assert row == strength.Row("tiltak", 6, 2.0, "10+0.1", 100)
    assert row.limit_key() == "tc=10+0.1"
    assert strength.parse_row("t,5,0,nodes=2000,2").limit_key() == "nodes=2000"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("tiltak,6,2,10+0.1", "expected OPPONENT,SIZE,KOMI,TC,GAMES"),
        ("tiltak,6,,10+0.1,10", "expected OPPONENT,SIZE,KOMI,TC,GAMES"),
        ("tiltak,six,2,10+0.1,10", "must be integers"),
        ("tiltak,9,2,10+0.1,10", "SIZE must be 3 to 8"),
        ("tiltak,6,2,10+0.1,0", "GAMES must be at least 1"),
        ("tiltak,6,0.3,10+0.1,10", "multiple of 0.5"),
    ],
)
def test_a_bad_row_is_named(strength: ModuleType, text: str, says: str) -> None:
    with pytest.raises(strength.StrengthError, match=says) as info:
        strength.parse_row(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_opponents_are_name_and_command(strength: ModuleType) -> None:
    assert strength.parse_opponent("tak=/opt/t tei -x 'a b'") == (
        "tak",
        ["/opt/t", "tei", "-x", "a b"],
    )
    for bad in ["tak", "=/opt/t", "tak=", "ours=/opt/t"]:
        with pytest.raises(strength.StrengthError, match=repr(bad)):
            strength.parse_opponent(bad)
    rows = [strength.parse_row("other,5,0,10+0.1,2")]
    with pytest.raises(strength.StrengthError, match="'other' is not given by --opponent"):
        strength.check_rows(rows, {"tak": ["t"]})


def pair(first: str, second: str, wins: int, losses: int, draws: int, elo: Any) -> dict[str, Any]:
    return {
        "engines": [first, second],
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "elo": {"elo": 1.0, "low": -2.0, "high": 3.0},
        "elo_pentanomial": elo,
        "pentanomial": [0, 1, 0, 0, 0],
    }


def test_the_outcome_is_turned_to_our_side(strength: ModuleType) -> None:
    row = strength.parse_row("tak,5,0,10+0.1,10")
    elo = {"elo": -120.5, "low": -200.0, "high": -40.0}
    summary = {
        "pairs": [pair("tak", "ours", 7, 2, 1, elo)],
        "timing": {"ours": {"average_ms": 300.4}, "tak": {"average_ms": 390.6}},
    }
    got = strength.outcome(row, summary, (1.0, 2.5))
    assert (got.wins, got.losses, got.draws, got.games) == (2, 7, 1, 10)
    assert got.score == pytest.approx(0.25)
    assert got.elo == (120.5, 40.0, 200.0)
    assert got.move_ms == (300.4, 390.6)
    assert got.faults == (0, 0)
    # an all-loss row: the estimate and the lower bound are infinite (None in the JSON)
    lost = {"elo": None, "low": None, "high": -233.8}
    got = strength.outcome(row, {"pairs": [pair("ours", "tak", 0, 4, 0, lost)]}, (0.0, 0.0))
    assert got.elo == (-math.inf, -math.inf, -233.8)
    assert got.move_ms is None
    with pytest.raises(strength.StrengthError, match="no pair of 'ours' and 'tak'"):
        strength.outcome(row, {"pairs": [pair("ours", "x", 0, 0, 0, None)]}, (0.0, 0.0))


def test_games_lost_by_a_fault_are_counted_for_each_side(strength: ModuleType) -> None:
    row = strength.parse_row("tak,5,0,10+0.1,6")
    # the referee's count, by engine and kind, of the games each lost by its own fault
    faults = {"tak": {"crashed": 1, "time forfeit": 1}, "ours": {"malformed output": 1}}
    summary = {"pairs": [pair("ours", "tak", 4, 1, 1, None)], "faults": faults}
    assert strength.outcome(row, summary, (0.0, 0.0)).faults == (1, 2)


def test_the_table_has_a_line_a_row(strength: ModuleType) -> None:
    row = strength.parse_row("tak,6,2,10+0.1,40")
    elo = (-190.0, -280.0, -100.0)
    done = strength.Outcome(row, 10, 28, 2, elo, (1.23, 4.56), (301.0, 389.0), (0, 3))
    text = strength.table([done], "2026-12-03", "0.1.0, compiled", 4242)
    lines = text.splitlines()
    assert lines[0].startswith("| date | build | opponent |")
    assert lines[0].count("|") == lines[1].count("|") == lines[2].count("|")
    assert lines[2] == (
        "| 2026-12-03 | 0.1.0, compiled | tak | 6x6 | 2 | 10+0.1 | 4242 | 40 | 10-28-2 | 27.5% "
        "| -190.0 +- 90.0 | 301, 389 | 0, 3 | 1.2, 4.6 |"
    )


def test_bad_arguments_exit_with_the_reason() -> None:
    argv = [sys.executable, str(BENCH / "strength.py"), "--seed", "1", "--row", "x,5,0,1+0,2"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "'x' is not given by --opponent" in done.stderr
    done = subprocess.run(argv[:4], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no --row given" in done.stderr


def test_an_opponent_that_crashes_loses_by_its_fault_in_the_table(tmp_path: Path) -> None:
    """A real engine process that sends a move that is not Tak, then exits on its next
    `go`: every game is ours, and the table says they were won by its faults."""
    crasher = tmp_path / "crasher.py"
    crasher.write_text(
        "import sys\n"
        "goes = 0\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    if word == 'tei':\n"
        "        print('id name Crasher\\nteiok', flush=True)\n"
        "    elif word == 'isready':\n"
        "        print('readyok', flush=True)\n"
        "    elif word == 'go':\n"
        "        goes += 1\n"
        "        if goes > 1:\n"
        "            raise SystemExit(3)\n"
        "        print('bestmove zz9', flush=True)\n"
        "    elif word == 'quit':\n"
        "        break\n"
    )
    argv = [sys.executable, str(BENCH / "strength.py"), "--seed", "5",
            "--opponent", f"bad={sys.executable} {crasher}", "--ours", "bot=random",
            "--row", "bad,4,0,st=0.02,4"]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    cells = [c.strip() for c in done.stdout.splitlines()[2].split("|")[1:-1]]
    assert cells[8] == "4-0-0"
    assert cells[12] == "0, 4"


def test_two_built_in_bots_make_a_table(tmp_path: Path) -> None:
    """Run from a folder that holds a `tei` package of its own (as the project's source
    tree does): the match is still this install's `tei match`, not that folder's."""
    shadow = tmp_path / "tei"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("")
    (shadow / "__main__.py").write_text("raise SystemExit('the tei of the working folder')\n")
    greedy = f"greedy={sys.executable} -P -m tei engine --bot greedy"
    out = tmp_path / "table.md"
    argv = [sys.executable, str(BENCH / "strength.py"), "--seed", "7", "--opponent", greedy,
            "--ours", "bot=random", "--row", "greedy,4,0,st=0.02,2", "--out", str(out),
            "--records", str(tmp_path / "games")]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 3
    cells = [c.strip() for c in lines[2].split("|")[1:-1]]
    assert cells[2:8] == ["greedy", "4x4", "0", "st=0.02", "7", "2"]
    assert cells[1].startswith("0.1.0, ")
    wins, losses, draws = map(int, cells[8].split("-"))
    assert wins + losses + draws == 2
    assert done.stdout == out.read_text()
    assert (tmp_path / "games" / "greedy_4_0.ptn").stat().st_size > 0
