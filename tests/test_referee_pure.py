"""The referee's pure parts: schedule, statistics, SPRT, clocks, books, records, state."""

from __future__ import annotations

import io
import json
import math
from collections import Counter
from pathlib import Path
from statistics import NormalDist

import pytest

from adapters.referee.announce import match_standings
from adapters.referee.clock import Clock, TimeControl, TimeControlError, go_limits
from adapters.referee.config import build_config, engine_spec, merge_engine, parse_engine_words
from adapters.referee.engines import MatchError
from adapters.referee.events import GameOver, GameStarted, SprtStatus, Standings
from adapters.referee.openings import (
    OpeningError,
    load_book,
    move_tokens,
    parse_position_book,
    parse_records,
)
from adapters.referee.records import (
    GameRecord,
    MoveNote,
    OrderedWriter,
    labelled_notes,
    score_comment,
)
from adapters.referee.report import ConsoleReporter, final_report, progress_text
from adapters.referee.runner import MatchProgress
from adapters.referee.schedule import (
    ScheduleError,
    alignment_warning,
    encounters,
    make_schedule,
    opening_sequence,
    rotate,
)
from adapters.referee.sprt import Sprt, SprtError
from adapters.referee.state import FinishedGame, StateWriter, read_state
from adapters.referee.stats import (
    GameScore,
    elo_from_score,
    elo_interval,
    format_elo,
    los,
    pair_stats,
    standings,
    team_standings,
    wilson_interval,
)

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


# ---- statistics ------------------------------------------------------------------------


def test_elo_of_known_scores() -> None:
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(1.0) == math.inf


def test_los_matches_the_normal_cdf() -> None:
    # LOS = Phi((W - L) / sqrt(W + L)), computed here with the statistics module
    assert los(10, 5) == pytest.approx(NormalDist().cdf(5 / math.sqrt(15)))
    assert los(3, 3) == 0.5 and los(0, 0) == 0.5


def test_elo_interval_from_variance_of_scores() -> None:
    wins, losses, draws = 30, 10, 20
    n = wins + losses + draws
    mean = (wins + draws / 2) / n
    second_moment = (wins * 1.0 + draws * 0.25) / n
    se = math.sqrt((second_moment - mean**2) / n)
    z = NormalDist().inv_cdf(0.975)
    expected = [400 * math.log10(s / (1 - s)) for s in (mean, mean - z * se, mean + z * se)]
    got = elo_interval((losses, draws, wins), (0.0, 0.5, 1.0))
    assert got is not None
    assert list(got) == pytest.approx(expected)


def test_elo_interval_of_one_kind_of_result_is_the_wilson_bound() -> None:
    # 10 wins of 10: no upper bound; the lower bound is the Wilson one, n / (n + z^2)
    z = NormalDist().inv_cdf(0.975)
    elo, low, high = elo_interval((0, 0, 10), (0.0, 0.5, 1.0)) or (0.0, 0.0, 0.0)
    assert elo == math.inf and high == math.inf
    assert low == pytest.approx(400 * math.log10((10 / (10 + z * z)) / (z * z / (10 + z * z))))
    assert 160 < low < 170
    # all losses mirror it; all draws give a finite interval around 0
    lost = elo_interval((10, 0, 0), (0.0, 0.5, 1.0))
    assert lost is not None and lost[:2] == (-math.inf, -math.inf)
    assert lost[2] == pytest.approx(-low)
    draws = elo_interval((0, 10, 0), (0.0, 0.5, 1.0))
    assert draws is not None and draws[0] == 0 and draws[2] > 0
    assert -draws[1] == pytest.approx(draws[2])


def test_wilson_interval_known_values() -> None:
    # 8 of 10, z = 1.96: the textbook (0.490, 0.943)
    low, high = wilson_interval(0.8, 10, 1.96)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson_interval(0.0, 5)[0] == 0 and wilson_interval(1.0, 5)[1] == 1


def test_format_elo_shows_infinite_bounds_as_bounds() -> None:
    assert format_elo(None) == "-"
    assert format_elo((35.24, 15.0, 55.4)) == "+35.2 +- 20.2"
    assert format_elo((-0.01, -10.0, 10.0)) == "+0.0 +- 10.0"
    assert format_elo((381.7, 159.04, math.inf)) == "+381.7 [+159.0, +inf]"
    assert format_elo((math.inf, 167.4, math.inf)) == "+inf [+167.4, +inf]"
    assert format_elo((-math.inf, -math.inf, -167.4)) == "-inf [-inf, -167.4]"
    # nine wins and a loss: the upper end of the score interval passes 1
    nine = elo_interval((1, 0, 9), (0.0, 0.5, 1.0))
    assert nine is not None and nine[2] == math.inf and 100 < nine[1] < nine[0]
    assert format_elo(nine).endswith(", +inf]")


def test_pair_stats_and_pentanomial() -> None:
    games = [
        GameScore((0, 1), (0,), group=0),  # pair 0: engine 0 wins both
        GameScore((1, 0), (1,), group=0),
        GameScore((0, 1), (0, 1), group=1),  # pair 1: a draw and a loss
        GameScore((1, 0), (0,), group=1),  # seat 0 is engine 1
        GameScore((0, 1), (1,), group=2),  # pair 2 incomplete
    ]
    stats = pair_stats(games, 0, 1)
    assert (stats.wins, stats.losses, stats.draws) == (2, 2, 1)
    # pair 0: 2 points for engine 0; pair 1: 0.5 points; pair 2 is not complete
    assert stats.penta == (0, 1, 0, 0, 1)
    assert stats.score == pytest.approx(2.5 / 5)
    assert stats.draw_ratio == pytest.approx(0.2)


def test_standings_and_teams_in_four_seat_games() -> None:
    games = [
        GameScore((0, 1, 2, 3), (0, 2)),  # team 0+2 wins
        GameScore((3, 0, 1, 2), (0, 2)),  # seats 0 and 2 = engines 3 and 1: team 1+3 wins
        GameScore((2, 3, 0, 1), (0, 1, 2, 3)),  # everyone shares
    ]
    rows = {r.who[0]: r for r in standings(games, 4)}
    assert rows[0].points == pytest.approx(0.5 + 0 + 0.25)
    # a team win is shared with the partner: it counts as a shared win (draw column)
    assert (rows[0].wins, rows[0].draws, rows[0].losses) == (0, 2, 1)
    teams = {r.who: r for r in team_standings(games)}
    assert set(teams) == {(0, 2), (1, 3)}
    assert teams[(0, 2)].points == pytest.approx(1.5)
    assert (teams[(1, 3)].wins, teams[(1, 3)].draws, teams[(1, 3)].losses) == (1, 1, 1)


# ---- SPRT ------------------------------------------------------------------------------


def test_sprt_bounds_and_a_hand_computed_llr() -> None:
    sprt = Sprt.parse(["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"])
    assert sprt.upper == pytest.approx(math.log(19))
    assert sprt.lower == pytest.approx(-math.log(19))
    # pentanomial (1, 4, 10, 4, 1): 20 pairs, mean 0.5, variance (2*0.25 + 8*0.0625)/20
    # = 0.05; s0 = 0.5, s1 = 1/(1+10^-0.025) = 1/1.9440609 = 0.5143872;
    # LLR = 20 * (s1-s0) * (1 - s0 - s1) / 0.1 = -200 * 0.0143872^2 = -0.0413982
    assert sprt.llr((1, 4, 10, 4, 1)) == pytest.approx(-0.0413982, abs=1e-6)
    assert sprt.decide((1, 4, 10, 4, 1)) is None


def test_sprt_is_antisymmetric_and_decides() -> None:
    sprt = Sprt(-5, 5)
    counts = (3, 10, 30, 20, 8)
    assert sprt.llr(counts) == pytest.approx(-sprt.llr(counts[::-1]))
    assert sprt.decide((0, 0, 10, 100, 200)) == "H1"
    assert sprt.decide((200, 100, 10, 0, 0)) == "H0"
    assert Sprt(0, 5, model="trinomial").llr((40, 20, 40)) < 0


@pytest.mark.parametrize(
    "words",
    [
        ["elo0=5", "elo1=0"],
        ["elo1=5"],
        ["elo0=0", "elo1=5", "alpha=2"],
        ["elo0=x", "elo1=5"],
        ["foo=1"],
    ],
)
def test_bad_sprt_settings_are_refused(words: list[str]) -> None:
    with pytest.raises(SprtError):
        Sprt.parse(words)


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


# ---- books -------------------------------------------------------------------------------


def test_move_tokens_skip_numbers_comments_and_results() -> None:
    assert move_tokens("1. a1 {x} e5 2. c3' R-0") == ("a1", "e5", "c3")
    assert move_tokens("R: T08 G: c1-f2 {X 4-3}") == ("T08", "c1-f2")


def test_books_in_every_format(tmp_path: Path) -> None:
    moves = tmp_path / "book.txt"
    moves.write_text("# comment\na1 e5\n\n1. b2 d4\n")
    assert [o.moves for o in load_book([moves])] == [("a1", "e5"), ("b2", "d4")]
    tps = tmp_path / "tps.txt"
    tps.write_text("x5/x5/x5/x5/x5 1 1\nx5/x5/x5/x5/1,x4 2 1 moves e5\n")
    book = load_book([tps])
    assert book[0].position == "x5/x5/x5/x5/x5 1 1" and book[1].moves == ("e5",)
    ptn = tmp_path / "games.ptn"
    ptn.write_text(
        '[Size "5"]\n[TPS "x5/x5/x5/x5/x5 2 1"]\n\n1... a1 2. e5 b1 0-1\n\n'
        '[Size "5"]\n\n1. a1 e5 R-0\n'
    )
    book = load_book([ptn])
    assert [(o.position, o.moves) for o in book] == [
        ("x5/x5/x5/x5/x5 2 1", ("a1", "e5", "b1")),
        (None, ("a1", "e5")),
    ]
    assert book[1].source.endswith(":6")
    with pytest.raises(OpeningError, match="nothing"):
        load_book([tmp_path / "nothing.txt"])
    with pytest.raises(OpeningError, match="no position"):
        parse_position_book(["tps moves a1"], "x")
    assert parse_records("", "empty") == []


# ---- records -----------------------------------------------------------------------------


def test_tak_record_text() -> None:
    record = GameRecord(
        "tak",
        (("Player1", "A"), ("Site", "here"), ("Result", "R-0"), ("Custom", 'a "q"')),
        (MoveNote("a1", "+0.35/12 0.12s"), MoveNote("e5"), MoveNote("c3")),
        "R-0",
    )
    text = record.render()
    assert text.startswith('[Site "here"]\n[Player1 "A"]\n[Result "R-0"]\n[Custom "a \\"q\\""]')
    assert "1. a1 {+0.35/12 0.12s} e5\n2. c3\nR-0\n" in text
    black = GameRecord(
        "tak", (("TPS", "x3/x3/x3 2 4"),), (MoveNote("a1"), MoveNote("e5")), "0-1", "x3/x3/x3 2 4"
    )
    assert "4... a1\n5. e5\n0-1" in black.render()


def test_action_records() -> None:
    trike = GameRecord("trike", (), (MoveNote("d2"), MoveNote("swap")), "X 4-3").render()
    assert "d2 swap\n{X 4-3}" in trike
    traxit = GameRecord(
        "traxit", (), (MoveNote("T08", None, 0), MoveNote("c1-f2", "1.00s", 1)), "x", (), ("R", "G")
    ).render()
    assert "R: T08\nG: c1-f2 {1.00s}\n{x}" in traxit


@pytest.mark.parametrize("options", [{"players": "2"}, {"players": "4", "teams": "true"}])
def test_traxit_record_groups_each_turn_and_reads_back(options: dict[str, str]) -> None:
    import random
    import re

    from rules.registry import new_game
    from rules.traxit.game import TraxitGame

    game = new_game("traxit", options)
    assert isinstance(game, TraxitGame)
    rng = random.Random(7)
    notes = []
    while game.result is None:
        seat = game.turn
        action = rng.choice(game.legal())
        notes.append(MoveNote(game.format_action(action), "0.01s", seat))
        game.play(action)
    labelled = labelled_notes(game, notes)
    assert [n.text for n in labelled] == [n.text for n in notes]
    names = tuple(game.seat_name(s) for s in range(game.players))
    tags = (("Position", game.start_position or ""),) if game.start_position else ()
    text = GameRecord("traxit", tags, tuple(labelled), "end", None, names, "normal: done").render()
    body = [ln for ln in text.splitlines() if ln and not ln.startswith("[")]
    placements = [ln for ln in body if "@" in ln]
    assert len(placements) == 2 * game.players
    assert all(re.fullmatch(r"[RGBY]: @[a-h][1-8] \{0\.01s\}", ln) for ln in placements)
    turns = [ln for ln in body if re.match(r"\d\.\d ", ln)]
    assert len(turns) == 16 * game.players  # 4 sets of 4 rounds, one line per turn
    turn = r"\d\.\d [RGBY]: T(0[1-9]|1[0-6]) \{0\.01s\} !?[a-h][1-8]-[a-h][1-8] \{0\.01s\}"
    assert all(re.fullmatch(turn, ln) for ln in turns)
    # the owner of the turn is the one who moved (or was relocated)
    assert turns[0].startswith(f"1.1 {names[0]}: ") and turns[1].startswith(f"1.1 {names[1]}: ")
    sets = [ln for ln in body if ln.startswith("{set ")]
    assert len(sets) == 4 and sets[0].startswith("{set 1: ")
    final = " ".join(f"{n} {v}" for n, v in zip(names, game.state.scores, strict=True))
    assert sets[-1].startswith("{set 4: " + final)
    assert ("; teams " in sets[-1]) == ("teams" in options)
    assert body[-2:] == ["{normal: done}", "{end}"]
    # the record reads back as an opening with every action, in order
    (opening,) = parse_records(text, "t")
    assert list(opening.moves) == [n.text for n in notes]


def test_records_of_position_starts_read_back_from_the_position_tag() -> None:
    start = "TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00"
    text = GameRecord(
        "traxit", (("Position", start),), (MoveNote("c1-f2", None, 0),), "*", start, ("R", "G")
    ).render()
    (opening,) = parse_records(text)
    assert opening.position == start and opening.moves == ("c1-f2",)
    assert opening.start("traxit", {}).position_string().split()[3] == "G:choose"


def test_score_comments() -> None:
    assert score_comment("cp", 35, None, 12, 0.123) == "+0.35/12 0.12s"
    assert score_comment("solved", 5, "win", None, 1) == "+W5 1.00s"
    assert score_comment(None, None, None, None, 0.5) == "0.50s"
    assert score_comment(None, None, None, 3, 0.5) == "0.50s"


def test_ordered_writer_keeps_schedule_order(tmp_path: Path) -> None:
    path = tmp_path / "out.ptn"
    writer = OrderedWriter(path, [0, 1, 2, 3])
    assert writer.add(1, "one\n") == []
    assert writer.add(0, "zero\n") == [0, 1]
    assert path.read_text() == "zero\none\n"
    assert writer.add(3, "three\n") == []
    assert writer.close() == [3]  # the gap (2) is skipped, nothing is lost
    assert path.read_text() == "zero\none\nthree\n"


# ---- state -------------------------------------------------------------------------------


def test_state_round_trip_and_torn_lines(tmp_path: Path) -> None:
    path = tmp_path / "m.state"
    timing = ((0, 9, 90.5, 20.0, 9, 4.5), (1, 8, 80.0, 12.5, 0, 0.0))
    game = FinishedGame(
        2, (1, 0), (0,), 1, "R-0", "normal", "road", 17, '[Size "5"]\n', "x", 1, timing
    )
    writer = StateWriter(path, {"games": 4})
    writer.game(game)
    writer.written(2)
    writer.close()
    with open(path, "a") as f:
        f.write('{"kind": "game", "ind')  # interrupted write
    state = read_state(path)
    assert state.settings == {"games": 4}
    assert state.games == {2: game} and state.written == {2}
    again = StateWriter(path, None)
    again.written(5)
    again.close()
    assert read_state(path).written == {2, 5}
    assert json.loads(path.read_text().splitlines()[0])["kind"] == "match"


def test_bad_state_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("[]\n")
    with pytest.raises(ValueError, match=r"x\.json"):
        read_state(path)


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
    assert bot.argv[-3:] == ("trike", "--bot", "random") and bot.name == "random"
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
        ({"concurrency": 0}, "concurrency must be at least 1, not 0"),
        ({"concurrency": -2}, "concurrency must be at least 1"),
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
        reporter("start", progress)
        reporter.on_event(match_standings(progress))
        reporter.on_event(started)
        now[0] = 130.0
        progress.finished[0] = progress.last = game
        reporter.on_event(over)
        reporter.on_event(match_standings(progress))
        progress.finished.clear()
        reporter.close()
    line = "[1/2] game 1: a vs random: R-0 (road, 9 plies) | a 1/1  random 0/1"
    assert f"{line} | 1/2 done, running 0, 0:30 elapsed, ~0:30 left\n" in plain.getvalue()
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


def _exact_gsprt(counts: tuple[int, ...], values: tuple[float, ...], e0: float, e1: float) -> float:
    """The exact generalised SPRT: the log-likelihood of the most likely distribution with
    mean score s1 minus the one with mean s0 (Lagrange multiplier found by bisection)."""

    def loglik(s: float) -> float:
        n = sum(counts)
        f = [c / n for c in counts]
        d = [v - s for v in values]
        lo, hi = -1 / max(d) + 1e-12, -1 / min(d) - 1e-12
        for _ in range(200):
            mid = (lo + hi) / 2
            if sum(fi * di / (1 + mid * di) for fi, di in zip(f, d, strict=True)) > 0:
                lo = mid
            else:
                hi = mid
        lam = (lo + hi) / 2
        return sum(
            c * math.log(fi / (1 + lam * di)) for c, fi, di in zip(counts, f, d, strict=True) if c
        )

    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (e0, e1))
    return loglik(s1) - loglik(s0)


@pytest.mark.parametrize(
    "counts", [(300, 400, 340), (280, 420, 300), (20, 120, 400, 130, 30), (60, 200, 480, 180, 80)]
)
def test_sprt_llr_agrees_with_the_exact_gsprt(counts: tuple[int, ...]) -> None:
    values = (0.0, 0.5, 1.0) if len(counts) == 3 else (0.0, 0.25, 0.5, 0.75, 1.0)
    model = "trinomial" if len(counts) == 3 else "pentanomial"
    approx = Sprt(0, 10, model=model).llr(counts)
    assert approx == pytest.approx(_exact_gsprt(counts, values, 0, 10), rel=0.01)
