"""The match summary, pure: built from scripted progress, and its three renderings (the
final text, the JSON summary, the standings event) telling the same numbers."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from adapters.referee.config import build_config
from adapters.referee.facts import MoveTimes, Status, Termination, move_times
from adapters.referee.progress import MatchProgress
from adapters.referee.report import standings_event, summary_data, summary_text
from adapters.referee.state import FinishedGame, StateError, StateWriter, read_state
from adapters.referee.stats import GameScore
from adapters.referee.summary import player_line, summarize, table
from tei.bot_failure import BotFailure
from tei.seat import FaultKind

NAMES = ["a", "b", "c"]


def _progress(sprt: str | None = "elo0=0 elo1=10") -> MatchProgress:
    """Three engines: a beats b twice (a pair), b and c draw, c crashes against a."""
    settings: dict[str, object] = {"engines": [{"bot": "random", "name": n} for n in NAMES]}
    if sprt is not None:
        settings["sprt"] = sprt
    progress = MatchProgress(build_config(settings), total=6)
    games = [
        FinishedGame(
            0,
            (0, 1),
            (0,),
            0,
            "R-0",
            "normal",
            "road",
            21,
            "",
            timing=((0, 10, 1000.0, 300.0, 10, 50.0), (1, 10, 500.0, 90.0, 0, 0.0)),
        ),
        FinishedGame(
            1,
            (1, 0),
            (1,),
            0,
            "0-R",
            "adjudicated",
            "resign",
            30,
            "",
            timing=((1, 15, 1500.0, 120.0, 0, 0.0), (0, 15, 3000.0, 400.0, 5, 25.0)),
        ),
        FinishedGame(2, (1, 2), (0, 1), 1, "1/2-1/2", "adjudicated", "max plies", 40, ""),
        FinishedGame(3, (2, 0), (1,), 2, "0-1", Termination.CRASHED, "crashed", 3, "", "gone", 2),
    ]
    for game in games:
        progress.finished[game.index] = game
    progress.restarts[2] += 1
    return progress


def test_the_table_ranks_the_engines_and_runs_the_sprt() -> None:
    t = table(_progress())
    assert [(r.name, r.games, r.points, r.wins, r.draws, r.losses) for r in t.standings] == [
        ("a", 3, 3.0, 3, 0, 0),
        ("c", 2, 0.5, 0, 1, 1),
        ("b", 3, 0.5, 0, 1, 2),
    ]
    assert (t.done, t.total, t.status, t.status_text) == (4, 6, Status.RUNNING, "running")
    a = t.standings[0]
    assert a.elo is not None and a.elo[0] == float("inf")  # three wins of three
    assert a.adjudicated == {"resign": 1} and t.standings[2].adjudicated == Counter(
        {"resign": 1, "max plies": 1}
    )
    assert t.sprt is not None and (t.sprt.elo0, t.sprt.elo1, t.sprt.model) == (
        0.0,
        10.0,
        "pentanomial",
    )
    assert t.sprt.decision is None and t.sprt.llr > 0
    assert table(_progress(sprt=None)).sprt is None


def test_the_summary_counts_pairs_terminations_faults_timing_and_games() -> None:
    s = summarize(_progress())
    assert [(p.a, p.b, p.wins, p.losses, p.draws, p.penta) for p in s.pairs] == [
        ("a", "b", 2, 0, 0, (0, 0, 0, 0, 1)),
        ("a", "c", 1, 0, 0, (0, 0, 0, 0, 0)),
        ("b", "c", 0, 0, 1, (0, 0, 0, 0, 0)),
    ]
    assert s.terminations == {
        Termination.NORMAL: 1,
        Termination.ADJUDICATED: 2,
        Termination.CRASHED: 1,
    }
    assert s.adjudications == {"resign": 1, "max plies": 1}
    assert s.faults == {"c": {Termination.CRASHED: 1}} and s.restarts == {"c": 1}
    a, b = s.timing
    assert (a.name, a.moves, a.average_ms, a.max_ms, a.latency_ms) == ("a", 25, 160.0, 400.0, 5.0)
    assert (b.name, b.moves, b.average_ms, b.max_ms, b.latency_ms) == ("b", 25, 80.0, 120.0, None)
    last = s.results[-1]
    assert (last.players, last.termination, last.culprit, last.detail) == (
        ("c", "a"),
        Termination.CRASHED,
        "c",
        "gone",
    )
    assert s.two_seats and not s.team_game and s.teams == ()


def test_the_three_renderings_tell_the_same_numbers() -> None:
    progress = _progress()
    progress.stop(Status.ERROR, "cannot write x.ptn: No space left on device")
    s = summarize(progress)
    text = summary_text(s).splitlines()
    data = json.loads(json.dumps(summary_data(s)))
    event = standings_event(s.table)
    status = "error: cannot write x.ptn: No space left on device"
    assert text[0] == f"Games: 4 of 6 ({status})"
    assert data["status"] == event.status == status
    # a's Elo from its one complete game pair (as a pair's), in the text and the event
    assert text[2].split()[:3] == ["1", "a", "3"] and text[2].endswith("+inf [-233.8, +inf]")
    assert [r["who"] for r in data["standings"]] == [[r.name] for r in event.rows]
    assert event.rows[0].elo_text == "+inf [-233.8, +inf]"
    assert event.rows[0].elo is None and event.rows[0].low == -233.8
    assert "Terminations: adjudicated 2, crashed 1, normal 1" in text
    assert "Faults of c: crashed 1" in text
    assert data["faults"] == {"c": {"crashed": 1}}
    assert data["results"][3]["termination"] == "crashed"
    assert "Time of b: 25 moves, average 80.0 ms, longest 120.0 ms" in text
    assert data["timing"]["b"] == {
        "moves": 25,
        "average_ms": 80.0,
        "max_ms": 120.0,
        "latency_ms": None,
    }
    sprt = event.sprt
    assert sprt is not None and data["sprt"]["llr"] == round(sprt.llr, 4)
    assert any(line.startswith("SPRT elo0=0 elo1=10 ") for line in text)


def test_a_player_line_counts_unfinished_games_as_played() -> None:
    scores = [GameScore((0, 1), (0,)), GameScore((1, 0), (0, 1)), GameScore((1, 0), (0,))]
    line = player_line("bot", scores, unfinished=1)
    assert (line.games, line.points, line.wins, line.draws, line.losses) == (4, 1.5, 1, 1, 1)
    assert isinstance(player_line("bot", []).points, float)


def test_status_and_termination_are_enums_with_the_record_words() -> None:
    assert Status.sprt("H1") is Status.SPRT_H1 and Status.SPRT_H1.value == "sprt H1"
    assert [s for s in Status if s.ended] == [Status.FINISHED, Status.SPRT_H0, Status.SPRT_H1]
    assert {Termination.of_fault(k).value for k in FaultKind} == {k.value for k in FaultKind}
    assert [t for t in Termination if not t.is_fault] == [
        Termination.NORMAL,
        Termination.ADJUDICATED,
    ]
    with pytest.raises(ValueError, match="'sprt maybe'"):
        Status.sprt("maybe")


def test_move_times_add_up_as_the_state_file_keeps_them() -> None:
    t = MoveTimes(1).add(100.0, None).add(300.0, 250.0)
    assert t == MoveTimes(1, 2, 400.0, 300.0, 1, 50.0)
    assert (t + t).to_json() == [1, 4, 800.0, 300.0, 2, 100.0]
    assert move_times([(1, 2, 400.0, 300.0, 1, 50.0)]) == (t,)


def test_a_state_line_with_an_unknown_termination_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "m.state"
    writer = StateWriter(path, "r1", {"games": 2})
    writer.game(FinishedGame(0, (0, 1), (0,), 0, "R-0", "normal", "road", 9, ""))
    writer.close()
    path.write_text(path.read_text().replace('"normal"', '"by magic"'))
    with pytest.raises(StateError, match=r"m\.state:2: .*'by magic' is not a valid Termination"):
        read_state(path)


def test_a_bot_failure_describes_itself_without_the_error_word() -> None:
    failure = BotFailure("overrun", "2.5 s")
    assert failure.describe() == "bot overran its time: 2.5 s"
    assert BotFailure.from_string(failure.to_string()) == failure
