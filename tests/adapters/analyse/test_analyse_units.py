"""tei analyse's sans-IO parts: reading records, judging moves, Tak threats, the writer,
the state file."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from adapters.analyse import threats
from adapters.analyse.judge import Eval, Thresholds, comment, judge
from adapters.analyse.records import GameText, RecordError, positions, read_games
from adapters.analyse.state import StateError, StateWriter, read_state
from adapters.analyse.writer import Note, annotate
from rules.game import Outcome
from rules.tak.game import TakGame
from tei.cli.analyse import Progress
from tei.protocol import Score

TWO_GAMES = """[Player1 "Alice"]
[Player2 "Bob"]
[Size "5"]

1. a1 e5 {their comment}
2. c3! d4 1-0

[Size "5"]

1. a1 a1
2. c3 d4

[Size "5"]
[Result "0-1"]

1. e1 a5 2. b2' c2 0-1
"""


def cp(value: int) -> Eval:
    return Eval(Score("cp", value), best="c3", pv=("c3", "d4"))


def test_records_are_read_with_where_each_move_is() -> None:
    games = read_games(TWO_GAMES, "tak")
    first, bad, third = games
    assert isinstance(first, GameText) and isinstance(third, GameText)
    assert first.actions == ("a1", "e5", "c3", "d4")
    assert [TWO_GAMES[a:b] for a, b in first.spans] == ["a1", "e5", "c3!", "d4"]
    assert first.player(0) == "Alice" and first.rules == {"size": "5"}
    assert [TWO_GAMES[a:b] for a, b in third.spans] == ["e1", "a5", "b2'", "c2"]
    assert isinstance(bad, RecordError)
    assert (bad.number, bad.line) == (2, 10) and "ply 2 (a1)" in bad.why
    assert len(positions("tak", first)) == 5


def test_a_record_with_no_moves_is_an_error() -> None:
    (only,) = read_games('[Size "5"]\n\n1-0\n', "tak")
    assert isinstance(only, RecordError) and only.why == "no moves"


def test_trike_and_traxit_records() -> None:
    trike = '[Size "13"]\n\nd10 {0.00s} a10 j1\n{O 4-3}\n'
    (game,) = read_games(trike, "trike")
    assert isinstance(game, GameText) and game.actions == ("d10", "a10", "j1")
    traxit = "R: @c1 {x}\nG: @g8\nR: @g1\nG: @f8\n1.1 R: T06 {y} c1-e2\n"
    (game,) = read_games(traxit, "traxit")
    assert isinstance(game, GameText)
    assert game.actions == ("@c1", "@g8", "@g1", "@f8", "T06", "c1-e2")


def test_marks_by_lost_value() -> None:
    marks = Thresholds(50, 100, 300)
    # White to move at +0.40; after its move Black is to move at +0.30 for Black: lost 0.70
    verdict = judge(cp(40), cp(30), mover=0, turn_after=1, players=2, played="a1", thresholds=marks)
    assert (verdict.loss, verdict.mark, verdict.turned) == (70, "?!", False)
    assert (
        judge(cp(40), cp(300), mover=0, turn_after=1, players=2, played="a1", thresholds=marks).mark
        == "??"
    )
    assert (
        judge(cp(40), cp(80), mover=0, turn_after=1, players=2, played="a1", thresholds=marks).mark
        == "?"
    )
    # the engine's own best move is never marked
    assert (
        judge(cp(40), cp(300), mover=0, turn_after=1, players=2, played="c3", thresholds=marks).mark
        == ""
    )


def test_a_won_position_given_away_turns_the_result() -> None:
    won = Eval(Score("solved", 3, "win"), best="e1")
    verdict = judge(
        won, cp(0), mover=0, turn_after=1, players=2, played="a5", thresholds=Thresholds()
    )
    assert verdict.turned and verdict.mark == "??"
    draw = Outcome((0, 1), "1/2-1/2", "flats")
    assert (
        judge(
            won, draw, mover=0, turn_after=1, players=2, played="a5", thresholds=Thresholds()
        ).mark
        == "??"
    )
    slower = Eval(Score("solved", 4, "loss"))  # the opponent lost, a bit later
    assert (
        judge(
            won, slower, mover=0, turn_after=1, players=2, played="a5", thresholds=Thresholds()
        ).mark
        == ""
    )


def test_comment_gives_the_eval_from_whites_view() -> None:
    before, after = cp(40), cp(30)  # after: Black to move, +0.30 for Black
    verdict = judge(
        before, after, mover=0, turn_after=1, players=2, played="a1", thresholds=Thresholds()
    )
    assert comment(before, after, 1, 2, verdict) == "eval -0.30 best c3 pv c3 d4 loss 0.70"
    won = Eval(Score("solved", None, "win"))
    assert comment(before, won, 1, 2, verdict).startswith("eval -L ")
    gone = Eval(unanalysed="crashed: exit 3")
    assert comment(gone, after, 1, 2, verdict).endswith("unanalysed: crashed: exit 3")


def test_tak_roads_missed_and_walked_into() -> None:
    before = TakGame.from_position_string("x5/x5/x5/2,2,2,x2/1,1,1,1,x 1 5")
    after = before.copy()
    after.play_text("a5")
    assert "missed road in one" in threats.notes(before, after)
    kept = before.copy()
    kept.play_text("e1")
    assert threats.notes(before, kept) == []
    before = TakGame.from_position_string("x5/x5/x5/1,1,1,x2/2,2,2,2,x 1 5")
    after = before.copy()
    after.play_text("a5")
    assert threats.notes(before, after) == ["did not stop road in one"]
    blocked = before.copy()
    blocked.play_text("e1")
    assert threats.notes(before, blocked) == []
    before = TakGame.from_position_string("x5/x5/x5/2,2,2,1,2/1,1,1,x2 1 5")
    after = before.copy()
    after.play_text("d2+")  # the stone that kept Black's road shut moves away
    assert threats.notes(before, after) == ["walked into road in one"]


def test_annotate_keeps_everything_and_a_players_own_mark() -> None:
    text = "1. a1 e5 {theirs}\n2. c3! d4 1-0\n"
    spans = [(3, 5), (6, 8), (21, 24), (25, 27)]
    notes = {
        spans[0]: Note("?", "eval +0.10"),
        spans[1]: Note("", "eval 0.00"),
        spans[2]: Note("??", "x}y"),
    }
    out = annotate(text, notes)
    assert out == "1. a1? {eval +0.10} e5 {eval 0.00} {theirs}\n2. c3! {x)y} d4 1-0\n"


def test_state_round_trip_and_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "out.ptn.state"
    writer = StateWriter(path, {"engine": ["bot=search"]}, "abc")
    writer.eval(1, 0, cp(35))
    writer.close()
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"kind":"eval","ga')  # an interrupted write
    writer = StateWriter(path, None)
    writer.eval(1, 1, Eval(Score("solved", 5, "loss"), "a1", ("a1",), 3))
    writer.close()
    state = read_state(path)
    assert state.settings == {"engine": ["bot=search"]} and state.input_sha256 == "abc"
    assert state.evals[(1, 0)] == cp(35)
    assert state.evals[(1, 1)].score == Score("solved", 5, "loss")


def test_a_state_file_of_something_else_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "match.state"
    path.write_text('{"kind":"match","version":2}\n')
    with pytest.raises(StateError, match="not an analysis state file"):
        read_state(path)
    path.write_text('{"kind":"analyse","version":1}\n{"kind":"eval","game":"x"}\n')
    with pytest.raises(StateError, match=":2: not an eval line"):
        read_state(path)


def test_a_tinue_the_engine_claims_is_confirmed_by_the_solver() -> None:
    before = TakGame.from_position_string("1,2,1,x2/2,x3,1C/x5/22C,1S,1,x2/2,1,1,2S,x 2 9")
    quiet, kept = before.copy(), before.copy()
    quiet.play_text("e3")
    kept.play_text("b5<")  # the first move of the tinue
    assert threats.notes(before, quiet, claim=5) == ["missed tinue in 5"]
    assert threats.notes(before, kept, claim=5) == []
    assert threats.notes(before, quiet) == []  # no claim: nothing beyond roads in two
    empty = TakGame.from_position_string("x5/x5/x5/x5/1,2,x3 1 2")
    after = empty.copy()
    after.play_text("e5")
    assert threats.notes(empty, after, claim=5) == []  # a claim the solver refutes


def test_progress_bar_on_a_terminal_only() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen, plain = Terminal(), io.StringIO()
    for stream in (screen, plain):
        progress = Progress(4, stream)
        progress.step()
        progress.line("game 1 (line 1): 2 plies")
        progress.end()
    assert "\r[#######-----------------------] 1/4 positions" in screen.getvalue()
    assert plain.getvalue() == "game 1 (line 1): 2 plies\n"
