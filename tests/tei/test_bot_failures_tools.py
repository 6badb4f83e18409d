"""A failing bot seen by the tools: `tei check` fails the checks it failed in, `tei match`
counts its bot errors as faults and judges its overruns by its clock and margin. Real
`tei check` and `tei match` runs on `tei engine --bot tests.support.engines.bad_bots:NAME`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from adapters.referee.openings import read_records
from adapters.referee.records import read_details
from tests.support import ROOT
from tests.support.engines.procs import tei

pytestmark = pytest.mark.process


def test_check_fails_the_checks_a_bot_failed_in_and_says_why() -> None:
    done = tei(
        "check", "--timeout", "5", "--start-timeout", "20", "--",
        sys.executable, "-m", "tei", "engine", "--bot", "tests.support.engines.bad_bots:RaisingBot",
        path=str(ROOT), timeout=180,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert failed, done.stdout
    assert all(
        "its bot raised or returned a bad action and answered with a stand-in move: "
        "bot failed: KeyError: 'Pick'" in line
        for line in failed
        if "stand-in" in line
    )
    assert any("go movetime" in line and "stand-in" in line for line in failed), failed


@pytest.mark.parametrize(
    ("bot", "keys", "termination", "said"),
    [
        ("RaisingBot", [], "bot error", "bot failed: KeyError: 'Pick'"),
        ("NoneBot", [], "bot error", "bot failed: think returned None, not an action"),
        # the host's stand-in ('bot overran its time: no answer ...') comes at the
        # referee's time + margin: within the grace after stop, or else the driver's
        # timeout quotes the host's stderr ('bot ... failed on ...: no answer ...')
        ("SlowBot", ["tc=2+0"], "time forfeit", ": no answer "),
    ],
)
def test_match_counts_a_failing_bot_as_a_fault(
    tmp_path: Path, bot: str, keys: list[str], termination: str, said: str
) -> None:
    ptn, summary, log = tmp_path / "g.ptn", tmp_path / "s.json", tmp_path / "traffic.log"
    done = tei(
        "match", "--size", "4", "--games", "2", "--grace", "0.5",
        "--engine", f"bot=tests.support.engines.bad_bots:{bot}", "name=bad", *keys,
        "--engine", "bot=random", "name=good", *keys,
        "--ptnout", str(ptn), "--json", str(summary), "--log", str(log),
        path=str(ROOT), timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"Faults of bad: {termination} 2" in done.stdout
    results = json.loads(summary.read_text())["results"]
    assert [r["termination"] for r in results] == [termination] * 2
    assert [r["culprit"] for r in results] == ["bad"] * 2
    assert all(said in r["detail"] for r in results), results
    for record in read_records(ptn.read_text()):
        assert read_details(record.comments[0])["termination"] == termination
        assert said in record.comments[-1] or any(said in c for c in record.comments)
    if termination == "bot error":
        assert " ! Traceback (most recent call last):" in log.read_text() or bot == "NoneBot"


@pytest.mark.parametrize(("margin", "forfeits"), [("1500", False), ("100", True)])
def test_match_judges_a_late_bot_by_its_clock_and_margin(
    tmp_path: Path, margin: str, forfeits: bool
) -> None:
    """A built-in bot's own move that comes past its time but within the margin is
    played as its move (no stand-in, no forfeit); one past time + margin forfeits on the
    referee's clock, as for any engine."""
    ptn, summary = tmp_path / "g.ptn", tmp_path / "s.json"
    done = tei(
        "match", "--size", "4", "--games", "2", "--max-plies", "6",
        "--engine", "bot=tests.support.engines.bad_bots:LateBot", "name=late",
        "--engine", "bot=random", "name=good",
        "--each", "st=0.2", f"margin={margin}",
        "--ptnout", str(ptn), "--json", str(summary),
        path=str(ROOT), timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(summary.read_text())["results"]
    if forfeits:
        assert [r["termination"] for r in results] == ["time forfeit"] * 2, results
        assert [r["culprit"] for r in results] == ["late"] * 2, results
        return
    assert [r["termination"] for r in results] == ["adjudicated"] * 2, results  # 6 plies
    assert "overran" not in ptn.read_text()  # its own moves, no stand-ins
