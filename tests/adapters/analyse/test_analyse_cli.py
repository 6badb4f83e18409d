"""`tei analyse` end to end: real engine processes (built-in bots, the fake engine), real
files, a real Ctrl-C."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.adapters.analyse.test_analyse_units import TWO_GAMES
from tests.support.engines.gate import EVAL_LINE, set_limit
from tests.support.engines.procs import FAKE, mentioning, tei

pytestmark = pytest.mark.process

#: a placement game the fake engine can analyse (it answers the first empty square)
PLACEMENTS = '[Size "5"]\n\n1. a1 e5 2. b1 d5 3. c1 c5 4. a2 b5 5. e2 a5\n'
#: what tei analyse inserts: a mark right after a move word and a comment after it
INSERTED = re.compile(r"(\?\?|\?!|\?)?( \{(?:eval|result|best|unanalysed)[^}]*\})")


def analyse(
    games: Path, out: Path, engine: Sequence[str], limit: str, *more: str
) -> subprocess.CompletedProcess[str]:
    """`tei analyse GAMES --engine ENGINE... --limit LIMIT --out OUT` and `more` options."""
    return tei(
        "analyse", str(games), *more, "--engine", *engine, "--limit", limit, "--out", str(out)
    )


def stripped(text: str) -> str:
    return INSERTED.sub("", text)


def fake_engine(*extra: str) -> list[str]:
    return ["cmd=" + sys.executable, "arg=" + FAKE, *(f"arg={word}" for word in extra)]


def test_tak_games_annotated_and_a_bad_record_reported(tmp_path: Path) -> None:
    games, out, summary = tmp_path / "games.ptn", tmp_path / "out.ptn", tmp_path / "s.json"
    games.write_text(TWO_GAMES)
    done = analyse(
        games, out, ["bot=search"], "depth=1", "--json", str(summary), "--concurrency", "2"
    )
    assert done.returncode == 1, done.stderr
    assert f"{games}:10: game 2: ply 2 (a1)" in done.stderr
    text = out.read_text()
    assert stripped(text) == TWO_GAMES  # moves, tags, results and comments as they were
    assert text.count("{eval ") == 8 and "{result 0-1" not in text
    assert "{their comment}" in text and "c3! {" in text
    data = json.loads(summary.read_text())
    assert [g["game"] for g in data["games"]] == [1, 3]
    assert data["errors"] == [
        {
            "game": 2,
            "line": 10,
            "error": "ply 2 (a1): " + data["errors"][0]["error"].split(": ", 1)[1],
        }
    ]
    alice, bob = data["games"][0]["players"]
    assert (alice["name"], bob["name"], alice["moves"]) == ("Alice", "Bob", 2)
    assert set(alice["marks"]) == {"?!", "?", "??"}
    assert re.search(r"game 1 \(line 1\): 4 plies, 1-0; Alice loss", done.stderr)


def test_a_crashing_engine_is_restarted_and_the_position_left_unanalysed(
    tmp_path: Path,
) -> None:
    games, out = tmp_path / "games.ptn", tmp_path / "out.ptn"
    games.write_text(PLACEMENTS)
    crash = "position startpos moves a1 e5 b1 d5 c1 c5 a2 b5 e2"  # plies 9 and 10
    marker = "0.000731"
    done = analyse(games, out, fake_engine("--delay", marker, "--crash-on", crash), "st=0.2")
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert stripped(text) == PLACEMENTS
    assert text.count("unanalysed: crashed") == 1  # the last move's position
    assert text.count("{eval ") == 8
    assert "2 moves unjudged (--resume retries them)" in done.stderr
    assert Path(str(out) + ".state").exists()
    assert mentioning(FAKE, marker) == []


def test_interrupted_and_resumed(tmp_path: Path) -> None:
    games, out = tmp_path / "games.ptn", tmp_path / "out.ptn"
    state, control = Path(str(out) + ".state"), tmp_path / "gate"
    games.write_text(PLACEMENTS)
    marker = "0.050731"  # seconds a position; it marks this test's engines too
    # the engine answers no go once two positions are in the state file, until the gate is
    # opened: the interrupt lands with most positions left, however loaded the machine
    set_limit(control, 2)
    gate = ("--gate", str(control), str(state), EVAL_LINE)
    argv = [
        sys.executable,
        "-m",
        "tei",
        "analyse",
        str(games),
        "--engine",
        *fake_engine("--delay", marker, *gate),
        "--limit",
        "st=1",
        "--out",
        str(out),
    ]
    run = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
    limit = time.monotonic() + 60
    while time.monotonic() < limit:
        if state.exists() and state.read_text().count(EVAL_LINE) >= 2:
            break
        time.sleep(0.05)
    assert run.poll() is None, "the analysis ended before it could be interrupted"
    run.send_signal(signal.SIGINT)
    # the gate stays shut until the run has ended: opened at once, a loaded machine let the
    # engine answer the last positions before the interrupt was taken in (exit 0)
    _, stderr = run.communicate(timeout=30)
    set_limit(control, None)
    assert run.returncode == 130, stderr
    assert "run the same command with --resume" in stderr
    assert not out.exists()
    assert mentioning(FAKE, marker) == []
    again = tei(*argv[3:])
    assert again.returncode == 2 and "add --resume" in again.stderr
    other = tei(*argv[3:], "--resume", "--limit", "st=0.5")
    assert other.returncode == 2 and "its limit is ['st=1']" in other.stderr
    resumed = tei(*argv[3:], "--resume")
    assert resumed.returncode == 0, resumed.stderr
    done = int(re.search(r"resuming .*: (\d+) positions done", resumed.stderr)[1])
    assert 2 <= done <= 3  # the two before the gate, and the one running at the interrupt
    assert out.read_text().count("{eval ") == 10 and not state.exists()


def test_trike_and_traxit_records_with_their_engines(tmp_path: Path) -> None:
    records = {
        "trike": ('[Size "13"]\n\nd10 {0.00s} a10 j1 f5\n{O 4-3}\n', 4),
        "traxit": ("R: @c1\nG: @g8\nR: @g1\nG: @f8\n1.1 R: T06 c1-e2\n", 6),
    }
    for game, (record, moves) in records.items():
        games, out = tmp_path / f"{game}.txt", tmp_path / f"{game}.out"
        games.write_text(record)
        done = analyse(games, out, ["bot=search"], "nodes=50", "--game", game)
        assert done.returncode == 0, done.stderr
        text = out.read_text()
        assert stripped(text) == record
        assert text.count("{eval ") == moves


def test_a_position_is_retried_on_a_fresh_engine(tmp_path: Path) -> None:
    games, out, count = tmp_path / "games.ptn", tmp_path / "out.ptn", tmp_path / "started"
    games.write_text(PLACEMENTS)
    # the first process (the check before the analysis) and the third are good; the
    # second crashes on its first search
    script = (
        f"n=$(cat {count} 2>/dev/null || echo 0); echo $((n+1)) > {count};"
        f' if [ "$n" = 1 ]; then exec {sys.executable} {FAKE} --crash-on go;'
        f" else exec {sys.executable} {FAKE}; fi"
    )
    done = analyse(games, out, ["cmd=sh", "arg=-c", f"arg={script}"], "st=0.2")
    assert done.returncode == 0, done.stderr
    assert count.read_text().strip() == "3"
    text = out.read_text()
    assert text.count("{eval ") == 10 and "unanalysed" not in text
    assert not Path(str(out) + ".state").exists()


def test_bad_input_is_named_and_nothing_is_written(tmp_path: Path) -> None:
    games, out = tmp_path / "games.ptn", tmp_path / "out.ptn"
    games.write_text(PLACEMENTS)
    base = ("analyse", str(games), "--out", str(out))
    cases = [
        (("--engine", "bot=search", "--limit", "tc=10+0"), "--limit takes st=SECONDS"),
        (("--engine", "bot=search", "--limit", "nodes=0"), "nodes=0 must be positive"),
        (("--engine", "bot=search", "--mistake", "400"), "--inaccuracy <= --mistake"),
        (("--engine", "bot=search", "--concurrency", "0"), "must be 1..256, not 0"),
        (("--engine", "cmd=/nonexistent/engine"), "did not start"),
        (("--engine", "bot=search", "option.Nope=1"), "has no option 'Nope'"),
    ]
    for extra, message in cases:
        done = tei(*base, *extra)
        assert done.returncode == 2 and message in done.stderr, (extra, done.stderr)
    missing = tei("analyse", str(tmp_path / "none.ptn"), "--engine", "bot=search", "--out", "o")
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    assert not out.exists() and not Path(str(out) + ".state").exists()


def test_resume_refuses_a_changed_games_file(tmp_path: Path) -> None:
    games, out = tmp_path / "games.ptn", tmp_path / "out.ptn"
    games.write_text(PLACEMENTS)
    state = Path(str(out) + ".state")
    settings = {
        "games": str(games.resolve()),
        "game": "tak",
        "rules": {},
        "engine": ["bot=search"],
        "limit": ["st=0.5"],
    }
    state.write_text(
        json.dumps({"kind": "analyse", "version": 1, "settings": settings, "input_sha256": "0"})
        + "\n"
    )
    done = tei("analyse", str(games), "--engine", "bot=search", "--out", str(out), "--resume")
    assert done.returncode == 2 and "changed since" in done.stderr


def test_a_named_engine_of_an_engines_file_analyses(tmp_path: Path) -> None:
    games, out = tmp_path / "games.ptn", tmp_path / "out.ptn"
    games.write_text(PLACEMENTS)
    engines = tmp_path / "engines.toml"
    engines.write_text('[quick]\nbot = "search"\n\n[other]\nbot = "greedy"\n')
    words = ("--limit", "depth=1", "--out", str(out))
    done = tei("analyse", str(games), "--engines", str(engines), "--engine", "conf=quick", *words)
    assert done.returncode == 0, done.stderr
    assert stripped(out.read_text()) == PLACEMENTS
    assert out.read_text().count("{eval ") == 10
    out.unlink()
    missing = tei("analyse", str(games), "--engine", "conf=quick", *words)
    assert missing.returncode == 2
    assert "conf=quick: give the engines file too (--engines FILE)" in missing.stderr
    unknown = tei("analyse", str(games), "--engines", str(engines), "--engine", "conf=quik", *words)
    assert unknown.returncode == 2
    assert "no engine 'quik'" in unknown.stderr and "quick" in unknown.stderr
    assert not out.exists()
