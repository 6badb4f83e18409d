"""The errors an engine driver raises; each names the engine and what went wrong."""

from __future__ import annotations

from collections.abc import Sequence

from tei.errors import TeiError

__all__ = [
    "EngineError",
    "EngineOptionError",
    "EngineProtocolError",
    "EngineStalled",
    "EngineTerminated",
    "EngineTimeout",
    "IllegalMove",
    "MalformedMove",
]


def _tail(stderr: Sequence[str], lines: int = 5) -> str:
    if not stderr:
        return ""
    shown = list(stderr)[-lines:]
    return "; stderr: " + " | ".join(shown)


class EngineError(TeiError):
    """Base of every driver error. `engine` is the engine's name."""

    def __init__(self, engine: str, message: str) -> None:
        super().__init__(f"engine {engine!r}: {message}")
        self.engine = engine


class _WithStderr(EngineError):
    """A failure of the process whose evidence includes its last lines on stderr."""

    def __init__(self, engine: str, message: str, stderr: Sequence[str]) -> None:
        super().__init__(engine, message + _tail(stderr))
        self.stderr = tuple(stderr)


class EngineTerminated(_WithStderr):
    """The engine process exited or closed its output; `exit_code` is None if unknown.

    A negative exit code is the signal that ended it (as in subprocess). `still_running`
    is set when the engine closed its output but its process had not exited.
    """

    def __init__(
        self,
        engine: str,
        exit_code: int | None,
        doing: str = "",
        stderr: Sequence[str] = (),
        *,
        still_running: bool = False,
    ) -> None:
        where = f" while {doing}" if doing else ""
        if still_running:
            what = f"closed its output{where} (the process still runs)"
        else:
            code = "unknown exit code" if exit_code is None else f"exit code {exit_code}"
            what = f"terminated{where} ({code})"
        super().__init__(engine, what, stderr)
        self.exit_code = exit_code
        self.still_running = still_running


class _NoAnswer(_WithStderr):
    """The engine did not say `what` within `seconds` (`after`: more of the message)."""

    def __init__(
        self, engine: str, what: str, seconds: float, stderr: Sequence[str], after: str = ""
    ) -> None:
        super().__init__(engine, f"no {what} within {seconds:.3g} s{after}", stderr)
        self.seconds = seconds


class EngineStalled(_NoAnswer):
    """The engine did not answer in time (handshake, isready, new game)."""

    def __init__(
        self, engine: str, waiting_for: str, seconds: float, stderr: Sequence[str] = ()
    ) -> None:
        super().__init__(engine, waiting_for, seconds, stderr)
        self.waiting_for = waiting_for


class EngineTimeout(_NoAnswer):
    """During `play`: no `bestmove` by the deadline, nor within the grace after `stop`."""

    def __init__(
        self, engine: str, seconds: float, grace: float, stderr: Sequence[str] = ()
    ) -> None:
        super().__init__(engine, "bestmove", seconds, stderr, f" (+{grace:.3g} s grace after stop)")
        self.grace = grace


class EngineProtocolError(EngineError):
    """The engine wrote a line that breaks the protocol; `line` is that line."""

    def __init__(self, engine: str, line: str, why: str = "protocol error") -> None:
        super().__init__(engine, f"{why}: {line!r}")
        self.line = line


class _BadMove(EngineError):
    """A `bestmove` that cannot be played; `line` is the bestmove line."""

    what = "bad move"

    def __init__(self, engine: str, line: str, why: str = "") -> None:
        super().__init__(engine, f"{self.what} {line!r}" + (f" ({why})" if why else ""))
        self.line = line


class IllegalMove(_BadMove):
    """A well-formed `bestmove` that is not legal in the position; `line` is the bestmove line."""

    what = "illegal move"


class MalformedMove(_BadMove):
    """A `bestmove` whose move text does not parse; `line` is the bestmove line."""

    what = "malformed move"


class EngineOptionError(EngineError):
    """An option the engine did not declare, or a value it does not allow; `name` names it."""

    def __init__(self, engine: str, name: str, why: str = "") -> None:
        super().__init__(engine, f"option {name!r}: {why or 'not declared by the engine'}")
        self.name = name
