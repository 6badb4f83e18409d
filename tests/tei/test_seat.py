"""tei/seat.py: one engine process per player, against the fake engine (real processes):
started once and kept, replaced after close, faults classified, the new game sent once."""

from __future__ import annotations

import pytest
import trio

from rules.tak.game import TakGame
from tei.driver import Limits
from tei.seat import EngineSeat, FaultKind, Launch, NewGame, SeatFault, SeatUnavailable, seat_limits
from tests.support.engines.procs import fake

pytestmark = pytest.mark.process

NEW = NewGame("tak", {"size": "5"}, key=1)


def seat(nursery: trio.Nursery, mode: str = "good", **kwargs: object) -> EngineSeat:
    return EngineSeat(Launch(tuple(fake(mode)), name=mode), nursery=nursery, timeout=10.0, **kwargs)  # type: ignore[arg-type]


async def test_a_seat_starts_its_engine_once_and_a_new_one_after_close(
    nursery: trio.Nursery,
) -> None:
    s = seat(nursery)
    first = await s.open()
    assert await s.open() is first and s.generation == 1
    await s.close()
    await s.close()  # safe to repeat
    assert s.engine is None
    second = await s.restart()
    assert second is not first and s.generation == 2
    await s.close()


async def test_a_move_is_the_engines_legal_answer(nursery: trio.Nursery) -> None:
    s = seat(nursery)
    game = TakGame.new({"size": "5"})
    played = await s.move(game, Limits(movetime=100), NEW, deadline=None, grace=1.0)
    assert played.text == "a1"
    game.play_all(["a1"])
    again = await s.move(game, Limits(movetime=100), NEW, deadline=None, grace=1.0)
    assert again.text == "b1" and s.generation == 1
    await s.close()


async def test_an_engine_that_cannot_start_makes_the_seat_unavailable(
    nursery: trio.Nursery,
) -> None:
    s = seat(nursery, "exit-at-start", start_attempts=2)
    with pytest.raises(SeatUnavailable) as caught:
        await s.open()
    assert caught.value.kind is FaultKind.CRASHED and caught.value.restart
    assert s.generation == 0 and s.engine is None


async def test_a_crash_during_a_move_is_a_restarting_fault(nursery: trio.Nursery) -> None:
    s = seat(nursery, "crash")
    with pytest.raises(SeatFault) as caught:
        await s.move(
            TakGame.new({"size": "5"}), Limits(movetime=100), NEW, deadline=None, grace=1.0
        )
    assert caught.value.kind is FaultKind.CRASHED and caught.value.restart
    await s.close()


async def test_an_illegal_answer_is_a_fault_without_restart(nursery: trio.Nursery) -> None:
    s = seat(nursery, "illegal")
    game = TakGame.new({"size": "5"})
    game.play_all(["a1"])
    with pytest.raises(SeatFault) as caught:
        await s.move(game, Limits(movetime=100), NEW, deadline=None, grace=1.0)
    assert caught.value.kind is FaultKind.ILLEGAL and not caught.value.restart
    await s.close()


def test_seat_limits_put_the_movers_clock_in_its_seats_slot() -> None:
    assert seat_limits(1, (5000, 100), (7000, 0)) == Limits(
        wtime=7000, btime=5000, winc=0, binc=100
    )
    assert seat_limits(0, (5000, 100)) == Limits(wtime=5000, btime=5000, winc=100, binc=100)
    assert seat_limits(0, None, movetime=300) == Limits(movetime=300)


def test_new_game_rules_are_kept_sorted_whatever_their_order() -> None:
    assert NewGame("tak", {"size": "5", "komi": "2"}) == NewGame(
        "tak", [("komi", "2"), ("size", "5")]
    )
