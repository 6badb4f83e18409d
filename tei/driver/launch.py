"""`open_engine`: start an engine process, shake hands, and always shut it down;
`tei_command`: the command that starts this installation's own `tei`."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from tei.driver.connection import EngineConnection, Event
from tei.driver.engine import Engine
from tei.driver.process import EngineProcess
from tei.transcript import Transcript


def tei_command(*args: str) -> tuple[str, ...]:
    """The argv running this installation's `tei` with `args` in a fresh interpreter
    (`python -P -m tei ...`). `-P` keeps the working directory off `sys.path`, so that a
    folder there named like one of our packages (a bot author's own `bots/`) cannot
    shadow it; PYTHONPATH still applies, so user bots load from it."""
    return (sys.executable, "-P", "-m", "tei", *args)


#: interpreter options that take no value (`python -P -u -m tei`)
_FLAGS = re.compile(r"-[bBdEiIOPqsSuvx]+")


def _default_name(argv: Sequence[str]) -> str:
    """The program's base name; for `python -m mod ...` or `python script.py` the module
    or script name."""
    base = os.path.basename(argv[0])
    rest = list(argv[1:])
    if base.startswith("python") and rest:
        while len(rest) > 1 and _FLAGS.fullmatch(rest[0]):
            rest.pop(0)
        if rest[0] == "-m" and len(rest) > 1:
            return rest[1]
        if not rest[0].startswith("-"):
            return Path(rest[0]).stem
    return base or "engine"


@asynccontextmanager
async def open_engine(
    argv: Sequence[str],
    *,
    name: str | None = None,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    transcript: Transcript | None = None,
    handshake_timeout: float = 10.0,
    stderr_lines: int = 200,
    quit_grace: float = 1.0,
    term_grace: float = 1.0,
) -> AsyncIterator[Engine]:
    """Start an engine, shake hands, yield the `Engine`; on exit shut it down for good.

    Raises EngineTerminated (it could not start or exited), EngineStalled (no `teiok`
    within `handshake_timeout`). The shutdown (quit, `quit_grace`, SIGTERM to the process
    group, `term_grace`, SIGKILL to it and to every process the engine started) runs
    whatever happens, shielded from cancellation.
    """
    if not argv:
        raise ValueError("open_engine: empty command")
    label = name or _default_name(argv)
    connection = EngineConnection(label)

    def on_line(line: str) -> Event:
        """Feed each line to the connection as it arrives (so that its order against the
        lines we send is the true one)."""
        event = connection.receive(line)
        if event.note is not None and transcript is not None:
            transcript.note(label, event.note)
        return event

    error: BaseException | None = None
    async with trio.open_nursery() as nursery:
        process: EngineProcess[Event] | None = None
        try:
            process = await EngineProcess.start(
                nursery,
                argv,
                on_line=on_line,
                name=label,
                cwd=cwd,
                env=env,
                transcript=transcript,
                stderr_lines=stderr_lines,
            )
            engine = Engine(process, connection)
            await engine.handshake(handshake_timeout)
            yield engine
        except BaseException as exc:  # re-raised below, outside the nursery
            error = exc
        finally:
            if process is not None:
                await process.shutdown("quit", quit_grace, term_grace)
            nursery.cancel_scope.cancel()
    if error is not None:
        raise error
