"""A reader that goes away (`tei ... | head`): every command ends quietly, exit 141."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.referee.openings import read_records
from adapters.referee.state import read_state
from tei.closed_output import CLOSED_OUTPUT_STATUS
from tests.support.referee import ENGINE

pytestmark = pytest.mark.process

GOOD = f"cmd={sys.executable} {ENGINE} --mode good"
MATCH = ["match", "--size", "4", "--engine", GOOD, "name=a", "--engine", GOOD, "name=b"]


def to_closed_pipe(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`tei ARGS` with its standard output a pipe whose reader has already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "tei", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            cwd=cwd,
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "args",
    [
        ["perft", "--depth", "2", "--divide"],
        ["show", "--size", "6"],
        [*MATCH, "--games", "2", "--quiet"],
    ],
    ids=["perft", "show", "match-quiet"],
)
def test_a_closed_output_ends_the_command_quietly(args: list[str]) -> None:
    done = to_closed_pipe(*args)
    assert done.returncode == CLOSED_OUTPUT_STATUS == 141
    assert done.stderr == ""


def test_a_match_whose_reader_leaves_stops_and_keeps_its_games(tmp_path: Path) -> None:
    """`tei match | head -2`: the match stops at the next line it cannot write, says on
    stderr how to resume; the finished games are in the state file and records."""
    out = tmp_path / "g.ptn"
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "tei", *MATCH])
    line = f"{command} --games 40 --ptnout {out} | head -2; echo ${{PIPESTATUS[0]}} >&2"
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=120)
    status = done.stderr.splitlines()[-1]
    assert status == "141", done.stderr
    assert "Traceback" not in done.stderr
    assert f"resume with: tei match --resume {out}.state" in done.stderr
    assert len(done.stdout.splitlines()) == 2
    state = read_state(f"{out}.state")
    assert len(state.games) < 40
    assert [int(r.tags["Round"]) for r in read_records(out.read_text())] == [
        i + 1 for i in sorted(state.games)
    ]
