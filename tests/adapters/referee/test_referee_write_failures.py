"""A file `tei match` cannot write: a clean message naming it, exit status 1, the
finished games kept in the state file, and a resume that completes the match."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adapters.referee.openings import read_records
from adapters.referee.state import read_state
from tests.support.engines.procs import tei
from tests.support.referee import ENGINE

pytestmark = pytest.mark.process

GOOD = f"cmd={sys.executable} {ENGINE} --mode good"
MATCH = ["match", "--size", "4", "--engine", GOOD, "name=a", "--engine", GOOD, "name=b"]


def test_records_on_a_full_disk_stop_the_match_and_keep_the_games(tmp_path: Path) -> None:
    state = tmp_path / "s.state"
    done = tei(*MATCH, "--games", "4", "--ptnout", "/dev/full", "--state", str(state))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "tei match: cannot write the records file /dev/full: No space left on device;" in (
        done.stderr
    )
    assert "games left (running games abandoned)" in done.stderr
    assert f"resume with: tei match --resume {state}" in done.stderr
    assert len(read_state(state).games) >= 1


def test_a_traffic_log_on_a_full_disk_is_told_and_the_match_goes_on(tmp_path: Path) -> None:
    done = tei(*MATCH, "--games", "2", "--log", "/dev/full", "--quiet")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "cannot write the traffic log /dev/full: No space left on device" in done.stderr
    assert "Games: 2 of 2 (finished)" in done.stdout


def test_records_file_replaced_by_a_folder_mid_match(tmp_path: Path) -> None:
    out = tmp_path / "g.ptn"
    slow = f"{GOOD} --delay 0.02"
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "tei", "match", "--size", "4", "--max-plies", "30"),
            *("--engine", slow, "name=a", "--engine", slow, "name=b", "--games", "8"),
            *("--ptnout", str(out), "--quiet"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (out.exists() and "[Result" in out.read_text()):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no record written in time"
        time.sleep(0.02)
    out.unlink()
    out.mkdir()
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1, stderr
    assert "Traceback" not in stderr
    assert f"cannot write the records file {out}: Is a directory" in stderr
    state = Path(f"{out}.state")
    kept = read_state(state)
    assert 1 <= len(kept.games) < 8
    shutil.rmtree(out)
    done = tei("match", "--resume", str(state), "--quiet", timeout=120)
    assert done.returncode == 0, done.stderr
    rounds = sorted(int(r.tags["Round"]) for r in read_records(out.read_text()))
    assert rounds == list(range(1, 9))
