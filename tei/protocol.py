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

import attrs

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


class ProtocolError(ValueError):
    """A malformed line of a known TEI command; the message quotes the line."""


def _error(line: str, why: str) -> ProtocolError:
    return ProtocolError(f"{why}: {line!r}")


def _int(word: str, line: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise _error(line, f"{what} must be an integer, not {word!r}") from None


def _rest(line: str, spans: list[re.Match[str]], index: int) -> str:
    """The raw text of the line from word `index` on (spacing inside kept)."""
    if index >= len(spans):
        return ""
    return line[spans[index].start() :]


def _join(*parts: str | None) -> str:
    return " ".join(part for part in parts if part is not None and part != "")


# ---- GUI -> engine ----------------------------------------------------------------------


@attrs.frozen
class Tei:
    """`tei`: the first command; the engine answers with id and option lines, then `teiok`."""

    def to_line(self) -> str:
        return "tei"


@attrs.frozen
class SetOption:
    """`setoption name <name> [value <value>]`; a button has no value (None)."""

    name: str
    value: str | None = None

    def to_line(self) -> str:
        if self.value is None:
            return f"setoption name {self.name}"
        return f"setoption name {self.name} value {self.value}".rstrip()


@attrs.frozen
class IsReady:
    """`isready`: the engine answers `readyok`, even while it searches."""

    def to_line(self) -> str:
        return "isready"


@attrs.frozen
class TeiNewGame:
    """`teinewgame 6` (legacy) or `teinewgame size 6 halfkomi 4` (TEI v1, `v1=True`)."""

    size: int | None = None
    halfkomi: int | None = None
    v1: bool = False

    def to_line(self) -> str:
        if not self.v1:
            return _join("teinewgame", None if self.size is None else str(self.size))
        parts = ["teinewgame"]
        if self.size is not None:
            parts += ["size", str(self.size)]
        if self.halfkomi is not None:
            parts += ["halfkomi", str(self.halfkomi)]
        return " ".join(parts)


@attrs.frozen
class Position:
    """`position startpos|tps <position string> [moves ...]`.

    `position` is None for `startpos`, else the game's position string: every word after
    `tps` up to `moves`, joined by single spaces (TPS is three words; Trike and Traxit
    position strings travel the same way).
    """

    position: str | None
    moves: tuple[str, ...] = ()

    def to_line(self) -> str:
        head = "position startpos" if self.position is None else f"position tps {self.position}"
        if self.moves:
            return f"{head} moves {' '.join(self.moves)}"
        return head


_GO_INTS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime")


@attrs.frozen
class Go:
    """`go [wtime n] [btime n] [winc n] [binc n] [movestogo n] [depth n] [nodes n]
    [movetime n] [infinite]`; times in milliseconds. A bare `go` has every field None."""

    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    infinite: bool = False
    #: words of the line that are no known `go` field (not printed by to_line)
    skipped: tuple[str, ...] = ()

    def to_line(self) -> str:
        parts = ["go"]
        for key in _GO_INTS:
            value = getattr(self, key)
            if value is not None:
                parts += [key, str(value)]
        if self.infinite:
            parts.append("infinite")
        return " ".join(parts)


@attrs.frozen
class Stop:
    """`stop`: end the search now; the engine still answers `bestmove`."""

    def to_line(self) -> str:
        return "stop"


@attrs.frozen
class Quit:
    """`quit`: exit as soon as possible."""

    def to_line(self) -> str:
        return "quit"


# ---- engine -> GUI ----------------------------------------------------------------------


@attrs.frozen
class Id:
    """`id name <text>`, `id author <text>`, `id version <text>`."""

    key: str
    value: str

    def to_line(self) -> str:
        return _join("id", self.key, self.value)


_OPTION_KEYS = ("type", "default", "min", "max", "var")


@attrs.frozen
class OptionDecl:
    """`option name <name> type <type> [default <v>] [min <n>] [max <n>] [var <v>]...`.

    An empty string default is written `<empty>` (the UCI habit) and read back as "".
    """

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()

    def to_line(self) -> str:
        parts = ["option", "name", self.name, "type", self.type]
        if self.default is not None:
            parts += ["default", self.default if self.default != "" else "<empty>"]
        if self.min is not None:
            parts += ["min", str(self.min)]
        if self.max is not None:
            parts += ["max", str(self.max)]
        for var in self.vars:
            parts += ["var", var]
        return " ".join(parts)


@attrs.frozen
class SizeDecl:
    """TEI v1 `size 5 6 halfkomi 0 4`: the sizes and half-komi values an engine plays."""

    sizes: tuple[int, ...]
    halfkomis: tuple[int, ...] = ()

    def to_line(self) -> str:
        parts = ["size", *map(str, self.sizes)]
        if self.halfkomis:
            parts += ["halfkomi", *map(str, self.halfkomis)]
        return " ".join(parts)


@attrs.frozen
class TeiOk:
    """`teiok`: the end of the id/option block."""

    def to_line(self) -> str:
        return "teiok"


@attrs.frozen
class ReadyOk:
    """`readyok`: the answer to `isready`."""

    def to_line(self) -> str:
        return "readyok"


_BOUNDS = ("lowerbound", "upperbound")
_OUTCOMES = ("win", "loss", "draw")


@attrs.frozen
class Score:
    """An `info score`: `cp <n> [lowerbound|upperbound]` or `solved <win|loss|draw> [<plies>]`.

    For kind "solved", `bound` holds the outcome and `value` the plies to it. Other kinds
    some engines print (`mate <n>`) are kept as they come, with `value`.
    """

    kind: str
    value: int | None = None
    bound: str | None = None

    def to_line(self) -> str:
        if self.kind == "solved":
            return _join(
                "score solved", self.bound, None if self.value is None else str(self.value)
            )
        return _join(
            "score", self.kind, None if self.value is None else str(self.value), self.bound
        )


#: words that end a `pv` (ours plus the UCI ones other parsers know)
_INFO_KEYWORDS = frozenset(
    {
        "depth",
        "seldepth",
        "time",
        "nodes",
        "nps",
        "hashfull",
        "score",
        "wdl",
        "multipv",
        "pv",
        "string",
        "error",
        "currmove",
        "currmovenumber",
        "tbhits",
        "cpuload",
        "refutation",
        "currline",
    }
)
_INFO_INTS = ("depth", "seldepth", "time", "nodes", "nps", "hashfull", "multipv")


@attrs.frozen
class Info:
    """`info <key value>...`. `pv` runs to the next keyword, `string` to the end of the line,
    `error` to the end of the line or a `string` word. Unknown or malformed fields are kept
    in `skipped` (never printed)."""

    depth: int | None = None
    seldepth: int | None = None
    time: int | None = None
    nodes: int | None = None
    nps: int | None = None
    hashfull: int | None = None
    score: Score | None = None
    wdl: tuple[int, int, int] | None = None
    multipv: int | None = None
    pv: tuple[str, ...] = ()
    string: str | None = None
    error: str | None = None
    skipped: tuple[str, ...] = ()

    def to_line(self) -> str:
        parts = ["info"]
        for key in ("multipv", "depth", "seldepth"):
            value = getattr(self, key)
            if value is not None:
                parts += [key, str(value)]
        if self.score is not None:
            parts.append(self.score.to_line())
        if self.wdl is not None:
            parts += ["wdl", *map(str, self.wdl)]
        for key in ("nodes", "nps", "hashfull", "time"):
            value = getattr(self, key)
            if value is not None:
                parts += [key, str(value)]
        if self.pv:
            parts += ["pv", *self.pv]
        if self.error is not None:
            parts += ["error", self.error]
        if self.string is not None:
            parts += ["string", self.string]
        return " ".join(parts).rstrip()


@attrs.frozen
class BestMove:
    """`bestmove <move>`; `bestmove --` (move None) when there is no move to give."""

    move: str | None

    def to_line(self) -> str:
        return f"bestmove {self.move if self.move is not None else '--'}"


@attrs.frozen
class Unknown:
    """A line whose first word is no known command (kept stripped); "" for an empty line."""

    line: str

    def to_line(self) -> str:
        return self.line


GuiMessage = Tei | SetOption | IsReady | TeiNewGame | Position | Go | Stop | Quit | Unknown
EngineMessage = Id | OptionDecl | SizeDecl | TeiOk | ReadyOk | Info | BestMove | Unknown


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
        elif key in _GO_INTS:
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
        while j < len(words) and lower[j] not in _OPTION_KEYS:
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
    while i < len(words) and words[i].lower() in _BOUNDS:
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
            if i < len(words) and words[i].lower() in _OUTCOMES and outcome is None:
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
    while i < len(words) and words[i].lower() in _BOUNDS:
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
        if key in _INFO_INTS:
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
            while j < len(words) and words[j].lower() not in _INFO_KEYWORDS:
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
