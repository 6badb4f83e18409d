"""`TakGame`: the Tak rules behind the common `Game` interface (registered as "tak")."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

import attrs

from rules.game import (
    Game,
    GameError,
    IllegalAction,
    NotationError,
    OptionError,
    Options,
    OptionSpec,
    Outcome,
    RootCount,
    validate_options,
)
from rules.tak.board import DRAW, FLATS, Board, code_ptn
from rules.tak.move import Move
from rules.tak.position import Position, standard_reserves
from rules.tak.svg import tak_svg
from rules.tak.tables import CRUSH_BIT, RESERVES

_MOVE_CACHE: dict[int, dict[int, Move]] = {}
DEFAULT_SIZE = 5
#: the largest komi in half flats the rules take (playtak uses 0 to 8)
MAX_HALF_KOMI = 1000

#: Tak's rules options (see docs/rules.md)
OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "size",
        "int",
        str(DEFAULT_SIZE),
        "board size",
        min(RESERVES),
        max(RESERVES),
        tei="Size",
        newgame=True,
        in_position=True,
    ),
    OptionSpec(
        "halfkomi",
        "int",
        "0",
        "komi in half flats, given to black",
        0,
        MAX_HALF_KOMI,
        tei="HalfKomi",
        always=True,
    ),
    OptionSpec("komi", "str", "0", "komi in flats, a multiple of 0.5 (becomes halfkomi)"),
    OptionSpec("flats", "int", "", "stones per side (default: by size)", 0, 200, tei="Flats"),
    OptionSpec("caps", "int", "", "capstones per side (default: by size)", 0, 20, tei="Caps"),
    OptionSpec("repetition", "bool", "false", "the third occurrence of a position is a draw"),
    OptionSpec(
        "rule50",
        "bool",
        "false",
        "50 plies in a row without a placement or a wall flattening is a draw",
    ),
)


def komi_text(half_komi: int) -> str:
    """Komi in flats as records write it: `2`, `2.5`."""
    return str(half_komi // 2) if half_komi % 2 == 0 else f"{half_komi / 2:.1f}"


def _half_komi(text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise OptionError(f"bad Tak option komi={text!r}: not a number", "komi", text) from None
    if not math.isfinite(value) or value < 0 or value * 2 != int(value * 2):
        raise OptionError(
            f"bad Tak option komi={text!r}: need a multiple of 0.5, >= 0", "komi", text
        )
    half = int(value * 2)
    if half > MAX_HALF_KOMI:
        raise OptionError(
            f"bad Tak option komi={text!r}: must be at most {MAX_HALF_KOMI / 2:g}", "komi", text
        )
    return half


@attrs.frozen
class TakOptions:
    """The rules options of a Tak game, parsed and checked."""

    size: int = DEFAULT_SIZE
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
        given = TakGame.validate_options(options)
        if size is not None and "size" in given and int(given["size"]) != size:
            raise GameError(f"option size={given['size']} but the position is {size}x{size}")
        chosen = size if size is not None else int(given.get("size", DEFAULT_SIZE))
        stones, caps = standard_reserves(chosen)
        return cls(
            size=chosen,
            half_komi=int(given.get("halfkomi", "0")),
            stones=int(given.get("flats", stones)),
            caps=int(given.get("caps", caps)),
            repetition=given.get("repetition") == "true",
            rule50=given.get("rule50") == "true",
        )


def _move_of(code: int, size: int) -> Move:
    cache = _MOVE_CACHE.setdefault(size, {})
    move = cache.get(code)
    if move is None:
        move = cache[code] = Move.from_code(code, size)
    return move


class TakGame(Game[Move]):
    """A Tak game in progress: a fast `Board`, the moves played and the results seen."""

    name = "tak"
    position_tag: ClassVar[str] = "TPS"
    record_format: ClassVar[str] = "ptn"
    tei_legacy: ClassVar[bool] = True
    tei_v1_komi: ClassVar[str | None] = "halfkomi"
    option_table = OPTION_SPECS

    @classmethod
    def validate_options(cls, options: Mapping[str, Any] | None) -> dict[str, str]:
        """As `Game.validate_options`; `komi` (flats) becomes `halfkomi`."""
        given = validate_options(OPTION_SPECS, options, "Tak")
        if "komi" in given:
            given["halfkomi"] = str(_half_komi(given.pop("komi")))
        return given

    @classmethod
    def record_tags(cls, options: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
        size = options.get("size", str(DEFAULT_SIZE))
        return (("Size", size), ("Komi", komi_text(int(options.get("halfkomi", "0")))))

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

    def render_svg(self, last: bool = True) -> str:
        result = self.result
        note = f"{result.code} ({result.reason})" if result is not None else ""
        move = self._moves[-1] if last and self._moves else None
        return tak_svg(self.position(), self.reserves(), move, note)

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
    proves_forced_wins = True

    def forced_win(self, plies: int, memo: dict[Any, Any] | None = None) -> tuple[Move, ...] | None:
        """A tinue within `plies` plies (`rules.tak.tinue`)."""
        from rules.tak.tinue import tinue

        return tinue(self, plies, memo)

    def perft(self, depth: int) -> int:
        """Leaf count `depth` plies deep (fast: the last ply is counted, not played)."""
        if self.options.repetition or self.options.rule50:
            return super().perft(depth)
        if depth <= 0:
            return 1
        if self.result is not None:
            return 0
        return self._board.copy().perft(depth)

    def divide(self, depth: int, each: RootCount | None = None) -> list[tuple[str, int]]:
        if self.options.repetition or self.options.rule50:
            return super().divide(depth, each)
        if depth <= 0 or self.result is not None:
            return []
        board = self._board.copy()
        out = []
        for code in board.moves():
            board.make(code)
            out.append((code_ptn(code, board.size), board.perft(depth - 1)))
            board.unmake(code)
            if each is not None:
                each(*out[-1])
        return out
