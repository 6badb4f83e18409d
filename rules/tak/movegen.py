"""Move generation, move counting, perft and the road-in-one search of the fast board.

A mixin of `rules.tak.board.Board`: it reads the board's bitboards and per-size tables
(see `rules.tak.tables`) and never changes the position except through make/unmake.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.tak.roads import completions, road
from rules.tak.tables import SLIDE_INFO

if TYPE_CHECKING:
    from rules.tak.tables import SizeTables

CAP_PLACEMENT = 2 << 6


class MoveGenerator:
    """Legal moves as int codes; mixed into `Board`."""

    __slots__ = ()

    if TYPE_CHECKING:
        t: SizeTables
        turn: int
        ply: int
        white: int
        black: int
        walls: int
        caps: int
        heights: list[int]
        stones: list[int]
        capstones: list[int]

        def make(self, code: int) -> None: ...
        def unmake(self, code: int) -> None: ...
        def result(self) -> tuple[int, str] | None: ...

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
            lengths = ray_len[sq]
            # up (+n) and right (+1): the nearest blocker is the lowest bit of the ray;
            # down (-n) and left (-1): the highest bit
            hit = masks[0] & blockers
            if hit:
                hb = hit & -hit
                d = (hb.bit_length() - 1 - sq) // n - 1
                if is_cap and walls & hb:
                    out += crushes[sq][0][d][: crush_len[carry][d]]
            else:
                d = lengths[0]
            if d:
                out += sq_slides[0][d][: lens[d]]
            hit = masks[1] & blockers
            if hit:
                bsq = hit.bit_length() - 1
                d = (sq - bsq) // n - 1
                if is_cap and (walls >> bsq) & 1:
                    out += crushes[sq][1][d][: crush_len[carry][d]]
            else:
                d = lengths[1]
            if d:
                out += sq_slides[1][d][: lens[d]]
            hit = masks[2] & blockers
            if hit:
                hb = hit & -hit
                d = hb.bit_length() - 2 - sq
                if is_cap and walls & hb:
                    out += crushes[sq][2][d][: crush_len[carry][d]]
            else:
                d = lengths[2]
            if d:
                out += sq_slides[2][d][: lens[d]]
            hit = masks[3] & blockers
            if hit:
                bsq = hit.bit_length() - 1
                d = sq - bsq - 1
                if is_cap and (walls >> bsq) & 1:
                    out += crushes[sq][3][d][: crush_len[carry][d]]
            else:
                d = lengths[3]
            if d:
                out += sq_slides[3][d][: lens[d]]
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

    # ---- search helpers --------------------------------------------------------------
    def winning_move(self) -> int | None:
        """A move that wins by road for the side to move at once, or None.

        Placements are found from the road groups without making moves; slides are
        tried only from stacks whose rays could complete a road.
        """
        turn = self.turn
        if self.ply < 2:
            return None
        t = self.t
        mine = (self.black if turn else self.white) & ~self.walls
        empty = t.full & ~(self.white | self.black)
        if self.stones[turn] or self.capstones[turn]:
            wins = completions(t, mine, empty)
            if wins:
                sq = (wins & -wins).bit_length() - 1
                return sq if self.stones[turn] else sq | CAP_PLACEMENT
        # A slide changes only its own square and the k squares it drops on: it can only
        # complete a road where mine | source | those k squares hold one. shortest[sq, dir]
        # is the smallest such k for the squares a slide can reach.
        shortest: dict[int, int] = {}
        own = self.black if turn else self.white
        walls = self.walls
        blockers = walls | self.caps
        is_cap = self.caps
        ray_len = t.ray_len
        ray_prefix = t.ray_prefix
        steps = t.steps
        while own:
            low = own & -own
            own ^= low
            sq = low.bit_length() - 1
            base = mine | low
            for direction in range(4):
                prefix = ray_prefix[sq][direction]
                reach = ray_len[sq][direction]
                step = steps[direction]
                for k in range(1, reach + 1):
                    target = 1 << (sq + step * k)
                    if target & blockers:
                        # a capstone may end on the first wall; nothing passes a blocker
                        reach = k if is_cap & low and walls & target else k - 1
                        break
                if reach and road(t, base | prefix[reach]):
                    k = 1
                    while not road(t, base | prefix[k]):
                        k += 1
                    shortest[sq << 2 | direction] = k
        if not shortest:
            return None
        for code in self.moves():
            if (code >> 6) & 3 != 3:
                continue
            need = shortest.get((code & 63) << 2 | (code >> 8) & 3)
            if need is None or len(SLIDE_INFO[code >> 8][2]) < need:
                continue
            self.make(code)
            won = road(t, (self.black if turn else self.white) & ~self.walls)
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
