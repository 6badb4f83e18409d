"""One live match per set of files: an unfinished match's state is not replaced without
--force, and a second match on the same files is refused while the first runs."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adapters.referee.state import read_state
from tei.cli import main
from tests.support.engines.procs import tei
from tests.support.referee import ENGINE

pytestmark = pytest.mark.process

QUICK = f"cmd={sys.executable} {ENGINE} --mode good"
SLOW = f"{QUICK} --delay 0.05"
#: a match that is still running when the test looks at its files
MATCH = ["match", "--size", "4", "--engine", SLOW, "name=a", "--engine", SLOW, "name=b"]
#: a match that ends at once
QUICK_MATCH = ["match", "--size", "4", "--engine", QUICK, "name=a", "--engine", QUICK, "name=b"]


def cut_to_one_game(state: Path) -> None:
    """The state of a match that stopped after its first game."""
    lines = [json.loads(line) for line in state.read_text().splitlines()]
    kept = [line for line in lines if line["kind"] == "match" or line.get("index") == 0]
    state.write_text("".join(json.dumps(line) + "\n" for line in kept))


def test_a_new_match_beside_an_unfinished_one_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.ptn"
    state = Path(f"{out}.state")
    args = [*QUICK_MATCH, "--games", "2", "--ptnout", str(out), "--quiet"]
    assert main(args) == 0
    assert read_state(state).ended == "finished"
    assert main(args) == 0  # the state of a finished match may be replaced
    cut_to_one_game(state)
    before, run = state.read_text(), read_state(state).run
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{state} holds an unfinished match (run {run}, 1 games finished)" in err
    assert f"continue it with: tei match --resume {state}" in err and "--force" in err
    assert state.read_text() == before
    assert main([*args, "--force"]) == 0
    assert read_state(state).run != run


def test_a_second_live_match_on_the_same_files_is_refused_and_a_dead_ones_lock_is_gone(
    tmp_path: Path,
) -> None:
    out = tmp_path / "g.ptn"
    state = Path(f"{out}.state")
    first = subprocess.Popen(
        [sys.executable, "-m", "tei", *MATCH, "--games", "40", "--ptnout", str(out), "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while '"kind":"game"' not in (state.read_text() if state.exists() else ""):
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "no game finished in time"
            time.sleep(0.05)
        for extra in ([], ["--force"]):
            second = tei(*MATCH, "--games", "2", "--ptnout", str(out), *extra, timeout=60)
            assert second.returncode == 2, second.stderr
            assert f"{out} is in use by another tei match running now" in second.stderr
        resumed = tei("match", "--resume", str(state), "--quiet", timeout=60)
        assert resumed.returncode == 2 and "in use by another tei match" in resumed.stderr
    finally:
        first.kill()  # SIGKILL: no clean-up of its own
        first.communicate(timeout=30)
    done = tei(*QUICK_MATCH, "--ptnout", str(out), "--force", "--quiet", timeout=120)
    assert done.returncode == 0, done.stderr  # the killed match's lock went with it
    assert read_state(state).ended == "finished"
