"""The interface every game core offers, so hosts, referees and bots are written once.

A `Game` is a mutable game in progress (a position plus its history, so it can undo).
Actions are game-specific values; their text form goes through `parse_action` and
`format_action`. Options are plain strings (they arrive from TEI and command lines); each
game declares them as `OptionSpec`s (`Game.option_specs()`) and `Game.validate_options`
checks and normalises them, raising `OptionError` naming the bad option and value.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, Self, TypeVar

import attrs

A = TypeVar("A")
#: called with a root action's text and its leaf count (`Game.divide`)
RootCount = Callable[[str, int], None]

Options = Mapping[str, str]


class GameError(ValueError):
    """Base of every rules error; the message names the bad input."""


class NotationError(GameError):
    """An action or position text that cannot be parsed."""


class IllegalAction(GameError):
    """A well-formed action that is not legal in the current position."""


class PositionError(GameError):
    """A position string that parses but describes an impossible position."""


class OptionError(GameError):
    """A rules option that is unknown or has a value its spec forbids."""

    def __init__(self, message: str, option: str, value: str) -> None:
        super().__init__(message)
        #: the option's name as given, and the value given
        self.option = option
        self.value = value


#: the words read as true and as false wherever a yes/no value is given (any case)
TRUE_WORDS = ("true", "1", "yes", "on")
FALSE_WORDS = ("false", "0", "no", "off")

OptionKind = Literal["int", "bool", "str", "choice"]

#: tags written first in a game record, in this order (any others follow in the order
#: they were given); a game uses those it has
RECORD_TAG_ORDER = (
    "Site",
    "Event",
    "Date",
    "Time",
    "Round",
    "Player1",
    "Player2",
    "Player3",
    "Player4",
    "Rating1",
    "Rating2",
    "Size",
    "Komi",
    "Flats",
    "Caps",
    "Clock",
    "TPS",
    "Opening",
    "Result",
)


def clock_side(seat: int) -> Literal["w", "b"]:
    """The clock of TEI's `go` a seat reads: "w" (`wtime`, `winc`) for even seats, "b"
    (`btime`, `binc`) for odd ones. Seat 0 is white; with four seats (Traxit's teams)
    partners share a side."""
    return "w" if seat % 2 == 0 else "b"


def bool_word(text: str) -> bool | None:
    """True or False for a word of TRUE_WORDS or FALSE_WORDS, else None."""
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None


@attrs.frozen
class OptionSpec:
    """One rules option of a game: what it takes, its default, and how engines hear of it.

    Values are text. `default` is the value when the option is not given ("" when the
    game derives it from other options, e.g. Tak's flats from the size). `tei` is the
    name engines know the option by (None: engines are not told, the referee applies it);
    `newgame` options go in `teinewgame` (the board size), the others by `setoption`;
    `always` options are told even at their default (engines' own defaults differ, as
    for Tak's komi), the others only when given. `in_position` options are fixed by a
    position string, which overrides them.
    """

    name: str
    kind: OptionKind
    default: str
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    tei: str | None = None
    newgame: bool = False
    always: bool = False
    in_position: bool = False

    @property
    def told(self) -> bool:
        """Whether engines are told this option."""
        return self.tei is not None

    def values_text(self) -> str:
        """The values it takes, for help and docs: `3..8`, `true/false`, `set/game`."""
        if self.kind == "int":
            if self.low is None or self.high is None:
                bound = f">= {self.low}" if self.low is not None else f"<= {self.high}"
                return bound if (self.low, self.high) != (None, None) else "an integer"
            return f"{self.low}..{self.high}"
        if self.kind == "bool":
            return "true/false"
        if self.kind == "choice":
            return "/".join(self.choices)
        return "text"

    def normalise(self, value: Any, game: str = "") -> str:
        """The canonical text of a value; OptionError naming the option and the value."""
        text = ("true" if value else "false") if isinstance(value, bool) else str(value).strip()
        where = f"{game} option" if game else "option"

        def bad(why: str) -> OptionError:
            return OptionError(f"bad {where} {self.name}={text!r}: {why}", self.name, text)

        if self.kind == "int":
            try:
                number = int(text)
            except ValueError:
                raise bad("not an integer") from None
            if (self.low is not None and number < self.low) or (
                self.high is not None and number > self.high
            ):
                raise bad(f"must be {self.values_text()}")
            return str(number)
        if self.kind == "bool":
            flag = bool_word(text)
            if flag is None:
                raise bad("use true or false")
            return "true" if flag else "false"
        if self.kind == "choice":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise bad(f"use one of {', '.join(self.choices)}")
        return text


def validate_options(
    specs: Sequence[OptionSpec], options: Mapping[str, Any] | None, game: str = ""
) -> dict[str, str]:
    """The given options checked against `specs` and normalised: names lower-cased,
    values in canonical text; an empty value means "the default" and is dropped.
    OptionError names an unknown option or a bad value."""
    by_name = {spec.name: spec for spec in specs}
    out: dict[str, str] = {}
    for key, value in (options or {}).items():
        name = str(key).strip().lower()
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(by_name) or "none"
            where = f"{game} option" if game else "option"
            raise OptionError(f"unknown {where} {key!r}; known: {known}", str(key), str(value))
        if str(value).strip() != "":
            out[name] = spec.normalise(value, game)
    return out


@attrs.frozen
class Outcome:
    """How a finished game ended.

    `winners` holds the winning seats: one seat for a win, several seats for a shared
    result (a draw between two players is `winners == (0, 1)`). `code` is the result as
    written in records (`R-0`, `F-0`, `1/2-1/2`, `X 4-3`, ...); `reason` a short word
    (`road`, `flats`, `trapped`, `score`, `repetition`, `rule50`, ...). `scores` carries
    game points per seat where the game has them (flat counts, Trike and Traxit points).
    """

    winners: tuple[int, ...]
    code: str
    reason: str
    scores: tuple[float, ...] | None = None

    def points(self, seat: int) -> float:
        """Match points of one seat: 1 shared equally among the winners."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1


class Game(ABC, Generic[A]):
    """A game in progress. Subclasses implement the abstract methods; perft is shared."""

    #: registry name: "tak", "trike", "traxit"
    name: str = ""
    #: the record tag that holds a start position ("TPS" for Tak)
    position_tag: ClassVar[str] = "Position"
    #: how a record lists the actions: "ptn" (Tak's PTN), "actions" (several per line) or
    #: "turns" (one labelled turn per line, see `turn_labels`)
    record_format: ClassVar[str] = "actions"
    #: whether engines that declare no `Game` option play this game (legacy TEI is Tak's)
    tei_legacy: ClassVar[bool] = False
    #: the rules option TEI v1 carries in `teinewgame size N halfkomi K` and engines
    #: announce in `size ... halfkomi ...` lines (Tak's halfkomi); None: TEI v1 does not
    #: speak of this game
    tei_v1_komi: ClassVar[str | None] = None
    #: what `option_specs` returns, for a game whose options are a fixed table
    option_table: ClassVar[tuple[OptionSpec, ...]] = ()
    #: whether `forced_win` proves forced wins (Tak's tinue), so referees may adjudicate on it
    proves_forced_wins: ClassVar[bool] = False

    # ---- options ------------------------------------------------------------------
    @classmethod
    def option_specs(cls) -> tuple[OptionSpec, ...]:
        """The rules options this game takes, in the order they are documented."""
        return cls.option_table

    @classmethod
    def validate_options(cls, options: Mapping[str, Any] | None) -> dict[str, str]:
        """The given options checked and normalised (lower-case names, canonical values,
        implied options added); OptionError names the bad option and value. Games with
        rules linking options (Tak's komi, Traxit's teams) extend this."""
        return validate_options(cls.option_specs(), options, cls.name.capitalize())

    @classmethod
    def record_tags(cls, options: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
        """Record tags that state these (validated) options, e.g. Tak's Size and Komi."""
        return ()

    # ---- construction -------------------------------------------------------------
    @classmethod
    @abstractmethod
    def new(cls, options: Options | None = None) -> Self:
        """The start position for these options (size, komi, players, ...)."""

    @classmethod
    @abstractmethod
    def from_position_string(cls, text: str, options: Options | None = None) -> Self:
        """A game that starts at this position (TPS for Tak); no history before it."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy, history included."""

    # ---- state -------------------------------------------------------------------------
    @property
    @abstractmethod
    def players(self) -> int:
        """Number of seats (2 for Tak and Trike, 2-4 for Traxit)."""

    @property
    @abstractmethod
    def turn(self) -> int:
        """The seat (0-based) that acts next. Seat 0 is TEI's white (`wtime`)."""

    @property
    @abstractmethod
    def result(self) -> Outcome | None:
        """The outcome if the game is over, else None."""

    #: the position string this game started from; None when it began at the standard start
    start_position: str | None = None

    @property
    @abstractmethod
    def history(self) -> Sequence[A]:
        """The actions played since the start position of this object, oldest first."""

    @property
    def ply(self) -> int:
        """Number of actions played since the start position of this object."""
        return len(self.history)

    def history_text(self) -> list[str]:
        """The history as action texts (what TEI `position ... moves` lists)."""
        return [self.format_action(action) for action in self.history]

    @abstractmethod
    def position_string(self) -> str:
        """The position in the game's notation; round-trips through from_position_string."""

    def hash_key(self) -> int:
        """A hash of the position (not the history), fit for a transposition table."""
        return hash(self.position_string())

    def seat_name(self, seat: int) -> str:
        """Human name of a seat in records ("white", "X", "R", ...)."""
        return f"player{seat + 1}"

    def partners(self, seat: int) -> tuple[int, ...]:
        """The seats sharing `seat`'s result (its team), `seat` included."""
        return (seat,)

    def forced_win(self, plies: int, memo: dict[Any, Any] | None = None) -> tuple[A, ...] | None:
        """The side to move's forced win within `plies` plies, as actions, or None (always
        None where `proves_forced_wins` is false). `memo`, kept by the caller from one
        position of a game to the next, saves work."""
        return None

    def turn_labels(self) -> list[tuple[str, str]]:
        """Per action of the history, for records: the label of the turn it belongs to
        and a note to write after it ("" for none). Only "turns" records use them."""
        return [("", "")] * self.ply

    def render(self) -> str:
        """A picture of the position for humans (plain text, several lines)."""
        return self.position_string()

    def render_svg(self, last: bool = True) -> str:
        """An SVG picture of the position (with `last`, the last action highlighted).

        Raises GameError for a game that has no picture.
        """
        raise GameError(f"no SVG picture for the game {self.name!r}")

    # ---- actions -----------------------------------------------------------------------
    @abstractmethod
    def legal(self) -> list[A]:
        """Every legal action for the side to act; empty when the game is over."""

    @abstractmethod
    def play(self, action: A) -> None:
        """Apply a legal action. Raises IllegalAction (and changes nothing) otherwise."""

    @abstractmethod
    def undo(self) -> A:
        """Take back the last action and return it. Raises GameError at the start."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Parse an action's text in this position; raises NotationError or IllegalAction."""

    @abstractmethod
    def format_action(self, action: A) -> str:
        """The canonical text of an action (minimal PTN for Tak).

        Must not depend on the current position: an action carries what its text needs
        (Tak's crush mark `*` included), so a history can be printed after the fact.
        """

    def play_text(self, text: str) -> A:
        """Parse, check and play one action given as text; return it."""
        action = self.parse_action(text)
        self.play(action)
        return action

    def play_all(self, texts: Sequence[str]) -> None:
        for text in texts:
            self.play_text(text)

    # ---- perft -------------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Number of leaf nodes `depth` actions deep; finished games have no children."""
        return interface_perft(self, depth)

    def divide(self, depth: int, each: RootCount | None = None) -> list[tuple[str, int]]:
        """Leaf counts below each root action, in legal() order; `each(action, count)` is
        called as each root action is done (for progress reports)."""
        if depth <= 0 or self.result is not None:
            return []
        out = []
        for action in self.legal():
            self.play(action)
            out.append((self.format_action(action), self.perft(depth - 1)))
            self.undo()
            if each is not None:
                each(*out[-1])
        return out


def interface_perft(game: Game[Any], depth: int, *, bulk: bool = True) -> int:
    """`Game.perft` through the public interface alone (`legal`, `play`, `undo`, `result`):
    the reference that faster perfts are checked and measured against. `bulk` counts the
    last ply with `len(legal())`; without it every action of that ply is played too."""
    if depth <= 0:
        return 1
    if game.result is not None:
        return 0
    actions = game.legal()
    if bulk and depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        game.play(action)
        total += interface_perft(game, depth - 1, bulk=bulk)
        game.undo()
    return total
