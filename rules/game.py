"""The interface every game core offers, so hosts, referees and bots are written once.

A `Game` is a mutable game in progress (a position plus its history, so it can undo).
Actions are game-specific values; their text form goes through `parse_action` and
`format_action`. Options are plain strings (they arrive from TEI and command lines); each
game validates its own and raises `GameError` naming the bad option.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Generic, Self, TypeVar

import attrs

A = TypeVar("A")

Options = Mapping[str, str]


class GameError(ValueError):
    """Base of every rules error; the message names the bad input."""


class NotationError(GameError):
    """An action or position text that cannot be parsed."""


class IllegalAction(GameError):
    """A well-formed action that is not legal in the current position."""


class PositionError(GameError):
    """A position string that parses but describes an impossible position."""


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

    def render(self) -> str:
        """A picture of the position for humans (plain text, several lines)."""
        return self.position_string()

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
        if depth <= 0:
            return 1
        if self.result is not None:
            return 0
        actions = self.legal()
        if depth == 1:
            return len(actions)
        total = 0
        for action in actions:
            self.play(action)
            total += self.perft(depth - 1)
            self.undo()
        return total

    def divide(self, depth: int) -> list[tuple[str, int]]:
        """Leaf counts below each root action, in legal() order."""
        if depth <= 0 or self.result is not None:
            return []
        out = []
        for action in self.legal():
            self.play(action)
            out.append((self.format_action(action), self.perft(depth - 1)))
            self.undo()
        return out
