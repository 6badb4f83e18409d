"""The referee with real engine processes: every termination, records, books, resume."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adapters.referee.config import build_config
from adapters.referee.engines import EngineSpec, MatchError
from adapters.referee.openings import RecordText, load_book, read_records
from adapters.referee.records import read_details
from adapters.referee.report import final_report, summary_json
from adapters.referee.runner import Match
from adapters.referee.state import read_state
from rules.registry import game_class
from tests.support.referee import play, refbot, settings

pytestmark = pytest.mark.process


def games(path: Path) -> list[RecordText]:
    return read_records(path.read_text())


def records(path: Path) -> list[dict[str, str]]:
    return [game.tags for game in games(path)]


def replay(record: RecordText, game: str = "tak") -> object:
    """The outcome of replaying a record with the rules core."""
    options = {"size": record.tags.get("Size", "5")}
    if "Komi" in record.tags:
        options["halfkomi"] = str(round(float(record.tags["Komi"]) * 2))
    cls = game_class(game)
    tps = record.tags.get("TPS")
    state = cls.from_position_string(tps, options) if tps else cls.new(options)
    state.play_all(list(record.moves))
    return state.result


#: the watchdog of the fault tests (handshake, new game, a move with no clock): short, so
#: a stalled engine is given up soon, yet long enough for a Python engine to start on a
#: loaded 2-core machine (1 s was not: "no teiok within 1 s" under a full parallel run)
TIMEOUT = 3.0


@pytest.mark.parametrize(
    ("mode", "keys", "termination", "restarted"),
    [
        ("crash", {}, "crashed", True),
        ("crash", {"nodes": "100"}, "crashed", True),  # no clock: EOF still ends it at once
        ("hang", {"tc": "0.3+0"}, "time forfeit", True),
        ("hang", {"nodes": "100"}, "stalled", True),
        ("slow", {"st": "0.1"}, "time forfeit", False),
        ("illegal", {}, "illegal move", False),
        ("malformed", {}, "malformed output", False),
        ("stall", {}, "stalled", True),
        ("twice", {}, "malformed output", False),  # a bestmove while no search runs
        ("orphan", {"tc": "60+0"}, "crashed", True),  # its helper keeps stdout open
    ],
)
async def test_every_fault_loses_the_game_and_the_match_goes_on(
    tmp_path: Path, mode: str, keys: dict[str, str], termination: str, restarted: bool
) -> None:
    out = tmp_path / "games.ptn"
    bad = refbot(mode, "--at", "2", **keys)
    progress = await play(
        settings([refbot("good"), bad], records=str(out), timeout=TIMEOUT), state=tmp_path / "s"
    )
    assert progress.status == "finished"
    assert len(progress.finished) == 2
    for game in progress.finished.values():
        bad_seat = game.seats.index(1)
        assert game.termination == termination
        assert bad_seat not in game.winners
        assert game.culprit == 1
        assert game.code == ("0-1" if bad_seat == 0 else "1-0")  # the forfeiting seat loses
    tags = records(out)
    by_round = {game.index + 1: game for game in progress.finished.values()}
    assert [t["Result"] for t in tags] == [by_round[int(t["Round"])].code for t in tags]
    assert sorted(t["Result"] for t in tags) == ["0-1", "1-0"]  # the bad engine had each seat
    assert [read_details(r.comments[0])["termination"] for r in games(out)] == [termination] * 2
    for record in games(out):
        assert record.comments[-1].startswith(f"{termination}: engine '{mode}")
    assert [t["Round"] for t in tags] == ["1", "2"]
    assert (progress.restarts[1] == 2) is restarted


async def test_max_plies_adjudicates_a_draw(tmp_path: Path) -> None:
    progress = await play(settings([refbot("good"), refbot("info")], max_plies=3))
    for game in progress.finished.values():
        assert game.termination == "adjudicated" and game.code == "1/2-1/2"
        assert game.plies == 3


async def test_tak_record_has_tags_and_engine_comments(tmp_path: Path) -> None:
    out = tmp_path / "r.ptn"
    await play(
        settings(
            [refbot("good", name="A"), refbot("info", name="B")],
            records=str(out),
            rules={"size": "4", "halfkomi": "3"},
            each={"tc": "5+0.1"},
            event="Test",
            site="Here",
        )
    )
    found = games(out)
    assert len(found) == 2
    tags = found[0].tags
    for name in ("Site", "Event", "Date", "Round", "Player1", "Player2", "Size", "Komi"):
        assert name in tags
    assert (tags["Site"], tags["Event"], tags["Size"], tags["Komi"]) == ("Here", "Test", "4", "1.5")
    assert tags["Clock"] == "0:5 +0.1"
    details = read_details(found[0].comments[0])
    assert re.fullmatch("[0-9a-f]{16}", details.pop("run"))  # the match's run id
    assert details == {"round": "1", "pair": "1", "termination": "normal"}
    assert len(found[0].comments) == 1 + len(found[0].moves)
    scored = [c for c in found[0].comments if c.startswith("+0.25/3 ")]
    assert len(scored) == len(found[0].moves) // 2  # every move of engine B
    outcome = replay(found[0])
    assert outcome is not None and outcome.code == tags["Result"]


async def test_komi_is_refused_up_front_for_an_engine_without_halfkomi() -> None:
    with pytest.raises(MatchError, match=r"nokomi.*HalfKomi"):
        await play(settings([refbot("good"), refbot("nokomi")], rules={"halfkomi": "4"}))


async def test_an_undeclared_engine_option_is_refused_up_front() -> None:
    entry = refbot("good", options={"Nope": "1"})
    entry["options"] = {"Nope": "1"}
    with pytest.raises(MatchError, match="Nope"):
        await play(settings([entry, refbot("good", name="b")]))


async def test_records_stay_in_schedule_order_with_concurrency(tmp_path: Path) -> None:
    out = tmp_path / "r.ptn"
    engines = [
        refbot("good", "--delay", "0.02", name="slowish"),
        refbot("good", name="quick"),
        refbot("good", "--seed", "7", name="third"),
    ]
    progress = await play(settings(engines, records=str(out), concurrency=3, games=2))
    assert len(progress.finished) == 6
    assert [t["Round"] for t in records(out)] == [str(i) for i in range(1, 7)]


async def play_book(book: Path, text: str, second: str, **extra: object) -> list[RecordText]:
    """The records of a match of two good engines played from a book holding the text."""
    book.write_text(text)
    out = book.with_name("r.ptn")
    engines = [refbot("good"), refbot("good", name=second)]
    await play(settings(engines, records=str(out), openings=[str(book)], **extra))
    return games(out)


async def test_openings_are_played_from_both_sides(tmp_path: Path) -> None:
    found = await play_book(tmp_path / "book.txt", "a1 d4\nb2 c3\n", "other", games=4)
    assert [g.moves[:2] for g in found] == [("a1", "d4"), ("a1", "d4"), ("b2", "c3"), ("b2", "c3")]
    assert [g.tags["Player1"] for g in found] == ["good", "other", "good", "other"]
    assert all(replay(g) is not None for g in found)


async def test_tps_openings_start_records_with_a_tps_tag(tmp_path: Path) -> None:
    book = tmp_path / "book.tps"
    found = await play_book(book, "x4/x4/x4/1,x3 2 1\n", "b", openings_format="tps")
    assert found[0].tags["TPS"] == "x4/x4/x4/1,x3 2 1"
    assert replay(found[0]) is not None
    assert len(load_book([book.with_name("r.ptn")])) == 2  # the records read back as a PTN book


async def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    out, state = tmp_path / "r.ptn", tmp_path / "r.state"
    match = settings(
        [refbot("good"), refbot("good", "--seed", "3", name="b")], records=str(out), games=4
    )
    await play(match, state=state)
    # cut the files back as if the referee had died after the second game
    lines = state.read_text().splitlines()
    kept = [lines[0]] + [ln for ln in lines[1:] if json.loads(ln).get("index", 9) < 2]
    state.write_text("\n".join(kept) + "\n")
    text = out.read_text()
    out.write_text(text[: text.index('[Site "local"]', text.index('[Round "3"]') - 200)])
    assert [t["Round"] for t in records(out)] == ["1", "2"]
    progress = await play(match, state=state, resume=True)
    assert progress.status == "finished" and len(progress.finished) == 4
    assert [t["Round"] for t in records(out)] == ["1", "2", "3", "4"]
    assert read_state(state).written == {0, 1, 2, 3}


async def test_resume_plays_the_games_in_a_gap_of_the_state(tmp_path: Path) -> None:
    """Concurrency leaves gaps: a state holding games 1 and 3 of 4 (0-based {0, 2}) and
    their records. Resuming plays games 2 and 4, not only those after the last one."""
    out, state = tmp_path / "r.ptn", tmp_path / "r.state"
    match = settings(
        [refbot("good"), refbot("good", "--seed", "3", name="b")], records=str(out), games=4
    )
    await play(match, state=state)
    lines = state.read_text().splitlines()
    kept = [lines[0]] + [ln for ln in lines[1:] if json.loads(ln).get("index") in (0, 2)]
    state.write_text("\n".join(kept) + "\n")
    text = out.read_text()
    starts = [m.start() for m in re.finditer(r'^\[Site "', text, re.MULTILINE)]
    out.write_text(text[starts[0] : starts[1]] + text[starts[2] : starts[3]])
    assert [r.tags["Round"] for r in games(out)] == ["1", "3"]
    progress = await play(match, state=state, resume=True)
    assert progress.status == "finished" and sorted(progress.finished) == [0, 1, 2, 3]
    assert [t["Round"] for t in records(out)] == ["1", "3", "2", "4"]
    assert read_state(state).written == {0, 1, 2, 3}


async def test_records_of_finished_games_missing_from_the_file_are_written_on_resume(
    tmp_path: Path,
) -> None:
    out, state = tmp_path / "r.ptn", tmp_path / "r.state"
    match = settings([refbot("good"), refbot("good", name="b")], records=str(out))
    await play(match, state=state)
    lines = [ln for ln in state.read_text().splitlines() if '"written"' not in ln]
    state.write_text("\n".join(lines) + "\n")
    out.unlink()
    progress = await play(match, state=state, resume=True)
    assert len(progress.finished) == 2
    assert [t["Round"] for t in records(out)] == ["1", "2"]


async def test_sprt_stops_the_match_at_a_bound() -> None:
    match = settings(
        [refbot("good"), refbot("illegal", name="loser")],
        games=40,
        sprt=["elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"],
    )
    progress = await play(match)
    assert progress.status == "sprt H1"
    assert 2 <= len(progress.finished) < 40


async def test_built_in_bots_play_over_the_engine_host(tmp_path: Path) -> None:
    log = tmp_path / "traffic.log"
    bot = EngineSpec.builtin("tak", "random")
    match = settings(
        [{"bot": "random"}, {"bot": "random", "name": "r2", "tc": "3+0.1"}],
        log=str(log),
        each={"tc": "2+0.1"},
    )
    progress = await play(match)
    assert progress.status == "finished" and len(progress.finished) == 2
    assert all(g.termination in ("normal", "adjudicated") for g in progress.finished.values())
    traffic = log.read_text()
    assert "> teinewgame 4" in traffic and "< bestmove" in traffic
    assert "wtime" in traffic and bot.argv[-1] == "random"


async def test_a_record_written_but_not_noted_is_not_written_twice(tmp_path: Path) -> None:
    out, state = tmp_path / "r.ptn", tmp_path / "r.state"
    match = settings([refbot("good"), refbot("good", name="b")], records=str(out), games=4)
    await play(match, state=state)
    lines = state.read_text().splitlines()
    kept = [ln for ln in lines if json.loads(ln).get("kind") != "written"]
    kept = [ln for ln in kept if json.loads(ln).get("index", 0) < 3]  # game 4 unfinished
    state.write_text("\n".join(kept) + "\n")
    text = out.read_text()
    out.write_text(text[: text.index('[Site "local"]', text.index('[Round "4"]') - 200)])
    progress = await play(match, state=state, resume=True)
    assert len(progress.finished) == 4
    assert [t["Round"] for t in records(out)] == ["1", "2", "3", "4"]


async def test_restart_on_gives_every_game_a_fresh_process(tmp_path: Path) -> None:
    log = tmp_path / "traffic.log"
    engines = [refbot("good", name="fresh", restart="on"), refbot("good", name="kept")]
    await play(settings(engines, log=str(log), games=3))
    handshakes = [ln.split()[1] for ln in log.read_text().splitlines() if ln.endswith("> tei")]
    assert handshakes.count("fresh") == 1 + 3  # the up-front check, then one per game
    assert handshakes.count("kept") == 1 + 1


def test_openings_plies_cuts_the_book(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("a1 d4 b2\n")
    base = settings([refbot("good"), refbot("good", name="b")], openings=[str(book)])
    assert Match.open(build_config({**base, "openings_plies": 1})).book[0].moves == ("a1",)
    assert Match.open(build_config(base)).book[0].moves == ("a1", "d4", "b2")


@pytest.mark.parametrize(
    ("script", "rule", "plies", "max_plies"),
    [
        # flats shuffled back and forth on 3x3: the position after ply 2 returns at 6 and 10
        ("a1 c3 c3< a1> b3> b1< c3< a1> b3> b1< c3< a1> b3> b1<", "repetition", 10, 14),
        # after the two placements, flats only slide: with rule50 the 50th slide ends the game
        ("a1 c3 " + " ".join(["c3< a1> b3> b1<"] * 14), "rule50", 52, None),
    ],
    ids=["threefold-repetition", "fifty-plies-without-placement"],
)
async def test_draw_rules_are_referee_rules(
    script: str, rule: str, plies: int, max_plies: int | None
) -> None:
    engines = [refbot("good", "--script", script), refbot("good", "--script", script, name="b")]
    limit = {} if max_plies is None else {"max_plies": max_plies}
    drawn = await play(settings(engines, rules={"size": "3", rule: "true"}, games=1, **limit))
    game = drawn.finished[0]
    assert (game.termination, game.reason, game.code, game.plies) == (
        "adjudicated",
        rule,
        "1/2-1/2",
        plies,
    )
    plain = await play(settings(engines, rules={"size": "3"}, games=1, max_plies=14))
    assert plain.finished[0].reason == "max plies" and plain.finished[0].plies == 14


# ---- adjudication ---------------------------------------------------------------------
FORK = "2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x5 1 6"  # white's d2 threatens e2 and e4


async def test_resign_adjudication_ends_the_game_and_is_counted(tmp_path: Path) -> None:
    out, log = tmp_path / "r.ptn", tmp_path / "r.log"
    engines = [
        refbot("good", "--score", "cp -700", name="loser"),
        refbot("good", "--score", "cp 700", name="winner"),
    ]
    progress = await play(
        settings(engines, records=str(out), log=str(log), resign="movecount=2 score=500"),
        state=tmp_path / "s",
    )
    for game in progress.finished.values():
        assert (game.termination, game.reason) == ("adjudicated", "resign")
        assert game.winners == (game.seats.index(1),)  # the engine reporting +700 wins
        assert game.plies in (3, 4) and game.culprit is None
    for record in games(out):
        assert read_details(record.comments[0])["termination"] == "adjudicated"
        assert record.comments[-1].startswith("adjudicated: resign (movecount=2 score=500)")
    data = summary_json(progress)
    assert data["adjudications"] == {"resign": 2}
    assert {s["who"][0]: s["adjudicated"] for s in data["standings"]} == {
        "loser": {"resign": 2},
        "winner": {"resign": 2},
    }
    assert "Adjudications: resign 2" in final_report(progress)
    assert "reports no scores" not in log.read_text()


async def test_engines_without_scores_are_never_resigned_and_the_log_says_so(
    tmp_path: Path,
) -> None:
    log = tmp_path / "r.log"
    engines = [refbot("good", name="quiet"), refbot("good", "--score", "cp 900", name="loud")]
    progress = await play(
        settings(engines, log=str(log), resign="movecount=1 score=100", max_plies=12)
    )
    assert {g.reason for g in progress.finished.values()} <= {"road", "flats", "max plies"}
    notes = [ln for ln in log.read_text().splitlines() if " # " in ln and "no scores" in ln]
    assert len(notes) == 1 and " quiet # reports no scores" in notes[0]


async def test_tinue_adjudication_writes_the_line_and_marks_and_survives_resume(
    tmp_path: Path,
) -> None:
    out, state = tmp_path / "r.ptn", tmp_path / "r.state"
    book = tmp_path / "book.txt"
    book.write_text(FORK + "\n")
    engines = [refbot("good", "--script", "d2"), refbot("good", "--script", "d2", name="b")]
    match = settings(
        engines,
        records=str(out),
        openings=[str(book)],
        rules={"size": "5"},
        tinue_adjudication="plies=3",
    )
    progress = await play(match, state=state)
    for game in progress.finished.values():
        assert (game.termination, game.reason, game.code) == ("adjudicated", "tinue", "R-0")
        assert game.plies == 2  # white's d2, black's reply: then white's road is proven
    assert out.read_text().count("6. d2'' {") == 2  # d2 made a tinue: marked
    for record in games(out):
        note = record.comments[-1]
        assert note.startswith("adjudicated: tinue (plies=3): white forces a road: ")
        played = replay(record)  # the record replays (marks are read back) ...
        assert played is None
        line = note.rsplit(": ", 1)[1].split()
        game = game_class("tak").from_position_string(FORK, {"size": "5"})
        game.play_all([*record.moves, *line])  # ... and the proving line ends in white's road
        assert game.result is not None and game.result.code == "R-0"
    kept = read_state(state)
    assert {g.reason for g in kept.games.values()} == {"tinue"}
    resumed = await play(match, state=state, resume=True)
    assert summary_json(resumed)["adjudications"] == {"tinue": 2}


async def test_draw_adjudication_by_level_scores() -> None:
    engines = [
        refbot("good", "--score", "cp 3"),
        refbot("good", "--score", "solved draw", name="b"),
    ]
    progress = await play(settings(engines, draw="movenumber=2 movecount=2 score=10", games=1))
    game = progress.finished[0]
    assert (game.termination, game.reason, game.code, game.plies) == (
        "adjudicated",
        "draw",
        "1/2-1/2",
        4,
    )


async def test_an_engines_control_characters_are_escaped_in_the_crash_comment(
    tmp_path: Path,
) -> None:
    """A crashing engine's last stderr words land in the `{crashed: ...}` comment with
    their control characters escaped: the record cannot clear or retitle a terminal."""
    out = tmp_path / "games.ptn"
    words = "boom\x1b[2J\x1b]0;owned\x07\x9b31m"
    bad = refbot("crash", "--at", "2", "--last-words", words)
    await play(settings([refbot("good"), bad], records=str(out), timeout=TIMEOUT))
    text = out.read_text(encoding="utf-8")
    assert not any(c in text for c in "\x1b\x07\x9b"), text
    notes = [record.comments[-1] for record in games(out)]
    assert len(notes) == 2
    assert all(n.startswith("crashed: ") for n in notes)
    assert all("boom\\x1b[2J\\x1b]0;owned\\x07\\x9b31m" in n for n in notes), notes
