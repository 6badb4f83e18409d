"""Analysis mode of the driver: stream `info` lines of a search until it ends or is stopped."""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING

import trio

from tei.driver.connection import SearchEnded, SearchInfo, Violation
from tei.driver.errors import EngineProtocolError, EngineTimeout
from tei.protocol import BestMove, Go, Info, Position

if TYPE_CHECKING:
    from tei.driver.engine import Engine


class Analysis:
    """An analysis search: iterate for its `Info`; `bestmove` is set when it has ended."""

    def __init__(self, engine: Engine, position: Position, go: Go) -> None:
        self.engine = engine
        self.position = position
        self.go = go
        self.started = False
        self.done = False
        self.bestmove: str | None = None
        self.last: Info | None = None

    async def start(self) -> None:
        if not self.started:
            self.started = True
            await self.engine.send(self.position)
            await self.engine.send(self.go)

    def __aiter__(self) -> Analysis:
        return self

    async def __anext__(self) -> Info:
        await self.start()
        while not self.done:
            event = await self.engine.next_event("info")
            if isinstance(event, SearchInfo) and isinstance(event.message, Info):
                if event.current:
                    self.last = event.message
                    return event.message
            elif isinstance(event, SearchEnded) and event.current:
                self.done = True
                best = event.bestmove
                self.bestmove = best.move if isinstance(best, BestMove) else None
            elif isinstance(event, Violation):
                self.done = True
                raise EngineProtocolError(self.engine.name, event.line, event.why)
        raise StopAsyncIteration

    async def stop(self, grace: float = 2.0) -> str | None:
        """Send `stop` (if still searching) and read up to the `bestmove`; its move."""
        if not self.started:
            self.done = True
            return None
        if not self.done:
            await self.engine.send_stop()
            with trio.move_on_after(grace) as scope:
                while not self.done:
                    try:
                        await self.__anext__()
                    except StopAsyncIteration:
                        break
            if scope.cancelled_caught:
                raise EngineTimeout(self.engine.name, 0.0, grace, self.engine.stderr)
        return self.bestmove

    async def __aenter__(self) -> Analysis:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            await self.stop()
        self.engine.release(self)
