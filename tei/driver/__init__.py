"""Start and control any TEI engine process from trio.

    async with open_engine(["tiltak"], transcript=Transcript(sys.stderr)) as engine:
        game = new_game("tak", {"size": "6", "halfkomi": "4"})
        result = await engine.play(game, Limits(wtime=60000, btime=60000),
                                   rules={"size": "6", "halfkomi": "4"},
                                   deadline=trio.current_time() + 61)
        game.play(result.action)

The protocol state lives in a sans-IO `EngineConnection` (`tei.driver.connection`); the
process and its pumps in `tei.driver.process`. The value types (`Limits`, `Info`) load
without trio, so bots import them cheaply; the rest is imported on first use.
See docs/driver.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from tei.driver import errors as _errors
from tei.driver.errors import *  # noqa: F403 - the errors are part of the driver's surface
from tei.driver.limits import MAX_COUNT, MAX_TIME_MS, Info, Limits
from tei.errors import TeiError

if TYPE_CHECKING:
    from tei.driver.analysis import Analysis
    from tei.driver.connection import EngineConnection
    from tei.driver.engine import Engine, PlayResult
    from tei.driver.launch import open_engine
    from tei.driver.options import declared_refusal, default_size
    from tei.transcript import Transcript

__all__ = [
    "MAX_COUNT",
    "MAX_TIME_MS",
    "Analysis",
    "Engine",
    "EngineConnection",
    "Info",
    "Limits",
    "PlayResult",
    "TeiError",
    "Transcript",
    "declared_refusal",
    "default_size",
    "open_engine",
]
__all__ += _errors.__all__

_LAZY = {
    "Analysis": "tei.driver.analysis",
    "EngineConnection": "tei.driver.connection",
    "Engine": "tei.driver.engine",
    "PlayResult": "tei.driver.engine",
    "open_engine": "tei.driver.launch",
    "declared_refusal": "tei.driver.options",
    "default_size": "tei.driver.options",
    "Transcript": "tei.transcript",
}


def __getattr__(name: str) -> Any:
    """The names that need trio or a game core, imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tei.driver' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
