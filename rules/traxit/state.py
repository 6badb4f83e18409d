"""Immutable Traxit positions and the transition rules (legal actions, apply).

A `Layout` holds what never changes during a game (seats, obstacles, set shape, rule
switches); a `State` is one position. `apply` returns a new State, so search and undo are
just keeping references.
"""

from __future__ import annotations

import attrs

from rules.game import IllegalAction
from rules.traxit.actions import CHOICES, MOVES, PLACES, RELOCATES, Action
from rules.traxit.board import (
    BONUS_POINTS,
    EDGE_CELLS,
    EDGE_MASK,
    LEVEL,
    POINTS,
    START_ROWS,
    cell_name,
)
from rules.traxit.tiles import TILE_COUNT, TILE_IDS, route_table

PLACE, CHOOSE, MOVE, TRAXIT, END = range(5)
PHASE_NAMES = ("place", "choose", "move", "traxit", "end")

#: bonus flag values: not earned (yet) / earned, added at the set's scoring / already added
BONUS_NONE, BONUS_PENDING, BONUS_PAID = 0, 1, 2


@attrs.frozen
class Layout:
    """The fixed frame of a game: seats in turn order and the rule switches."""

    owners: str  # one colour letter per seat, in turn order
    sides: str  # one side letter (S W N E) per seat
    obstacles: int  # cell mask
    teams: bool = False
    sets: int = 4
    rounds: int = 4
    mirror: bool = False
    bonus_game: bool = False  # bonus at most once per game instead of once per set

    @property
    def players(self) -> int:
        return len(self.owners)

    @property
    def tiles_per_player(self) -> int:
        return self.sets * self.rounds


@attrs.frozen
class State:
    """One position. `mover` is the seat whose turn it is (its chooser acts first)."""

    pawns: tuple[int, ...]  # 2 per seat, each pair sorted; -1 = not placed yet
    occ: int  # cells holding a pawn or an obstacle
    phase: int
    mover: int
    tile: int  # the tile given to the mover (MOVE, TRAXIT), else -1
    set_no: int
    round_no: int
    paths: tuple[int, ...]  # remaining tiles per seat, bit i = TILES[i] (given tile included)
    scores: tuple[int, ...]
    bonus: tuple[int, ...]


def start_state(layout: Layout, paths: tuple[int, ...]) -> State:
    n = layout.players
    return State(
        pawns=(-1,) * (2 * n),
        occ=layout.obstacles,
        phase=PLACE,
        mover=0,
        tile=-1,
        set_no=1,
        round_no=1,
        paths=paths,
        scores=(0,) * n,
        bonus=(0,) * n,
    )


def actor(layout: Layout, st: State) -> int:
    """The seat that acts: the chooser when choosing or relocating, else the mover."""
    if st.phase in (CHOOSE, TRAXIT):
        return (st.mover - 1) % layout.players
    if st.phase == END:
        return 0
    return st.mover


def tile_moves(layout: Layout, st: State, tile: int) -> list[Action]:
    """The mover's moves with `tile` (at most 4 destinations per pawn)."""
    routes = route_table(layout.mirror)[tile]
    occ = st.occ
    out = []
    for cell in st.pawns[2 * st.mover : 2 * st.mover + 2]:
        row = MOVES[cell]
        for dest, masks in routes[cell]:
            for mask in masks:
                if not mask & occ:
                    out.append(row[dest])
                    break
    return out


def has_move(layout: Layout, st: State, seat: int, tile: int) -> bool:
    routes = route_table(layout.mirror)[tile]
    occ = st.occ
    for cell in st.pawns[2 * seat : 2 * seat + 2]:
        for _dest, masks in routes[cell]:
            for mask in masks:
                if not mask & occ:
                    return True
    return False


def relocations(st: State) -> list[Action]:
    free = EDGE_MASK & ~st.occ
    cells = [c for c in EDGE_CELLS if free >> c & 1]
    out: list[Action] = []
    for cell in st.pawns[2 * st.mover : 2 * st.mover + 2]:
        row = RELOCATES[cell]
        out.extend(row[c] for c in cells)
    return out


def placements(layout: Layout, st: State) -> list[Action]:
    occ = st.occ
    return [PLACES[c] for c in START_ROWS[layout.sides[st.mover]] if not occ >> c & 1]


def legal(layout: Layout, st: State) -> list[Action]:
    phase = st.phase
    if phase == CHOOSE:
        bits = st.paths[st.mover]
        return [CHOICES[t] for t in range(TILE_COUNT) if bits >> t & 1]
    if phase == MOVE:
        return tile_moves(layout, st, st.tile)
    if phase == TRAXIT:
        return relocations(st)
    if phase == PLACE:
        return placements(layout, st)
    return []


def _pair(pawns: tuple[int, ...], seat: int, old: int, new: int) -> tuple[int, ...]:
    a, b = pawns[2 * seat], pawns[2 * seat + 1]
    if a == old:
        a = new
    else:
        b = new
    if a > b:
        a, b = b, a
    return (*pawns[: 2 * seat], a, b, *pawns[2 * seat + 2 :])


def _both_on_top(pawns: tuple[int, ...], seat: int) -> bool:
    a, b = pawns[2 * seat], pawns[2 * seat + 1]
    return a >= 0 and b >= 0 and LEVEL[a] == 4 and LEVEL[b] == 4


def _end_turn(layout: Layout, st: State, pawns: tuple[int, ...], occ: int) -> State:
    """Close the mover's turn: next mover, next round, scoring at the end of a set."""
    n = layout.players
    bonus = st.bonus
    if st.phase == MOVE and bonus[st.mover] == BONUS_NONE and _both_on_top(pawns, st.mover):
        bonus = (*bonus[: st.mover], BONUS_PENDING, *bonus[st.mover + 1 :])
    set_no, round_no, scores = st.set_no, st.round_no, st.scores
    paths = (*st.paths[: st.mover], st.paths[st.mover] & ~(1 << st.tile), *st.paths[st.mover + 1 :])
    phase = CHOOSE
    mover = st.mover + 1
    if mover == n:
        mover = 0
        if round_no < layout.rounds:
            round_no += 1
        else:
            scores = tuple(
                scores[s]
                + POINTS[pawns[2 * s]]
                + POINTS[pawns[2 * s + 1]]
                + (BONUS_POINTS if bonus[s] == BONUS_PENDING else 0)
                for s in range(n)
            )
            paid = BONUS_PAID if layout.bonus_game else BONUS_NONE
            bonus = tuple(paid if b == BONUS_PENDING else b for b in bonus)
            if set_no < layout.sets:
                set_no, round_no = set_no + 1, 1
                bonus = tuple(
                    BONUS_PENDING if b == BONUS_NONE and _both_on_top(pawns, s) else b
                    for s, b in enumerate(bonus)
                )
            else:
                phase, mover = END, 0
    return State(pawns, occ, phase, mover, -1, set_no, round_no, paths, scores, bonus)


def apply(layout: Layout, st: State, action: Action) -> State:
    """The position after `action`; IllegalAction (naming it) when it is not legal."""
    phase, kind = st.phase, action.kind
    if phase == END:
        raise IllegalAction(f"{action}: the game is over")
    who = layout.owners[actor(layout, st)]
    expected = PHASE_KIND[phase]
    if kind != expected:
        raise IllegalAction(f"{action}: {who} must {PHASE_VERB[phase]} now")
    if kind == "choose":
        return _choose(layout, st, action)
    if kind == "move":
        if action not in tile_moves(layout, st, st.tile):
            raise IllegalAction(
                f"{action}: not a move of {who} with {TILE_IDS[st.tile]} here "
                f"(pawn missing, route blocked or off the board)"
            )
    elif kind == "relocate":
        if action not in relocations(st):
            raise IllegalAction(
                f"{action}: {cell_name(action.src)} must hold a pawn of "
                f"{layout.owners[st.mover]} and {cell_name(action.dst)} must be an empty "
                f"edge cell"
            )
    elif action not in placements(layout, st):
        raise IllegalAction(
            f"{action}: {who} places on an empty cell of its start row "
            f"({layout.sides[st.mover]} side, corners excluded)"
        )
    return apply_unchecked(layout, st, action)


def _choose(layout: Layout, st: State, action: Action) -> State:
    tile = action.src
    if not st.paths[st.mover] >> tile & 1:
        raise IllegalAction(
            f"{action}: {layout.owners[st.mover]} has no tile {TILE_IDS[tile]} left"
        )
    return apply_unchecked(layout, st, action)


def apply_unchecked(layout: Layout, st: State, action: Action) -> State:
    """Apply an action known to be legal (from `legal`)."""
    kind = action.kind
    if kind == "choose":
        tile = action.src
        phase = MOVE if has_move(layout, st, st.mover, tile) else TRAXIT
        return attrs.evolve(st, phase=phase, tile=tile)
    if kind == "place":
        cell, n = action.dst, layout.players
        pawns = _pair(st.pawns, st.mover, -1, cell)
        occ = st.occ | 1 << cell
        placed = sum(1 for p in pawns if p >= 0)
        if placed == 2 * n:
            return attrs.evolve(st, pawns=pawns, occ=occ, phase=CHOOSE, mover=0)
        return attrs.evolve(st, pawns=pawns, occ=occ, mover=placed % n)
    pawns = _pair(st.pawns, st.mover, action.src, action.dst)
    occ = st.occ & ~(1 << action.src) | 1 << action.dst
    return _end_turn(layout, st, pawns, occ)


PHASE_KIND = ("place", "choose", "move", "relocate", "")
PHASE_VERB = (
    "place a pawn (@cell)",
    "choose a tile (T01..T16)",
    "move a pawn (from-to)",
    "relocate the trapped player's pawn (!from-to)",
    "",
)
