"""Engines of a match: what to start (`EngineSpec`) and the up-front check of every
engine. Each worker runs them in `tei.seat.EngineSeat`s (restarted after a fault)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import trio

from adapters.referee.clock import TimeControl
from adapters.referee.errors import RefereeError
from bots.registry import bot_name
from tei.driver import Engine, EngineError, Transcript, open_engine, tei_command
from tei.lines import printable
from tei.seat import Launch


class MatchError(RefereeError):
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

    @property
    def launch(self) -> Launch:
        """How the engine seat starts it."""
        return Launch(self.argv, self.name, self.cwd, self.options)

    @classmethod
    def builtin(cls, game: str, bot: str, **kwargs: Any) -> EngineSpec:
        """A built-in bot served by `tei engine` in a subprocess, which waits for its bot
        as long as the referee does (its move's time plus the margin: `--overrun-grace`),
        so that the referee's clock judges it as it judges any engine."""
        grace = str(kwargs.get("control", TimeControl()).margin_ms)
        argv = tei_command("engine", "--game", game, "--overrun-grace", grace, "--bot", bot)
        name = kwargs.pop("name", None) or bot_name(bot)
        return cls(name=name, argv=argv, bot=bot, **kwargs)


def unique_names(engines: Sequence[EngineSpec], given: Sequence[bool]) -> tuple[EngineSpec, ...]:
    """The engines with names fit for a terminal, a record and a table: control
    characters escaped (`printable`: a name is one line that cannot drive a terminal),
    and unique. A name given twice (`given[i]`: by `name=`) is a MatchError; a made name
    (the bot's or program's) that another engine has gets `#N`, N its place in the
    match or the next number free, never a name given to another engine."""
    names = [printable(spec.name) for spec in engines]
    taken = [name for name, own in zip(names, given, strict=True) if own]
    twice = sorted({name for name in taken if taken.count(name) > 1})
    if twice:
        raise MatchError(f"two engines are named {twice[0]!r}: give each engine its own name=")
    used = set(taken)
    out = []
    for number, (spec, name, own) in enumerate(zip(engines, names, given, strict=True), 1):
        if not own and (name in used or names.count(name) > 1):
            while f"{name}#{number}" in used or f"{name}#{number}" in names:
                number += 1
            name = f"{name}#{number}"
        used.add(name)
        out.append(attrs.evolve(spec, name=name))
    return tuple(out)


def check_engine(engine: Engine, spec: EngineSpec, game: str, rules: Mapping[str, str]) -> None:
    """MatchError when the engine cannot play this match (game, komi, rules, options)."""
    why = engine.refusal(game, rules)
    if why is not None:
        raise MatchError(f"engine {spec.name!r} cannot play this match: {why}")
    for name, value in spec.options:
        if engine.option(name) is None:
            known = ", ".join(engine.options) or "none"
            raise MatchError(f"engine {spec.name!r} has no option {name!r} (declared: {known})")
        why = engine.option_refusal(name, value)
        if why is not None:
            raise MatchError(f"engine {spec.name!r}: {why}")


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
