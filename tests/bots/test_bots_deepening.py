"""The search bots' shared iterative deepening and time plan."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from bots.base import Limits
from bots.deepening import Iteration, SearchAborted, collector_paused, deepen
from bots.timing import plan


def test_deepening_stops_when_after_says_so() -> None:
    seen: list[Iteration[int, str]] = []

    def after(it: Iteration[int, str]) -> bool:
        seen.append(it)
        return it.depth == 3

    outcome = deepen(lambda depth, previous: (depth * 10, f"m{depth}"), 9, after)
    assert [it.depth for it in seen] == [1, 2, 3]
    assert outcome.last == Iteration(3, 30, "m3") and not outcome.aborted


def test_deepening_passes_the_previous_iteration() -> None:
    previous: list[Iteration[int, str] | None] = []

    def step(depth: int, last: Iteration[int, str] | None) -> tuple[int, str]:
        previous.append(last)
        return depth, str(depth)

    deepen(step, 3, lambda it: False)
    assert previous == [None, Iteration(1, 1, "1"), Iteration(2, 2, "2")]


@pytest.mark.parametrize(
    ("partial", "expected"), [(None, Iteration(2, 2, "b")), ((7, "x"), Iteration(3, 7, "x"))]
)
def test_an_abort_keeps_the_last_iteration_or_a_better_partial_one(
    partial: tuple[int, str] | None, expected: Iteration[int, str]
) -> None:
    def step(depth: int, last: Iteration[int, str] | None) -> tuple[int, str]:
        if depth == 3:
            raise SearchAborted
        return depth, "ab"[depth - 1]

    outcome = deepen(step, 9, lambda it: False, lambda: partial)
    assert outcome.aborted and outcome.last == expected


def test_an_abort_in_the_first_iteration_leaves_no_result() -> None:
    def step(depth: int, last: Iteration[int, str] | None) -> tuple[int, str]:
        raise SearchAborted

    outcome = deepen(step, 9, lambda it: False)
    assert outcome.aborted and outcome.last is None


def test_time_plan_stops_deepening_after_its_share() -> None:
    budget = plan(Limits(wtime=10_000, btime=10_000), 0, 20, 1000.0, iteration_share=0.5)
    assert budget.soft is not None
    assert budget.deepen(budget.soft * 0.49) and not budget.deepen(budget.soft * 0.51)
    assert plan(Limits(depth=4), 0, 20, 1000.0).deepen(1e9)


def test_time_plan_gives_fewer_moves_more_time() -> None:
    limits = Limits(wtime=60_000, btime=60_000, winc=1000, binc=1000)
    few, many = plan(limits, 0, 8, 1000.0), plan(limits, 0, 30, 1000.0)
    assert few.soft is not None and many.soft is not None and few.soft > many.soft


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_off_while_deepening_and_on_again_after(collector_on: None) -> None:
    seen: list[bool] = []

    def step(depth: int, last: Iteration[int, str] | None) -> tuple[int, str]:
        seen.append(gc.isenabled())
        if depth == 2:
            raise SearchAborted
        return depth, "m"

    deepen(step, 5, lambda it: False)
    assert seen == [False, False]
    assert gc.isenabled()


def test_overlapping_searches_resume_the_collector_after_the_last(collector_on: None) -> None:
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with collector_paused():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    with collector_paused():
        thread.start()
        assert inside.wait(10)
    assert not gc.isenabled()  # the other search still runs
    leave.set()
    thread.join(10)
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off_and_errors_still_resume(collector_on: None) -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
