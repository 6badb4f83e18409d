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

from tei.lines import quote
from tei.protocol_messages import (
    BOUNDS,
    GO_INTS,
    INFO_INTS,
    INFO_KEYWORDS,
    OPTION_KEYS,
    OUTCOMES,
    BestMove,
    EngineMessage,
    Go,
    GuiMessage,
    Id,
    Info,
    IsReady,
    OptionDecl,
    Position,
    ProtocolError,
    Quit,
    ReadyOk,
    Score,
    SetOption,
    SizeDecl,
    Stop,
    Tei,
    TeiNewGame,
    TeiOk,
    Unknown,
)

__all__ = [
    "BestMove",
    "EngineMessage",
    "Go",
    "GuiMessage",
    "Id",
    "Info",
    "IsReady",
    "OptionDecl",
    "Position",
    "ProtocolError",
    "Quit",
    "ReadyOk",
    "Score",
    "SetOption",
    "SizeDecl",
    "Stop",
    "Tei",
    "TeiNewGame",
    "TeiOk",
    "Unknown",
    "parse_engine_line",
    "parse_gui_line",
]

_WORD = re.compile(r"\S+")


def _error(line: str, why: str) -> ProtocolError:
    return ProtocolError(f"{why}: {quote(line)}")


def _int(word: str, line: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise _error(line, f"{what} must be an integer, not {quote(word, 24)}") from None


def _rest(line: str, spans: list[re.Match[str]], index: int) -> str:
    """The raw text of the line from word `index` on (spacing inside kept)."""
    if index >= len(spans):
        return ""
    return line[spans[index].start() :]


# ---- parsing: GUI -> engine --------------------------------------------------------------


def _parse_setoption(line: str, spans: list[re.Match[str]]) -> SetOption:
    words = [m.group() for m in spans]
    if len(words) < 3 or words[1].lower() != "name":
        raise _error(line, "setoption needs 'name <name>'")
    lower = [w.lower() for w in words]
    # the name has at least one word, so a name may start with the word "value"
    value_at = lower.index("value", 3) if "value" in lower[3:] else None
    name_end = value_at if value_at is not None else len(words)
    name = line[spans[2].start() : spans[name_end - 1].end()] if name_end > 2 else ""
    if not name:
        raise _error(line, "setoption has an empty option name")
    if value_at is None:
        return SetOption(name, None)
    return SetOption(name, _rest(line, spans, value_at + 1))


def _parse_teinewgame(line: str, words: list[str]) -> TeiNewGame:
    args = words[1:]
    if not args:
        return TeiNewGame()
    if args[0].lower() != "size" and len(args) == 1:
        return TeiNewGame(size=_int(args[0], line, "teinewgame size"))
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
    return TeiNewGame(size=size, halfkomi=halfkomi, v1=True)


def _parse_position(line: str, words: list[str]) -> Position:
    if len(words) < 2:
        raise _error(line, "position needs 'startpos' or 'tps <position>'")
    lower = [w.lower() for w in words]
    moves_at = lower.index("moves") if "moves" in lower else len(words)
    moves = tuple(words[moves_at + 1 :])
    kind = lower[1]
    if kind == "startpos":
        if moves_at != 2:
            raise _error(line, "position startpos: expected 'moves' after 'startpos'")
        return Position(None, moves)
    if kind in ("tps", "fen"):
        if moves_at <= 2:
            raise _error(line, "position tps: the position string is missing")
        return Position(" ".join(words[2:moves_at]), moves)
    raise _error(line, f"position: expected 'startpos' or 'tps', not {words[1]!r}")


def _parse_go(line: str, words: list[str]) -> Go:
    values: dict[str, int] = {}
    infinite = False
    skipped: list[str] = []
    i = 1
    while i < len(words):
        key = words[i].lower()
        if key == "infinite":
            infinite = True
        elif key in GO_INTS:
            if i + 1 >= len(words):
                raise _error(line, f"go: {key} needs a value")
            values[key] = _int(words[i + 1], line, f"go {key}")
            i += 1
        else:
            skipped.append(words[i])
        i += 1
    return Go(infinite=infinite, skipped=tuple(skipped), **values)


def parse_gui_line(line: str) -> GuiMessage:
    """The message of one line a GUI sends; `Unknown` for no known command."""
    text = line.strip()
    spans = list(_WORD.finditer(text))
    if not spans:
        return Unknown("")
    words = [m.group() for m in spans]
    match words[0].lower():
        case "tei":
            return Tei()
        case "isready":
            return IsReady()
        case "stop":
            return Stop()
        case "quit":
            return Quit()
        case "setoption":
            return _parse_setoption(text, spans)
        case "teinewgame":
            return _parse_teinewgame(text, words)
        case "position":
            return _parse_position(text, words)
        case "go":
            return _parse_go(text, words)
    return Unknown(text)


# ---- parsing: engine -> GUI --------------------------------------------------------------


def _parse_option(line: str, spans: list[re.Match[str]]) -> OptionDecl:
    words = [m.group() for m in spans]
    lower = [w.lower() for w in words]
    if len(words) < 3 or lower[1] != "name":
        raise _error(line, "option needs 'name <name>'")
    if "type" not in lower[3:]:
        raise _error(line, "option needs 'type <type>'")
    type_at = lower.index("type", 3)
    if type_at + 1 >= len(words):
        raise _error(line, "option: 'type' without a value")
    name = line[spans[2].start() : spans[type_at - 1].end()]
    # split the rest into (keyword, raw text) groups
    groups: list[tuple[str, str]] = []
    i = type_at
    while i < len(words):
        j = i + 1
        while j < len(words) and lower[j] not in OPTION_KEYS:
            j += 1
        text = line[spans[i + 1].start() : spans[j - 1].end()] if j > i + 1 else ""
        groups.append((lower[i], text))
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
    return OptionDecl(name, type_, default, minimum, maximum, tuple(vars_))


def _parse_size(line: str, words: list[str]) -> SizeDecl:
    lower = [w.lower() for w in words]
    komi_at = lower.index("halfkomi") if "halfkomi" in lower else len(words)
    sizes = tuple(_int(w, line, "size") for w in words[1:komi_at])
    halfkomis = tuple(_int(w, line, "halfkomi") for w in words[komi_at + 1 :])
    if not sizes:
        raise _error(line, "size needs at least one board size")
    return SizeDecl(sizes, halfkomis)


def _parse_score(words: list[str], i: int) -> tuple[Score | None, int]:
    """Parse a score starting after the `score` word at i; returns (score, next index)."""
    bound: str | None = None
    while i < len(words) and words[i].lower() in BOUNDS:
        bound = words[i].lower()
        i += 1
    if i >= len(words):
        return (Score("cp", None, bound) if bound else None), i
    kind = words[i].lower()
    i += 1
    if kind == "solved":
        outcome: str | None = None
        value: int | None = None
        for _ in range(2):
            if i < len(words) and words[i].lower() in OUTCOMES and outcome is None:
                outcome = words[i].lower()
                i += 1
            elif i < len(words) and value is None and re.fullmatch(r"[+-]?\d+", words[i]):
                value = int(words[i])
                i += 1
        if outcome is None:
            return None, i
        return Score("solved", value, outcome), i
    if i >= len(words) or not re.fullmatch(r"[+-]?\d+", words[i]):
        return None, i
    value = int(words[i])
    i += 1
    while i < len(words) and words[i].lower() in BOUNDS:
        bound = words[i].lower()
        i += 1
    return Score(kind, value, bound), i


def _parse_info(line: str, spans: list[re.Match[str]]) -> Info:
    words = [m.group() for m in spans]
    fields: dict[str, object] = {}
    skipped: list[str] = []
    i = 1
    while i < len(words):
        key = words[i].lower()
        if key in INFO_INTS:
            if i + 1 < len(words) and re.fullmatch(r"[+-]?\d+", words[i + 1]):
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
            while j < len(words) and words[j].lower() not in INFO_KEYWORDS:
                j += 1
            fields["pv"] = tuple(words[i + 1 : j])
            i = j
        elif key == "string":
            fields["string"] = _rest(line, spans, i + 1)
            break
        elif key == "error":
            j = i + 1
            while j < len(words) and words[j].lower() != "string":
                j += 1
            fields["error"] = line[spans[i + 1].start() : spans[j - 1].end()] if j > i + 1 else ""
            i = j
        else:
            skipped.append(words[i])
            i += 1
    return Info(skipped=tuple(skipped), **fields)  # type: ignore[arg-type]


def parse_engine_line(line: str) -> EngineMessage:
    """The message of one line an engine prints; `Unknown` for no known command."""
    text = line.strip()
    spans = list(_WORD.finditer(text))
    if not spans:
        return Unknown("")
    words = [m.group() for m in spans]
    match words[0].lower():
        case "teiok":
            return TeiOk()
        case "readyok":
            return ReadyOk()
        case "id":
            if len(words) < 2:
                raise _error(text, "id needs a key")
            return Id(words[1].lower(), _rest(text, spans, 2))
        case "option":
            return _parse_option(text, spans)
        case "size":
            return _parse_size(text, words)
        case "info":
            return _parse_info(text, spans)
        case "bestmove":
            if len(words) < 2:
                raise _error(text, "bestmove needs a move")
            return BestMove(None if words[1] == "--" else words[1])
    return Unknown(text)
