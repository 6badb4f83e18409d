"""A log of engine traffic: one line per message, with time, engine name and direction.

Each entry prints as `<monotonic seconds> <engine name> <dir> <line>` where dir is `>` for
a line sent to the engine, `<` for a line it wrote on stdout and `!` for a line it wrote on
stderr; control characters in the engine's text are written escaped (`\\x1b`). A
`Transcript` keeps the most recent entries in memory (the compliance checker
shows excerpts from them) and can also write every entry to text streams or a file.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol, TextIO

import attrs

from tei.lines import printable

#: direction marks
TO_ENGINE = ">"
FROM_ENGINE = "<"
STDERR = "!"
NOTE = "#"

_DIRECTIONS = (TO_ENGINE, FROM_ENGINE, STDERR, NOTE)


@attrs.frozen
class TranscriptEntry:
    """One logged line: when, which engine, which direction, what."""

    time: float
    engine: str
    direction: str
    line: str

    def to_line(self) -> str:
        """The entry as one log line: the engine's text (and name) with control
        characters escaped (`printable`), so a log shown on a terminal cannot drive it."""
        return f"{self.time:.3f} {printable(self.engine)} {self.direction} {printable(self.line)}"

    @classmethod
    def parse(cls, text: str) -> TranscriptEntry:
        """Read an entry back from `to_line()` output; ValueError naming the text otherwise."""
        parts = text.rstrip("\n").split(" ", 3)
        if len(parts) < 3 or parts[2] not in _DIRECTIONS:
            raise ValueError(f"not a transcript line: {text!r}")
        try:
            stamp = float(parts[0])
        except ValueError:
            raise ValueError(f"not a transcript line (bad time): {text!r}") from None
        return cls(stamp, parts[1], parts[2], parts[3] if len(parts) > 3 else "")


class Sink(Protocol):
    """Where a transcript writes its lines: a text file, or anything with these two."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class Transcript:
    """Records traffic of one or several engines.

    `keep` bounds the entries held in memory (oldest dropped first); `sink` (one stream or
    several) receives every entry as a text line, flushed after each one so that a crash
    loses nothing.
    Engine names are written without spaces (spaces become `_`).
    """

    def __init__(self, sink: Sink | Sequence[Sink] | None = None, *, keep: int = 10_000) -> None:
        if sink is None:
            self.sinks: list[Sink] = []
        elif isinstance(sink, Sequence):
            self.sinks = list(sink)
        else:
            self.sinks = [sink]
        self._entries: collections.deque[TranscriptEntry] = collections.deque(maxlen=keep)
        self._count = 0
        self._owned: TextIO | None = None
        self._lock = threading.Lock()  # entries may come from several threads
        #: the first write a sink refused (the sink is dropped; the transcript goes on)
        self.failure: OSError | None = None

    @classmethod
    def to_file(
        cls, path: str | Path, *, keep: int = 10_000, also: Sink | None = None
    ) -> Transcript:
        """A transcript appending to a file (closed by `close()`), and to `also` if given.

        OSError when the file cannot be opened."""
        handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()
        transcript = cls([handle] if also is None else [handle, also], keep=keep)
        transcript._owned = handle
        return transcript

    def record(self, engine: str, direction: str, line: str) -> TranscriptEntry:
        """Add one entry (time taken from the monotonic clock) and return it."""
        name = engine.replace(" ", "_") or "-"
        with self._lock:
            entry = TranscriptEntry(time.monotonic(), name, direction, line)
            self._entries.append(entry)
            self._count += 1
            for sink in list(self.sinks):
                try:
                    sink.write(entry.to_line() + "\n")
                    sink.flush()
                except (OSError, ValueError) as exc:
                    self.sinks.remove(sink)  # a closed or broken sink must not stop the engine
                    if isinstance(exc, OSError) and self.failure is None:
                        self.failure = exc
        return entry

    def note(self, engine: str, text: str) -> None:
        """A comment line (direction `#`), e.g. what a checker is about to test."""
        self.record(engine, NOTE, text)

    @property
    def count(self) -> int:
        """Number of entries recorded so far (a mark for `since`)."""
        return self._count

    def since(self, mark: int) -> list[TranscriptEntry]:
        """The entries recorded after `count` was `mark` (as far as they are still kept)."""
        new = self._count - mark
        if new <= 0:
            return []
        kept = list(self._entries)
        return kept[-new:] if new < len(kept) else kept

    def __iter__(self) -> Iterator[TranscriptEntry]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def close(self) -> None:
        if self._owned is not None:
            if self._owned in self.sinks:
                self.sinks.remove(self._owned)
            try:
                self._owned.close()
            except OSError as exc:  # what was still buffered could not be written
                self.failure = self.failure or exc
            self._owned = None
