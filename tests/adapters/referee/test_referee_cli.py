"""`tei match` as a command: Ctrl-C, resume, config files, Traxit seats and teams."""

from __future__ import annotations

import json
import re
import shlex
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from adapters.referee.openings import read_records
from adapters.referee.report import final_report
from rules.registry import game_class
from tei.cli import main
from tests.support.engines.gate import GAME_LINE, set_limit
from tests.support.engines.procs import mentioning, tei, wait_dead
from tests.support.referee import ENGINE, play, refbot, settings

pytestmark = pytest.mark.process


def referee(*args: str) -> list[str]:
    return [sys.executable, "-m", "tei", "match", *args]


def engine_cmd(tmp_path: Path, *extra: str) -> str:
    return f"cmd={sys.executable} {ENGINE} --tag {tmp_path} " + " ".join(extra)


def leftover(tmp_path: Path) -> list[int]:
    """Engine processes of this test still alive (their command line holds tmp_path)."""
    return mentioning(str(tmp_path), ENGINE)


def state_games(path: Path) -> list[int]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        if data.get("kind") == "game":
            out.append(data["index"])
    return out


def start_slow_match(
    tmp_path: Path, games: int, gate: Path | None = None
) -> tuple[subprocess.Popen[str], Path, Path]:
    """A match in tmp_path, once its first game is in the state file. With `gate`, engine
    `a` answers no go once one game is in the state file, until the test opens the gate
    (`set_limit(gate, None)`): the match cannot end before the test interrupts it."""
    out, state = tmp_path / "games.ptn", tmp_path / "games.ptn.state"
    held = ()
    if gate is not None:
        set_limit(gate, 1)
        held = ("--gate", str(gate), str(state), shlex.quote(GAME_LINE))
    proc = subprocess.Popen(
        referee(
            "--size",
            "4",
            "--engine",
            engine_cmd(tmp_path, "--delay", "0.02", *held),
            "name=a",
            "--engine",
            engine_cmd(tmp_path, "--delay", "0.02", "--seed", "5"),
            "name=b",
            "--max-plies",
            "30",
            "--games",
            str(games),
            "--concurrency",
            "2",
            "--ptnout",
            out.name,  # relative: the state file keeps it absolute for resuming elsewhere
        ),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not state_games(state):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no game finished in time"
        time.sleep(0.05)
    return proc, out, state


def check_records(out: Path, state: Path) -> list[str]:
    """Every finished game is in the record file exactly once, in schedule order."""
    rounds = [r.tags["Round"] for r in read_records(out.read_text())]
    finished = state_games(state)
    assert sorted(Counter(finished)) == sorted(finished)  # no game finished twice
    assert len(rounds) == len(finished)
    numbers = [int(r) for r in rounds]
    assert numbers == sorted(numbers)
    assert sorted(n - 1 for n in numbers) == sorted(finished)
    return rounds


def test_first_ctrl_c_finishes_running_games_then_resume_completes(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    proc, out, state = start_slow_match(tmp_path, games=16, gate=gate)
    proc.send_signal(signal.SIGINT)
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:  # once the interrupt is taken in, the running games may finish
        seen.append(line)
        if "finishing the running games" in line:
            break
    assert "finishing the running games" in seen[-1], seen
    set_limit(gate, None)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, (stdout, stderr)
    assert f"--resume {state}" in stdout
    first = check_records(out, state)
    # Before the gate shuts, the two games running may both end (a game whose last move is
    # b's, or whose last go a answered before the first state line landed); then the two
    # running when the interrupt came finish: at most 4 of 16, 5 to allow one more lag.
    assert 1 <= len(first) <= 5
    assert leftover(tmp_path) == []
    done = tei("match", "--resume", str(state), timeout=120)
    assert done.returncode == 0, done.stderr
    assert check_records(out, state) == [str(i) for i in range(1, 17)]
    assert leftover(tmp_path) == []


def test_second_ctrl_c_stops_at_once_and_keeps_finished_records(tmp_path: Path) -> None:
    proc, out, state = start_slow_match(tmp_path, games=40, gate=tmp_path / "gate")
    proc.send_signal(signal.SIGINT)
    # the second Ctrl-C after the first was taken in: two signals that arrive before the
    # match reads either are one (trio's signal receiver coalesces them)
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if line.startswith("Interrupted:"):
            break
    assert seen and seen[-1].startswith("Interrupted:"), seen
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, (stdout, stderr)
    assert "Stopping now" in stdout
    rounds = check_records(out, state)
    assert 1 <= len(rounds) <= 2  # the gate never opened: the games running were dropped
    assert leftover(tmp_path) == []


def test_a_killed_referee_loses_no_finished_game(tmp_path: Path) -> None:
    proc, out, state = start_slow_match(tmp_path, games=4)
    proc.kill()
    proc.communicate(timeout=30)
    finished = state_games(state)
    assert finished
    done = tei("match", "--resume", str(state), timeout=120, cwd="/")
    assert done.returncode == 0, done.stderr
    assert check_records(out, state) == [str(i) for i in range(1, 5)]
    for pid in leftover(tmp_path):  # orphaned engines end at the end of their input
        wait_dead(pid, 10)
    assert leftover(tmp_path) == []


def test_config_file_each_and_engine_options(tmp_path: Path) -> None:
    log, summary = tmp_path / "traffic.log", tmp_path / "summary.json"
    config = tmp_path / "match.toml"
    x = shlex.join([f"cmd={shlex.join([sys.executable, ENGINE])}", "name=x", "option.Hash=32"])
    y = shlex.join([f"cmd={sys.executable} {ENGINE} --mode info", "name=y"])
    config.write_text(
        'game = "tak"\nsize = 4\nkomi = "1.5"\ngames = 6\n'
        f"engine = [{json.dumps(x)}, {json.dumps(y)}]\n"
        'each = ["tc=10+0.1 margin=100"]\n'
    )
    done = tei(
        "match",
        "--config",
        str(config),
        "--log",
        str(log),
        "--json",
        str(summary),
        "--games",
        "2",
    )
    assert done.returncode == 0, done.stderr
    traffic = log.read_text()
    assert "x > setoption name Hash value 32" in traffic
    assert "y > setoption name HalfKomi value 3" in traffic
    assert "> teinewgame 4" in traffic
    data = json.loads(summary.read_text())
    assert data["status"] == "finished" and data["games_done"] == 2
    assert data["engines"][0]["clock"] == "0:10 +0.1"
    assert data["pairs"][0]["engines"] == ["x", "y"]
    assert sum(data["pairs"][0]["pentanomial"]) == 1
    assert {name: t["moves"] > 0 for name, t in data["timing"].items()} == {"x": True, "y": True}
    assert "Time of x:" in done.stdout
    assert "Elo" in done.stdout and "LOS" in done.stdout and "Ptnml(0-2)" in done.stdout


def test_bad_settings_are_reported_not_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        (["--engine", "cmd=true", "--engine", "cmd=true", "tc=fast"], "tc"),
        (["--engine", "cmd=true", "colour=red", "--engine", "cmd=true"], "colour"),
        (["--engine", f"cmd={tmp_path}/missing", "--engine", "bot=random"], "missing"),
        (["--resume", str(tmp_path / "none.state")], "none.state"),
        (["--engine", "bot=random", "--engine", "bot=random", "--sprt", "elo0=5"], "elo1"),
        (["--ptnout", str(tmp_path / "no" / "such.ptn")], "such.ptn"),
        (["--json", str(tmp_path / "no" / "such.json")], "such.json"),
        (["--game", "trike", "--tinue-adjudication"], "for Tak only, not trike"),
        (["--resign", "movecount=3"], "--resign: give score=N"),
        (["--draw", "movenumber=2", "movecount=x", "score=5"], "movecount='x'"),
    ]
    for args, word in cases:
        code = main(["match", *args])
        err = capsys.readouterr().err
        assert code == 2, (args, err)
        assert word in err and "Traceback" not in err


def test_help_lists_the_options() -> None:
    done = tei("match", "--help", timeout=30)
    words = ("--engine", "--each", "--sprt", "--resume", "--ptnout", "tc=BASE+INC", "--resign")
    for word in (*words, "--draw", "--tinue-adjudication", "--live", "--live-public"):
        assert word in done.stdout
    assert "unauthenticated" in done.stdout


async def test_traxit_with_three_engines_rotates_every_seat(tmp_path: Path) -> None:
    out = tmp_path / "t.txt"
    engines = [refbot("good", name="a"), refbot("good", name="b"), {"bot": "random"}]
    progress = await play(
        settings(engines, game="traxit", rules={"players": "3"}, games=3, records=str(out))
    )
    assert progress.status == "finished" and len(progress.finished) == 3
    for engine in range(3):
        assert sorted(g.seats.index(engine) for g in progress.finished.values()) == [0, 1, 2]
    found = read_records(out.read_text())
    assert [r.tags["Player3"] for r in found] == ["random", "b", "a"]
    assert all(r.moves and r.moves[0].startswith("@") for r in found)
    # one turn per line, and every record replays to its result with the rules core
    turns = [ln for ln in out.read_text().splitlines() if ": T" in ln]
    assert turns and all(re.match(r"[1-4]\.[1-4] [RGBY]: T\d\d .* !?[a-h]\d-", ln) for ln in turns)
    for record in found:
        game = game_class("traxit").new({"players": "3"})
        game.play_all(list(record.moves))
        assert game.result is not None and game.result.code == record.tags["Result"]


async def test_traxit_team_match_of_four_engines(tmp_path: Path) -> None:
    engines = [refbot("good", "--seed", str(i), name=f"p{i}") for i in range(4)]
    rules = {"teams": "true", "shortgame": "true"}
    teams = await play(settings(engines, game="traxit", rules=rules, games=4))
    assert len(teams.finished) == 4
    for engine in range(4):
        assert sorted(g.seats.index(engine) for g in teams.finished.values()) == [0, 1, 2, 3]
    for game in teams.finished.values():
        assert game.termination == "normal"
        assert set(game.winners) in ({0, 2}, {1, 3}, {0, 1, 2, 3})
    report = final_report(teams)
    assert "p0+p2" in report and "p1+p3" in report


async def test_a_faulty_engine_loses_for_its_team(tmp_path: Path) -> None:
    engines = [refbot("good", name=f"p{i}") for i in range(3)] + [refbot("crash", "--at", "9")]
    progress = await play(settings(engines, game="traxit", rules={"teams": "true"}, games=2))
    for game in progress.finished.values():
        seat = game.seats.index(3)
        assert game.termination == "crashed"
        assert set(game.winners) == {s for s in range(4) if s % 2 != seat % 2}


def test_no_arguments_plays_a_short_bot_match() -> None:
    done = tei("match", timeout=110)
    assert done.returncode == 0, done.stderr
    assert "Games: 4 of 4 (finished)" in done.stdout
    assert "Ptnml(0-2)" in done.stdout


async def test_trike_book_records_replay_to_their_result(tmp_path: Path) -> None:
    book, out = tmp_path / "book.txt", tmp_path / "trike.txt"
    book.write_text("c2 swap\nc2 d2\n")
    engines = [refbot("good", name="a"), refbot("good", "--seed", "4", name="b")]
    progress = await play(
        settings(
            engines,
            game="trike",
            rules={"size": "5"},
            games=4,
            openings=[str(book)],
            records=str(out),
        )
    )
    assert progress.status == "finished"
    found = read_records(out.read_text())
    assert [r.moves[:2] for r in found] == [("c2", "swap")] * 2 + [("c2", "d2")] * 2
    cls = game_class("trike")
    for record in found:
        game = cls.new({"size": record.tags["Size"]})
        game.play_all(list(record.moves))
        assert game.result is not None and game.result.code == record.tags["Result"]


def test_sprt_goes_on_after_a_few_won_games_and_one_interval_is_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three won pairs decide nothing between 0 and 5 Elo; the standings and the pair
    line show the same interval for the same six games."""
    summary = tmp_path / "summary.json"
    args = ["--size", "4", "--games", "6", "--sprt", "elo0=0", "elo1=5", "--json", str(summary)]
    good = f"cmd={sys.executable} {ENGINE} --mode good"
    bad = f"cmd={sys.executable} {ENGINE} --mode illegal"
    assert main(["match", "--engine", good, "name=good", "--engine", bad, "name=bad", *args]) == 0
    text = capsys.readouterr().out
    assert "Games: 6 of 6 (finished)" in text
    data = json.loads(summary.read_text())
    assert data["pairs"][0]["pentanomial"] == [0, 0, 0, 0, 3]
    assert data["sprt"]["decision"] is None and 0 < data["sprt"]["llr"] < 0.1
    pair_elo = re.search(r"Elo (\S+ \[\S+, \S+\]) \(95%\)", text)
    assert pair_elo is not None
    row = next(line for line in text.splitlines() if line.startswith(" 1 good"))
    assert row.endswith(pair_elo[1])
