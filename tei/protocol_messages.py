"""The TEI messages: one frozen attrs class per command, each printing itself with
`to_line()`. Parsing lives in `tei.protocol`, which re-exports everything here."""

from __future__ import annotations

from typing import Any, ClassVar, Self

import attrs

from bots.limits import GoFields
from rules.game import bool_word
from tei.errors import OptionValueError, TeiError

__all__ = [
    "MAX_COUNT",
    "MAX_TIME_MS",
    "BestMove",
    "EngineMessage",
    "Go",
    "GoLimits",
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
]


class ProtocolError(TeiError, ValueError):
    """A malformed line of a known TEI command; the message quotes the line."""


def _join(*parts: str | None) -> str:
    return " ".join(part for part in parts if part is not None and part != "")


@attrs.frozen
class Bare:
    """A message that is one word, `WORD`, and nothing else."""

    WORD: ClassVar[str] = ""

    def to_line(self) -> str:
        return self.WORD


# ---- GUI -> engine ----------------------------------------------------------------------


@attrs.frozen
class Tei(Bare):
    """`tei`: the first command; the engine answers with id and option lines, then `teiok`."""

    WORD = "tei"


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
class IsReady(Bare):
    """`isready`: the engine answers `readyok`, even while it searches."""

    WORD = "isready"


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


GO_INTS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime")
#: the `go` fields that are times (ms); the others of GO_INTS are counts
GO_TIMES = frozenset({"wtime", "btime", "winc", "binc", "movetime"})


#: the largest time (ms) a `go` carries: 2**31 - 1 ms (about 24.8 days), the largest
#: value an engine that reads times into a signed 32-bit integer can take (the driver
#: sends no more; the host clamps what it gets to it)
MAX_TIME_MS = 2**31 - 1

#: the largest count (`depth`, `nodes`, `movestogo`) the driver sends: a signed 64-bit int
MAX_COUNT = 2**63 - 1


@attrs.frozen
class GoLimits(GoFields):
    """The limits `go` gives a search (times in milliseconds): held by the `Go` message
    and by the driver's `Limits` (the fields are the bots' `GoFields`)."""

    def clamped(self) -> tuple[Self, list[str]]:
        """These limits with every time in 0..MAX_TIME_MS and every count (`movestogo`,
        `depth`, `nodes`) in 1..MAX_COUNT, and a note per field changed, e.g.
        `wtime -5 clamped to 0` (a number of over 24 digits shortened). The one rule for
        what the driver sends and what the host uses."""
        changes: dict[str, Any] = {}
        notes: list[str] = []
        for key in GO_INTS:
            value = getattr(self, key)
            if value is None:
                continue
            high = MAX_TIME_MS if key in GO_TIMES else MAX_COUNT
            fixed = min(max(value, 0 if key in GO_TIMES else 1), high)
            if fixed != value:
                changes[key] = fixed
                text = str(value)
                shown = text if len(text) <= 24 else f"{text[:24]}... ({len(text)} digits)"
                notes.append(f"{key} {shown} clamped to {fixed}")
        return (attrs.evolve(self, **changes) if changes else self), notes

    def limit_values(self) -> dict[str, Any]:
        """The limits by field name, to build the other kind of limits from."""
        return {field.name: getattr(self, field.name) for field in attrs.fields(GoLimits)}


@attrs.frozen
class Go(GoLimits):
    """`go [wtime n] [btime n] [winc n] [binc n] [movestogo n] [depth n] [nodes n]
    [movetime n] [infinite]`; times in milliseconds. A bare `go` has every field None."""

    #: words of the line that are no known `go` field (not printed by to_line)
    skipped: tuple[str, ...] = ()

    def to_line(self) -> str:
        parts = ["go"]
        for key in GO_INTS:
            value = getattr(self, key)
            if value is not None:
                parts += [key, str(value)]
        if self.infinite:
            parts.append("infinite")
        return " ".join(parts)


@attrs.frozen
class Stop(Bare):
    """`stop`: end the search now; the engine still answers `bestmove`."""

    WORD = "stop"


@attrs.frozen
class Quit(Bare):
    """`quit`: exit as soon as possible."""

    WORD = "quit"


# ---- engine -> GUI ----------------------------------------------------------------------


@attrs.frozen
class Id:
    """`id name <text>`, `id author <text>`, `id version <text>`."""

    key: str
    value: str

    def to_line(self) -> str:
        return _join("id", self.key, self.value)


OPTION_KEYS = ("type", "default", "min", "max", "var")


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

    def parse(self, value: str | None) -> str | None:
        """The canonical text of a value for this option (the one check of driver, host
        and checker): a `check` takes the yes/no words, a `spin` an integer within
        min..max, a `combo` one of its vars (any case; a combo without vars its default),
        a `string` anything. None for a `button`, which takes no value.
        OptionValueError names the option, what it takes and the value."""
        kind = self.type.lower()
        if kind == "button":
            return None
        if value is None:
            raise OptionValueError(self.name, "needs a value")
        text = value.strip()
        if kind == "check":
            flag = bool_word(text)
            if flag is None:
                raise OptionValueError(self.name, f"takes true or false, not {value!r}")
            return "true" if flag else "false"
        if kind == "spin":
            try:
                number = int(text)
            except ValueError:
                raise OptionValueError(self.name, f"takes an integer, not {value!r}") from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                low, high = ("" if b is None else str(b) for b in (self.min, self.max))
                raise OptionValueError(self.name, f"takes {low}..{high}, not {value!r}")
            return str(number)
        if kind == "combo":
            allowed = self.vars or ((self.default,) if self.default is not None else ())
            for var in allowed:
                if var.lower() == text.lower():
                    return var
            raise OptionValueError(
                self.name, f"takes one of {', '.join(allowed) or '(none)'}, not {value!r}"
            )
        return value

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
class TeiOk(Bare):
    """`teiok`: the end of the id/option block."""

    WORD = "teiok"


@attrs.frozen
class ReadyOk(Bare):
    """`readyok`: the answer to `isready`."""

    WORD = "readyok"


BOUNDS = ("lowerbound", "upperbound")
OUTCOMES = ("win", "loss", "draw")


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
INFO_KEYWORDS = frozenset(
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
INFO_INTS = ("depth", "seldepth", "time", "nodes", "nps", "hashfull", "multipv")


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
