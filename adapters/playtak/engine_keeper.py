"""Keeps one engine process running for the bridge and restarts it on demand.

The engine is opened and closed by one long-lived task (so trio's cancel scopes nest
properly); other tasks borrow it with `await keeper.get()` and ask for a fresh process
with `await keeper.restart()`. `generation` counts starts, so a game knows when it must
send `teinewgame` again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import trio

from adapters.playtak.session import first_leaf
from tei.driver import Engine, EngineError, open_engine

log = logging.getLogger("playtak.engine")


class EngineUnavailable(Exception):
    """The engine could not be started (several times in a row)."""


class EngineKeeper:
    def __init__(
        self,
        argv: Sequence[str],
        *,
        name: str | None = None,
        options: dict[str, str] | None = None,
        handshake_timeout: float = 10.0,
        max_start_failures: int = 3,
    ) -> None:
        self.argv = list(argv)
        self.name = name
        self.options = dict(options or {})
        self.handshake_timeout = handshake_timeout
        self.max_start_failures = max_start_failures
        self.generation = 0
        self.engine: Engine | None = None
        self._ready = trio.Event()
        self._restart = trio.Event()
        self._failed: BaseException | None = None

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Start the engine and keep it; report started once it shook hands (or failed)."""
        failures = 0
        status: trio.TaskStatus[None] | None = task_status
        while True:
            try:
                try:
                    await self._serve_one(status)
                    status = None
                    failures = 0
                except BaseExceptionGroup as group:
                    raise first_leaf(group) from None
            except EngineError as exc:
                failures += 1
                log.error("engine failed: %s", exc)
                if failures >= self.max_start_failures:
                    self._failed = EngineUnavailable(f"cannot start {self.argv}: {exc}")
                    self._ready.set()
                    if status is not None:
                        status.started()
                    return
                await trio.sleep(0.5 * failures)

    async def _serve_one(self, status: trio.TaskStatus[None] | None) -> None:
        try:
            async with open_engine(
                self.argv, name=self.name, handshake_timeout=self.handshake_timeout
            ) as engine:
                if self.options:
                    await engine.configure(self.options)
                self.generation += 1
                self.engine = engine
                log.info("engine %s started (%d)", engine.id_name or engine.name, self.generation)
                self._restart = trio.Event()
                self._ready.set()
                if status is not None:
                    status.started()
                await self._restart.wait()
                log.info("restarting the engine")
        finally:
            self.engine = None
            self._ready = trio.Event()

    async def get(self, timeout: float = 30.0) -> Engine:
        """The running engine (waits for a start in progress)."""
        with trio.fail_after(timeout):
            while self.engine is None:
                if self._failed is not None:
                    raise self._failed
                await self._ready.wait()
        return self.engine

    async def restart(self, timeout: float = 30.0) -> Engine:
        """Replace the engine by a fresh process and return it."""
        old = self.generation
        self._restart.set()
        with trio.fail_after(timeout):
            while self.engine is None or self.generation == old:
                if self._failed is not None:
                    raise self._failed
                await trio.sleep(0.01)
        return self.engine
