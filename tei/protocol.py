"""The TEI codec, sans-IO: one text line <-> one typed message, in both directions.

Every message is a frozen attrs class with `to_line()`; `parse_gui_line` reads what a GUI
sends to an engine, `parse_engine_line` what an engine sends back. Both speak legacy TEI
(`teinewgame 6`, `setoption name HalfKomi value 4`) and TEI v1 (`size ...` lines,
`teinewgame size 6 halfkomi 4`).

Lenient where the world is messy: a line whose first word is no known command becomes
`Unknown`, unknown `info` and `go` fields are skipped and listed in `skipped`, keywords are
matched case-insensitively. Strict where it matters: a known command with a missing or
non-numeric argument raises `ProtocolError` naming the line. `info` lines never raise: a
field with a bad value is skipped like an unknown one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from tei import protocol_messages as m
from tei.lines import quote
from tei.protocol_messages import MAX_COUNT as MAX_COUNT
from tei.protocol_messages import MAX_TIME_MS as MAX_TIME_MS
from tei.protocol_messages import BestMove as BestMove
from tei.protocol_messages import EngineMessage as EngineMessage
from tei.protocol_messages import Go as Go
from tei.protocol_messages import GoLimits as GoLimits
from tei.protocol_messages import GuiMessage as GuiMessage
from tei.protocol_messages import Id as Id
from tei.protocol_messages import Info as Info
from tei.protocol_messages import IsReady as IsReady
from tei.protocol_messages import OptionDecl as OptionDecl
from tei.protocol_messages import Position as Position
from tei.protocol_messages import ProtocolError as ProtocolError
from tei.protocol_messages import Quit as Quit
from tei.protocol_messages import ReadyOk as ReadyOk
from tei.protocol_messages import Score as Score
from tei.protocol_messages import SetOption as SetOption
from tei.protocol_messages import SizeDecl as SizeDecl
from tei.protocol_messages import Stop as Stop
from tei.protocol_messages import Tei as Tei
from tei.protocol_messages import TeiNewGame as TeiNewGame
from tei.protocol_messages import TeiOk as TeiOk
from tei.protocol_messages import Unknown as Unknown

__all__ = ["parse_engine_line", "parse_gui_line"]
__all__ += m.__all__

_WORD = re.compile(r"\S+")
_NUMBER = re.compile(r"[+-]?\d+")


class _Line:
    """A stripped line split into words: their spans, the words, and them in lower case."""

    def __init__(self, line: str) -> None:
        self.text = line.strip()
        self.spans = list(_WORD.finditer(self.text))
        self.words = [span.group() for span in self.spans]
        self.lower = [word.lower() for word in self.words]

    def rest(self, index: int) -> str:
        """The raw text of the line from word `index` on (spacing inside kept)."""
        if index >= len(self.spans):
            return ""
        return self.text[self.spans[index].start() :]

    def between(self, first: int, end: int) -> str:
        """The raw text of words `first` up to (not including) `end`; "" when none."""
        if end <= first:
            return ""
        return self.text[self.spans[first].start() : self.spans[end - 1].end()]


def _error(line: str, why: str) -> m.ProtocolError:
    return m.ProtocolError(f"{why}: {quote(line)}")


def _int(word: str, line: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise _error(line, f"{what} must be an integer, not {quote(word, 24)}") from None


M = TypeVar("M")
#: reads the message of a line whose first word names its command
_Reader = Callable[[_Line], M]


def _read(line: str, readers: Mapping[str, _Reader[M]]) -> M | m.Unknown:
    """The message of one line: its command's reader, `Unknown` for no known command."""
    words = _Line(line)
    if not words.words:
        return m.Unknown("")
    reader = readers.get(words.lower[0])
    return reader(words) if reader is not None else m.Unknown(words.text)


R = TypeVar("R", bound=_Reader[Any])


def _reads(table: dict[str, _Reader[Any]], command: str) -> Callable[[R], R]:
    """Register the decorated function as the reader of `command` lines in `table`."""

    def register(reader: R) -> R:
        table[command] = reader
        return reader

    return register


def _bare(*classes: type[m.Bare]) -> dict[str, _Reader[Any]]:
    """Readers of the one-word messages: the word is the whole (immutable) message."""

    def reader(message: m.Bare) -> _Reader[m.Bare]:
        return lambda _: message

    return {cls.WORD: reader(cls()) for cls in classes}


# ---- parsing: GUI -> engine --------------------------------------------------------------

_GUI_READERS: dict[str, _Reader[m.GuiMessage]] = _bare(m.Tei, m.IsReady, m.Stop, m.Quit)


@_reads(_GUI_READERS, "setoption")
def _parse_setoption(ln: _Line) -> m.SetOption:
    line, lower = ln.text, ln.lower
    if len(lower) < 3 or lower[1] != "name":
        raise _error(line, "setoption needs 'name <name>'")
    # the name has at least one word, so a name may start with the word "value"
    value_at = lower.index("value", 3) if "value" in lower[3:] else None
    name = ln.between(2, value_at if value_at is not None else len(lower))
    if not name:
        raise _error(line, "setoption has an empty option name")
    if value_at is None:
        return m.SetOption(name, None)
    return m.SetOption(name, ln.rest(value_at + 1))


@_reads(_GUI_READERS, "teinewgame")
def _parse_teinewgame(ln: _Line) -> m.TeiNewGame:
    line, args = ln.text, ln.words[1:]
    if not args:
        return m.TeiNewGame()
    if args[0].lower() != "size" and len(args) == 1:
        return m.TeiNewGame(size=_int(args[0], line, "teinewgame size"))
    if args[0].lower() not in ("size", "halfkomi", "komi"):
        raise _error(line, "teinewgame takes a size or 'size N halfkomi K'")
    if len(args) % 2:
        raise _error(line, "teinewgame: a key without a value")
    size: int | None = None
    halfkomi: int | None = None
    for key, value in zip(args[::2], args[1::2], strict=True):
        match key.lower():
            case "size":
                size = _int(value, line, "size")
            case "halfkomi" | "komi":
                halfkomi = _int(value, line, "halfkomi")
            case _:
                raise _error(line, f"teinewgame: unknown key {key!r}")
    return m.TeiNewGame(size=size, halfkomi=halfkomi, v1=True)


@_reads(_GUI_READERS, "position")
def _parse_position(ln: _Line) -> m.Position:
    line, words, lower = ln.text, ln.words, ln.lower
    if len(words) < 2:
        raise _error(line, "position needs 'startpos' or 'tps <position>'")
    moves_at = lower.index("moves") if "moves" in lower else len(words)
    moves = tuple(words[moves_at + 1 :])
    kind = lower[1]
    if kind == "startpos":
        if moves_at != 2:
            raise _error(line, "position startpos: expected 'moves' after 'startpos'")
        return m.Position(None, moves)
    if kind in ("tps", "fen"):
        if moves_at <= 2:
            raise _error(line, "position tps: the position string is missing")
        return m.Position(" ".join(words[2:moves_at]), moves)
    raise _error(line, f"position: expected 'startpos' or 'tps', not {words[1]!r}")


@_reads(_GUI_READERS, "go")
def _parse_go(ln: _Line) -> m.Go:
    line, words, lower = ln.text, ln.words, ln.lower
    values: dict[str, int] = {}
    infinite = False
    skipped: list[str] = []
    i = 1
    while i < len(words):
        key = lower[i]
        if key == "infinite":
            infinite = True
        elif key in m.GO_INTS:
            if i + 1 >= len(words):
                raise _error(line, f"go: {key} needs a value")
            values[key] = _int(words[i + 1], line, f"go {key}")
            i += 1
        else:
            skipped.append(words[i])
        i += 1
    return m.Go(infinite=infinite, skipped=tuple(skipped), **values)


def parse_gui_line(line: str) -> m.GuiMessage:
    """The message of one line a GUI sends; `Unknown` for no known command."""
    return _read(line, _GUI_READERS)


# ---- parsing: engine -> GUI --------------------------------------------------------------

_ENGINE_READERS: dict[str, _Reader[m.EngineMessage]] = _bare(m.TeiOk, m.ReadyOk)


@_reads(_ENGINE_READERS, "option")
def _parse_option(ln: _Line) -> m.OptionDecl:
    line, lower = ln.text, ln.lower
    if len(lower) < 3 or lower[1] != "name":
        raise _error(line, "option needs 'name <name>'")
    if "type" not in lower[3:]:
        raise _error(line, "option needs 'type <type>'")
    type_at = lower.index("type", 3)
    if type_at + 1 >= len(lower):
        raise _error(line, "option: 'type' without a value")
    name = ln.between(2, type_at)
    # split the rest into (keyword, raw text) groups
    groups: list[tuple[str, str]] = []
    i = type_at
    while i < len(lower):
        j = i + 1
        while j < len(lower) and lower[j] not in m.OPTION_KEYS:
            j += 1
        groups.append((lower[i], ln.between(i + 1, j)))
        i = j
    type_ = ""
    default: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    vars_: list[str] = []
    for key, text in groups:
        if key == "type":
            type_ = text.lower()
        elif key == "default":
            default = "" if text == "<empty>" else text
        elif key == "min":
            minimum = _int(text, line, "option min")
        elif key == "max":
            maximum = _int(text, line, "option max")
        else:
            vars_.append(text)
    if not type_:
        raise _error(line, "option: 'type' without a value")
    return m.OptionDecl(name, type_, default, minimum, maximum, tuple(vars_))


@_reads(_ENGINE_READERS, "size")
def _parse_size(ln: _Line) -> m.SizeDecl:
    line, words, lower = ln.text, ln.words, ln.lower
    komi_at = lower.index("halfkomi") if "halfkomi" in lower else len(words)
    sizes = tuple(_int(w, line, "size") for w in words[1:komi_at])
    halfkomis = tuple(_int(w, line, "halfkomi") for w in words[komi_at + 1 :])
    if not sizes:
        raise _error(line, "size needs at least one board size")
    return m.SizeDecl(sizes, halfkomis)


def _parse_score(words: list[str], i: int) -> tuple[m.Score | None, int]:
    """Parse a score starting after the `score` word at i; returns (score, next index)."""
    bound: str | None = None
    while i < len(words) and words[i].lower() in m.BOUNDS:
        bound = words[i].lower()
        i += 1
    if i >= len(words):
        return (m.Score("cp", None, bound) if bound else None), i
    kind = words[i].lower()
    i += 1
    if kind == "solved":
        outcome: str | None = None
        value: int | None = None
        for _ in range(2):
            if i < len(words) and words[i].lower() in m.OUTCOMES and outcome is None:
                outcome = words[i].lower()
                i += 1
            elif i < len(words) and value is None and _NUMBER.fullmatch(words[i]):
                value = int(words[i])
                i += 1
        if outcome is None:
            return None, i
        return m.Score("solved", value, outcome), i
    if i >= len(words) or not _NUMBER.fullmatch(words[i]):
        return None, i
    value = int(words[i])
    i += 1
    while i < len(words) and words[i].lower() in m.BOUNDS:
        bound = words[i].lower()
        i += 1
    return m.Score(kind, value, bound), i


@_reads(_ENGINE_READERS, "info")
def _parse_info(ln: _Line) -> m.Info:
    words, lower = ln.words, ln.lower
    fields: dict[str, object] = {}
    skipped: list[str] = []
    i = 1
    while i < len(words):
        key = lower[i]
        if key in m.INFO_INTS:
            if i + 1 < len(words) and _NUMBER.fullmatch(words[i + 1]):
                fields[key] = int(words[i + 1])
                i += 2
            else:
                skipped.append(words[i])
                i += 1
        elif key == "score":
            score, j = _parse_score(words, i + 1)
            if score is None:
                skipped.extend(words[i:j])
            else:
                fields["score"] = score
            i = j
        elif key == "wdl":
            trio = words[i + 1 : i + 4]
            if len(trio) == 3 and all(re.fullmatch(r"\d+", w) for w in trio):
                fields["wdl"] = (int(trio[0]), int(trio[1]), int(trio[2]))
                i += 4
            else:
                skipped.append(words[i])
                i += 1
        elif key == "pv":
            j = i + 1
            while j < len(words) and lower[j] not in m.INFO_KEYWORDS:
                j += 1
            fields["pv"] = tuple(words[i + 1 : j])
            i = j
        elif key == "string":
            fields["string"] = ln.rest(i + 1)
            break
        elif key == "error":
            j = i + 1
            while j < len(words) and lower[j] != "string":
                j += 1
            fields["error"] = ln.between(i + 1, j)
            i = j
        else:
            skipped.append(words[i])
            i += 1
    return m.Info(skipped=tuple(skipped), **fields)  # type: ignore[arg-type]


@_reads(_ENGINE_READERS, "id")
def _parse_id(ln: _Line) -> m.Id:
    if len(ln.words) < 2:
        raise _error(ln.text, "id needs a key")
    return m.Id(ln.lower[1], ln.rest(2))


@_reads(_ENGINE_READERS, "bestmove")
def _parse_bestmove(ln: _Line) -> m.BestMove:
    if len(ln.words) < 2:
        raise _error(ln.text, "bestmove needs a move")
    return m.BestMove(None if ln.words[1] == "--" else ln.words[1])


def parse_engine_line(line: str) -> m.EngineMessage:
    """The message of one line an engine prints; `Unknown` for no known command."""
    return _read(line, _ENGINE_READERS)
