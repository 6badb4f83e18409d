"""Trike: the Game core (moves, pie rule as a seat swap, trapped pawn, scoring).

An action is an int: the destination cell's number (see `geometry`), or `SWAP` (-1).
Seat 0 is player 1, who places the first checker with colour X. `swap` (legal only as
the second action) gives colour X and its checker to seat 1; the board and the colour to
move (O) stay, and seat 0 then makes O's move. `turn` is always the seat that acts.

Options (`OPTION_SPECS`): `size` (the board side) and `xseat` (the seat that owns colour
X). A position string does not say who owns X, so `from_position_string` gives X to seat
`xseat` (seat 0 unless said otherwise); from a start position the game itself tracks
ownership through `swap`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Self

from rules.game import Game, IllegalAction, OptionError, Options, OptionSpec, Outcome
from rules.trike.errors import (
    ActionSyntaxError,
    BlockedLine,
    GameOverError,
    ImpossiblePosition,
    OccupiedCell,
    OffLine,
    SwapNotAllowed,
    TrikeOptionError,
    WrongOrigin,
)
from rules.trike.geometry import MAX_SIZE, MIN_SIZE, Geometry, geometry
from rules.trike.position import EMPTY, O, TrikePosition, X
from rules.trike.render import render_board
from rules.trike.svg import trike_svg

SWAP = -1
DEFAULT_SIZE = 13
COLOUR_NAME = {X: "X", O: "O"}


#: Trike's rules options (see docs/trike.md)
OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "size",
        "int",
        str(DEFAULT_SIZE),
        "board side",
        MIN_SIZE,
        MAX_SIZE,
        tei="Size",
        newgame=True,
        in_position=True,
    ),
    OptionSpec(
        "xseat", "int", "0", "seat owning colour X in a position loaded from a string", 0, 1
    ),
)


def parse_options(options: Options | None) -> tuple[int | None, int]:
    """(size or None when not given, seat owning X) from rules options."""
    try:
        given = TrikeGame.validate_options(options)
    except OptionError as exc:
        raise TrikeOptionError(str(exc), exc.option, exc.value) from None
    size = int(given["size"]) if "size" in given else None
    return size, int(given.get("xseat", "0"))


class TrikeGame(Game[int]):
    """A Trike game in progress on a side-N triangle."""

    name = "trike"
    option_table = OPTION_SPECS

    @classmethod
    def record_tags(cls, options: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
        return (("Size", options.get("size", str(DEFAULT_SIZE))),)

    def __init__(self, position: TrikePosition, x_seat: int = 0) -> None:
        self.geo: Geometry = geometry(position.size)
        self.size = position.size
        self.board = bytearray(position.board)
        self.pawn = position.pawn
        self.to_move = position.to_move
        self.swap_ok = position.swap
        self.x_seat = x_seat
        self._history: list[int] = []
        #: per action: (previous pawn, previous swap flag)
        self._undo: list[tuple[int, bool]] = []
        self._hash = self._full_hash()

    # ---- construction -------------------------------------------------------------
    @classmethod
    def new(cls, options: Options | None = None) -> Self:
        size, x_seat = parse_options(options)
        return cls(TrikePosition.empty(size or DEFAULT_SIZE), x_seat)

    @classmethod
    def from_position_string(cls, text: str, options: Options | None = None) -> Self:
        size, x_seat = parse_options(options)
        position = TrikePosition.parse(text)
        if size is not None and size != position.size:
            raise ImpossiblePosition(
                f"position {text.strip()!r} is for side {position.size}, the game is side {size}"
            )
        game = cls(position, x_seat)
        game.start_position = str(position)
        return game

    def copy(self) -> Self:
        other = type(self)(self.snapshot(), self.x_seat)
        other.start_position = self.start_position
        other._history = list(self._history)
        other._undo = list(self._undo)
        # the seat owning X may differ from the start's after a swap in the history
        return other

    def snapshot(self) -> TrikePosition:
        """The current position as a value object."""
        return TrikePosition(
            size=self.size,
            board=tuple(self.board),
            pawn=self.pawn,
            to_move=self.to_move,
            swap=self.swap_ok,
        )

    # ---- state -------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return 2

    @property
    def turn(self) -> int:
        return self.x_seat if self.to_move == X else 1 - self.x_seat

    @property
    def history(self) -> Sequence[int]:
        return tuple(self._history)

    def trapped(self) -> bool:
        """True when the pawn stands on the board with every neighbour occupied."""
        if self.pawn < 0:
            return False
        board = self.board
        return all(board[n] for n in self.geo.neighbours[self.pawn])

    def colour_scores(self) -> tuple[int, int]:
        """(X, O) checkers on and around the pawn."""
        if self.pawn < 0:
            return 0, 0
        cells = (self.pawn, *self.geo.neighbours[self.pawn])
        xs = sum(1 for c in cells if self.board[c] == X)
        os_ = sum(1 for c in cells if self.board[c] == O)
        return xs, os_

    @property
    def result(self) -> Outcome | None:
        if not self.trapped():
            return None
        xs, os_ = self.colour_scores()
        colour = X if xs > os_ else O
        winner = self.x_seat if colour == X else 1 - self.x_seat
        scores = (float(xs), float(os_)) if self.x_seat == 0 else (float(os_), float(xs))
        return Outcome(
            winners=(winner,),
            code=f"{COLOUR_NAME[colour]} {max(xs, os_)}-{min(xs, os_)}",
            reason="trapped",
            scores=scores,
        )

    def position_string(self) -> str:
        return str(self.snapshot())

    def hash_key(self) -> int:
        return self._hash

    def colour_of(self, seat: int) -> str:
        """The colour ("X"/"O") a seat owns now."""
        return "X" if seat == self.x_seat else "O"

    def render(self) -> str:
        return render_board(self)

    def render_svg(self, last: bool = True) -> str:
        result = self.result
        note = f"{result.code} ({result.reason})" if result is not None else ""
        cell = self._history[-1] if last and self._history else None
        return trike_svg(self, None if cell == SWAP else cell, note)

    # ---- actions -----------------------------------------------------------------------
    def moves(self) -> list[int]:
        """Destination cells of the pawn (no swap); every empty cell before the first."""
        board = self.board
        if self.pawn < 0:
            return [c for c in range(len(board)) if not board[c]]
        out: list[int] = []
        for ray in self.geo.rays[self.pawn]:
            for cell in ray:
                if board[cell]:
                    break
                out.append(cell)
        return out

    def legal(self) -> list[int]:
        out = self.moves()
        if self.swap_ok:
            out.append(SWAP)
        return out

    def check(self, action: int) -> None:
        """Raise an IllegalAction subclass naming the problem unless `action` is legal."""
        if action == SWAP:
            if not self.swap_ok:
                raise SwapNotAllowed(
                    "swap is only legal as the second action, right after the first checker"
                )
            return
        if not isinstance(action, int) or not 0 <= action < len(self.board):
            raise IllegalAction(f"{action!r} is not a cell of a side-{self.size} board")
        if self.trapped():
            raise GameOverError("the game is over: the pawn is trapped")
        name = self.geo.names[action]
        if self.board[action]:
            raise OccupiedCell(f"cell {name} is occupied")
        if self.pawn < 0:
            return
        path = self.geo.paths[self.pawn].get(action)
        pawn_name = self.geo.names[self.pawn]
        if path is None:
            raise OffLine(f"cell {name} is not on a line from the pawn at {pawn_name}")
        for cell in path:
            if self.board[cell]:
                raise BlockedLine(
                    f"the line from {pawn_name} to {name} is blocked at {self.geo.names[cell]}"
                )

    def play(self, action: int) -> None:
        self.check(action)
        self.push(action)

    def push(self, action: int) -> None:
        """Apply an action known to be legal (no checks; for search and perft)."""
        geo = self.geo
        self._undo.append((self.pawn, self.swap_ok))
        self._history.append(action)
        if self.swap_ok:
            self._hash ^= geo.zobrist_swap
            self.swap_ok = False
        if action == SWAP:
            self.x_seat = 1 - self.x_seat
            return
        if self.pawn >= 0:
            self._hash ^= geo.zobrist_pawn[self.pawn]
        elif self.to_move == X and not any(self.board):
            self.swap_ok = True
            self._hash ^= geo.zobrist_swap
        self.board[action] = self.to_move
        self._hash ^= geo.zobrist_checker[self.to_move - 1][action]
        self._hash ^= geo.zobrist_pawn[action] ^ geo.zobrist_o_to_move
        self.pawn = action
        self.to_move = O if self.to_move == X else X

    def undo(self) -> int:
        if not self._history:
            raise GameOverError("nothing to undo: the game is at its start position")
        action = self._history.pop()
        pawn, swap_ok = self._undo.pop()
        if action == SWAP:
            self.x_seat = 1 - self.x_seat
        else:
            geo = self.geo
            self.to_move = O if self.to_move == X else X
            self.board[action] = EMPTY
            self._hash ^= geo.zobrist_checker[self.to_move - 1][action]
            self._hash ^= geo.zobrist_pawn[action] ^ geo.zobrist_o_to_move
            if pawn >= 0:
                self._hash ^= geo.zobrist_pawn[pawn]
            self.pawn = pawn
        if swap_ok != self.swap_ok:
            self._hash ^= self.geo.zobrist_swap
        self.swap_ok = swap_ok
        return action

    def _full_hash(self) -> int:
        geo = self.geo
        key = 0
        for cell, colour in enumerate(self.board):
            if colour:
                key ^= geo.zobrist_checker[colour - 1][cell]
        if self.pawn >= 0:
            key ^= geo.zobrist_pawn[self.pawn]
        if self.to_move == O:
            key ^= geo.zobrist_o_to_move
        if self.swap_ok:
            key ^= geo.zobrist_swap
        return key

    # ---- notation ----------------------------------------------------------------------
    def parse_action(self, text: str) -> int:
        word = text.strip().lower()
        if word == "swap":
            action = SWAP
        elif "-" in word:
            origin, _, target = word.partition("-")
            if not origin or not target:
                raise ActionSyntaxError(f"{text!r} is not an action (a cell, from-to, or swap)")
            start = self.geo.parse_cell(origin)
            action = self.geo.parse_cell(target)
            if start != self.pawn:
                where = self.geo.names[self.pawn] if self.pawn >= 0 else "not on the board yet"
                raise WrongOrigin(f"{text!r} starts at {origin}, but the pawn is {where}")
        elif not word:
            raise ActionSyntaxError("empty action text")
        else:
            action = self.geo.parse_cell(word)
        self.check(action)
        return action

    def format_action(self, action: int) -> str:
        if action == SWAP:
            return "swap"
        return self.geo.names[action]

    # ---- perft -------------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        if depth <= 0:
            return 1
        if self.trapped():
            return 0
        return self._perft(depth)

    def _perft(self, depth: int) -> int:
        moves = self.moves()
        total = len(moves) + (1 if self.swap_ok else 0)
        if depth == 1:
            return total
        total = 0
        if self.swap_ok:
            self.push(SWAP)
            total += self._perft(depth - 1)
            self.undo()
        board = self.board
        rays = self.geo.rays
        colour = self.to_move
        pawn = self.pawn
        swap_ok = self.swap_ok
        if depth == 2 and not swap_ok and pawn >= 0:
            # leaves are the moves of each child: count them without playing
            for cell in moves:
                board[cell] = colour
                for ray in rays[cell]:
                    for step in ray:
                        if board[step]:
                            break
                        total += 1
                board[cell] = EMPTY
            return total
        for cell in moves:
            self.push(cell)
            total += self._perft(depth - 1)
            self.undo()
        return total
