"""The fast Tak board: bitboards and int-coded moves, made and unmade in place.

This is the hot path behind `TakGame` and the search bots. State (all public, read-only
for callers; change it only through `make`/`unmake`):

* ``heights[sq]``, ``colors[sq]``: stack height and its colours as bits, bit i = the
  piece at height i (0 = bottom), 0 white, 1 black.
* ``white``, ``black``: bitboards of the squares whose top piece has that colour.
* ``walls``, ``caps``: bitboards of the squares whose top piece is a wall / capstone.
* ``stones[c]``, ``capstones[c]``: reserves in hand of colour c (0 white, 1 black).
* ``turn`` (0 white to move), ``ply`` (plies since the game start; < 2 = opening plies,
  which place an opponent flat), ``hash`` (Zobrist key, kept incrementally).

Square ``sq = rank * size + file`` (0-based; bit ``1 << sq``). Move codes: see `tables`.
"""

from __future__ import annotations

from rules.tak.tables import (
    DIRECTIONS,
    SLIDE_INFO,
    SizeTables,
    tables,
)

DRAW = -1
ROAD = "road"
FLATS = "flats"

_COLOUR = "12"
_KIND = ("", "S", "C")


def square_name(sq: int, size: int) -> str:
    rank, file = divmod(sq, size)
    return f"{'abcdefgh'[file]}{rank + 1}"


def code_ptn(code: int, size: int) -> str:
    """Minimal PTN of a move code (no position needed: the crush flag is in the code)."""
    sq = code & 63
    kind = (code >> 6) & 3
    name = square_name(sq, size)
    if kind != 3:
        return _KIND[kind] + name
    direction, count, drops, crush = SLIDE_INFO[code >> 8]
    text = (str(count) if count > 1 else "") + name + DIRECTIONS[direction]
    if len(drops) > 1:
        text += "".join(map(str, drops))
    return text + "*" if crush else text


class Board:
    """A Tak position with fast move generation, make/unmake, road and result checks."""

    __slots__ = (
        "black",
        "caps",
        "capstones",
        "colors",
        "half_komi",
        "hash",
        "heights",
        "ply",
        "size",
        "stones",
        "t",
        "turn",
        "walls",
        "white",
    )

    def __init__(self, size: int, stones: int, capstones: int, half_komi: int = 0) -> None:
        """An empty board, white to move, each side holding `stones` and `capstones`."""
        self.size = size
        self.t: SizeTables = tables(size, 2 * (stones + capstones) + 1)
        self.heights = [0] * (size * size)
        self.colors = [0] * (size * size)
        self.white = self.black = self.walls = self.caps = 0
        self.stones = [stones, stones]
        self.capstones = [capstones, capstones]
        self.half_komi = half_komi
        self.turn = 0
        self.ply = 0
        self.hash = 0

    def copy(self) -> Board:
        other = object.__new__(Board)
        for name in Board.__slots__:
            setattr(other, name, getattr(self, name))
        other.heights = self.heights[:]
        other.colors = self.colors[:]
        other.stones = self.stones[:]
        other.capstones = self.capstones[:]
        return other

    # ---- setting up ----------------------------------------------------------------
    def put_stack(self, sq: int, stack: str) -> None:
        """Place a TPS stack (``"12S"``) on an empty square of a board being set up.

        Reserves are not touched; `set_turn` and the caller's reserve bookkeeping finish
        the set-up. Used by `TakGame.from_position_string`.
        """
        t = self.t
        kind = 1 if stack.endswith("S") else 2 if stack.endswith("C") else 0
        colours = stack.rstrip("SC")
        bits = 0
        for height, ch in enumerate(colours):
            colour = 1 if ch == "2" else 0
            bits |= colour << height
            self.hash ^= t.z_piece[sq * 2 * t.max_height + 2 * height + colour]
        self.heights[sq] = len(colours)
        self.colors[sq] = bits
        bit = 1 << sq
        if colours:
            if colours[-1] == "2":
                self.black |= bit
            else:
                self.white |= bit
        if kind == 1:
            self.walls |= bit
            self.hash ^= t.z_wall[sq]
        elif kind == 2:
            self.caps |= bit
            self.hash ^= t.z_cap[sq]

    def set_turn(self, turn: int, ply: int) -> None:
        if self.turn != turn:
            self.hash ^= self.t.z_black
        self.turn = turn
        self.ply = ply

    # ---- reading ---------------------------------------------------------------------
    def stack(self, sq: int) -> str:
        """The TPS text of one square's stack ("" when empty)."""
        h = self.heights[sq]
        if not h:
            return ""
        bits = self.colors[sq]
        text = "".join(_COLOUR[(bits >> i) & 1] for i in range(h))
        bit = 1 << sq
        return text + ("S" if self.walls & bit else "C" if self.caps & bit else "")

    def flat_counts(self) -> tuple[int, int]:
        """Flats on top of stacks (what a flat win counts): (white, black)."""
        standing = self.walls | self.caps
        return (self.white & ~standing).bit_count(), (self.black & ~standing).bit_count()

    def road_bits(self, colour: int) -> int:
        """Squares counting towards a road of `colour` (top flats and capstones)."""
        return (self.black if colour else self.white) & ~self.walls

    def has_road(self, colour: int) -> bool:
        return _road(self.t, (self.black if colour else self.white) & ~self.walls)

    def result(self) -> tuple[int, str] | None:
        """None while the game goes on, else (winner, reason): winner 0, 1 or DRAW."""
        t = self.t
        walls = self.walls
        white_road = _road(t, self.white & ~walls)
        black_road = _road(t, self.black & ~walls)
        if white_road or black_road:
            if white_road and black_road:
                return 1 - self.turn, ROAD
            return (0 if white_road else 1), ROAD
        stones, capstones = self.stones, self.capstones
        if (
            (self.white | self.black) == t.full
            or not stones[0] + capstones[0]
            or not stones[1] + capstones[1]
        ):
            white, black = self.flat_counts()
            diff = 2 * white - self.half_komi - 2 * black
            return (0 if diff > 0 else 1 if diff < 0 else DRAW), FLATS
        return None

    # ---- moves -----------------------------------------------------------------------
    def moves(self) -> list[int]:
        """Every legal move code for the side to move (ignores whether the game is over)."""
        t = self.t
        turn = self.turn
        occupied = self.white | self.black
        empty = t.full & ~occupied
        out: list[int] = []
        if self.ply < 2:
            while empty:
                low = empty & -empty
                out.append(low.bit_length() - 1)
                empty ^= low
            return out
        if self.stones[turn]:
            place = t.place3 if self.capstones[turn] else t.place2
        elif self.capstones[turn]:
            place = t.place_cap
        else:
            place = None
        if place is not None:
            while empty:
                low = empty & -empty
                out += place[low.bit_length() - 1]
                empty ^= low
        own = self.black if turn else self.white
        walls = self.walls
        caps = self.caps
        blockers = walls | caps
        heights = self.heights
        n = t.size
        ray_mask = t.ray_mask
        ray_len = t.ray_len
        slides = t.slides
        crushes = t.crushes
        count_len = t.count_len
        crush_len = t.crush_len
        while own:
            low = own & -own
            own ^= low
            sq = low.bit_length() - 1
            h = heights[sq]
            carry = h if h < n else n
            lens = count_len[carry]
            masks = ray_mask[sq]
            is_cap = caps & low
            sq_slides = slides[sq]
            # up (+n) and right (+1): the nearest blocker is the lowest bit of the ray
            for direction, step in ((0, n), (2, 1)):
                hit = masks[direction] & blockers
                if hit:
                    hb = hit & -hit
                    d = ((hb.bit_length() - 1 - sq) // step) - 1
                    if is_cap and walls & hb:
                        out += crushes[sq][direction][d][: crush_len[carry][d]]
                else:
                    d = ray_len[sq][direction]
                if d:
                    out += sq_slides[direction][d][: lens[d]]
            # down (-n) and left (-1): the nearest blocker is the highest bit of the ray
            for direction, step in ((1, n), (3, 1)):
                hit = masks[direction] & blockers
                if hit:
                    bsq = hit.bit_length() - 1
                    d = ((sq - bsq) // step) - 1
                    if is_cap and (walls >> bsq) & 1:
                        out += crushes[sq][direction][d][: crush_len[carry][d]]
                else:
                    d = ray_len[sq][direction]
                if d:
                    out += sq_slides[direction][d][: lens[d]]
        return out

    def count_moves(self) -> int:
        """len(self.moves()), computed without building the list."""
        t = self.t
        turn = self.turn
        empties = t.squares - (self.white | self.black).bit_count()
        if self.ply < 2:
            return empties
        total = empties * ((2 if self.stones[turn] else 0) + (1 if self.capstones[turn] else 0))
        own = self.black if turn else self.white
        walls = self.walls
        caps = self.caps
        blockers = walls | caps
        heights = self.heights
        n = t.size
        ray_mask = t.ray_mask
        ray_len = t.ray_len
        count_len = t.count_len
        crush_len = t.crush_len
        while own:
            low = own & -own
            own ^= low
            sq = low.bit_length() - 1
            h = heights[sq]
            carry = h if h < n else n
            lens = count_len[carry]
            masks = ray_mask[sq]
            is_cap = caps & low
            hit = masks[0] & blockers
            if hit:
                hb = hit & -hit
                d = ((hb.bit_length() - 1 - sq) // n) - 1
                if is_cap and walls & hb:
                    total += crush_len[carry][d]
            else:
                d = ray_len[sq][0]
            total += lens[d]
            hit = masks[2] & blockers
            if hit:
                hb = hit & -hit
                d = hb.bit_length() - 2 - sq
                if is_cap and walls & hb:
                    total += crush_len[carry][d]
            else:
                d = ray_len[sq][2]
            total += lens[d]
            hit = masks[1] & blockers
            if hit:
                bsq = hit.bit_length() - 1
                d = ((sq - bsq) // n) - 1
                if is_cap and (walls >> bsq) & 1:
                    total += crush_len[carry][d]
            else:
                d = ray_len[sq][1]
            total += lens[d]
            hit = masks[3] & blockers
            if hit:
                bsq = hit.bit_length() - 1
                d = sq - bsq - 1
                if is_cap and (walls >> bsq) & 1:
                    total += crush_len[carry][d]
            else:
                d = ray_len[sq][3]
            total += lens[d]
        return total

    def make(self, code: int) -> None:
        """Play a legal move code (unchecked: pass only codes from `moves()`)."""
        t = self.t
        sq = code & 63
        kind = (code >> 6) & 3
        turn = self.turn
        if kind != 3:
            colour = turn if self.ply >= 2 else 1 - turn
            bit = 1 << sq
            self.heights[sq] = 1
            self.colors[sq] = colour
            h = self.hash ^ t.z_piece[sq * 2 * t.max_height + colour] ^ t.z_black
            if colour:
                self.black |= bit
            else:
                self.white |= bit
            if kind == 0:
                self.stones[colour] -= 1
            elif kind == 1:
                self.stones[colour] -= 1
                self.walls |= bit
                h ^= t.z_wall[sq]
            else:
                self.capstones[colour] -= 1
                self.caps |= bit
                h ^= t.z_cap[sq]
            self.hash = h
            self.turn = 1 - turn
            self.ply += 1
            return
        direction, count, drops, crush = SLIDE_INFO[code >> 8]
        step = t.steps[direction]
        heights = self.heights
        colors = self.colors
        zp = t.z_piece
        h2 = 2 * t.max_height
        hsh = self.hash ^ t.z_black
        height = heights[sq]
        rem = height - count
        bits = colors[sq]
        carried = bits >> rem
        c = carried
        idx = sq * h2 + 2 * rem
        for _ in range(count):
            hsh ^= zp[idx + (c & 1)]
            idx += 2
            c >>= 1
        rest = bits & ((1 << rem) - 1)
        colors[sq] = rest
        heights[sq] = rem
        bit = 1 << sq
        walls = self.walls
        caps = self.caps
        white = self.white & ~bit
        black = self.black & ~bit
        if walls & bit:
            top = 1
            walls ^= bit
            hsh ^= t.z_wall[sq]
        elif caps & bit:
            top = 2
            caps ^= bit
            hsh ^= t.z_cap[sq]
        else:
            top = 0
        if rem:
            if (rest >> (rem - 1)) & 1:
                black |= bit
            else:
                white |= bit
        dest = sq
        for d in drops:
            dest += step
            hd = heights[dest]
            pb = carried & ((1 << d) - 1)
            carried >>= d
            colors[dest] |= pb << hd
            heights[dest] = hd + d
            dbit = 1 << dest
            if (pb >> (d - 1)) & 1:
                black |= dbit
                white &= ~dbit
            else:
                white |= dbit
                black &= ~dbit
            idx = dest * h2 + 2 * hd
            for _ in range(d):
                hsh ^= zp[idx + (pb & 1)]
                idx += 2
                pb >>= 1
        if top:
            dbit = 1 << dest
            if top == 1:
                walls |= dbit
                hsh ^= t.z_wall[dest]
            else:
                if crush:
                    walls ^= dbit
                    hsh ^= t.z_wall[dest]
                caps |= dbit
                hsh ^= t.z_cap[dest]
        self.white = white
        self.black = black
        self.walls = walls
        self.caps = caps
        self.hash = hsh
        self.turn = 1 - turn
        self.ply += 1

    def unmake(self, code: int) -> None:
        """Take back `code`, which must be the last move made."""
        t = self.t
        sq = code & 63
        kind = (code >> 6) & 3
        self.turn = 1 - self.turn
        self.ply -= 1
        if kind != 3:
            colour = self.colors[sq]
            bit = 1 << sq
            nbit = ~bit
            self.heights[sq] = 0
            self.colors[sq] = 0
            h = self.hash ^ t.z_piece[sq * 2 * t.max_height + colour] ^ t.z_black
            if colour:
                self.black &= nbit
            else:
                self.white &= nbit
            if kind == 0:
                self.stones[colour] += 1
            elif kind == 1:
                self.stones[colour] += 1
                self.walls &= nbit
                h ^= t.z_wall[sq]
            else:
                self.capstones[colour] += 1
                self.caps &= nbit
                h ^= t.z_cap[sq]
            self.hash = h
            return
        direction, count, drops, crush = SLIDE_INFO[code >> 8]
        step = t.steps[direction]
        heights = self.heights
        colors = self.colors
        zp = t.z_piece
        h2 = 2 * t.max_height
        hsh = self.hash ^ t.z_black
        dest = sq + step * len(drops)
        dbit = 1 << dest
        walls = self.walls
        caps = self.caps
        white = self.white
        black = self.black
        if walls & dbit:
            top = 1
            walls ^= dbit
            hsh ^= t.z_wall[dest]
        elif caps & dbit:
            top = 2
            caps ^= dbit
            hsh ^= t.z_cap[dest]
            if crush:
                walls |= dbit
                hsh ^= t.z_wall[dest]
        else:
            top = 0
        carried = 0
        for d in reversed(drops):
            hd = heights[dest] - d
            bits = colors[dest]
            pb = bits >> hd
            rest = bits & ((1 << hd) - 1)
            colors[dest] = rest
            heights[dest] = hd
            carried = (carried << d) | pb
            idx = dest * h2 + 2 * hd
            for _ in range(d):
                hsh ^= zp[idx + (pb & 1)]
                idx += 2
                pb >>= 1
            dbit = 1 << dest
            if hd:
                if (rest >> (hd - 1)) & 1:
                    black |= dbit
                    white &= ~dbit
                else:
                    white |= dbit
                    black &= ~dbit
            else:
                white &= ~dbit
                black &= ~dbit
            dest -= step
        rem = heights[sq]
        colors[sq] |= carried << rem
        heights[sq] = rem + count
        idx = sq * h2 + 2 * rem
        c = carried
        for _ in range(count):
            hsh ^= zp[idx + (c & 1)]
            idx += 2
            c >>= 1
        bit = 1 << sq
        if (carried >> (count - 1)) & 1:
            black |= bit
            white &= ~bit
        else:
            white |= bit
            black &= ~bit
        if top == 1:
            walls |= bit
            hsh ^= t.z_wall[sq]
        elif top == 2:
            caps |= bit
            hsh ^= t.z_cap[sq]
        self.white = white
        self.black = black
        self.walls = walls
        self.caps = caps
        self.hash = hsh

    # ---- search helpers --------------------------------------------------------------
    def winning_move(self) -> int | None:
        """A move that wins by road for the side to move at once, or None."""
        turn = self.turn
        if self.ply < 2:
            return None
        t = self.t
        mine = (self.black if turn else self.white) & ~self.walls
        for code in self.moves():
            kind = (code >> 6) & 3
            if kind == 1:
                continue  # a wall never makes a road
            if kind != 3 and not _road(t, mine | 1 << (code & 63)):
                continue
            self.make(code)
            won = _road(t, (self.black if turn else self.white) & ~self.walls)
            self.unmake(code)
            if won:
                return code
        return None

    def perft(self, depth: int) -> int:
        """Leaf count `depth` plies deep, counting the last ply without making the moves."""
        if depth <= 0:
            return 1
        if self.result() is not None:
            return 0
        if depth == 1:
            return self.count_moves()
        total = 0
        make = self.make
        unmake = self.unmake
        for code in self.moves():
            make(code)
            total += self.perft(depth - 1)
            unmake(code)
        return total

    def perft_full(self, depth: int) -> int:
        """Leaf count with a full make/unmake of every move, the last ply included."""
        if depth <= 0:
            return 1
        if self.result() is not None:
            return 0
        make = self.make
        unmake = self.unmake
        total = 0
        if depth == 1:
            for code in self.moves():
                make(code)
                total += 1
                unmake(code)
            return total
        for code in self.moves():
            make(code)
            total += self.perft_full(depth - 1)
            unmake(code)
        return total


def _road(t: SizeTables, bits: int) -> bool:
    """Whether `bits` connect two opposite edges orthogonally (flood fill on bitboards)."""
    n = t.size
    if bits.bit_count() < n:
        return False
    not_first = t.not_col_first
    not_last = t.not_col_last
    for start, goal in ((t.row_first, t.row_last), (t.col_first, t.col_last)):
        front = bits & start
        if not front or not bits & goal:
            continue
        while True:
            if front & goal:
                return True
            grown = (
                front
                | (front << n)
                | (front >> n)
                | ((front << 1) & not_first)
                | ((front >> 1) & not_last)
            ) & bits
            if grown == front:
                break
            front = grown
    return False
