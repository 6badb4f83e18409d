"""The engine host's promises, on its state machine: one `bestmove` per `go`, for the
position that `go` was given; every bot failure said (and logged), never silent; a bot's
reports checked before they become protocol lines."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import Info
from tei.bot_failure import FAILED, OVERRAN, BotFailure
from tei.host.state import Exit, Log, Send, StartSearch, StopSearch
from tests.tei.host.test_engine_host_state import CountGame, lines, make_state, start


def bestmoves(effects: list[Any]) -> list[str]:
    return [line.split()[1] for line in lines(effects) if line.startswith("bestmove ")]


# ---- one bestmove per go, in order -------------------------------------------------------


def test_gos_after_stop_each_get_their_bestmove_in_order() -> None:
    """Issue: `go infinite`, `stop`, then three `go movetime 50` gave two bestmoves."""
    state = make_state()
    state.on_line("position startpos", 0.0)
    first = start(state.on_line("go infinite", 0.0))
    state.on_line("stop", 0.1)
    out = state.on_line("go movetime 50", 0.1)
    assert out == []  # after stop: waits its turn
    refused = [lines(state.on_line("go movetime 50", 0.1)) for _ in range(2)]
    assert all(len(r) == 1 and "go while a search is running" in r[0] for r in refused)
    out = state.on_result(first.search_id, 2, None, 0.12)
    assert bestmoves(out) == ["2"]
    second = start(out)
    out = state.on_result(second.search_id, 1, None, 0.15)
    assert bestmoves(out) == ["1", "--", "--"]
    assert state.search is None and state.waiting == []


def test_ptn_ninja_pattern_answers_each_go_on_its_own_position() -> None:
    """`stop; position A; go; stop; position B; go`: three gos, three bestmoves, the
    second searched on A and the third on B."""
    state = make_state()
    state.on_line("position startpos", 0.0)
    first = start(state.on_line("go infinite", 0.0))
    for line in ("stop", "position startpos moves 1", "go", "stop"):
        state.on_line(line, 0.1)
    state.on_line("position startpos moves 1 2", 0.1)
    assert state.on_line("go", 0.1) == []
    out = state.on_result(first.search_id, 2, None, 0.2)
    a = start(out)
    assert bestmoves(out) == ["2"]
    assert a.game.position_string() == "1/10/1"
    assert StopSearch(a.search_id) in out  # a stop came for it while it waited
    out = state.on_result(a.search_id, 2, None, 0.21)
    b = start(out)
    assert bestmoves(out) == ["2"]
    assert b.game.position_string() == "3/10/0"
    assert StopSearch(b.search_id) not in out  # no stop came after it: go infinite runs
    assert lines(state.on_result(b.search_id, 1, None, 0.3)) == []
    assert bestmoves(state.on_line("stop", 0.4)) == ["1"]


def test_a_malformed_go_during_a_search_gets_bestmove_in_turn() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    first = start(state.on_line("go infinite", 0.0))
    out = lines(state.on_line("go nodes 1e309", 0.1))
    assert len(out) == 1 and "bestmove -- in turn" in out[0]
    state.on_line("stop", 0.2)
    assert bestmoves(state.on_result(first.search_id, 1, None, 0.25)) == ["1", "--"]


def test_end_of_input_answers_the_gos_waiting_their_turn() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    first = start(state.on_line("go infinite", 0.0))
    state.on_line("stop", 0.1)
    state.on_line("go depth 3", 0.1)
    assert StopSearch(first.search_id) not in state.on_eof(0.2)
    out = state.on_result(first.search_id, 1, None, 0.25)
    second = start(out)
    assert StopSearch(second.search_id) in out  # untimed, after the end of input: stopped
    out = state.on_result(second.search_id, 2, None, 0.3)
    assert bestmoves(out) == ["2"] and out[-1] == Exit()


# ---- the property: any interleaving, one answer per go -----------------------------------

POSITIONS = ["position startpos", "position startpos moves 1", "position startpos moves 2 2",
             "position startpos moves 2 2 2 2 1", "position tps 9/10/1", "position tps bad",
             "position startpos moves 1 x"]  # fmt: skip
GOS = ["go movetime 100", "go infinite", "go depth 2", "go", "go nodes 1e309", "go wtime 500"]
#: GUI lines, weighted towards what makes gos wait (go, stop), bot answers and time
STEP = st.sampled_from(
    [("line", go) for go in GOS] * 2
    + [("line", "stop")] * 6
    + [("line", line) for line in [*POSITIONS, "isready"]]
    + [("answer", 1), ("answer", 2), ("time", 0.01), ("time", 0.05), ("time", 0.3)]
)


def expected_game(position: str | None) -> CountGame | None:
    if position is None or "bad" in position or " x" in position:
        return None
    if position.startswith("position tps"):
        return CountGame.from_position_string(position.split()[2])
    game = CountGame.new({"size": "10"})
    for move in position.split()[3:]:
        game.play_text(move)
    return game


@settings(max_examples=300, deadline=None)
@given(st.lists(STEP, max_size=40))
def test_every_go_gets_one_bestmove_for_its_own_position(steps: list[tuple[str, Any]]) -> None:
    state = make_state()
    now = 0.0
    gos: list[tuple[CountGame | None, list[str]]] = []  # (its position, the lines it got)
    answers: list[str] = []
    started: list[StartSearch] = []
    position: str | None = None

    def apply(effects: list[Any]) -> None:
        answers.extend(bestmoves(effects))
        started.extend(e for e in effects if isinstance(e, StartSearch))

    def tick() -> None:
        deadline = state.next_deadline()
        if deadline is not None and now >= deadline:
            apply(state.on_time(now))

    def answer(action: int) -> None:
        if state.search is not None:
            search_id = state.search.id
            game = next(s.game for s in started if s.search_id == search_id)
            legal = game.legal()
            apply(state.on_result(search_id, action if action in legal else legal[0], None, now))

    for kind, value in [*steps, ("line", "stop")]:
        if kind == "line":
            out = state.on_line(value, now)
            if value.startswith("position"):
                position = value
            elif value.startswith("go"):
                game = expected_game(position)
                gos.append((game.copy() if game is not None else None, lines(out)))
            apply(out)
        elif kind == "answer":
            answer(value)
        else:
            now += value
        tick()
    for _ in range(3 * len(gos) + 3):  # drain: stop and answer whatever still runs
        apply(state.on_line("stop", now))
        answer(1)
        now += 1.0
        tick()
    assert state.search is None and state.waiting == []
    assert len(answers) == len(gos)
    for (game, first_lines), move in zip(gos, answers, strict=True):
        if move == "--":
            refused = any(line.startswith("info string error") for line in first_lines)
            assert refused or game is None or game.result is not None
        else:
            assert game is not None
            game.parse_action(move)  # legal in the position that go was given


# ---- the clock of the seat to move --------------------------------------------------------


def test_the_host_reads_the_clock_of_the_seat_to_move() -> None:
    """Black to move with 1 s against white's 60 s: the budget comes from btime."""
    state = make_state()
    state.on_line("position startpos moves 1", 0.0)
    effect = start(state.on_line("go wtime 60000 btime 1000", 0.0))
    assert effect.limits.cap_ms == pytest.approx(125.0)  # an eighth of black's second
    deadline = state.next_deadline()
    assert deadline is not None and deadline < 0.2
    state.on_result(effect.search_id, 2, None, 0.1)
    state.on_line("position startpos moves 1 2", 1.0)
    white = start(state.on_line("go wtime 60000 btime 1000", 1.0))
    assert white.limits.cap_ms == pytest.approx(7500.0)


# ---- failures are said, logged, and fatal under --strict --------------------------------


def _failing(state_args: dict[str, Any], action: Any, error: BaseException | None) -> list[Any]:
    state = make_state(**state_args)
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go movetime 500", 0.0))
    return state.on_result(effect.search_id, action, error, 0.1)


def _raise() -> None:
    raise KeyError("Pick")


def test_an_exception_is_named_and_its_traceback_logged() -> None:
    try:
        _raise()
    except KeyError as exc:
        error = exc
    out = _failing({}, None, error)
    logs = [e.text for e in out if isinstance(e, Log)]
    assert len(logs) == 1
    assert "Traceback (most recent call last)" in logs[0] and "_raise" in logs[0]
    assert logs[0].startswith("bot 'two' failed on '0/10/0':\n")
    assert lines(out) == ["info string error: bot failed: KeyError: 'Pick'", "bestmove 1"]
    assert BotFailure.from_string(lines(out)[0][len("info string ") :]) == BotFailure(
        FAILED, "KeyError: 'Pick'"
    )


@pytest.mark.parametrize(
    ("action", "said"),
    [
        (None, "think returned None, not an action"),
        (7, "think returned 7, not a legal action here"),
        ("a1", "think returned 'a1', not a legal action here"),
    ],
)
def test_a_bad_action_is_named_with_its_value(action: Any, said: str) -> None:
    out = _failing({}, action, None)
    assert lines(out)[0].startswith(f"info string error: bot failed: {said}")
    assert lines(out)[1] == "bestmove 1"
    assert any(isinstance(e, Log) and said in e.text for e in out)


def test_an_overrun_is_said_as_such() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    start(state.on_line("go movetime 1000", 0.0))
    hard = 0.0
    for _ in range(2):
        hard = state.next_deadline() or 0.0
        out = state.on_time(hard)
    text = lines(out)[0][len("info string ") :]
    failure = BotFailure.from_string(text)
    assert failure is not None and failure.kind == OVERRAN
    assert lines(out)[-1] == "bestmove 1"
    assert any(isinstance(e, Log) for e in out)


def test_strict_ends_the_session_with_status_1_after_the_log() -> None:
    out = _failing({"strict": True}, None, RuntimeError("boom"))
    kinds = [type(e).__name__ for e in out]
    assert kinds == ["Log", "Send", "StopSearch", "Exit"]
    assert out[-1] == Exit(1)
    assert not any(line.startswith("bestmove") for line in lines(out))


# ---- reports cannot inject lines ----------------------------------------------------------


@pytest.mark.parametrize(
    ("info", "field"),
    [
        (Info(depth=2, pv=("1\nbestmove 2",)), "pv"),
        (Info(depth=2, pv=("1 2",)), "pv"),
        (Info(depth=2, string="hi\rbestmove 2"), "string"),
        (Info(depth=2, score_cp=10**30), "score_cp"),
        (Info(depth=2, score_cp=1.5), "score_cp"),  # type: ignore[arg-type]
        (Info(depth=2, nodes=-5), "nodes"),
        (Info(depth=2, nps=float("inf")), "nps"),  # type: ignore[arg-type]
        (Info(depth=2, solved="maybe"), "solved"),
    ],
)
def test_a_bad_report_field_is_dropped_with_an_error(info: Info, field: str) -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go movetime 1000", 0.0))
    out = lines(state.on_info(effect.search_id, info, 0.5))
    assert len(out) == 2
    assert out[0].startswith(f"info string error: bot report: {field} ")
    assert out[0].endswith("; dropped") and "\n" not in out[0] and "\r" not in out[0]
    assert out[1].startswith("info depth 2 ")
    assert "bestmove" not in out[1] and "\n" not in out[1] and "\r" not in out[1]
    assert all(isinstance(e, Send) for e in state.on_info(effect.search_id, info, 0.6))


def test_an_exception_message_with_a_newline_stays_on_one_line() -> None:
    out = lines(_failing({}, None, ValueError("x\nbestmove 2")))
    assert out == ["info string error: bot failed: ValueError: x\\x0abestmove 2", "bestmove 1"]
