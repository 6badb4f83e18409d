"""The state file of an analysis (`OUT.state`): what was asked, then one line per position
analysed, each flushed and synced, so that an interrupted analysis resumes where it was.

    {"kind":"analyse","version":1,"settings":{...},"input_sha256":"..."}
    {"kind":"eval","game":1,"ply":0,"eval":{"score":["cp",35,null],"best":"a1",...}}

A torn line (an interrupted write) is skipped; a first line that is not the header of an
analysis, or an eval line that does not read, is a StateError naming the line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

import attrs

from adapters.analyse.judge import Eval
from adapters.analyse.records import AnalyseError
from adapters.referee.state import state_lines

VERSION = 1


class StateError(AnalyseError):
    """A state file that cannot be used (the message names the file and line)."""


@attrs.define
class AnalyseState:
    """A state file read back: the settings and the evals by (game, ply)."""

    settings: dict[str, Any]
    input_sha256: str
    evals: dict[tuple[int, int], Eval] = attrs.Factory(dict)


def read_state(path: str | Path) -> AnalyseState:
    """The state of `path`; StateError naming the file (and line) when it is unusable."""
    state: AnalyseState | None = None
    for number, data in state_lines(Path(path), StateError):
        if state is None:
            if data.get("kind") != "analyse" or data.get("version") != VERSION:
                raise StateError(f"{path} is not an analysis state file (version {VERSION})")
            state = AnalyseState(dict(data.get("settings") or {}), str(data.get("input_sha256")))
            continue
        try:
            key = (int(data["game"]), int(data["ply"]))
            state.evals[key] = Eval.from_json(dict(data["eval"]))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateError(f"{path}:{number}: not an eval line ({exc})") from None
    if state is None:
        raise StateError(f"{path} is empty, not an analysis state file")
    return state


class StateWriter:
    """Appends to a state file; every line is flushed and synced before returning."""

    def __init__(
        self, path: str | Path, settings: Mapping[str, Any] | None, input_sha256: str = ""
    ) -> None:
        """With `settings`, a new file (replacing an old one); else lines are added."""
        self.path = Path(path)
        fresh = settings is not None
        self._handle: TextIO | None = open(  # noqa: SIM115
            self.path, "w" if fresh else "a", encoding="utf-8"
        )
        if not fresh and self.path.stat().st_size:
            with open(self.path, "rb") as existing:
                existing.seek(-1, os.SEEK_END)
                if existing.read(1) != b"\n":
                    self._handle.write("\n")  # end a torn last line
        if settings is not None:
            header = {"kind": "analyse", "version": VERSION, "settings": dict(settings)}
            self._line({**header, "input_sha256": input_sha256})

    def _line(self, data: Mapping[str, Any]) -> None:
        if self._handle is None:
            return
        self._handle.write(json.dumps(data, separators=(",", ":")) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def eval(self, game: int, ply: int, found: Eval) -> None:
        self._line({"kind": "eval", "game": game, "ply": ply, "eval": found.to_json()})

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
