"""Move generation, move counting, perft and the road-in-one search of the fast board.

A mixin of `rules.tak.board.Board`: it reads the board's bitboards and per-size tables
(see `rules.tak.tables`) and never changes the position except through make/unmake.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rules.tak.roads import completions, road
from rules.tak.tables import CRUSH_BIT, SLIDE_BITS, SLIDE_INFO

if TYPE_CHECKING:
    from rules.tak.tables import SizeTables

CAP_PLACEMENT: Final = 2 << 6


def slide_code_one(sq: int, direction: int) -> int:
    """The code of the one-piece slide from `sq` (drops (1,): composition index 0)."""
    return sq | SLIDE_BITS | direction << 8


class MoveGenerator:
    """Legal moves as int codes; mixed into `Board`."""

    __slots__ = ()

    # the board's state and methods this mixin reads (declared for type checkers and
    # for compiled builds; `Board` sets and defines them, without annotating them again:
    # see `Board.__init__`)
    t: SizeTables
    turn: int
    ply: int
    white: int
    black: int
    walls: int
    caps: int
    heights: list[int]
    colors: list[int]
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
        return self.slide_win(1) or None

    def slide_win(self, min_height: int) -> int:
        """A slide that wins by road for the side to move at once, from a stack of at
        least `min_height` pieces, or 0 (placements are not tried; the search asks for
        `min_height` 2, the spreads its cheaper one-piece step check leaves out).
        """
        # A slide changes only its own square and the k squares it drops on: it can only
        # complete a road where mine | source | those k squares hold one. A one-piece
        # stack has one slide per direction, judged exactly without making it; for
        # taller stacks the slides of a (square, direction) passing that bound are made,
        # those dropping on fewer squares than the bound needs skipped.
        turn = self.turn
        if self.ply < 2:
            return 0
        t = self.t
        mine = (self.black if turn else self.white) & ~self.walls
        own = self.black if turn else self.white
        walls = self.walls
        blockers = walls | self.caps
        is_cap = self.caps
        ray_len = t.ray_len
        ray_prefix = t.ray_prefix
        heights = self.heights
        n = t.size
        # the stacks to try and, for taller stacks only, a first bound for all of them at
        # once: mine and every square some slide could reach (blockers ignored) must
        # hold a road
        stacks: list[tuple[int, int, int]] = []  # (square, its bit, height)
        bound = 0
        while own:
            low = own & -own
            own ^= low
            sq = low.bit_length() - 1
            height = heights[sq]
            if height < min_height:
                continue
            stacks.append((sq, low, height))
            if min_height > 1:
                carry = height if height < n else n
                lengths = ray_len[sq]
                prefixes = ray_prefix[sq]
                bound |= low
                for direction in range(4):
                    length = lengths[direction]
                    bound |= prefixes[direction][length if length < carry else carry]
        if min_height > 1 and (not bound or not road(t, mine | bound)):
            return 0
        for sq, low, height in stacks:
            if height == 1 and walls & low:
                continue  # a lone wall leaves its square empty and tops the next with a wall
            carry = height if height < n else n
            lengths = ray_len[sq]
            prefixes = ray_prefix[sq]
            spans: list[tuple[int, int, bool]] = []  # (direction, reach, crush)
            reachable = 0
            for direction in range(4):
                reach = lengths[direction]
                if reach > carry:
                    reach = carry
                if not reach:
                    continue
                prefix = prefixes[direction]
                crush = False
                if prefix[reach] & blockers:
                    k = 1
                    while not prefix[k] & blockers:
                        k += 1
                    # a capstone may end on the first wall; nothing passes a blocker
                    crush = bool(is_cap & low and walls & prefix[k] & ~prefix[k - 1])
                    reach = k if crush else k - 1
                    if not reach:
                        continue
                reachable |= prefix[reach]
                spans.append((direction, reach, crush))
            base = mine | low
            if not spans or not road(t, base | reachable):
                continue
            for direction, reach, crush in spans:
                prefix = prefixes[direction]
                if height == 1:
                    if road(t, (mine & ~low) | prefix[1]):
                        code = slide_code_one(sq, direction)
                        return code | CRUSH_BIT if crush else code
                    continue
                if not road(t, base | prefix[reach]):
                    continue
                need = 1
                while not road(t, base | prefix[need]):
                    need += 1
                plain = reach - 1 if crush else reach
                codes = t.slides[sq][direction][plain][: t.count_len[carry][plain]]
                if crush:
                    codes = codes + t.crushes[sq][direction][plain][: t.crush_len[carry][plain]]
                found = self._slide_road(sq, direction, reach, need, codes, mine)
                if found:
                    return found
        return 0

    def _slide_road(
        self, sq: int, direction: int, reach: int, need: int, codes: list[int], mine: int
    ) -> int:
        """The first of `codes` (slides from `sq` towards `direction`, at most `reach`
        squares) that completes a road for the side to move, or 0. The squares each slide
        leaves on top are read from the stack's colours, without making the slide."""
        t = self.t
        turn = self.turn
        low = 1 << sq
        bits = self.colors[sq]
        height = self.heights[sq]
        top_wall = self.walls & low
        path = t.ray_prefix[sq][direction]
        step = t.steps[direction]
        cleared = mine & ~low & ~path[reach]
        seen: set[int] = set()
        for code in codes:
            drops = SLIDE_INFO[code >> 8][2]
            span = len(drops)
            if span < need:
                continue
            rem = height - SLIDE_INFO[code >> 8][1]
            carried = bits >> rem
            road_bits = cleared | (path[reach] & ~path[span] & mine)
            if rem and (bits >> (rem - 1)) & 1 == turn:
                road_bits |= low
            dest = sq
            index = 0
            for d in drops:
                dest += step
                index += d
                if (carried >> (index - 1)) & 1 == turn:
                    road_bits |= 1 << dest
            if top_wall:
                road_bits &= ~(1 << dest)
            if road_bits not in seen:
                seen.add(road_bits)
                if road(t, road_bits):
                    return code
        return 0

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
