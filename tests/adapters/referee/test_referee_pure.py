"""The referee's pure parts: schedule, clocks, settings and the console report."""

from __future__ import annotations

import io
from collections import Counter

import pytest

from adapters.referee.clock import Clock, TimeControl, TimeControlError, go_limits
from adapters.referee.config import build_config, engine_spec, merge_engine, parse_engine_words
from adapters.referee.engines import MatchError
from adapters.referee.progress import MatchProgress
from adapters.referee.report import ConsoleReporter, final_report, progress_text, standings_event
from adapters.referee.schedule import (
    ScheduleError,
    alignment_warning,
    encounters,
    make_schedule,
    opening_sequence,
    rotate,
)
from adapters.referee.state import FinishedGame
from adapters.referee.summary import table
from adapters.stream.events import GameOver, GameStarted, MatchStarted, SprtStatus, Standings

# ---- schedule ------------------------------------------------------------------------


def test_round_robin_meets_every_pair_with_colours_swapped() -> None:
    sched = make_schedule(3, games=2, rounds=1, openings=10)
    assert [p.index for p in sched] == list(range(6))
    meetings = Counter(frozenset(p.seats) for p in sched)
    assert set(meetings) == {frozenset(x) for x in ((0, 1), (0, 2), (1, 2))}
    assert set(meetings.values()) == {2}
    for a, b in zip(sched[::2], sched[1::2], strict=True):
        assert a.seats == b.seats[::-1]
        assert a.opening == b.opening and a.group == b.group


def test_gauntlet_puts_the_first_engine_in_every_encounter() -> None:
    sched = make_schedule(4, tournament="gauntlet", games=4, rounds=2)
    assert all(0 in p.seats for p in sched)
    assert len(sched) == 3 * 4 * 2
    assert {p.round for p in sched} == {1, 2}


def test_openings_sequential_shared_by_encounters_and_new_each_round() -> None:
    sched = make_schedule(3, games=4, rounds=2, openings=5)
    round1 = [p for p in sched if p.round == 1]
    for meet in {p.encounter for p in round1}:
        assert [p.opening for p in round1 if p.encounter == meet] == [0, 0, 1, 1]
    assert [p.opening for p in sched if p.round == 2][:4] == [2, 2, 3, 3]


def test_shuffled_openings_use_the_whole_book_before_repeating() -> None:
    seq = opening_sequence(7, 14, "random", seed=3)
    assert sorted(seq[:7]) == list(range(7)) and sorted(seq[7:]) == list(range(7))
    assert seq == opening_sequence(7, 14, "random", seed=3)
    assert opening_sequence(3, 5, "sequential", None, start=2) == [2, 0, 1, 2, 0]


def test_traxit_seats_rotate_through_every_seat() -> None:
    sched = make_schedule(4, seats=4, games=4, openings=2)
    assert len(sched) == 4
    for engine in range(4):
        assert sorted(p.seats.index(engine) for p in sched) == [0, 1, 2, 3]
    # cyclic rotation keeps partners (seats 0+2, 1+3) together
    teams = {frozenset((p.seats[0], p.seats[2])) for p in sched}
    assert teams == {frozenset((0, 2)), frozenset((1, 3))}
    assert rotate((5, 6, 7), 1) == (7, 5, 6)


def test_three_seats_from_four_engines() -> None:
    assert len(encounters(4, 3, "round-robin")) == 4
    assert encounters(4, 3, "gauntlet") == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]


@pytest.mark.parametrize(
    ("engines", "kwargs", "word"),
    [
        (1, {}, "engines"),
        (2, {"games": 0}, "games"),
        (2, {"tournament": "knockout"}, "knockout"),
        (2, {"order": "backwards"}, "backwards"),
    ],
)
def test_bad_schedules_are_named(engines: int, kwargs: dict[str, object], word: str) -> None:
    with pytest.raises(ScheduleError, match=word):
        make_schedule(engines, **kwargs)  # type: ignore[arg-type]


def test_alignment_warning() -> None:
    assert alignment_warning(3, 2) is not None
    assert alignment_warning(6, 3) is None


# ---- clocks ------------------------------------------------------------------------------


def test_time_control_parsing() -> None:
    assert TimeControl.parse_tc("10+0.1") == (10_000, 100)
    assert TimeControl.parse_tc("1:30+2") == (90_000, 2_000)
    assert TimeControl.parse_tc("inf") == (None, 0)
    tc = TimeControl.from_settings(tc="60+1", st="0.5", nodes="1000", margin="0")
    assert tc.margin_ms == 0 and tc.movetime_ms == 500 and tc.nodes == 1000
    assert tc.describe() == "1:0 +1, st 0.5, nodes 1000"
    for bad in ("abc", "40/60", "0", "-1+1"):
        with pytest.raises(TimeControlError):
            TimeControl.parse_tc(bad)


def test_clock_margin_clamps_and_forfeits() -> None:
    clock = Clock(TimeControl(base_ms=1000, inc_ms=100, margin_ms=50))
    assert clock.allowed_ms() == 1050
    assert clock.punch(400) and clock.left_ms == 700
    assert clock.punch(730)  # 30 ms over, inside the margin: clamped to 0, then +inc
    assert clock.left_ms == 100 and clock.sent_ms() == 100
    assert not clock.punch(151)
    assert clock.sent_ms() == 0  # never negative


def test_fixed_time_per_move() -> None:
    clock = Clock(TimeControl(movetime_ms=200, margin_ms=10))
    assert clock.allowed_ms() == 210 and clock.punch(209) and not clock.punch(211)
    assert Clock(TimeControl(nodes=5)).allowed_ms() is None


def test_go_limits_put_each_clock_in_its_slot() -> None:
    a = Clock(TimeControl(base_ms=1000, inc_ms=10))
    b = Clock(TimeControl(base_ms=3000, inc_ms=20))
    b.left_ms = -5
    white = go_limits([a, b], 0)
    assert (white.wtime, white.btime, white.winc, white.binc) == (1000, 0, 10, 20)
    black = go_limits([a, b], 1)
    assert (black.wtime, black.btime) == (1000, 0)
    fixed = go_limits([Clock(TimeControl(movetime_ms=50)), a], 0)
    assert fixed.wtime is None and fixed.movetime == 50


# ---- settings ----------------------------------------------------------------------------


def test_engine_words_each_and_defaults() -> None:
    own = parse_engine_words(["cmd=./bot --fast", "option.Hash=64", "arg=-v", "tc=5+0.1"])
    assert own == {"cmd": "./bot --fast", "options": {"Hash": "64"}, "arg": ["-v"], "tc": "5+0.1"}
    merged = merge_engine({"options": {"Hash": "16", "Threads": "2"}, "st": "1"}, own)
    assert merged["options"] == {"Hash": "64", "Threads": "2"} and merged["st"] == "1"
    spec = engine_spec(merged, "tak", 1)
    assert spec.argv == ("./bot", "--fast", "-v") and spec.name == "bot"
    assert spec.control.base_ms == 5000 and spec.control.movetime_ms == 1000
    bot = engine_spec({"bot": "random"}, "trike", 2)
    assert bot.argv[-7:] == (
        "engine",
        "--game",
        "trike",
        "--overrun-grace",
        "50",
        "--bot",
        "random",
    )
    assert bot.name == "random"  # its margin (50 ms by default) is the host's grace
    assert bot.control.describe() == "0:10 +0.1"  # the default clock


@pytest.mark.parametrize(
    ("entry", "word"),
    [
        ({"name": "x"}, "cmd="),
        ({"cmd": "a", "bot": "random"}, "not both"),
        ({"cmd": "a", "tc": "inf"}, "no limit"),
        ({"cmd": "a", "depth": "-1"}, "depth"),
        ({"cmd": "a", "options": {"halfKomi": "4"}}, "set by the referee"),
    ],
)
def test_bad_engine_entries_are_named(entry: dict[str, str], word: str) -> None:
    with pytest.raises(MatchError, match=word):
        engine_spec(entry, "tak", 1)


def test_build_config_names_duplicates_and_checks_counts() -> None:
    config = build_config({"engines": [{"bot": "random"}, {"bot": "random"}], "games": 4})
    assert [e.name for e in config.engines] == ["random#1", "random#2"]
    with pytest.raises(MatchError, match="at least 2"):
        build_config({"engines": [{"bot": "random"}]})
    with pytest.raises(MatchError, match="unknown engine key"):
        parse_engine_words(["colour=red"])
    teams = build_config(
        {"game": "traxit", "rules": {"teams": "true"}, "engines": [{"bot": "random"}] * 4}
    )
    assert teams.rules["players"] == "4"


@pytest.mark.parametrize(
    ("settings", "word"),
    [
        ({"concurrency": 0}, "concurrency must be 1..256, not 0"),
        ({"concurrency": -2}, "concurrency must be 1..256"),
        ({"game": "trike", "rules": {"halfkomi": "4"}}, "komi is a Tak rule; trike"),
        ({"game": "traxit", "rules": {"halfkomi": "1"}}, "komi is a Tak rule; traxit"),
        ({"game": "trike", "rules": {"players": "3"}}, "players is a Traxit rule; trike"),
        ({"game": "tak", "rules": {"teams": "true"}}, "teams is a Traxit rule; tak"),
        ({"game": "trike", "rules": {"shortgame": "1"}}, "drop --short-game"),
        (
            {"game": "traxit", "rules": {"size": "5"}},
            r"size is a Tak and Trike rule; traxit has none \(drop --size\)",
        ),
    ],
)
def test_bad_match_settings_are_named(settings: dict[str, object], word: str) -> None:
    with pytest.raises(MatchError, match=word):
        build_config({"engines": [{"bot": "random"}, {"bot": "random"}], **settings})


# ---- progress ----------------------------------------------------------------------------


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_console_shows_a_status_line_on_a_terminal_and_plain_lines_elsewhere() -> None:
    config = build_config({"engines": [{"bot": "random", "name": "a"}, {"bot": "random"}]})
    progress = MatchProgress(config, total=2)
    game = FinishedGame(0, (0, 1), (0,), 0, "R-0", "normal", "road", 9, "")
    started = GameStarted(
        0, "1", "tak", ("a", "random"), ("white", "black"), (None, None), "x5/x5/x5/x5/x5 1 1", ""
    )
    over = GameOver(0, "R-0", "normal", "road", 9, '[Result "R-0"]', ("a", "random"))
    tty, plain = _Tty(), io.StringIO()
    now = [100.0]
    for stream in (tty, plain):
        now[0] = 100.0
        reporter = ConsoleReporter(stream, clock=lambda: now[0])
        reporter.on_event(MatchStarted(("a", "random"), "tak", 2))
        reporter.on_event(standings_event(table(progress)))
        reporter.on_event(started)
        now[0] = 130.0
        progress.finished[0] = progress.last = game
        reporter.on_event(over)
        reporter.on_event(standings_event(table(progress)))
        progress.finished.clear()
        reporter.close()
    line = "[1/2] game 1: a vs random: R-0 (road, 9 plies) | a 1/1  random 0/1"
    assert f"{line} | 1/2 done, running 0, 0:30 elapsed, ~0:30 left\n" in plain.getvalue()
    assert plain.getvalue().startswith("Match: a vs random, tak, 2 games to play\n")
    assert "\r" not in plain.getvalue()
    # on a terminal the status line counts the running game, then none once it is over
    assert "\r\x1b[K[0/2 done, running 1, 0:00 elapsed] | a 0/0  random 0/0" in tty.getvalue()
    assert f"{line}\n" in tty.getvalue()
    assert "[1/2 done, running 0, 0:30 elapsed, ~0:30 left] | a 1/1" in tty.getvalue()
    progress.finished[0] = game
    report = final_report(progress)
    assert "a vs random: games 1, W-L-D 1-0-0" in report and "Ptnml(0-2) [0, 0, 0, 0, 0]" in report


def test_progress_line_shows_the_sprt_and_counts_only_this_runs_games() -> None:
    table = Standings((), done=12, total=20, sprt=SprtStatus(0, 10, -2.94, 2.94, 0.5))
    text = progress_text(table, elapsed=60.0, done_here=2, running=2)
    assert text == "12/20 done, running 2, 1:00 elapsed, ~4:00 left, LLR 0.50 [-2.94, 2.94]"
    assert "left" not in progress_text(table, 5.0, 0, 1)
