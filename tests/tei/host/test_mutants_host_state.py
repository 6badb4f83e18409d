"""HostState behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from bots import Info, Limits
from bots.base import Bot, Report
from rules.game import Game
from tei.host.effects import Log
from tei.host.state import HostConfig, HostState, Send, StopSearch
from tests.tei.host.test_engine_host_state import CountGame, lines, make_state, start


class BrokenBot(Bot):
    name: ClassVar[str] = "broken"
    games: ClassVar[tuple[str, ...]] = ("count",)

    def new_game(self) -> None:
        raise RuntimeError("out of memory")

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        return 1


def broken_state() -> HostState:
    return HostState(
        HostConfig(game="count", games=("count",), stop_grace=0.05),
        game_factory=lambda name: CountGame,
        bot_factory=lambda g, n: BrokenBot(),
    )


def test_a_bot_failing_to_start_a_new_game_is_an_error_line_not_a_crash() -> None:
    state = broken_state()
    out = lines(state.on_line("teinewgame", 0.0))
    assert out == ["info string error: bot failed to start a new game: out of memory"]
    assert lines(state.on_line("isready", 0.0)) == ["readyok"]


def test_command_line_rules_apply_to_their_game_only() -> None:
    cfg = HostConfig(game="tak", games=("tak", "traxit"), rules={"repetition": "true"})
    state = HostState(cfg)
    assert state.rules_options().get("repetition") == "true"
    assert lines(state.on_line("setoption name Game value traxit", 0.0)) == []
    assert "repetition" not in state.rules_options()
    assert lines(state.on_line("setoption name Game value tak", 0.0)) == []
    assert state.rules_options().get("repetition") == "true"


def test_a_search_is_stopped_exactly_once() -> None:
    state = broken_state()
    state.on_line("position startpos", 0.0)
    first = start(state.on_line("go infinite", 0.0))
    assert state.on_line("stop", 1.0) == [StopSearch(first.search_id)]
    assert state.on_result(first.search_id, 1, None, 1.01) == [Send("bestmove 1")]
    # a search answered without `stop` (here: the bot failed) is stopped as it is answered
    second = start(state.on_line("go movetime 1000", 2.0))
    out = state.on_result(second.search_id, None, RuntimeError("boom"), 2.1)
    sent = [e for e in out if not isinstance(e, Log)]
    assert sent == [
        Send("info string error: bot failed: RuntimeError: boom"),
        StopSearch(second.search_id),
        Send("bestmove 1"),
    ]


def test_an_overrun_is_answered_with_the_first_move_of_the_last_pv() -> None:
    state = broken_state()
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go movetime 1000", 0.0))
    state.on_info(effect.search_id, Info(depth=2, pv=("2", "1")), 0.1)
    soft = state.next_deadline()
    assert soft is not None and state.on_time(soft) == [StopSearch(effect.search_id)]
    hard = state.next_deadline()
    assert hard is not None
    assert lines(state.on_time(hard))[-1] == "bestmove 2"


def test_a_bot_past_its_depth_is_stopped_once_and_told_late_with_the_time() -> None:
    state = make_state(limit_grace=0.5)
    state.on_line("position startpos", 0.0)
    effect = start(state.on_line("go depth 3", 0.0))
    assert StopSearch(effect.search_id) in state.on_info(effect.search_id, Info(depth=3), 2.0)
    deeper = state.on_info(effect.search_id, Info(depth=4, pv=("2",)), 2.2)
    assert not any(isinstance(e, StopSearch) for e in deeper)
    assert lines(state.on_time(2.5)) == [
        "info string error: bot overran its time: no answer 2500 ms after go,"
        " nor in time after the stop flag was set",
        "bestmove 2",
    ]


def test_a_tak_host_declares_no_v1_size_line_unless_asked() -> None:
    out = lines(HostState(HostConfig(game="tak", games=("tak",))).on_line("tei", 0.0))
    assert out[-1] == "teiok"
    assert not any(line.startswith("size") for line in out)
