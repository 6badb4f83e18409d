"""Iterative deepening, shared by the search bots of every game.

A search raises `SearchAborted` from deep inside when its deadline, node limit or stop
signal is reached. `deepen` runs one search per depth, 1, 2, ... up to `max_depth`, hands
each finished iteration to `after` (which reports it and says whether to stop), and on
an abort keeps the best root move the unfinished iteration proved better than the last
finished one (`partial`: the old best move is searched first, so a move that beat it
really is better, and its value is a value of the new depth).
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

import attrs

from bots.base import Info

V = TypeVar("V")
M = TypeVar("M")


_pause_lock = threading.Lock()
_pauses = 0
_resume = False


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a search runs (searches in several
    threads may overlap; it resumes after the last one, if it was on before the first).

    A search allocates millions of short-lived objects without reference cycles (move
    lists, table entries, boxed ints); reference counting frees them all, and the
    collector's passes over them cost about a tenth of the search's time."""
    global _pauses, _resume
    with _pause_lock:
        if not _pauses:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if not _pauses and _resume:
                gc.enable()


class SearchAborted(Exception):
    """Raised inside a search when time, nodes or the stop signal run out."""


@attrs.frozen
class Iteration(Generic[V, M]):
    """The result of one depth: its value (from the mover's view) and best move."""

    depth: int
    value: V
    move: M


@attrs.frozen
class Outcome(Generic[V, M]):
    """How deepening ended: the deepest result (None if depth 1 did not finish), and
    whether a limit cut an iteration short (`last` may then come from that iteration)."""

    last: Iteration[V, M] | None
    aborted: bool


def deepen(
    step: Callable[[int, Iteration[V, M] | None], tuple[V, M]],
    max_depth: int,
    after: Callable[[Iteration[V, M]], bool],
    partial: Callable[[], tuple[V, M] | None] = lambda: None,
) -> Outcome[V, M]:
    """Run `step(depth, previous)` for depth 1..max_depth until `after(iteration)` is
    true, the depths run out or a step raises SearchAborted (see the module docstring)."""
    last: Iteration[V, M] | None = None
    with collector_paused():
        for depth in range(1, max_depth + 1):
            try:
                value, move = step(depth, last)
            except SearchAborted:
                found = partial()
                if found is not None:
                    last = Iteration(depth, *found)
                return Outcome(last, True)
            last = Iteration(depth, value, move)
            if after(last):
                break
    return Outcome(last, False)


def iteration_info(
    depth: int, value: int, win_bound: int, nodes: int, started: float, pv: tuple[str, ...]
) -> Info:
    """The report of a finished iteration: a value beyond `win_bound` either way is a
    proven win or loss (`score solved`), any other a centi-unit score."""
    elapsed = max(time.monotonic() - started, 1e-6)
    solved = "win" if value > win_bound else "loss" if value < -win_bound else None
    return Info(
        depth=depth,
        score_cp=None if solved else value,
        solved=solved,
        nodes=nodes,
        nps=int(nodes / elapsed),
        time_ms=int(elapsed * 1000),
        pv=pv,
    )
