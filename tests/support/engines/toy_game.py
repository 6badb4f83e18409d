"""A toy game for driver tests: Tak placements only on an empty N x N board.

Actions are square names (`a1`); a square can be taken once; the game is a draw when the
board is full. Its position string is TPS-like (`x5/x5/x5/x5/x5 1 1`), so the fake engine
reads it like Tak's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, TypeVar

from rules.game import Game, IllegalAction, NotationError, Options, Outcome

FILES = "abcdefgh"
A = TypeVar("A")


class TwoPlayerToy(Game[A]):
    """What the toy games of the tests share: two players and a list of actions played."""

    _history: list[A]

    @property
    def players(self) -> int:
        return 2

    @property
    def history(self) -> Sequence[A]:
        return tuple(self._history)


class PlaceGame(TwoPlayerToy[str]):
    name = "tak"

    def __init__(self, size: int = 5, taken: Sequence[str] = (), start: str | None = None) -> None:
        self.size = size
        self.base = list(taken)
        self._history: list[str] = []
        self.start_position = start

    @classmethod
    def new(cls, options: Options | None = None) -> Self:
        return cls(int((options or {}).get("size", "5")))

    @classmethod
    def from_position_string(cls, text: str, options: Options | None = None) -> Self:
        rows = text.split()[0].split("/")
        taken = []
        for index, row in enumerate(rows):
            col = 0
            for item in row.split(","):
                if item.startswith("x"):
                    col += int(item[1:] or 1)
                else:
                    taken.append(f"{FILES[col]}{len(rows) - index}")
                    col += 1
        return cls(len(rows), taken, text)

    def copy(self) -> Self:
        twin = type(self)(self.size, self.base, self.start_position)
        twin._history = list(self._history)
        return twin

    @property
    def turn(self) -> int:
        return (len(self.base) + len(self._history)) % 2

    @property
    def result(self) -> Outcome | None:
        if len(self.base) + len(self._history) >= self.size * self.size:
            return Outcome((0, 1), "1/2-1/2", "full")
        return None

    def position_string(self) -> str:
        taken = set(self.base) | set(self._history)
        rows = []
        for rank in range(self.size, 0, -1):
            items: list[str] = []
            run = 0
            for file in FILES[: self.size]:
                if f"{file}{rank}" in taken:
                    if run:
                        items.append(f"x{run}")
                        run = 0
                    items.append("1")
                else:
                    run += 1
            if run:
                items.append(f"x{run}")
            rows.append(",".join(items))
        return "/".join(rows) + f" {self.turn + 1} 1"

    def legal(self) -> list[str]:
        if self.result is not None:
            return []
        taken = set(self.base) | set(self._history)
        return [
            f"{file}{rank}"
            for rank in range(1, self.size + 1)
            for file in FILES[: self.size]
            if f"{file}{rank}" not in taken
        ]

    def play(self, action: str) -> None:
        if action not in self.legal():
            raise IllegalAction(f"square {action!r} is taken")
        self._history.append(action)

    def undo(self) -> str:
        return self._history.pop()

    def parse_action(self, text: str) -> str:
        square = text[1:] if text[:1] in ("F", "S", "C") else text
        if (
            len(square) != 2
            or square[0] not in FILES[: self.size]
            or not square[1].isdigit()
            or not 1 <= int(square[1]) <= self.size
        ):
            raise NotationError(f"not a square: {text!r}")
        if text[:1] in ("S", "C") or square not in self.legal():
            raise IllegalAction(f"not legal here: {text!r}")
        return square

    def format_action(self, action: str) -> str:
        return action
