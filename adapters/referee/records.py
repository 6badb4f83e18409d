"""Game records: PTN for Tak, the same tag block and a plain action list for Trike and
Traxit, and a writer that appends them to a file in schedule order.

A record is built from the finished game's actions plus what the engines reported for
each move; the comment after a move reads `{+0.35/12 0.12s}`: the score in flats (TEI
`score cp` / 100; `+W5`/`-L5`/`=D5` for a proven win, loss or draw in 5 plies), the
depth and the time the move took as measured by the referee.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from adapters.referee.adjudication import score_words
from rules.game import RECORD_TAG_ORDER, Game
from rules.registry import game_class


@attrs.frozen
class MoveNote:
    """One action of a record and the comment that follows it (None for none)."""

    text: str
    comment: str | None = None
    #: the seat that played it
    seat: int = 0
    #: Traxit: the turn it belongs to (`1.1 R`: set.round and the owner; `R` in setup)
    label: str = ""
    #: Traxit: a comment line after it (`set 1: R 75 G 100` when it ended a set)
    after: str = ""


@attrs.frozen
class GameRecord:
    """Everything a record file needs of one game."""

    game: str
    tags: tuple[tuple[str, str], ...]
    moves: tuple[MoveNote, ...]
    result: str
    start_position: str | None = None
    #: seat names used by the action-list format ("R", "G", ...)
    seat_names: tuple[str, ...] = ()
    #: why the game ended when an engine was at fault (a comment after the last move)
    note: str | None = None
    #: facts without a PTN Ninja tag (round, pair, termination, book), written as
    #: `key:"value"` words in a comment before the first move
    details: tuple[tuple[str, str], ...] = ()

    def render(self) -> str:
        """The record as text, ending with a blank line."""
        record_format = game_class(self.game).record_format
        if record_format == "ptn":
            return tak_record(self) + "\n"
        head = format_tags(self.tags)
        moves = list(self.moves)
        if self.note:
            moves.append(MoveNote("", self.note))
        body = action_movetext(record_format, moves, self.result, self.seat_names)
        if self.details:
            body = "{" + details_comment(self.details) + "}\n" + body
        return f"{head}\n\n{body}\n\n"


def tak_record(record: GameRecord) -> str:
    """A PTN record written by the Tak core's PTN writer."""
    from rules.game import GameError
    from rules.tak.ptn import PtnGame

    ptn = PtnGame(tags=dict(sorted_tags(record.tags)), result=record.result)
    if record.details:
        ptn.comments.append(details_comment(record.details))
    for note in record.moves:
        ptn.add_move(note.text, note.comment)
    # a record the core cannot replay (other reserves) keeps its moves unmarked
    with contextlib.suppress(GameError):
        ptn.add_marks()
    if record.note:
        if ptn.plies:
            ptn.comment(-1, record.note)
        else:
            ptn.comments.append(record.note)
    return ptn.text()


def details_comment(details: Iterable[tuple[str, str]]) -> str:
    """`round:"1" termination:"normal"`: the attribute form PTN Ninja keeps in a comment
    (and leaves out of its score and depth reading)."""
    words = []
    for key, value in details:
        clean = value.replace("\\", "\\\\").replace('"', '\\"').replace("}", ")")
        words.append(f'{key}:"{clean}"')
    return " ".join(words)


_DETAIL_RE = re.compile(r'([A-Za-z][A-Za-z0-9_]*):"((?:[^"\\]|\\.)*)"')


def read_details(comment: str) -> dict[str, str]:
    """The `key:"value"` words of a comment (see `details_comment`), as a dict."""
    return {m[1]: re.sub(r"\\(.)", r"\1", m[2]) for m in _DETAIL_RE.finditer(comment)}


def sorted_tags(tags: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    items = list(tags)
    rank = {name: i for i, name in enumerate(RECORD_TAG_ORDER)}
    return sorted(items, key=lambda kv: rank.get(kv[0], len(RECORD_TAG_ORDER)))


def format_tags(tags: Iterable[tuple[str, str]]) -> str:
    lines = []
    for name, value in sorted_tags(tags):
        clean = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
        lines.append(f'[{name} "{clean}"]')
    return "\n".join(lines)


def _comment(note: MoveNote) -> str:
    if not note.comment:
        return ""
    return " {" + note.comment.replace("}", ")").replace("\n", " ") + "}"


def action_movetext(
    record_format: str, moves: Sequence[MoveNote], result: str, seat_names: Sequence[str]
) -> str:
    """ "actions" (Trike): the actions in order, several per line. "turns" (Traxit): one
    turn per line, the tile
    given and the move (or TRAXIT relocation) made with it, after the turn's set.round and
    owner (`1.1 R: T08 c1-f2`), one line per setup placement (`R: @c1`) and the running
    totals after each set (`{set 1: R 75 G 100}`); actions without a turn label get a
    line each with the acting seat's name (`R: T08`). The result closes the record in
    braces."""
    if record_format == "turns":
        lines = []
        open_turn = ""  # the label of a turn whose tile is on the last line
        for note in moves:
            if not note.text:
                lines.append(_comment(note).strip())
                open_turn = ""
                continue
            item = f"{note.text}{_comment(note)}"
            if note.label and note.label == open_turn:
                lines[-1] += f" {item}"
                open_turn = ""
            elif note.label:
                lines.append(f"{note.label}: {item}")
                open_turn = note.label if note.text.startswith("T") else ""
            else:
                who = seat_names[note.seat] if note.seat < len(seat_names) else str(note.seat + 1)
                lines.append(f"{who}: {item}")
            if note.after:
                lines.append("{" + note.after + "}")
                open_turn = ""
    else:
        lines, line = [], ""
        for note in moves:
            item = f"{note.text}{_comment(note)}".strip()
            if line and len(line) + len(item) > 78:
                lines.append(line)
                line = ""
            line = f"{line} {item}" if line else item
        if line:
            lines.append(line)
    lines.append(f"{{{result}}}")
    return "\n".join(lines)


def labelled_notes(game: Game[Any], notes: Sequence[MoveNote]) -> list[MoveNote]:
    """The notes of a finished game with the turn labels and the notes after actions its
    rules give (`Game.turn_labels`: Traxit's set.round and owner, and set totals)."""
    labels = game.turn_labels()
    out = [
        attrs.evolve(note, label=label, after=after)
        for note, (label, after) in zip(notes, labels, strict=False)
    ]
    return out + list(notes[len(out) :])


def score_text(kind: str | None, value: int | None, bound: str | None) -> str:
    """`+0.35` (TEI `score cp` / 100), `+W5`/`-L5`/`=D5` (a proven win, loss or draw in 5
    plies; `+W` when the engine gives no plies), or "" for no score."""
    if kind == "cp" and value is not None:
        return f"{value / 100:+.2f}"
    if kind == "solved":
        mark = {"win": "+W", "loss": "-L", "draw": "=D"}.get(bound or "", "?")
        return mark if value is None else f"{mark}{value}"
    return ""


def score_comment(
    score_kind: str | None,
    score_value: int | None,
    bound: str | None,
    depth: int | None,
    elapsed_s: float,
) -> str:
    """`+0.35/12 0.12s`, `+W5/12 0.12s`, `0.12s`: the engine's score (with its depth)
    when it reported one, and the time."""
    parts = []
    score = score_text(score_kind, score_value, bound)
    if score:
        parts.append(f"{score}/{depth}" if depth is not None else score)
    parts.append(f"{elapsed_s:.2f}s")
    return " ".join(parts)


def info_comment(info: Any, elapsed_s: float) -> str:
    """`score_comment` of an engine's last informative `info` (None: none) and the
    seconds its move took."""
    words = score_words(getattr(info, "score", None))
    return score_comment(*words, getattr(info, "depth", None), elapsed_s)


class OrderedWriter:
    """Appends records to a file in a fixed order, each as soon as all before it are in.

    `order` lists the schedule indexes to write, in order. A record that finishes early
    waits in memory (and in the state file) until the ones before it are written.
    `close(drain=True)` writes whatever is waiting, keeping the order but skipping gaps.
    Every write is flushed and synced to disk before `add` returns.
    """

    def __init__(self, path: str | Path | None, order: Sequence[int]) -> None:
        self.path = Path(path) if path is not None else None
        self._order = list(order)
        self._next = 0
        self._waiting: dict[int, str] = {}
        self.written: list[int] = []

    def _write(self, index: int, text: str) -> None:
        """Append one record, opening the file for it: a file replaced meanwhile (by a
        folder, or removed) is an OSError here, not a write into a file no one sees."""
        if self.path is not None:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
        self.written.append(index)

    def add(self, index: int, text: str) -> list[int]:
        """Hand in a finished record; return the indexes written now."""
        before = len(self.written)
        self._waiting[index] = text
        while self._next < len(self._order) and self._order[self._next] in self._waiting:
            done = self._order[self._next]
            self._write(done, self._waiting.pop(done))
            self._next += 1
        return self.written[before:]

    @property
    def waiting(self) -> list[int]:
        return sorted(self._waiting)

    def close(self, drain: bool = True) -> list[int]:
        """Write the waiting records (schedule order, gaps skipped); return their indexes."""
        before = len(self.written)
        if drain:
            rank = {index: i for i, index in enumerate(self._order)}
            for index in sorted(self._waiting, key=lambda i: rank.get(i, i)):
                self._write(index, self._waiting.pop(index))
        return self.written[before:]


_RESULT_TAG_RE = re.compile(rb'^\s*\[Result\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$', re.MULTILINE)


@attrs.frozen
class FileRecord:
    """A complete record found in a records file."""

    text: str
    #: 1-based line of its first tag
    line: int


@attrs.frozen
class RecordsScan:
    """A records file read from an offset: its complete records and, when it ends in an
    unfinished record (an interrupted write), where that fragment starts."""

    records: tuple[FileRecord, ...]
    #: byte offset of the unfinished record at the end (None when the file ends whole)
    fragment: int | None = None
    fragment_line: int = 0


def scan_records(data: bytes, start: int = 0) -> RecordsScan:
    """The records of `data[start:]`. A record begins at a `[` line after text that is
    not a tag line; it is complete when it has a `Result` tag and its move text ends with
    that result (PTN: the last word; Trike and Traxit: `{result}`). Only a last piece
    that is not complete is a fragment; an incomplete piece before complete records is
    left alone (it is not counted as a record)."""
    pieces: list[tuple[int, int]] = []  # (offset, line) of each piece
    offset, line, in_tags = start, data.count(b"\n", 0, start) + 1, False
    for raw in data[start:].splitlines(keepends=True):
        stripped = raw.strip()
        if stripped.startswith(b"["):
            if not in_tags or not pieces:
                pieces.append((offset, line))
            in_tags = True
        elif stripped:
            if not pieces:
                pieces.append((offset, line))
            in_tags = False
        offset, line = offset + len(raw), line + 1
    found, fragment = [], None
    for number, (begin, first) in enumerate(pieces):
        end = pieces[number + 1][0] if number + 1 < len(pieces) else len(data)
        if _complete(data[begin:end]):
            found.append(FileRecord(data[begin:end].decode("utf-8", "replace"), first))
        elif number == len(pieces) - 1:
            fragment = (begin, first)
    if fragment is None:
        return RecordsScan(tuple(found))
    return RecordsScan(tuple(found), *fragment)


def _complete(piece: bytes) -> bool:
    tag = _RESULT_TAG_RE.search(piece)
    if tag is None:
        return False
    result = re.sub(rb"\\(.)", rb"\1", tag[1])
    body = b"\n".join(ln for ln in piece.splitlines() if not ln.strip().startswith(b"[")).strip()
    words = body.split()
    return bool(words) and (words[-1] == result or body.endswith(b"{" + result + b"}"))


def cut_fragment(path: str | Path, offset: int) -> Path:
    """Move the bytes of `path` from `offset` on into a side file `PATH.cut-TIMESTAMP`
    (synced before `path` is cut); return the side file's path."""
    path = Path(path)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    side, number = path.with_name(f"{path.name}.cut-{stamp}"), 1
    while side.exists():
        number += 1
        side = path.with_name(f"{path.name}.cut-{stamp}-{number}")
    with open(path, "r+b") as handle:
        handle.seek(offset)
        with open(side, "xb") as kept:
            kept.write(handle.read())
            kept.flush()
            os.fsync(kept.fileno())
        handle.truncate(offset)
        os.fsync(handle.fileno())
    return side


def end_with_blank_line(path: str | Path) -> None:
    """Add the newlines a records file needs to end in a blank line (a record whose
    write stopped just before them), so that the next record starts on a line of its own."""
    path = Path(path)
    with open(path, "r+b") as handle:
        size = handle.seek(0, os.SEEK_END)
        if not size:
            return
        handle.seek(max(0, size - 2))
        tail = handle.read()
        missing = b"\n\n" if not tail.endswith(b"\n") else b"" if tail == b"\n\n" else b"\n"
        if missing:
            handle.write(missing)
            os.fsync(handle.fileno())
