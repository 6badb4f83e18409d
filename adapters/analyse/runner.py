"""Running the engines of an analysis (trio): positions go to N engine seats; each answer
becomes an `Eval`. An engine that fails is restarted and the position tried once more,
then it is left unanalysed. Everything else (what to ask, what the answers mean) is in
the sans-IO modules."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import trio

from adapters.analyse.judge import Eval
from adapters.referee.engines import EngineSpec
from rules.game import Game
from tei.driver import Limits, PlayResult
from tei.seat import EngineSeat, NewGame, SeatFault

#: tries of one position (the first, and once more after a restart)
TRIES = 2


@attrs.frozen
class Job:
    """One position to evaluate: its game number, ply, state and the game's rules."""

    game: int
    ply: int
    state: Game[Any]
    rules: tuple[tuple[str, str], ...]


def eval_of(state: Game[Any], result: PlayResult) -> Eval:
    """The Eval of an engine's answer: its best move (canonical), last informative info."""
    info = result.info
    best = state.format_action(result.action)
    if info is None:
        return Eval(best=best)
    return Eval(info.score, best, tuple(info.pv), info.depth)


async def analyse_positions(
    jobs: Sequence[Job],
    spec: EngineSpec,
    limits: Limits,
    *,
    game: str,
    concurrency: int,
    timeout: float,
    on_eval: Callable[[Job, Eval], None],
) -> None:
    """Evaluate every job with `concurrency` engine processes; `on_eval` gets each
    answer (or the unanalysed Eval) as it comes."""
    send, receive = trio.open_memory_channel[Job](len(jobs) or 1)
    for job in jobs:
        send.send_nowait(job)
    send.close()
    seconds = (limits.movetime or 0) / 1000

    async def worker(nursery: trio.Nursery) -> None:
        seat = EngineSeat(spec.launch, nursery=nursery, label=spec.name, timeout=timeout)
        try:
            async for job in receive:
                on_eval(job, await one(seat, job))
        finally:
            await seat.close()

    async def one(seat: EngineSeat, job: Job) -> Eval:
        why = ""
        for _ in range(TRIES):
            new = NewGame(game, job.rules, job.game)
            deadline = trio.current_time() + seconds + timeout
            try:
                result = await seat.move(
                    job.state, limits, new, deadline=deadline, grace=1.0, timed=False
                )
            except SeatFault as fault:
                why = f"{fault.kind.value}: {fault.cause}".splitlines()[0]
                if fault.restart:
                    await seat.close()
                continue
            return eval_of(job.state, result)
        return Eval(unanalysed=why)

    async with trio.open_nursery() as nursery:
        for _ in range(max(1, min(concurrency, len(jobs)))):
            nursery.start_soon(worker, nursery)
