"""Engine names in `tei match`: unique, one line, no control character anywhere."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from adapters.referee.config import DEFAULTS, build_config
from adapters.referee.engines import MatchError
from adapters.referee.openings import read_records
from tei.cli import main
from tests.support.engines.procs import tei
from tests.support.referee import ENGINE


def names(*engines: dict[str, Any]) -> list[str]:
    return [e.name for e in build_config({**DEFAULTS, "engines": list(engines)}).engines]


def test_made_names_are_numbered_and_never_take_a_given_name() -> None:
    assert names({"bot": "random"}, {"bot": "random"}) == ["random#1", "random#2"]
    given = {"bot": "greedy", "name": "random#1"}
    assert names({"bot": "random"}, given, {"bot": "random"}) == [
        "random#2",
        "random#1",
        "random#3",
    ]
    assert names({"bot": "random"}, {"bot": "random", "name": "random"}) == ["random#1", "random"]


def test_a_name_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(MatchError, match="two engines are named 'x'"):
        names({"bot": "random", "name": "x"}, {"bot": "greedy", "name": "x"})
    code = main(["match", "--engine", "bot=random", "name=x", "--engine", "bot=greedy", "name=x"])
    err = capsys.readouterr().err
    assert code == 2 and "two engines are named 'x'" in err and "Traceback" not in err


def test_control_characters_in_a_name_are_escaped() -> None:
    assert names({"bot": "random", "name": "a\nb\x1b[31m"}, {"bot": "random"}) == [
        "a\\x0ab\\x1b[31m",
        "random",
    ]


@pytest.mark.process
def test_three_engines_have_three_rows_and_three_timings(tmp_path: Path) -> None:
    summary = tmp_path / "s.json"
    done = tei(
        "match",
        *("--engine", "bot=random", "--engine", "bot=greedy", "name=random#1"),
        *("--engine", "bot=random", "--size", "3", "--games", "1", "--json", str(summary)),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(summary.read_text())
    assert sorted(data["timing"]) == ["random#1", "random#2", "random#3"]
    rows = [
        line.split()[1] for line in done.stdout.splitlines() if line[:3] in (" 1 ", " 2 ", " 3 ")
    ]
    assert sorted(rows) == ["random#1", "random#2", "random#3"]


@pytest.mark.process
def test_a_name_with_a_newline_and_escapes_never_reaches_the_terminal_or_a_tag_raw(
    tmp_path: Path,
) -> None:
    out = tmp_path / "g.ptn"
    bad = "a\nb\x1b[31m"
    done = tei(
        "match",
        *("--engine", f"cmd={sys.executable} {ENGINE} --mode good", "name=good"),
        *("--engine", f"cmd={sys.executable} {ENGINE} --mode good", f"name={bad}"),
        *("--size", "4", "--ptnout", str(out)),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    shown = "a\\x0ab\\x1b[31m"
    for text in (done.stdout, done.stderr, out.read_text()):
        assert "\x1b" not in text and "\nb" not in text
    assert shown in done.stdout
    tags = [r.tags for r in read_records(out.read_text())]
    assert [t["Player2"] for t in tags] == [shown, "good"]
    assert all(line.count('"') == 2 for line in out.read_text().splitlines() if "Player" in line)
    resumed = tei("match", "--resume", f"{out}.state", "--quiet", timeout=120)
    assert resumed.returncode == 0, resumed.stderr  # the records' players fit the schedule
