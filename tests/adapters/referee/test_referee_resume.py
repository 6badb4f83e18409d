"""`tei match --resume` against damaged or mixed files: a complete record is never
removed, an unfinished one is kept in a side file, and the lines of another match or of
games outside the schedule are refused, naming the line."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from adapters.referee.openings import read_records
from adapters.referee.state import read_state
from tei.cli import main
from tests.support.engines.procs import tei
from tests.support.referee import ENGINE

pytestmark = pytest.mark.process

BOTS = ["--engine", "bot=random", "--engine", "bot=greedy"]
FAULTY = ["--engine", f"cmd={sys.executable} {ENGINE} --mode good", "name=good"]
FAULTY += ["--engine", f"cmd={sys.executable} {ENGINE} --mode illegal --at 3", "name=bad"]


def played(tmp_path: Path, *args: str, name: str = "games") -> tuple[Path, Path]:
    """A finished 4-game match on 4x4: its records file and state file."""
    out = tmp_path / f"{name}.ptn"
    base = ["match", "--size", "4", "--games", "4", *(args or BOTS)]
    assert main([*base, "--ptnout", str(out), "--quiet"]) == 0
    return out, tmp_path / f"{name}.ptn.state"


def lines_of(state: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in state.read_text().splitlines()]


def write_lines(state: Path, lines: list[dict[str, object]]) -> None:
    state.write_text("".join(json.dumps(line) + "\n" for line in lines))


def refused(state: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Resume `state`: exit status 2, the records file unchanged and no side file made;
    returns what was printed on stderr."""
    text = out.read_text()
    capsys.readouterr()
    assert main(["match", "--resume", str(state), "--quiet"]) == 2
    assert out.read_text() == text
    assert not list(out.parent.glob("*.cut-*"))
    return capsys.readouterr().err


@pytest.mark.parametrize(
    "args",
    [BOTS, FAULTY, [*BOTS, "--max-plies", "6"]],
    ids=["rules", "illegal-move", "max-plies"],
)
def test_a_complete_record_the_state_file_lost_is_kept_and_taken_as_the_game(
    tmp_path: Path, args: list[str]
) -> None:
    """The state file is older than the records file (its last two games lost): resuming
    keeps both records as they are, takes the games from them and replays nothing."""
    out, state = played(tmp_path, *args)
    lines = lines_of(state)
    original = {line["index"]: line for line in lines if line["kind"] == "game"}
    write_lines(state, [line for line in lines if int(str(line.get("index", 0))) < 2])
    text = out.read_text()
    assert main(["match", "--resume", str(state), "--quiet"]) == 0
    assert out.read_text() == text
    saved = read_state(state)
    assert sorted(saved.games) == [0, 1, 2, 3] and saved.written == {0, 1, 2, 3}
    for index in (2, 3):
        taken, was = saved.games[index].to_json(), original[index]
        assert taken["record"].strip() == str(was["record"]).strip()
        for key in ("seats", "winners", "group", "code", "termination", "reason", "plies"):
            assert taken[key] == was[key], key
        assert (taken["detail"], taken["culprit"]) == (was["detail"], was["culprit"])


def test_an_unfinished_last_record_is_moved_to_a_side_file_named_in_the_message(
    tmp_path: Path,
) -> None:
    """The referee died while writing the last record: the state file has the game but
    not its `written` line, the records file ends in half a record. Resuming moves the
    fragment to a side file, says so, then writes that record whole, once."""
    out, state = played(tmp_path)
    lines = lines_of(state)
    last_written = max(i for i, line in enumerate(lines) if line["kind"] == "written")
    write_lines(state, lines[:last_written] + lines[last_written + 1 :])
    text = out.read_text()
    last = text.rindex('[Site "')
    out.write_text(text[: last + 40])  # the last record cut in the middle of its tags
    done = tei("match", "--resume", str(state), "--quiet", timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == text
    (side,) = tmp_path.glob("games.ptn.cut-*")
    assert side.read_text() == text[last : last + 40]
    line = text[:last].count("\n") + 1
    assert f"{out}:{line}: an unfinished record (40 bytes" in done.stderr
    assert str(side) in done.stderr


def test_records_of_another_match_in_the_file_are_left_alone_and_not_counted(
    tmp_path: Path,
) -> None:
    """Match B stopped after two games; match A (same engines and schedule) then wrote its
    last two records into B's file. Resuming B keeps A's records where they are, takes
    none of them as B's games, and plays B's last two games."""
    out_a, _ = played(tmp_path, name="a")
    out_b, state_b = played(tmp_path, name="b")
    write_lines(state_b, [line for line in lines_of(state_b) if int(str(line.get("index", 0))) < 2])
    text_a, text_b = out_a.read_text(), out_b.read_text()
    starts_a = [m.start() for m in re.finditer(r'^\[Site "', text_a, re.MULTILINE)]
    starts_b = [m.start() for m in re.finditer(r'^\[Site "', text_b, re.MULTILINE)]
    before = text_b[: starts_b[2]] + text_a[starts_a[2] :]
    out_b.write_text(before)
    assert main(["match", "--resume", str(state_b), "--quiet"]) == 0
    after = out_b.read_text()
    assert after.startswith(before)
    saved = read_state(state_b)
    assert sorted(saved.games) == [0, 1, 2, 3]
    assert all(saved.games[i].record in after[len(before) :] for i in (2, 3))
    assert [r.tags["Round"] for r in read_records(after)] == ["1", "2", "3", "4", "3", "4"]


Lines = list[dict[str, object]]


def _foreign_round(text: str, lines: Lines) -> tuple[str, Lines, int, str]:
    """A copy of the first record with a round the schedule does not have."""
    foreign = text[: text.index("[Site", 1)].replace('[Round "1"]', '[Round "9"]')
    why = "a complete record the state file does not know, and it does not fit this"
    why += " match's schedule: game 9 is not in the schedule of 4 games"
    return text + foreign, lines, text.count("\n") + 1, why


def _second_record(text: str, lines: Lines) -> tuple[str, Lines, int, str]:
    """Another record of the first game (another start time)."""
    first = text[: text.index("[Site", 1)]
    other = re.sub(r'\[Time "[^"]*"\]', '[Time "99:99:99"]', first)
    why = "a second, different record of game 1; resuming would count that game twice"
    return text + other, lines, text.count("\n") + 1, why


def _unknown_result(text: str, lines: Lines) -> tuple[str, Lines, int, str]:
    """The state lost the last game, whose record has a result the referee never writes."""
    last = text.rindex("[Site")
    record = read_records(text[last:])[0]
    result = record.tags["Result"]
    changed = text[last:].replace(f'"{result}"]', '"2-2"]').replace(f"\n{result}\n", "\n2-2\n")
    kept = [line for line in lines if line.get("index") != 3]
    why = "a complete record the state file does not know, and its result '2-2' is not"
    return text[:last] + changed, kept, text[:last].count("\n") + 1, why


@pytest.mark.parametrize("damage", [_foreign_round, _second_record, _unknown_result])
def test_a_complete_record_that_cannot_be_placed_is_refused_and_nothing_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: object
) -> None:
    """Resuming stops with exit status 2 naming FILE:LINE; the complete record stays, and
    so does an unfinished record after it (no side file)."""
    out, state = played(tmp_path)
    assert callable(damage)
    text, lines, line, why = damage(out.read_text(), lines_of(state))
    out.write_text(text + '[Site "lo')
    write_lines(state, lines)
    assert f"{out}:{line}: {why}" in refused(state, out, capsys)


def test_the_lines_of_another_match_are_refused_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Match B's settings line with match A's game lines (same engines, same schedule)."""
    _, state_a = played(tmp_path, name="a")
    out_b, state_b = played(tmp_path, name="b")
    mixed = lines_of(state_b)[:1] + lines_of(state_a)[1:]
    write_lines(state_b, mixed)
    assert f"{state_b}:2: a line of another match" in refused(state_b, out_b, capsys)


def _out_of_schedule(line: dict[str, object]) -> None:
    line["index"] = 7


def _seats_swapped(line: dict[str, object]) -> None:
    line["seats"] = list(reversed(line["seats"]))  # type: ignore[call-overload]


def _other_player(line: dict[str, object]) -> None:
    line["record"] = str(line["record"]).replace('[Player1 "', '[Player1 "x')


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (_out_of_schedule, "game 8 is not in the schedule of 4 games"),
        (_seats_swapped, "game 2 has engines [0, 1] in group 0, the schedule has [1, 0]"),
        (_other_player, "game 2 is played by ['xgreedy', 'random']"),
    ],
)
def test_a_game_line_that_does_not_fit_the_schedule_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: object, why: str
) -> None:
    out, state = played(tmp_path)
    lines = lines_of(state)
    number = next(i for i, line in enumerate(lines) if line.get("index") == 1)
    assert callable(edit)
    edit(lines[number])
    write_lines(state, lines)
    error = refused(state, out, capsys)
    assert f"{state}:{number + 1}: not a game of this match: {why}" in error


def test_a_record_the_state_holds_is_written_back_whole_when_the_file_cut_it(
    tmp_path: Path,
) -> None:
    """The last 40 bytes of a finished match's records are lost (the state file has every
    game and its `written` line): resuming keeps the cut piece in a side file and writes
    the record again, whole, from the state file."""
    out, state = played(tmp_path)
    text = out.read_text()
    out.write_text(text[:-40])
    done = tei("match", "--resume", str(state), "--quiet", timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == text
    (side,) = tmp_path.glob("games.ptn.cut-*")
    assert side.read_text() == text[text.rindex('[Site "') : -40]
    assert read_state(state).written == {0, 1, 2, 3}


def test_records_the_file_lost_are_written_back_from_the_state(tmp_path: Path) -> None:
    """The records file was emptied after the match: every record comes back, in order."""
    out, state = played(tmp_path)
    text = out.read_text()
    out.write_text("")
    assert main(["match", "--resume", str(state), "--quiet"]) == 0
    assert out.read_text() == text
