"""Helpers for referee tests: a misbehaving TEI engine and a way to run a match."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from adapters.referee.config import DEFAULTS, build_config
from adapters.referee.progress import MatchProgress
from adapters.referee.runner import Match
from adapters.referee.state import read_state

ENGINE = str(Path(__file__).with_name("engine.py"))


def refbot(mode: str = "good", *extra: str, name: str | None = None, **keys: Any) -> dict[str, Any]:
    """An engine entry running the test engine in a mode."""
    cmd = [sys.executable, ENGINE, "--mode", mode, *extra]
    entry: dict[str, Any] = {"cmd": cmd, "name": name or mode}
    entry.update({k: str(v) for k, v in keys.items()})
    return entry


def settings(engines: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    """Match settings with fast defaults for tests."""
    base: dict[str, Any] = {
        **DEFAULTS,
        "engines": engines,
        "games": 2,
        "grace": 0.3,
        "timeout": 5.0,
        "rules": {"size": "4"},
    }
    base.update(kw)
    return base


async def play(
    match_settings: dict[str, Any], state: str | Path | None = None, resume: bool = False
) -> MatchProgress:
    """Run a match in this process (no signal handling)."""
    config = build_config(match_settings)
    saved = read_state(state) if resume and state is not None else None
    match = Match.open(config, state_path=state, resume=saved)
    return await match.run(handle_signals=False)
