"""The engine host's sans-IO state machine, driven with a toy game and toy bots."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, ClassVar, Self

import pytest

from bots import Info, Limits
from bots.base import Bot, BotOption, Report
from rules.game import (
    Game,
    GameError,
    IllegalAction,
    NotationError,
    Options,
    OptionSpec,
    Outcome,
)
from tei import protocol as p
from tei.host.state import (
    Exit,
    HostConfig,
    HostSetupError,
    HostState,
    Send,
    StartSearch,
    StopSearch,
)
from tei.host.timing import limits_of, search_deadlines
from tests.support.engines.toy_game import TwoPlayerToy


class CountGame(TwoPlayerToy[int]):
    """Players add 1 or 2 to a total in turn; who reaches the target (option size) wins."""

    name = "count"

    @classmethod
    def option_specs(cls) -> tuple[OptionSpec, ...]:
        return (OptionSpec("size", "int", "10", "target", tei="Size", newgame=True),)

    def __init__(self, target: int, total: int = 0, first: int = 0) -> None:
        self.target = target
        self.total = total
        self.first = first
        self._history: list[int] = []

    @classmethod
    def new(cls, options: Options | None = None) -> Self:
        options = options or {}
        target = int(options.get("size", "10"))
        if target < 1:
            raise GameError(f"bad size {target}")
        return cls(target)

    @classmethod
    def from_position_string(cls, text: str, options: Options | None = None) -> Self:
        try:
            total, target, turn = (int(part) for part in text.split("/"))
        except ValueError:
            raise NotationError(f"bad count position {text!r}") from None
        game = cls(target, total, turn)
        game.start_position = text
        return game

    def copy(self) -> Self:
        other = type(self)(self.target, self.total, self.first)
        other._history = list(self._history)
        other.start_position = self.start_position
        return other

    @property
    def turn(self) -> int:
        return (self.first + len(self._history)) % 2

    @property
    def result(self) -> Outcome | None:
        if self.total < self.target:
            return None
        return Outcome(winners=(1 - self.turn,), code="won", reason="count")

    def position_string(self) -> str:
        return f"{self.total}/{self.target}/{self.turn}"

    def legal(self) -> list[int]:
        return [] if self.result is not None else [1, 2]

    def play(self, action: int) -> None:
        if action not in self.legal():
            raise IllegalAction(f"cannot add {action}")
        self.total += action
        self._history.append(action)

    def undo(self) -> int:
        action = self._history.pop()
        self.total -= action
        return action

    def parse_action(self, text: str) -> int:
        if text not in ("1", "2", "3"):
            raise NotationError(f"bad count action {text!r}")
        action = int(text)
        if action not in self.legal():
            raise IllegalAction(f"cannot add {text}")
        return action

    def format_action(self, action: int) -> str:
        return str(action)


class TwoBot(Bot):
    name: ClassVar[str] = "two"
    games: ClassVar[tuple[str, ...]] = ("count",)
    options: ClassVar[tuple[BotOption, ...]] = (
        BotOption("Style", "combo", default="calm", choices=("calm", "wild")),
        BotOption("Reset", "button"),
    )
    new_games = 0

    def new_game(self) -> None:
        TwoBot.new_games += 1

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        return 2


def make_state(**config: Any) -> HostState:
    cfg = HostConfig(game="count", games=("count",), stop_grace=0.05, **config)
    return HostState(
        cfg,
        game_factory=lambda name: CountGame,
        bot_factory=lambda game, name: TwoBot(),
    )


def lines(effects: Sequence[object]) -> list[str]:
    return [e.line for e in effects if isinstance(e, Send)]


def start(effects: Sequence[object]) -> StartSearch:
    found = [e for e in effects if isinstance(e, StartSearch)]
    assert len(found) == 1, effects
    return found[0]


def test_handshake_declares_game_and_bot_options() -> None:
    state = make_state()
    out = lines(state.on_line("tei", 0.0))
    assert out[0] == "id name tei-host two"
    assert out[1].startswith("id author ")
    assert "option name Game type combo default count var count" in out
    assert "option name Style type combo default calm var calm var wild" in out
    assert "option name Reset type button" in out
    assert out[-1] == "teiok"
    assert not any(line.startswith("size") for line in out)


def test_halfkomi_and_traxit_options_follow_the_games() -> None:
    cfg = HostConfig(game="tak", games=("tak", "traxit"), rules={"halfkomi": "4"})
    state = HostState(cfg, bot_factory=lambda g, n: TwoBot())
    out = lines(state.on_line("tei", 0.0))
    assert "option name HalfKomi type spin default 4 min 0 max 1000" in out
    assert "option name Players type spin default 2 min 2 max 4" in out
    assert "option name Teams type check default false" in out
    assert "option name ShortGame type check default false" in out


def test_tei_v1_size_line_only_on_request() -> None:
    cfg = HostConfig(game="tak", games=("tak",), tei_v1=True)
    state = HostState(cfg, game_factory=lambda n: CountGame, bot_factory=lambda g, n: TwoBot())
    out = lines(state.on_line("tei", 0.0))
    assert "size 3 4 5 6 7 8 halfkomi 0 1 2 3 4 5 6 7 8" in out
    assert out.index("size 3 4 5 6 7 8 halfkomi 0 1 2 3 4 5 6 7 8") < out.index("teiok")


def test_isready_and_empty_lines() -> None:
    state = make_state()
    assert lines(state.on_line("isready", 0.0)) == ["readyok"]
    assert state.on_line("   ", 0.0) == []


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("frobnicate now", "unknown command 'frobnicate'"),
        ("setoption name Nope value 1", "unknown option 'Nope'"),
        ("setoption name Style value loud", "loud"),
        ("setoption name Game value chess", "chess"),
        ("position tps nonsense", "nonsense"),
        ("position startpos moves 1 7", "move 2 '7'"),
        ("teinewgame 0", "bad size 0"),
    ],
)
def test_bad_input_gives_one_error_line(line: str, fragment: str) -> None:
    state = make_state()
    out = lines(state.on_line(line, 0.0))
    assert len(out) == 1
    assert out[0].startswith("info string error: ") and fragment in out[0]


@pytest.mark.parametrize("line", ["go nodes 1e309", "go depth deep", "GO movetime -", "go wtime"])
def test_a_malformed_go_gets_an_error_and_its_one_bestmove(line: str) -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    out = lines(state.on_line(line, 0.0))
    assert len(out) == 2 and out[0].startswith("info string error: ")
    assert out[1] == "bestmove --"
    assert state.search is None


def test_a_malformed_go_during_a_search_is_only_refused() -> None:
    """The running search owes the one bestmove; the bad go gets an error line."""
    state = make_state()
    state.on_line("position startpos", 0.0)
    start(state.on_line("go infinite", 0.0))
    out = lines(state.on_line("go nodes 1e309", 0.0))
    assert len(out) == 1 and out[0].startswith("info string error: ")
    assert state.search is not None


def test_go_before_position_answers_no_move() -> None:
    state = make_state()
    out = lines(state.on_line("go movetime 100", 0.0))
    assert out == ["info string error: go without a valid position", "bestmove --"]
    assert state.search is None


def test_illegal_move_in_position_invalidates_it() -> None:
    state = make_state()
    assert state.on_line("position startpos moves 1", 0.0) == []
    out = lines(state.on_line("position startpos moves 1 1 x", 0.0))
    assert "move 3 'x'" in out[0]
    assert lines(state.on_line("go", 0.0))[-1] == "bestmove --"


def test_go_on_finished_game() -> None:
    state = make_state()
    state.on_line("teinewgame 3", 0.0)
    state.on_line("position startpos moves 2 1", 0.0)
    out = lines(state.on_line("go movetime 10", 0.0))
    assert out == ["info string error: go: the game is over (won)", "bestmove --"]


def test_teinewgame_sets_size_and_calls_new_game() -> None:
    state = make_state()
    before = TwoBot.new_games
    assert state.on_line("teinewgame 4", 0.0) == []
    assert TwoBot.new_games == before + 1
    state.on_line("position startpos moves 2", 0.0)
    assert state.game is not None and state.game.target == 4  # type: ignore[attr-defined]
    state.on_line("teinewgame size 7 halfkomi 2", 0.0)
    state.on_line("position startpos", 0.0)
    assert state.game.target == 7  # type: ignore[attr-defined]


def test_position_from_string_and_incremental_moves() -> None:
    state = make_state()
    state.on_line("position tps 5/9/1 moves 1", 0.0)
    assert state.game is not None and state.game.position_string() == "6/9/0"
    first = state.game
    state.on_line("position tps 5/9/1 moves 1 2", 0.0)
    assert state.game is first and state.game.position_string() == "8/9/1"
    state.on_line("position tps 5/9/1 moves 2", 0.0)
    assert state.game is not first and state.game.position_string() == "7/9/0"


def test_search_with_movetime_answers_the_bots_move() -> None:
    state = make_state()
    state.on_line("position startpos moves 1", 0.0)
    effect = start(state.on_line("go movetime 1000", 10.0))
    assert effect.limits == Limits(movetime=1000, cap_ms=950)
    assert effect.game.position_string() == "1/10/1"
    out = state.on_result(effect.search_id, 2, None, 10.2)
    assert lines(out) == ["bestmove 2"]
    assert state.search is None


def test_a_go_right_after_stop_waits_for_the_stopped_searchs_bestmove() -> None:
    """GUIs send `stop`, `position`, `go` in one breath: the new search starts once the
    stopped one has answered, on the position given before that `go`."""
    state = make_state()
    state.on_line("position startpos moves 1", 0.0)
    first = start(state.on_line("go infinite", 0.0))
    assert [type(e).__name__ for e in state.on_line("stop", 1.0)] == ["StopSearch"]
    assert state.on_line("position startpos moves 1 2", 1.0) == []
    assert state.on_line("go movetime 1000", 1.0) == []  # waits: no error, no search yet
    state.on_line("position startpos", 1.0)  # a later position is not that go's
    out = state.on_result(first.search_id, 2, None, 1.1)
    assert lines(out) == ["bestmove 2"]  # the stopped search's answer comes first
    second = start(out)
    assert second.game.position_string() == "3/10/0"  # 1 + 2, not the later startpos
    assert second.limits.movetime == 1000
    assert lines(state.on_result(second.search_id, 2, None, 1.5)) == ["bestmove 2"]


def test_a_go_while_searching_without_stop_is_an_error() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    start(state.on_line("go infinite", 0.0))
    out = lines(state.on_line("go movetime 10", 0.5))
    assert len(out) == 1 and "go while a search is running" in out[0]


def test_bot_info_becomes_info_lines() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go movetime 1000", 1.0))
    info = Info(depth=3, score_cp=-12, nodes=500, pv=("2", "1"))
    out = lines(state.on_info(effect.search_id, info, 1.5))
    assert out == ["info depth 3 score cp -12 nodes 500 nps 1000 time 500 pv 2 1"]
    solved = Info(depth=4, solved="win", time_ms=7)
    assert lines(state.on_info(effect.search_id, solved, 1.6)) == [
        "info depth 4 score solved win time 7"
    ]
    assert lines(state.on_info(effect.search_id, Info(string="hi there"), 1.7)) == [
        "info string hi there"
    ]


def test_deadlines_stop_then_answer_with_last_pv() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go movetime 1000", 0.0))
    deadline = state.next_deadline()
    assert deadline is not None and 0 < deadline < 1.0
    state.on_info(effect.search_id, Info(depth=1, pv=("1",)), 0.1)
    assert state.on_time(deadline - 0.01) == []
    assert state.on_time(deadline) == [StopSearch(effect.search_id)]
    hard = state.next_deadline()
    assert hard is not None and deadline < hard < 1.0
    out = lines(state.on_time(hard))
    assert out[-1] == "bestmove 1"
    # the bot's late answer is ignored
    assert state.on_result(effect.search_id, 2, None, 2.0) == []


def test_a_host_woken_past_both_deadlines_still_gives_the_bot_its_gap() -> None:
    """Seen on a starved machine: the host's timer fired 54 ms past its hard deadline, set
    the stop flag and answered for the bot in the same breath, with a stand-in move."""
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go movetime 300", 0.0))
    assert state.on_time(0.345) == [StopSearch(effect.search_id)]
    assert state.next_deadline() == pytest.approx(0.355)
    assert lines(state.on_result(effect.search_id, 2, None, 0.350)) == ["bestmove 2"]
    # a bot that does not answer within the gap is answered for, as before
    state.on_line("position startpos", 1.0)
    effect = start(state.on_line("go movetime 300", 1.0))
    assert state.on_time(1.345) == [StopSearch(effect.search_id)]
    assert lines(state.on_time(1.355)) == [
        "info string error: bot overran its time: no answer 355 ms after go, nor in time"
        " after the stop flag was set",
        "bestmove 1",  # the host's stand-in move
    ]


def test_clock_deadline_reads_the_acting_seat() -> None:
    go = p.Go(wtime=60_000, btime=1_000)
    white = search_deadlines(limits_of(go, 0))
    black = search_deadlines(limits_of(go, 1))
    assert white[0] is not None and black[0] is not None and black[0] < white[0]
    assert search_deadlines(limits_of(p.Go(depth=3), 0)) == (None, None)
    assert search_deadlines(limits_of(p.Go(infinite=True, movetime=5), 0)) == (None, None)


def test_an_overrun_grace_waits_for_the_bot_until_its_whole_time_plus_the_grace() -> None:
    """`--overrun-grace MS` (tei match's margin): the stop flag as before, the host's
    own answer only past the movetime, or the side's clock, plus MS."""
    movetime = p.Go(movetime=10)
    soft, hard = search_deadlines(limits_of(movetime, 0))
    assert hard is not None and hard <= 0.010  # its own deadline, within the movetime
    assert search_deadlines(limits_of(movetime, 0), 0, 1000) == (soft, 1.010)
    clock = p.Go(wtime=60_000, btime=2_000)
    assert search_deadlines(limits_of(clock, 1), 1, 50)[1] == 2.050
    assert search_deadlines(limits_of(p.Go(depth=3), 0), 0, 50) == (None, None)


def test_infinite_holds_the_answer_until_stop() -> None:
    for go in ("go infinite", "go"):
        state = make_state()
        state.on_line("position startpos", 0.0)
        effect = start(state.on_line(go, 0.0))
        assert effect.limits.infinite
        assert state.next_deadline() is None
        assert state.on_result(effect.search_id, 1, None, 0.5) == []
        assert lines(state.on_line("isready", 0.6)) == ["readyok"]
        assert lines(state.on_line("stop", 0.7)) == ["bestmove 1"]
        assert lines(state.on_line("stop", 0.8)) == []


def test_stop_gives_the_bot_a_grace_then_answers() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go infinite", 0.0))
    assert state.on_line("stop", 1.0) == [StopSearch(effect.search_id)]
    deadline = state.next_deadline()
    assert deadline == pytest.approx(1.05)
    out = lines(state.on_time(deadline))
    assert out[-1] == "bestmove 1"


def test_depth_and_nodes_searches_are_not_held() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go depth 2", 0.0))
    assert effect.limits == Limits(depth=2)
    assert lines(state.on_result(effect.search_id, 2, None, 0.1)) == ["bestmove 2"]
    effect = start(state.on_line("go nodes 5", 0.0))
    assert lines(state.on_result(effect.search_id, 1, None, 0.1)) == ["bestmove 1"]


@pytest.mark.parametrize(
    ("go", "below", "reached"),
    [
        ("go depth 3", Info(depth=2, pv=("1",)), Info(depth=3, pv=("2",))),
        ("go nodes 50", Info(nodes=49, pv=("1",)), Info(nodes=50, pv=("2",))),
    ],
)
def test_a_bot_past_its_depth_or_nodes_limit_is_stopped_then_answered_for(
    go: str, below: Info, reached: Info
) -> None:
    state = make_state(limit_grace=0.5)
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line(go, 0.0))
    assert state.next_deadline() is None
    assert not any(isinstance(e, StopSearch) for e in state.on_info(effect.search_id, below, 1.0))
    assert state.next_deadline() is None
    out = state.on_info(effect.search_id, reached, 2.0)
    assert StopSearch(effect.search_id) in out
    assert state.next_deadline() == pytest.approx(2.5)
    assert state.on_time(2.4) == []
    assert lines(state.on_time(2.5))[-1] == "bestmove 2"  # the last pv move
    assert state.on_result(effect.search_id, 1, None, 3.0) == []  # too late


def test_a_bot_that_answers_at_its_limit_is_not_answered_for() -> None:
    state = make_state(limit_grace=0.5)
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go depth 1", 0.0))
    state.on_info(effect.search_id, Info(depth=1, pv=("2",)), 1.0)
    assert lines(state.on_result(effect.search_id, 1, None, 1.1)) == ["bestmove 1"]
    assert state.search is None and state.on_time(2.0) == []


def test_depth_limit_is_not_enforced_on_an_infinite_search() -> None:
    state = make_state(limit_grace=0.5)
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go infinite depth 1", 0.0))
    out = state.on_info(effect.search_id, Info(depth=4, pv=("2",)), 1.0)
    assert not any(isinstance(e, StopSearch) for e in out)
    assert state.next_deadline() is None


def test_limit_cap_stops_a_depth_search_like_stop() -> None:
    state = make_state(limit_cap=2.0)
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go depth 9", 1.0))
    assert state.next_deadline() == pytest.approx(3.0)
    assert state.on_time(3.0) == [StopSearch(effect.search_id)]
    assert state.next_deadline() == pytest.approx(3.05)
    assert lines(state.on_time(3.05))[-1] == "bestmove 1"
    # a search with a time limit keeps its own deadlines, infinite ones have none
    effect = start(state.on_line("go infinite", 4.0))
    assert state.next_deadline() is None
    assert lines(state.on_line("stop", 5.0)) == []
    assert lines(state.on_result(effect.search_id, 2, None, 5.01)) == ["bestmove 2"]


def test_bot_failure_and_illegal_result_fall_back_to_a_legal_move() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go movetime 500", 0.0))
    out = lines(state.on_result(effect.search_id, None, RuntimeError("boom"), 0.1))
    assert out == ["info string error: bot failed: RuntimeError: boom", "bestmove 1"]
    effect = start(state.on_line("go movetime 500", 0.0))
    out = lines(state.on_result(effect.search_id, 3, None, 0.1))
    assert out[0].startswith("info string error: bot failed: think returned 3, not a legal")
    assert out[1] == "bestmove 1"


def test_bot_failure_during_go_infinite_answers_only_after_stop() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go infinite", 0.0))
    out = lines(state.on_result(effect.search_id, None, RuntimeError("boom"), 0.1))
    assert out == ["info string error: bot failed: RuntimeError: boom"]
    assert lines(state.on_line("isready", 0.2)) == ["readyok"]
    assert lines(state.on_line("stop", 0.3)) == ["bestmove 1"]
    effect = start(state.on_line("go infinite", 0.4))
    out = lines(state.on_result(effect.search_id, 3, None, 0.5))
    assert len(out) == 1 and out[0].startswith("info string error: bot failed: think returned 3")
    assert lines(state.on_line("stop", 0.6)) == ["bestmove 1"]


def test_second_go_during_search_is_refused() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    start(state.on_line("go infinite", 0.0))
    out = state.on_line("go movetime 10", 0.1)
    assert lines(out) == [
        "info string error: go while a search is running; send stop first (bestmove -- in turn)"
    ]


def test_quit_stops_the_search_and_exits() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go infinite", 0.0))
    assert state.on_line("quit", 0.1) == [StopSearch(effect.search_id), Exit()]
    assert make_state().on_eof() == [Exit()]


def test_end_of_input_answers_the_running_search_first() -> None:
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go movetime 1000", 0.0))
    assert state.on_eof(0.1) == []  # a timed search goes on
    out = state.on_result(effect.search_id, 2, None, 0.5)
    assert lines(out) == ["bestmove 2"] and out[-1] == Exit()
    state = make_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go depth 5", 0.0))
    assert state.on_eof(1.0) == [StopSearch(effect.search_id)]  # an untimed one is stopped
    out = state.on_result(effect.search_id, 1, None, 1.01)
    assert lines(out) == ["bestmove 1"] and out[-1] == Exit()


def test_setoption_names_are_case_insensitive_and_reach_the_bot() -> None:
    state = make_state()
    assert state.on_line("setoption name style value WILD", 0.0) == []
    assert state.bot.settings["Style"] == "wild"
    assert state.on_line("setoption name reset", 0.0) == []
    out = lines(state.on_line("tei", 0.0))
    assert "option name Style type combo default wild var calm var wild" in out


def test_setup_error_names_the_game() -> None:
    with pytest.raises(HostSetupError, match="count"):
        HostState(
            HostConfig(game="count", games=("count",)),
            game_factory=lambda n: CountGame,
            bot_factory=lambda g, n: (_ for _ in ()).throw(ValueError("no such bot")),
        )
