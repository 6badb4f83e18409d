"""The live page's state from events (pure), and the event bus that fans them out."""

from __future__ import annotations

import json
from typing import Any

import pytest
import trio
import trio.testing

from adapters.referee.config import build_config
from adapters.referee.runner import Match
from adapters.stream.announce import engine_info, game_over, game_started, move_played
from adapters.stream.bus import EventBus
from adapters.stream.events import (
    EngineInfo,
    GameOver,
    MatchStarted,
    MatchStopping,
    MovePlayed,
    SprtStatus,
    StandingRow,
    Standings,
)
from adapters.stream.live_state import LiveState
from adapters.web.live_feed import LiveFeed
from rules.tak.game import TakGame
from tei.protocol import Info, Score
from tests.support.referee import refbot, settings


def started(game_id: int = 0) -> tuple[TakGame, list[object]]:
    game = TakGame.new({"size": "5"})
    event = game_started(game_id, str(game_id + 1), game, ["alpha", "beta"], (60000.0, 60000.0))
    return game, [event]


def played(game: TakGame, game_id: int, text: str, seat: int) -> MovePlayed:
    game.play_text(text)
    return move_played(game_id, game, seat, 120.0, (59880.0, 60000.0))


def standings(done: int, llr: float) -> Standings:
    rows = (StandingRow("alpha", done, done, done, 0, 0, None, 120.5, None, "+inf"),)
    return Standings(rows, done, 10, "running", SprtStatus(0, 10, -2.94, 2.94, llr))


def fold(events: list[object]) -> LiveState:
    state = LiveState(title="test")
    for event in events:
        state = state.apply(event)  # type: ignore[arg-type]
    return state


def test_a_game_is_shown_move_by_move_with_clocks_and_engine_info() -> None:
    game, events = started()
    events.append(played(game, 0, "a1", 0))
    info = Info(depth=7, score=Score("cp", 35), pv=("e5", "c3"), nodes=1000)
    events.append(engine_info(0, 1, info))
    events.append(played(game, 0, "e5", 1))
    state = fold(events)
    view = state.snapshot()["games"]["0"]
    assert view["players"] == ["alpha", "beta"] and view["moves"] == ["a1", "e5"]
    assert view["clocks_ms"] == [59880, 60000] and view["turn"] == 0
    assert view["infos"][0] is None
    assert view["infos"][1] == {
        "type": "EngineInfo",
        "game": 0,
        "seat": 1,
        "depth": 7,
        "score": "cp 35",
        "pv": ["e5", "c3"],
        "nodes": 1000,
    }
    assert 'data-square="e5"' in view["svg"] and view["position"] == game.position_string()
    assert state.seq == 4
    json.dumps(state.snapshot())  # JSON-able as it is


def test_game_over_moves_the_game_to_finished_and_keeps_its_record() -> None:
    game, events = started(3)
    events.append(played(game, 3, "a1", 0))
    events.append(game_over(3, "tak", "0-1", "time forfeit", "time forfeit", 1, "[R]", ["a", "b"]))
    state = fold(events)
    snap = state.snapshot()
    assert snap["games"] == {}
    [done] = snap["finished"]
    assert done["result"] == "0-1" and done["termination"] == "time forfeit"
    assert done["record_format"] == "ptn" and "record" not in done
    assert 'data-square="a1"' in done["svg"]  # the final picture
    record = state.record(3)
    assert record is not None and record.record == "[R]"
    assert state.record(4) is None


def test_standings_keep_the_llr_history_once_per_game_count() -> None:
    state = fold([standings(0, 0.0), standings(1, 0.4), standings(1, 0.4), standings(2, -0.3)])
    snap = state.snapshot()
    assert snap["llr"] == [[0, 0.0], [1, 0.4], [2, -0.3]]
    assert snap["standings"]["rows"][0]["low"] == 120.5
    assert snap["standings"]["sprt"]["upper"] == 2.94


def test_events_of_unknown_games_change_nothing_but_the_count() -> None:
    state = fold([MovePlayed(9, 1, 0, "a1", 1.0, (None, None), "", "")])
    state = state.apply(EngineInfo(9, 0, 3))
    assert state.snapshot()["games"] == {} and state.seq == 2


def merge(merged: dict[str, Any], patch: dict[str, Any]) -> None:
    """A patch merged as the page merges it."""
    for key, value in patch.items():
        if key == "games":
            for gid, view in value.items():
                if view is None:
                    merged["games"].pop(gid, None)
                else:
                    merged["games"][gid] = view
        elif key == "finished":
            ids = {f["game"] for f in value}
            merged["finished"] = [f for f in merged["finished"] if f["game"] not in ids]
            merged["finished"] += value
        else:
            merged[key] = value


def match_events() -> list[object]:
    game, events = started()
    events += [played(game, 0, "a1", 0), standings(0, 0.1), played(game, 0, "e5", 1)]
    _, more = started(1)
    events += more
    events.append(GameOver(0, "R-0", "normal", "road", 2, "rec", ("alpha", "beta")))
    events.append(standings(1, 0.2))
    return events


def test_one_patch_for_a_batch_of_events_equals_their_patches_merged() -> None:
    events = match_events()
    for cut in range(len(events)):
        before = fold(events[:cut])
        merged = before.snapshot()
        after = fold(events)
        merge(merged, after.patch(*events[cut:]))  # type: ignore[arg-type]
        assert merged == after.snapshot()


async def test_the_feed_hands_events_over_in_batches_and_resets_after_a_gap() -> None:
    source = EventBus(LiveState(title="t"))
    feed = LiveFeed(limit=3)
    source.listen(lambda event: feed.put(source.state, event))
    mirror = EventBus(source.state)
    sub = mirror.subscribe()
    assert (await sub.next()) is not None  # the snapshot
    game, events = started()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(feed.pump, mirror, 0.0)
        await trio.testing.wait_all_tasks_blocked()
        for event in [*events, played(game, 0, "a1", 0), played(game, 0, "e5", 1)]:
            source.publish(event)  # type: ignore[arg-type]
        update = await sub.next()  # one patch for the three
        assert update is not None and not update.reset and update.data["seq"] == 3
        assert update.data["games"]["0"]["moves"] == ["a1", "e5"] and not sub.ready()
        for text, seat in (("c3", 0), ("c2", 1), ("d4", 0), ("b2", 1)):  # 4 > limit
            source.publish(played(game, 0, text, seat))
        update = await sub.next()
        assert update is not None and update.reset
        assert update.data == source.state.snapshot() and mirror.state is source.state
        feed.close()
    assert mirror.closed and await sub.next() is None


def test_a_late_joiner_snapshot_equals_patches_merged_by_an_early_one() -> None:
    events = match_events()
    state = LiveState(title="test")
    merged = state.snapshot()
    for event in events:
        state = state.apply(event)  # type: ignore[arg-type]
        merge(merged, state.patch(event))  # type: ignore[arg-type]
    assert merged == state.snapshot()
    assert list(merged["games"]) == ["1"]


async def test_bus_fans_out_in_order_and_resets_a_slow_subscriber() -> None:
    bus = EventBus(LiveState(title="t"), limit=3)
    heard: list[object] = []
    bus.listen(heard.append)
    fast = bus.subscribe(limit=100)
    slow = bus.subscribe()
    game, events = started()
    for event in events:
        bus.publish(event)  # type: ignore[arg-type]
    for text, seat in (("a1", 0), ("e5", 1), ("c3", 0), ("c2", 1)):
        bus.publish(played(game, 0, text, seat))
    assert len(heard) == 5
    first = await fast.next()
    assert first is not None and first.reset and first.data["games"] == {}
    seqs = []
    for _ in range(5):
        update = await fast.next()
        assert update is not None and not update.reset
        seqs.append(update.data["seq"])
    assert seqs == [1, 2, 3, 4, 5]
    # the slow one held 3 updates (snapshot, start, a1) and overflowed at e5: its backlog
    # is gone and it starts again from the state as it is when it next reads
    update = await slow.next()
    assert update is not None and update.reset and slow.resets == 1
    assert update.data["games"]["0"]["moves"] == ["a1", "e5", "c3", "c2"]
    bus.publish(played(game, 0, "d4", 0))
    update = await slow.next()
    assert update is not None and update.data["games"]["0"]["moves"][-1] == "d4"
    slow.close()
    assert bus.subscribers == 1
    bus.close()
    assert [u.data["seq"] for u in fast.ready()] == [6]
    assert await fast.next() is None


async def test_updates_and_snapshots_are_built_once_and_shared() -> None:
    """Watchers cost the publisher nothing each: one patch object (its JSON encoded once)
    goes to all, and every watcher behind gets the same snapshot object."""
    bus = EventBus(LiveState(title="t"), limit=2)
    subs = [bus.subscribe() for _ in range(20)]
    firsts = [await sub.next() for sub in subs]
    assert all(first is firsts[0] for first in firsts)  # one snapshot for all
    game, events = started()
    for event in events:
        bus.publish(event)  # type: ignore[arg-type]
    patches = [sub.ready() for sub in subs]
    assert all(p == patches[0] and p[0] is patches[0][0] for p in patches)
    assert json.loads(patches[0][0].payload) == patches[0][0].data
    for text, seat in (("a1", 0), ("e5", 1), ("c3", 0)):
        bus.publish(played(game, 0, text, seat))  # every subscription overflows
    behind = [await sub.next() for sub in subs]
    assert all(b is behind[0] for b in behind) and behind[0] is not None and behind[0].reset
    assert behind[0].data["games"]["0"]["moves"] == ["a1", "e5", "c3"]


async def test_a_waiting_subscriber_wakes_on_publish() -> None:
    bus = EventBus()
    sub = bus.subscribe()
    assert (await sub.next()) is not None  # the snapshot
    got: list[object] = []

    async def wait() -> None:
        got.append(await sub.next())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(wait)
        await trio.testing.wait_all_tasks_blocked()
        assert got == []
        bus.publish(standings(0, 0.0))
    assert got and got[0] is not None


@pytest.mark.process
async def test_a_match_publishes_starts_moves_infos_results_and_standings() -> None:
    config = build_config(
        settings([refbot("good"), refbot("illegal", "--at", "3")], sprt=["elo0=-600", "elo1=600"])
    )
    bus = EventBus()
    heard: list[object] = []
    bus.listen(heard.append)
    match = Match.open(config, publish=bus.publish)
    progress = await match.run(handle_signals=False)
    assert progress.status == "sprt H1"  # one won pair decides +-600 Elo
    kinds = [type(e).__name__ for e in heard]
    assert kinds[:2] == ["MatchStarted", "Standings"] and kinds[-1] == "Standings"
    assert heard[0] == MatchStarted(("good", "illegal"), "tak", 2)
    assert kinds.count("MatchStopping") == 1  # the SPRT decided
    stopping = next(e for e in heard if isinstance(e, MatchStopping))
    assert (stopping.how, stopping.status) == ("sprt", "sprt H1")
    assert kinds.count("GameStarted") == 2 and kinds.count("GameOver") == 2
    overs = [e for e in heard if isinstance(e, GameOver)]
    assert {o.termination for o in overs} == {"illegal move"}
    assert all("[Result " in o.record for o in overs)
    moves = [e for e in heard if isinstance(e, MovePlayed)]
    assert moves and all(m.svg.startswith("<svg") for m in moves)
    final = heard[-1]
    assert isinstance(final, Standings) and final.done == 2 and final.status == "sprt H1"
    assert final.sprt is not None and final.sprt.decision == "H1"
    assert final.rows[0].name == "good" and final.rows[0].wins == 2
    snap = bus.state.snapshot()
    assert snap["games"] == {} and len(snap["finished"]) == 2
    assert [len(p) for p in snap["llr"]] == [2, 2, 2]
