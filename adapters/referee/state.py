"""The state file: what a match needs to be resumed after an interruption or a crash.

A JSON-lines file, appended and synced line by line so that a crash loses at most the
line being written (a torn line is ignored on reading):

    {"kind": "match", "version": 1, "settings": {...}}        first line
    {"kind": "game", "index": 3, ..., "record": "..."}        a finished game
    {"kind": "written", "index": 3}                            its record is in the file

Resuming reads the settings back, skips the finished games, and writes the records of
finished games that had not reached the record file yet.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

import attrs

from adapters.referee.errors import RefereeError

VERSION = 1


class StateError(RefereeError):
    """A state file that cannot be used (the message names it and why)."""


@attrs.frozen
class FinishedGame:
    """A finished game as kept in the state file."""

    index: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    group: int
    code: str
    termination: str
    reason: str
    plies: int
    record: str
    #: what went wrong when an engine was at fault, and which engine it was
    detail: str = ""
    culprit: int | None = None
    #: per engine: (engine, moves, total ms, max ms, moves with a reported time, latency ms)
    timing: tuple[tuple[int, int, float, float, int, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["seats"], data["winners"] = list(self.seats), list(self.winners)
        data["timing"] = [list(t) for t in self.timing]
        return {"kind": "game", **data}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FinishedGame:
        try:
            return cls(
                index=int(data["index"]),
                seats=tuple(int(s) for s in data["seats"]),
                winners=tuple(int(s) for s in data["winners"]),
                group=int(data["group"]),
                code=str(data["code"]),
                termination=str(data["termination"]),
                reason=str(data["reason"]),
                plies=int(data["plies"]),
                record=str(data["record"]),
                detail=str(data.get("detail", "")),
                culprit=None if data.get("culprit") is None else int(data["culprit"]),
                timing=tuple(
                    (int(t[0]), int(t[1]), float(t[2]), float(t[3]), int(t[4]), float(t[5]))
                    for t in data.get("timing", [])
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"bad game entry in state file: {exc}") from exc


@attrs.define
class MatchState:
    """What a state file holds."""

    settings: dict[str, Any]
    games: dict[int, FinishedGame] = attrs.field(factory=dict)
    written: set[int] = attrs.field(factory=set)


def read_state(path: str | Path) -> MatchState:
    """Read a state file; StateError naming it when it is missing or not a state file."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise StateError(f"cannot read state file {str(path)!r}: {exc}") from exc
    state: MatchState | None = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            if state is None:
                raise StateError(f"{path}:{number}: not JSON") from None
            continue  # a torn line: its write was interrupted
        kind = data.get("kind") if isinstance(data, dict) else None
        if state is None:
            if kind != "match" or data.get("version") != VERSION:
                raise StateError(f"{path} is not a match state file (version {VERSION})")
            state = MatchState(dict(data.get("settings") or {}))
        elif kind == "game":
            game = FinishedGame.from_json(data)
            state.games[game.index] = game
        elif kind == "written":
            state.written.add(int(data["index"]))
    if state is None:
        raise StateError(f"{path} is empty, not a match state file")
    return state


class StateWriter:
    """Appends to a state file; every line is flushed and synced before returning."""

    def __init__(self, path: str | Path, settings: Mapping[str, Any] | None) -> None:
        """Open `path`; with `settings`, start a new file (replacing an old one)."""
        self.path = Path(path)
        torn = False
        if settings is None and self.path.exists() and self.path.stat().st_size:
            with open(self.path, "rb") as existing:
                existing.seek(-1, os.SEEK_END)
                torn = existing.read(1) != b"\n"
        handle = open(self.path, "w" if settings is not None else "a", encoding="utf-8")  # noqa: SIM115
        if torn:
            handle.write("\n")  # end a torn last line
        self._handle: TextIO | None = handle
        if settings is not None:
            self._line({"kind": "match", "version": VERSION, "settings": dict(settings)})

    def _line(self, data: Mapping[str, Any]) -> None:
        if self._handle is None:
            return
        self._handle.write(json.dumps(data, separators=(",", ":")) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def game(self, game: FinishedGame) -> None:
        self._line(game.to_json())

    def written(self, index: int) -> None:
        self._line({"kind": "written", "index": index})

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
