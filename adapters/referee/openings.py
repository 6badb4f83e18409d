"""Opening books: where each game starts.

Formats:

* `moves`: one opening per line, the actions separated by spaces (Tak PTN moves such as
  `a1 e5 c3`, move numbers like `1.` allowed; Trike and Traxit action lists).
* `position`: one position string per line (TPS for Tak), optionally followed by
  `moves ...` actions; `tps` is another name for it.
* `ptn`: game records (PTN files for Tak, the referee's own records for the others):
  every game in the file is an opening; a `TPS` tag gives its start position, the move
  text its actions (comments, move numbers and result tokens are skipped).

Lines that are empty or start with `#` are skipped in `moves` and `position` books.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from adapters.referee.errors import RefereeError
from rules.game import Game, GameError
from rules.registry import game_class

FORMATS = ("moves", "position", "tps", "ptn")


class OpeningError(RefereeError):
    """A book that cannot be read; the message names the file, line and the bad text."""


@attrs.frozen
class Opening:
    """A start position (None = the standard one) and the actions played from it."""

    position: str | None = None
    moves: tuple[str, ...] = ()
    #: where it came from, e.g. "book.txt:12"
    source: str = ""

    def start(self, game: str, options: dict[str, str]) -> Game[Any]:
        """A fresh game at this opening; OpeningError naming the source when it fails."""
        cls = game_class(game)
        try:
            state = (
                cls.from_position_string(self.position, options)
                if self.position
                else cls.new(options)
            )
            for text in self.moves:
                state.play_text(text)
        except GameError as exc:
            raise OpeningError(f"opening {self.source or self}: {exc}") from exc
        if state.result is not None:
            raise OpeningError(f"opening {self.source or self}: the game is already over")
        return state


_RESULT_RE = re.compile(r"^(?:[RF01]-[RF01]|1/2-1/2|1/2|0-0|\*)$")
_NUMBER_RE = re.compile(r"^\d+\.+$")
#: a Traxit turn label's set.round (`1.1 R: T08 c1-f2`)
_SET_ROUND_RE = re.compile(r"^\d+\.\d+$")
_NUMBER_PREFIX_RE = re.compile(r"^\d+\.+(?=\S)")
_TAG_RE = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')


_WORD_RE = re.compile(r"\{[^}]*\}|[^\s{]+")


def move_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, action) of every action of a move text: the word's offsets in `text`
    (with its move number prefix and marks) and the action without them. Comments, move
    numbers, seat labels (`R:`) and result tokens are skipped."""
    out = []
    for match in _WORD_RE.finditer(text):
        word = match.group()
        if (
            word.startswith("{")
            or _NUMBER_RE.match(word)
            or _SET_ROUND_RE.match(word)
            or _RESULT_RE.match(word)
            or word.endswith(":")
        ):
            continue
        action = _NUMBER_PREFIX_RE.sub("", word).rstrip("'!?\"")
        if action:
            out.append((match.start(), match.end(), action))
    return out


def move_tokens(text: str) -> tuple[str, ...]:
    """Actions of a move text: comments, move numbers, seat labels (`R:`) and result
    tokens removed."""
    return tuple(action for _, _, action in move_spans(text))


def _book_lines(lines: Iterable[str], name: str) -> Iterator[tuple[str, str]]:
    """(source, text) of each line of a `moves` or `position` book that is neither empty
    nor a `#` comment; source is `name:number`."""
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if text and not text.startswith("#"):
            yield f"{name}:{number}", text


def parse_moves_book(lines: Iterable[str], name: str = "") -> list[Opening]:
    return [Opening(None, move_tokens(text), source) for source, text in _book_lines(lines, name)]


def parse_position_book(lines: Iterable[str], name: str = "") -> list[Opening]:
    out = []
    for source, text in _book_lines(lines, name):
        words = text.split()
        if words[0].lower() == "tps":
            words = words[1:]
        position, moves = words, []
        if "moves" in words:
            at = words.index("moves")
            position, moves = words[:at], words[at + 1 :]
        if not position:
            raise OpeningError(f"{source}: no position in {text!r}")
        out.append(Opening(" ".join(position), move_tokens(" ".join(moves)), source))
    return out


@attrs.frozen
class RecordText:
    """One game of a record file: its tags, actions and the line it starts on."""

    tags: dict[str, str]
    moves: tuple[str, ...]
    line: int
    comments: tuple[str, ...] = ()
    #: the first line of its move text and the line after the record (1-based)
    body_line: int = 0
    end_line: int = 0


_COMMENT_TEXT_RE = re.compile(r"\{([^}]*)\}")


def read_records(text: str) -> list[RecordText]:
    """Every game of a record file (tags, then move text), in file order."""
    out: list[RecordText] = []
    tags: dict[str, str] = {}
    body: list[str] = []
    start_line = body_line = 1

    def close(end_line: int) -> None:
        joined = " ".join(body)
        moves = move_tokens(joined)
        if tags or moves:
            comments = tuple(_COMMENT_TEXT_RE.findall(joined))
            out.append(RecordText(dict(tags), moves, start_line, comments, body_line, end_line))

    number = 0
    for number, line in enumerate(text.splitlines(), 1):
        match = _TAG_RE.match(line)
        if match:
            if body:
                close(number)
                tags, body = {}, []
            if not tags:
                start_line = number
            tags[match[1]] = re.sub(r"\\(.)", r"\1", match[2])
            body_line = number + 1
        elif line.strip():
            if not tags and not body:
                start_line = body_line = number
            body.append(line)
    close(number + 1)
    return out


def parse_records(text: str, name: str = "") -> list[Opening]:
    """Every game of a record file as an opening (a `TPS` or `Position` tag gives its
    start)."""
    out = []
    for record in read_records(text):
        position = next(
            (v for k, v in record.tags.items() if k.lower() in ("tps", "position")), None
        )
        out.append(Opening(position or None, record.moves, f"{name}:{record.line}"))
    return out


def guess_format(path: Path, text: str) -> str:
    """`ptn` for .ptn files or text with tags, `position` when lines look like TPS, else moves."""
    if path.suffix.lower() == ".ptn" or _TAG_RE.match(text.lstrip().split("\n", 1)[0] or ""):
        return "ptn"
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")), "")
    return "position" if "/" in first.split(" moves")[0] else "moves"


def load_book(paths: Sequence[str | Path], fmt: str = "auto") -> list[Opening]:
    """All openings of the given files (several PTN files may be given)."""
    out: list[Opening] = []
    for raw in paths:
        path = Path(raw)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise OpeningError(f"cannot read opening book {str(path)!r}: {exc}") from exc
        kind = guess_format(path, text) if fmt == "auto" else fmt
        if kind == "moves":
            out.extend(parse_moves_book(text.splitlines(), path.name))
        elif kind in ("position", "tps"):
            out.extend(parse_position_book(text.splitlines(), path.name))
        elif kind == "ptn":
            out.extend(parse_records(text, path.name))
        else:
            raise OpeningError(f"unknown opening format {fmt!r}; known: auto, {', '.join(FORMATS)}")
    if not out:
        raise OpeningError(f"no openings in {', '.join(str(p) for p in paths)}")
    return out


def check_book(book: Sequence[Opening], game: str, options: dict[str, str]) -> None:
    """Play every opening once so that a bad one stops the match before it starts."""
    for opening in book:
        opening.start(game, options)
