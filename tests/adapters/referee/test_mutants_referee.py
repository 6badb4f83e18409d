"""Referee behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from adapters.referee.adjudication import DrawRule, ResignRule, ScoreRun
from adapters.referee.clock import TimeControl, TimeControlError
from adapters.referee.records import GameRecord, MoveNote, action_movetext, cut_fragment
from adapters.referee.schedule import ScheduleError, make_schedule
from adapters.referee.sprt import Sprt, SprtError, fit_expected_score
from adapters.referee.stats import GameScore, format_elo, pair_stats, team_standings


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"rounds": 0}, "rounds must be at least 1, not 0"),
        ({"openings": -1}, "must not be negative"),
        ({"openings": 3, "start": -1}, "must not be negative"),
    ],
)
def test_each_bad_schedule_number_is_refused_alone(kwargs: dict[str, int], words: str) -> None:
    with pytest.raises(ScheduleError, match=words):
        make_schedule(2, **kwargs)  # type: ignore[arg-type]


def test_a_game_is_labelled_by_its_round_and_its_1_based_number() -> None:
    sched = make_schedule(2, games=2, rounds=3)
    assert [p.label for p in sched] == ["1.1", "1.2", "2.3", "2.4", "3.5", "3.6"]


def test_every_group_of_every_round_gets_its_own_opening() -> None:
    sched = make_schedule(2, games=6, rounds=3, openings=20)
    assert [p.opening for p in sched] == [i // 2 for i in range(18)]


def test_a_fixed_time_per_move_alone_has_no_clock_and_no_increment() -> None:
    assert TimeControl.from_settings(st="0.5") == TimeControl(movetime_ms=500)
    assert TimeControl.from_settings(st="0.001") == TimeControl(movetime_ms=1)  # the least


@pytest.mark.parametrize("st", ["0", "0.0004"])
def test_a_fixed_time_per_move_of_no_milliseconds_is_refused(st: str) -> None:
    with pytest.raises(TimeControlError, match=f"st={st} gives no time"):
        TimeControl.from_settings(st=st)


def test_score_runs_count_a_score_exactly_at_a_rule_bound() -> None:
    resign, draw = ResignRule(3, 300), DrawRule(40, 3, 20)
    run = ScoreRun()
    run.add(300.0, resign, draw)
    assert (run.losing, run.winning, run.level) == (0, 1, 0)
    run.add(-300.0, resign, draw)
    assert (run.losing, run.winning, run.level) == (1, 0, 0)
    run.add(-20.0, resign, draw)
    run.add(20.0, resign, draw)
    assert (run.losing, run.winning, run.level) == (0, 0, 2)
    run.add(299.0, resign, draw)
    assert (run.losing, run.winning, run.level) == (0, 0, 0)


def test_a_true_or_false_setting_may_come_first() -> None:
    words = ["twosided=yes", "movecount=3", "score=600"]
    assert ResignRule.parse(words) == ResignRule(3, 600, twosided=True)


def test_a_tak_records_fault_note_follows_its_last_move() -> None:
    moves = (MoveNote("a1"), MoveNote("e5"), MoveNote("c3"))
    text = GameRecord("tak", (), moves, "0-1", note="white forfeits on time").render()
    assert "1. a1 e5\n2. c3 {white forfeits on time}\n0-1\n" in text


def test_cuts_in_one_second_get_side_files_numbered_2_3_and_on(tmp_path: Path) -> None:
    path = tmp_path / "g.ptn"
    now = datetime.datetime.now(datetime.UTC)
    for ahead in range(10):  # the first name of this second (and the next ones) is taken
        stamp = (now + datetime.timedelta(seconds=ahead)).strftime("%Y%m%dT%H%M%SZ")
        (tmp_path / f"g.ptn.cut-{stamp}").write_text("taken")
    sides = []
    for torn in ("[Si", "[Ev"):
        path.write_text("1. a1 e5\n" + torn)
        sides.append(cut_fragment(path, 9))
        assert sides[-1].read_text() == torn
        assert sides[0].name.endswith("-2")
    first, second = (side.name.rsplit("-", 1)[0] for side in sides)
    assert sides[1].name.endswith("-3" if first == second else "-2")  # the same second or not


class _LlrAt(Sprt):
    """An SPRT whose LLR is always exactly its lower or upper bound."""

    def llr(self, counts: Sequence[int]) -> float:
        return self.lower if counts[0] else self.upper


def test_an_llr_exactly_at_a_bound_accepts_that_bound() -> None:
    sprt = _LlrAt(0, 5)
    assert sprt.decide((1, 0, 0)) == "H0"
    assert sprt.decide((0, 0, 1)) == "H1"


def test_fitting_counts_with_an_empty_class_is_refused_naming_them() -> None:
    with pytest.raises(SprtError, match=r"cannot fit score 0.5 to counts \[0, 3, 2\]"):
        fit_expected_score([0, 3, 2], (0.0, 0.5, 1.0), 0.5)


@pytest.mark.parametrize("bad", [-0.5, 0.0, 1.0, 1.5])
def test_an_sprt_error_rate_outside_0_to_1_is_refused_naming_it(bad: float) -> None:
    for alpha, beta in ((bad, 0.05), (0.05, bad)):
        with pytest.raises(SprtError, match=f"must lie in \\(0, 1\\): {alpha}, {beta}"):
            Sprt(0, 5, alpha=alpha, beta=beta)
    assert Sprt(0, 5, alpha=0.001, beta=0.999).beta == 0.999  # inside the bounds: taken


def test_an_sprt_with_equal_hypotheses_is_refused() -> None:
    """elo0 = elo1 gives an LLR of 0 whatever the games: a match that never decides."""
    with pytest.raises(SprtError, match=r"elo0 \(5.0\) must be below elo1 \(5.0\)"):
        Sprt.parse(["elo0=5", "elo1=5"])


def test_two_engines_that_never_met_score_an_even_50_percent() -> None:
    games = [GameScore(seats=(0, 1), winners=(0,)), GameScore(seats=(1, 0), winners=(0,))]
    stats = pair_stats(games, 0, 2)
    assert (stats.games, stats.score, stats.draw_ratio, stats.elo()) == (0, 0.5, 0.0, None)


@pytest.mark.parametrize(
    ("engines", "kwargs", "total"),
    [
        (2, {"games": 100_001}, 100_001),  # the documented ceiling is 100000 games
        (3, {"games": 40_000}, 120_000),  # a round-robin of 3: 3 pairs
        (4, {"games": 40_000, "tournament": "gauntlet"}, 120_000),  # engine 0 meets 3
    ],
)
def test_a_schedule_over_100000_games_is_refused_with_its_count(
    engines: int, kwargs: dict[str, Any], total: int
) -> None:
    with pytest.raises(ScheduleError, match=f"has {total} games .* at most 100000"):
        make_schedule(engines, **kwargs)


def test_fewer_than_2_seats_are_refused_by_name_even_negative() -> None:
    with pytest.raises(ScheduleError, match="at least 2 seats, not -1"):
        make_schedule(3, seats=-1)


def test_a_schedule_without_a_book_plays_every_game_from_the_start() -> None:
    assert {pairing.opening for pairing in make_schedule(3)} == {None}


def test_the_least_clock_is_one_millisecond() -> None:
    assert TimeControl.parse_tc("0.001") == (1, 0)
    with pytest.raises(TimeControlError, match="gives no time"):
        TimeControl.parse_tc("0.0004")


@pytest.mark.parametrize("key", ["nodes", "depth"])
def test_a_count_of_zero_is_refused_and_one_is_the_least(key: str) -> None:
    with pytest.raises(TimeControlError, match=f"{key}=0 must be positive"):
        TimeControl.from_settings(**{key: "0"})
    assert getattr(TimeControl.from_settings(**{key: "1"}), key) == 1


def test_action_lines_are_wrapped_at_79_characters() -> None:
    """Trike's actions, several a line: a line is cut before it would pass 79 characters."""
    fits = [MoveNote("a" * 39), MoveNote("b" * 39)]  # 39 + 1 + 39 = 79: one line
    assert action_movetext("actions", fits, "1-0", ["A", "B"]).splitlines()[0] == (
        "a" * 39 + " " + "b" * 39
    )
    over = [MoveNote("a" * 39), MoveNote("b" * 40)]  # 80: two lines
    assert action_movetext("actions", over, "1-0", ["A", "B"]).splitlines()[:2] == [
        "a" * 39,
        "b" * 40,
    ]


def test_a_turn_line_of_a_seat_without_a_name_says_its_number_from_1() -> None:
    notes = [MoveNote("T08", seat=0), MoveNote("T09", seat=2)]
    text = action_movetext("turns", notes, "1-0", ["R", "G"])
    assert text.splitlines()[:2] == ["R: T08", "3: T09"]


def test_head_to_head_counts_the_games_after_one_the_engine_sat_out() -> None:
    games = [GameScore(seats=(1, 2), winners=(0,)), GameScore(seats=(0, 1), winners=(0,))]
    stats = pair_stats(games, 0, 1)
    assert (stats.wins, stats.losses, stats.draws) == (1, 0, 0)


def test_a_team_standing_counts_its_games() -> None:
    rows = team_standings([GameScore(seats=(0, 1, 2, 3), winners=(0, 2))])
    assert [(row.who, row.games, row.score) for row in rows] == [((0, 2), 1, 1.0), ((1, 3), 1, 0.0)]


def test_an_elo_interval_open_below_only_is_shown_by_its_bounds() -> None:
    assert format_elo((-381.7, -math.inf, -159.0)) == "-381.7 [-inf, -159.0]"
