"""Engines of a match: what to start (`EngineSpec`), one running process per engine and
worker (`EngineSlot`, restarted after a crash), and the up-front check of every engine."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import trio

from adapters.referee.clock import TimeControl
from tei.driver import Engine, EngineError, Transcript, open_engine
from tei.driver_options import OptionRefused, find_option, normalize_value, plan_new_game


class MatchError(ValueError):
    """A match that cannot be played as set up (the message names the engine or setting)."""


@attrs.frozen
class EngineSpec:
    """One engine of the match: command, name, TEI options, limits."""

    name: str
    argv: tuple[str, ...]
    cwd: str | None = None
    options: tuple[tuple[str, str], ...] = ()
    control: TimeControl = attrs.field(factory=TimeControl)
    #: the built-in bot it runs, if any (for the summary)
    bot: str | None = None
    #: start a fresh process for every game (restart=on); else only after a fault
    restart: bool = False

    @classmethod
    def builtin(cls, game: str, bot: str, **kwargs: Any) -> EngineSpec:
        """A built-in bot served by `tei engine` in a subprocess."""
        argv = (sys.executable, "-m", "tei", "engine", "--game", game, "--bot", bot)
        return cls(name=kwargs.pop("name", None) or bot, argv=argv, bot=bot, **kwargs)


def check_engine(engine: Engine, spec: EngineSpec, game: str, rules: Mapping[str, str]) -> None:
    """MatchError when the engine cannot play this match (game, komi, rules, options)."""
    try:
        plan_new_game(game, rules, engine.options, engine.sizes)
    except OptionRefused as exc:
        raise MatchError(f"engine {spec.name!r} cannot play this match: {exc}") from None
    for name, value in spec.options:
        decl = find_option(engine.options, name)
        if decl is None:
            known = ", ".join(engine.options) or "none"
            raise MatchError(f"engine {spec.name!r} has no option {name!r} (declared: {known})")
        try:
            normalize_value(decl, value)
        except OptionRefused as exc:
            raise MatchError(f"engine {spec.name!r}: {exc}") from None


class EngineSlot:
    """One engine process owned by one worker; opened on demand, reopened after a failure.

    Each process lives in its own task of the worker's `nursery` (so that processes can
    be closed and restarted in any order); the worker talks to it through `engine`.
    """

    def __init__(
        self,
        spec: EngineSpec,
        *,
        label: str,
        transcript: Transcript | None,
        timeout: float,
        nursery: trio.Nursery,
    ) -> None:
        self.spec = spec
        self.label = label
        self.transcript = transcript
        self.timeout = timeout
        self.engine: Engine | None = None
        self._nursery = nursery
        self._close: trio.Event | None = None
        self._closed: trio.Event | None = None
        self.starts = 0

    async def _host(self, close: trio.Event, closed: trio.Event, task_status: Any) -> None:
        started = False
        try:
            async with open_engine(
                self.spec.argv,
                name=self.label,
                cwd=self.spec.cwd,
                transcript=self.transcript,
                handshake_timeout=self.timeout,
            ) as engine:
                task_status.started(engine)
                started = True
                await close.wait()
        except Exception:
            if not started:
                raise  # nursery.start re-raises it in open()
            # a failure while shutting down a started engine changes nothing for the match
        finally:
            closed.set()

    async def open(self) -> Engine:
        """The running engine, started (and configured) if needed."""
        if self.engine is not None:
            return self.engine
        close, closed = trio.Event(), trio.Event()
        engine: Engine = await self._nursery.start(self._host, close, closed)
        self.engine, self._close, self._closed = engine, close, closed
        self.starts += 1
        if self.spec.options:
            try:
                await engine.configure(dict(self.spec.options), timeout=self.timeout)
            except BaseException:
                await self.close()
                raise
        return engine

    async def close(self) -> None:
        """Shut the process down (quit, terminate, kill) and wait for it; safe to repeat."""
        close, closed = self._close, self._closed
        self.engine, self._close, self._closed = None, None, None
        if close is not None and closed is not None:
            close.set()
            with trio.CancelScope(shield=True):
                await closed.wait()


async def probe_engines(
    specs: Sequence[EngineSpec],
    game: str,
    rules: Mapping[str, str],
    *,
    transcript: Transcript | None,
    timeout: float,
) -> dict[int, str]:
    """Start every engine once, in parallel, and check it can play the match.

    Returns the `id name` of each engine; raises MatchError naming the first engine that
    does not start or cannot play (komi, game, rules options, its own options).
    """
    names: dict[int, str] = {}
    errors: dict[int, str] = {}

    async def one(index: int, spec: EngineSpec) -> None:
        try:
            async with open_engine(
                spec.argv,
                name=spec.name,
                cwd=spec.cwd,
                transcript=transcript,
                handshake_timeout=timeout,
            ) as engine:
                check_engine(engine, spec, game, rules)
                names[index] = engine.id_name or spec.name
        except MatchError as exc:
            errors[index] = str(exc)
        except (EngineError, OSError) as exc:
            errors[index] = f"engine {spec.name!r} did not start: {exc}"

    async with trio.open_nursery() as nursery:
        for index, spec in enumerate(specs):
            nursery.start_soon(one, index, spec)
    if errors:
        raise MatchError(errors[min(errors)])
    return names
