"""`TakGame`: the Tak rules behind the common `Game` interface (registered as "tak")."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Self

import attrs

from rules.game import Game, GameError, IllegalAction, NotationError, Options, Outcome
from rules.tak.board import DRAW, FLATS, Board, code_ptn
from rules.tak.move import Move
from rules.tak.position import Position, standard_reserves
from rules.tak.tables import CRUSH_BIT

_BOOL = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}
_KNOWN = ("size", "halfkomi", "komi", "flats", "caps", "repetition", "rule50")
_MOVE_CACHE: dict[int, dict[int, Move]] = {}


@attrs.frozen
class TakOptions:
    """The rules options of a Tak game, parsed and checked."""

    size: int = 5
    half_komi: int = 0
    stones: int = 21
    caps: int = 1
    repetition: bool = False
    rule50: bool = False

    @classmethod
    def parse(cls, options: Options | None, size: int | None = None) -> TakOptions:
        """Read option strings (size, halfkomi or komi, flats, caps, repetition, rule50).

        `size`, when given, is the size of a position the game starts from; a "size"
        option that disagrees is an error.
        """
        opts = {k.strip().lower(): str(v).strip() for k, v in (options or {}).items()}
        for key in opts:
            if key not in _KNOWN:
                raise GameError(f"unknown Tak option {key!r}; known: {', '.join(_KNOWN)}")
        chosen = _int_option(opts, "size", 5 if size is None else size, 3, 8)
        if size is not None and chosen != size:
            raise GameError(f"option size={opts['size']} but the position is {size}x{size}")
        stones, caps = standard_reserves(chosen)
        half = _int_option(opts, "halfkomi", 0, 0, 1000)
        if "komi" in opts:
            text = opts["komi"]
            try:
                value = float(text)
            except ValueError:
                raise GameError(f"bad Tak option komi={text!r}: not a number") from None
            if not math.isfinite(value) or value < 0 or value * 2 != int(value * 2):
                raise GameError(f"bad Tak option komi={text!r}: need a multiple of 0.5, >= 0")
            half = int(value * 2)
        return cls(
            size=chosen,
            half_komi=half,
            stones=_int_option(opts, "flats", stones, 0, 200),
            caps=_int_option(opts, "caps", caps, 0, 20),
            repetition=_bool_option(opts, "repetition"),
            rule50=_bool_option(opts, "rule50"),
        )


def _int_option(opts: dict[str, str], key: str, default: int, low: int, high: int) -> int:
    if key not in opts:
        return default
    text = opts[key]
    try:
        value = int(text)
    except ValueError:
        raise GameError(f"bad Tak option {key}={text!r}: not an integer") from None
    if not low <= value <= high:
        raise GameError(f"bad Tak option {key}={text!r}: must be {low} to {high}")
    return value


def _bool_option(opts: dict[str, str], key: str) -> bool:
    text = opts.get(key, "false").lower()
    if text not in _BOOL:
        raise GameError(f"bad Tak option {key}={opts[key]!r}: use true or false")
    return _BOOL[text]


def _move_of(code: int, size: int) -> Move:
    cache = _MOVE_CACHE.setdefault(size, {})
    move = cache.get(code)
    if move is None:
        move = cache[code] = Move.from_code(code, size)
    return move


class TakGame(Game[Move]):
    """A Tak game in progress: a fast `Board`, the moves played and the results seen."""

    name = "tak"

    def __init__(self, position: Position, options: TakOptions, start: str | None) -> None:
        self.options = options
        self.start_position = start
        position.check_reserves(options.stones, options.caps)
        (ws, wc), (bs, bc) = position.pieces()
        board = Board(position.size, options.stones, options.caps, options.half_komi)
        for sq, stack in enumerate(position.stacks):
            if stack:
                board.put_stack(sq, stack)
        board.stones[:] = [options.stones - ws, options.stones - bs]
        board.capstones[:] = [options.caps - wc, options.caps - bc]
        board.set_turn(position.turn, position.ply)
        self._board = board
        self._moves: list[Move] = []
        self._codes: list[int] = []
        self._seen: dict[int, int] = {board.hash: 1}
        self._quiet: list[int] = [0]
        self._results: list[Outcome | None] = [self._outcome()]

    # ---- construction -------------------------------------------------------------
    @classmethod
    def new(cls, options: Options | None = None) -> Self:
        opts = TakOptions.parse(options)
        return cls(Position.empty(opts.size), opts, None)

    @classmethod
    def from_position_string(cls, text: str, options: Options | None = None) -> Self:
        position = Position.from_tps(text)
        opts = TakOptions.parse(options, position.size)
        return cls(position, opts, position.tps())

    @classmethod
    def from_tps(cls, text: str, options: Options | None = None) -> Self:
        return cls.from_position_string(text, options)

    def copy(self) -> Self:
        other = object.__new__(type(self))
        other.options = self.options
        other.start_position = self.start_position
        other._board = self._board.copy()
        other._moves = self._moves[:]
        other._codes = self._codes[:]
        other._seen = dict(self._seen)
        other._quiet = self._quiet[:]
        other._results = self._results[:]
        return other

    # ---- state -------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return self._board.size

    @property
    def half_komi(self) -> int:
        return self.options.half_komi

    @property
    def players(self) -> int:
        return 2

    @property
    def turn(self) -> int:
        return self._board.turn

    @property
    def move_number(self) -> int:
        """The full-move number of the side to move (TPS's third field)."""
        return self._board.ply // 2 + 1

    @property
    def result(self) -> Outcome | None:
        return self._results[-1]

    @property
    def history(self) -> Sequence[Move]:
        return tuple(self._moves)

    @property
    def ply(self) -> int:
        return len(self._moves)

    def position(self) -> Position:
        board = self._board
        stacks = tuple(board.stack(sq) for sq in range(board.size * board.size))
        return Position(board.size, stacks, board.turn, board.ply // 2 + 1)

    def position_string(self) -> str:
        return self.position().tps()

    def hash_key(self) -> int:
        return self._board.hash

    def position_counts(self) -> dict[int, int]:
        """How often each position (by `hash_key`) has occurred in the game so far."""
        return dict(self._seen)

    @property
    def quiet_plies(self) -> int:
        """Plies in a row without a placement or a wall flattening (the rule50 count)."""
        return self._quiet[-1]

    def seat_name(self, seat: int) -> str:
        return ("white", "black")[seat]

    def reserves(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Pieces in hand: ((white stones, white caps), (black stones, black caps))."""
        b = self._board
        return (b.stones[0], b.capstones[0]), (b.stones[1], b.capstones[1])

    def flat_counts(self) -> tuple[int, int]:
        return self._board.flat_counts()

    def render(self) -> str:
        return self.position().render(self.reserves())

    # ---- the fast board, for bots ------------------------------------------------------
    def fast_board(self) -> Board:
        """A copy of the internal board (bitboards, int move codes, make/unmake)."""
        return self._board.copy()

    def move_of(self, code: int) -> Move:
        """The `Move` of a board move code (shared, immutable objects)."""
        return _move_of(code, self._board.size)

    def code_of(self, move: Move) -> int:
        return move.code(self._board.size)

    # ---- actions -----------------------------------------------------------------------
    def legal(self) -> list[Move]:
        if self._results[-1] is not None:
            return []
        size = self._board.size
        cache = _MOVE_CACHE.setdefault(size, {})
        out = []
        for code in self._board.moves():
            move = cache.get(code)
            if move is None:
                move = cache[code] = Move.from_code(code, size)
            out.append(move)
        return out

    def _legal_code(self, move: Move, strict_crush: bool) -> int:
        """The legal code of `move` here (the crush mark added if left out)."""
        if self._results[-1] is not None:
            raise IllegalAction(f"{move.ptn()}: the game is over ({self._results[-1].code})")
        try:
            code = move.code(self._board.size)
        except NotationError as exc:
            raise IllegalAction(str(exc)) from None
        legal = self._board.moves()
        if code in legal:
            return code
        if code & CRUSH_BIT:
            if code ^ CRUSH_BIT in legal:
                if strict_crush:
                    raise IllegalAction(f"{move.ptn()}: there is no wall to flatten")
                return code ^ CRUSH_BIT
        elif code | CRUSH_BIT in legal:
            return code | CRUSH_BIT
        raise IllegalAction(f"illegal move {move.ptn()!r} in {self.position_string()}")

    def play(self, action: Move) -> None:
        if not isinstance(action, Move):
            raise IllegalAction(f"not a Tak move: {action!r}")
        self._push(self._legal_code(action, strict_crush=False))

    def play_code(self, code: int) -> None:
        """Play a board move code from `fast_board().moves()` (checked)."""
        if self._results[-1] is not None:
            raise IllegalAction(f"{code_ptn(code, self.size)}: the game is over")
        if code not in self._board.moves():
            raise IllegalAction(f"illegal move {code_ptn(code, self.size)!r}")
        self._push(code)

    def _push(self, code: int) -> None:
        board = self._board
        board.make(code)
        self._codes.append(code)
        self._moves.append(_move_of(code, board.size))
        self._seen[board.hash] = self._seen.get(board.hash, 0) + 1
        quiet = 0 if (code >> 6) & 3 != 3 or code & CRUSH_BIT else self._quiet[-1] + 1
        self._quiet.append(quiet)
        self._results.append(self._outcome())

    def undo(self) -> Move:
        if not self._moves:
            raise GameError("nothing to undo: at the start position")
        board = self._board
        count = self._seen[board.hash] - 1
        if count:
            self._seen[board.hash] = count
        else:
            del self._seen[board.hash]
        board.unmake(self._codes.pop())
        self._quiet.pop()
        self._results.pop()
        return self._moves.pop()

    def _outcome(self) -> Outcome | None:
        board = self._board
        res = board.result()
        if res is not None:
            winner, reason = res
            if reason == FLATS:
                scores: tuple[float, ...] | None = tuple(float(x) for x in board.flat_counts())
                codes = ("F-0", "0-F")
            else:
                scores = None
                codes = ("R-0", "0-R")
            if winner == DRAW:
                return Outcome((0, 1), "1/2-1/2", reason, scores)
            return Outcome((winner,), codes[winner], reason, scores)
        if self.options.repetition and self._seen.get(board.hash, 0) >= 3:
            return Outcome((0, 1), "1/2-1/2", "repetition")
        if self.options.rule50 and self._quiet[-1] >= 50:
            return Outcome((0, 1), "1/2-1/2", "rule50")
        return None

    def parse_action(self, text: str) -> Move:
        move = Move.from_ptn(text)
        return _move_of(self._legal_code(move, strict_crush=True), self._board.size)

    def format_action(self, action: Move) -> str:
        return action.ptn()

    # ---- perft -------------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Leaf count `depth` plies deep (fast: the last ply is counted, not played)."""
        if self.options.repetition or self.options.rule50:
            return super().perft(depth)
        if depth <= 0:
            return 1
        if self.result is not None:
            return 0
        return self._board.copy().perft(depth)

    def divide(self, depth: int) -> list[tuple[str, int]]:
        if self.options.repetition or self.options.rule50:
            return super().divide(depth)
        if depth <= 0 or self.result is not None:
            return []
        board = self._board.copy()
        out = []
        for code in board.moves():
            board.make(code)
            out.append((code_ptn(code, board.size), board.perft(depth - 1)))
            board.unmake(code)
        return out
