"""The state file: what a match needs to be resumed after an interruption or a crash.

A JSON-lines file, appended and synced line by line so that a crash loses at most the
line being written (a torn line is ignored on reading):

    {"kind": "match", "version": 2, "run": "9f2c...", "records_start": 0, "settings": {...}}
    {"kind": "game", "run": "9f2c...", "index": 3, ..., "record": "..."}   a finished game
    {"kind": "written", "run": "9f2c...", "index": 3}     its record is in the records file
    {"kind": "end", "run": "9f2c...", "status": "finished"}   the match ended

`run` is the match's identity, drawn when the match starts: a line of another match is
refused, naming the line. `records_start` is the size of the records file when the match
started (its records follow that offset). Version 1 files (without a run) are refused.

Resuming reads the settings back, skips the finished games, and writes the records of
finished games that had not reached the record file yet (see adapters.referee.resume).
"""

from __future__ import annotations

import json
import math
import os
import secrets
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

import attrs

from adapters.referee.errors import RefereeError
from adapters.referee.facts import MoveTimes, Status, Termination, move_times
from adapters.referee.schedule import Pairing
from rules.game import Outcome
from tei.file_bounds import read_config_bytes
from tei.lines import quote

VERSION = 2


def new_run_id() -> str:
    """A fresh match identity for the state file (16 hex digits)."""
    return secrets.token_hex(8)


class StateError(RefereeError):
    """A state file that cannot be used (the message names it and why)."""


#: the largest count a state file may hold (an index, plies, a byte offset)
MAX_COUNT = 2**53
#: the largest state file read (bytes)
STATE_CAP = 1 << 30


def count(value: Any) -> int:
    """A count of a state line: a whole number from 0 to MAX_COUNT (ValueError else)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise ValueError(f"{quote(str(value), 20)} is not a count from 0 to 2**53")
    return value


def ms(value: Any) -> float:
    """A time of a state line in milliseconds: a finite number (ValueError else)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{quote(str(value), 20)} is not a number")
    if isinstance(value, int):
        value = count(abs(value))
    if not math.isfinite(value) or abs(value) > MAX_COUNT:
        raise ValueError(f"{value!r} is not a time in milliseconds")
    return float(value)


def listed(value: Any, what: str) -> list[Any]:
    """A list of a state line (ValueError naming WHAT else)."""
    if not isinstance(value, list):
        raise ValueError(f"{what} {quote(str(value), 20)} is not a list")
    return value


def times_of(t: list[Any]) -> MoveTimes:
    """One engine's move times of a state line."""
    return MoveTimes(count(t[0]), count(t[1]), ms(t[2]), ms(t[3]), count(t[4]), ms(t[5]))


@attrs.frozen
class FinishedGame:
    """A finished game as kept in the state file."""

    index: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    group: int
    code: str
    termination: Termination = attrs.field(converter=Termination)
    reason: str
    plies: int
    record: str
    #: what went wrong when an engine was at fault, and which engine it was
    detail: str = ""
    culprit: int | None = None
    #: each engine's move times
    timing: tuple[MoveTimes, ...] = attrs.field(default=(), converter=move_times)

    @classmethod
    def of(
        cls,
        pairing: Pairing,
        outcome: Outcome,
        termination: Termination,
        plies: int,
        record: str,
        *,
        reason: str | None = None,
        detail: str = "",
        culprit: int | None = None,
        timing: tuple[MoveTimes, ...] = (),
    ) -> FinishedGame:
        """The game of `pairing` ended by `outcome` (its reason unless `reason` is given)."""
        return cls(
            index=pairing.index,
            seats=pairing.seats,
            winners=outcome.winners,
            group=pairing.group,
            code=outcome.code,
            termination=termination,
            reason=outcome.reason if reason is None else reason,
            plies=plies,
            record=record,
            detail=detail,
            culprit=culprit,
            timing=timing,
        )

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self, recurse=False)
        data["seats"], data["winners"] = list(self.seats), list(self.winners)
        data["termination"] = self.termination.value
        data["timing"] = [t.to_json() for t in self.timing]
        return {"kind": "game", **data}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FinishedGame:
        try:
            return cls(
                index=count(data["index"]),
                seats=tuple(count(s) for s in listed(data["seats"], "seats")),
                winners=tuple(count(s) for s in listed(data["winners"], "winners")),
                group=count(data["group"]),
                code=str(data["code"]),
                termination=Termination(data["termination"]),
                reason=str(data["reason"]),
                plies=count(data["plies"]),
                record=str(data["record"]),
                detail=str(data.get("detail", "")),
                culprit=None if data.get("culprit") is None else count(data["culprit"]),
                timing=tuple(
                    times_of(listed(t, "timing entry"))
                    for t in listed(data.get("timing", []), "timing")
                ),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateError(f"bad game entry in state file: {exc}") from exc


@attrs.define
class MatchState:
    """What a state file holds."""

    settings: dict[str, Any]
    #: the match's identity, carried by every line
    run: str = ""
    #: the size of the records file when the match started
    records_start: int = 0
    #: the file it was read from (for messages)
    path: str = ""
    games: dict[int, FinishedGame] = attrs.field(factory=dict)
    written: set[int] = attrs.field(factory=set)
    #: the line each game came from
    lines: dict[int, int] = attrs.field(factory=dict)
    #: how the match ended ("finished", "sprt H1", ...); None while it is unfinished
    ended: str | None = None

    def where(self, index: int) -> str:
        """`FILE:LINE` of a game's line."""
        return f"{self.path}:{self.lines.get(index, '?')}"


def state_lines(
    path: Path, error: type[Exception] = StateError
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of each line of a JSON-lines state file (the match's, an
    analysis's), read as a regular file of at most STATE_CAP bytes. A line that is not
    JSON after the first is a torn write and skipped; an unreadable file, a first line
    that is not JSON, a number too long, nesting too deep or a line that is not an object
    raise `error` naming the file and line."""
    try:
        lines = read_config_bytes(path, STATE_CAP).decode("utf-8").splitlines()
    except OSError as exc:
        raise error(f"cannot read state file {str(path)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise error(f"cannot read state file {str(path)!r}: {exc}") from None
    first = True
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            if first:
                raise error(f"{path}:{number}: not JSON") from None
            continue  # a torn line: its write was interrupted
        except (ValueError, RecursionError) as exc:  # a 5000-digit number, deep nesting
            why = "nested too deep" if isinstance(exc, RecursionError) else "a number too long"
            raise error(f"{path}:{number}: {why}") from None
        if not isinstance(data, dict):
            raise error(f"{path}:{number}: not a state line")
        first = False
        yield number, data


def read_state(path: str | Path) -> MatchState:
    """Read a state file; StateError naming it (and the line) when it is missing, not a
    state file of this version, or holds a line of another match."""
    path = Path(path)
    state: MatchState | None = None
    for number, data in state_lines(path):
        if state is None:
            state = _header(path, data)
            continue
        if data.get("run") != state.run:
            raise StateError(
                f"{path}:{number}: a line of another match (run {data.get('run')!r}; this"
                f" file's match is run {state.run!r}): the files of two matches are mixed"
            )
        try:
            if data.get("kind") == "game":
                game = FinishedGame.from_json(data)
                state.games[game.index] = game
                state.lines[game.index] = number
                state.ended = None
            elif data.get("kind") == "written":
                state.written.add(count(data["index"]))
            elif data.get("kind") == "end":
                state.ended = str(data["status"])
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"{path}:{number}: {exc}") from None
    if state is None:
        raise StateError(f"{path} is empty, not a match state file")
    return state


def _header(path: Path, data: Mapping[str, Any]) -> MatchState:
    """The state of a file's first line (the match, its run and settings)."""
    version = data.get("version")
    if data.get("kind") != "match":
        raise StateError(f"{path} is not a match state file (version {VERSION})")
    if version == 1:
        raise StateError(
            f"{path}: a version 1 state file (written before matches had a run id);"
            " resume it with the tei-host that started it, or start the match again"
        )
    run, start = data.get("run"), data.get("records_start", 0)
    if version != VERSION or not isinstance(run, str) or not run or not isinstance(start, int):
        raise StateError(f"{path} is not a match state file (version {VERSION})")
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise StateError(f"{path}:1: the settings are not an object")
    try:
        records_start = count(start)
    except ValueError as exc:
        raise StateError(f"{path}:1: records_start {exc}") from None
    return MatchState(dict(settings), run, records_start, str(path))


class StateWriter:
    """Appends to a state file; every line is flushed and synced before returning."""

    def __init__(
        self,
        path: str | Path,
        run: str,
        settings: Mapping[str, Any] | None = None,
        records_start: int = 0,
    ) -> None:
        """Open `path` to add lines of match `run`; with `settings`, start a new file
        (replacing an old one) whose records begin at offset `records_start`."""
        self.path = Path(path)
        self.run = run
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
            header = {"kind": "match", "version": VERSION, "run": run}
            self._line({**header, "records_start": records_start, "settings": dict(settings)})

    def _line(self, data: Mapping[str, Any]) -> None:
        if self._handle is None:
            return
        line = {"kind": data["kind"], "run": self.run, **data}
        self._handle.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def game(self, game: FinishedGame) -> None:
        self._line(game.to_json())

    def written(self, index: int) -> None:
        self._line({"kind": "written", "index": index})

    def end(self, status: Status) -> None:
        """The match ended (finished, or stopped by SPRT): a new match may replace it."""
        self._line({"kind": "end", "status": status.value})

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
