"""Static evaluation of a Tak position for the built-in bots, in centi-flats.

Works straight on the bitboards of `rules.tak.board.Board`. Terms (each side, then the
difference from the side to move's point of view):

The weights come from `bots/tak/weights.json` (fitted on self-play positions by
`benchmarks/tak_texel.py`; see docs/bots.md).

* flat count: 100 per top flat, komi (`half_komi * 50`) counted against black; when
  either side holds fewer than `ENDGAME` pieces (or fewer squares are empty) the other
  terms fade out and each flat weighs up to 220;
* placement: small bonuses for flats and larger ones for capstones near the centre;
* roads: every orthogonally connected group of road pieces scores by its span (ranks or
  files covered, whichever is larger), growing steeply as it nears a full road; each
  empty square where a placement would complete a road is a *threat*;
* stacks: pieces of the top's colour buried in a stack (reserves) and enemy pieces held
  under it (captives), worth more under a wall or capstone;
* walls: a base value plus a bonus for each adjacent enemy road piece they block;
  capstones: a base value plus their placement bonus;
* control: each empty square next to more of one side's road pieces than the other's
  (counted up to two) belongs to that side.

`win_squares(t, bits, empty)` (the empty squares where a placement completes a road) is
exact and cheap: four flood fills. The search uses it for its win-in-one check.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any, Final

from rules.tak.board import Board
from rules.tak.roads import component, road
from rules.tak.tables import MAX_SIZE, SizeTables

ENDGAME: Final = 8  # pieces in hand (or empty squares) below which the flat count takes over


#: an environment variable naming a weights file to use instead of the package's (for
#: fitting and testing weights without a reinstall; see docs/bots.md)
WEIGHTS_ENV: Final = "TEI_TAK_WEIGHTS"


def load_weights(text: str | None = None) -> dict[str, dict[str, Any]]:
    """The evaluation's weights by board size ("all", or a size's own set overriding
    it, on top of the set its `base` names if it has one): `text` (JSON), the file named
    by $TEI_TAK_WEIGHTS, or the package's `weights.json`."""
    if text is None:
        path = os.environ.get(WEIGHTS_ENV)
        if path:
            text = Path(path).read_text()
        else:
            text = resources.files("bots.tak").joinpath("weights.json").read_text()
    weights: dict[str, dict[str, Any]] = json.loads(text)
    return weights


WEIGHTS = load_weights()


def weights_for(size: int) -> dict[str, Any]:
    """The weights of one board size: "all", then the set its own set names as `base`
    (7x7 and 8x8 take the 6x6 fit with their own road spans), then its own set."""
    own = WEIGHTS.get(str(size), {})
    base = own.get("base")
    if base is not None and base not in WEIGHTS:
        raise ValueError(f"the weights of size {size} name the base {base!r}, not a set")
    merged = {**WEIGHTS["all"], **(WEIGHTS[base] if base is not None else {}), **own}
    merged.pop("base", None)
    return merged


#: the side to move completes a road at once (the search scores this as a proven win)
WIN_NOW: Final = 20_000


def _by_top(values: list[Any]) -> tuple[int, int, int, int]:
    """Four stack weights (flat in danger, flat, wall, capstone) from three or four."""
    four = [int(v) for v in values]
    if len(four) == 3:
        four.append(four[2])
    return four[0], four[1], four[2], four[3]


class EvalTables:
    """Per-size constants of the evaluation."""

    def __init__(self, size: int) -> None:
        n = self.size = size
        w = weights_for(size)
        self.flat = int(w["flat"])
        self.tempo = int(w["tempo"])
        #: extra weight of a flat per piece below ENDGAME
        self.endgame_flat = int(w["endgame_flat"])
        self.wall = int(w["wall"])
        self.wall_block = int(w["wall_block"])
        self.cap = int(w.get("cap", 0))
        self.control = int(w.get("control", 0))
        #: per own piece buried in a stack (within the carry limit), by the safety of its
        #: top: a flat next to an enemy top (it can be captured), another flat, a wall, a
        #: capstone (a set of three gives walls' value to capstones); captives: per enemy
        #: piece held down, same order
        self.reserve = _by_top(w["reserve"])
        self.captive = _by_top(w["captive"])
        #: the side not to move has one placement win (a tempo to block), or more
        self.threat_one = int(w["threat_one"])
        self.threat_many = int(w["threat_many"])
        centre = (n - 1) / 2
        self.flat_pst: list[int] = []
        self.cap_pst: list[int] = []
        for sq in range(n * n):
            rank, file = divmod(sq, n)
            dist = abs(rank - centre) + abs(file - centre)  # 0 at the centre
            edge = 1.0 - dist / (2 * centre) if centre else 1.0
            self.flat_pst.append(max(0, min(255, round(w["flat_centre"] * edge))))
            self.cap_pst.append(round(w["cap_centre"] * edge))
        #: the flat bonuses as bit planes: sum = sum(popcount(bits & plane[k]) << k)
        self.flat_planes = [
            sum(1 << sq for sq, v in enumerate(self.flat_pst) if v >> k & 1)
            for k in range(max(self.flat_pst).bit_length())
        ]
        full = (1 << (n * n)) - 1
        cols = [sum(1 << (r * n + f) for r in range(n)) for f in range(n)]
        #: masks keeping the files that a right shift by 1, 2, 4 does not wrap into
        self.keep1 = full & ~sum(cols[max(0, n - 1) :])
        self.keep2 = full & ~sum(cols[max(0, n - 2) :])
        self.keep4 = full & ~sum(cols[max(0, n - 4) :])
        #: by span: the size's own list for spans 2..n-1 (`spans`), else a cubic curve
        spans = w.get("spans")
        if spans is not None:
            self.span_bonus = [0, 0, *(int(v) for v in spans[: n - 2]), 0]
            self.span_bonus += [0] * (n + 1 - len(self.span_bonus))
        else:
            span = w["group_span"]
            self.span_bonus = [round(span * (s / n) ** 3) if s < n else 0 for s in range(n + 1)]


_EVAL_TABLES: Final[list[EvalTables | None]] = [None] * (MAX_SIZE + 1)


def eval_tables(size: int) -> EvalTables:
    """The (cached) evaluation tables of a size (a list, not `functools.cache`: the
    search asks at every node, and a compiled build calls this directly)."""
    et = _EVAL_TABLES[size]
    if et is None:
        et = _EVAL_TABLES[size] = EvalTables(size)
    return et


def neighbours(t: SizeTables, bits: int) -> int:
    """The squares orthogonally next to `bits` (not `bits` themselves unless adjacent)."""
    n = t.size
    return (
        (bits << n) | (bits >> n) | ((bits << 1) & t.not_col_first) | ((bits >> 1) & t.not_col_last)
    ) & t.full


def _touching(t: SizeTables, bits: int) -> tuple[int, int]:
    """The squares next to at least one, and to at least two, of `bits`."""
    n = t.size
    a = (bits << n) & t.full
    b = bits >> n
    c = (bits << 1) & t.not_col_first
    d = (bits >> 1) & t.not_col_last
    return a | b | c | d, (a & b) | ((a | b) & c) | ((a | b | c) & d)


def control_squares(t: SizeTables, mine: int, theirs: int) -> tuple[int, int]:
    """The squares next to more of `mine` than of `theirs`, and the other way round
    (neighbours counted up to two)."""
    m1, m2 = _touching(t, mine)
    t1, t2 = _touching(t, theirs)
    return (m2 & ~t2) | (m1 & ~t1), (t2 & ~m2) | (t1 & ~m1)


def _gap_fillers(gaps: int, empty: int, line: int) -> int:
    """The empty squares one placement could fill a road's gaps from: every one with no
    gap, none with two or more, else those on the one gap's line (`line * gaps`)."""
    if not gaps:
        return empty
    if gaps & (gaps - 1):
        return 0
    return empty & line * gaps


def win_squares(t: SizeTables, bits: int, empty: int) -> int:
    """Empty squares where one placement joins the road pieces `bits` into a road."""
    n = t.size
    if bits.bit_count() < n - 1:
        return 0
    row_first = t.row_first
    col_first = t.col_first
    # a road along the files needs a piece on every rank, and one across the ranks a
    # piece on every file: one placement can fill at most one gap
    x = bits | bits >> n
    x |= x >> 2 * n
    files = (x | x >> 4 * n) & row_first
    et = eval_tables(n)
    x = bits | (bits >> 1) & et.keep1
    x |= (x >> 2) & et.keep2
    ranks = (x | (x >> 4) & et.keep4) & col_first
    ns = _gap_fillers(col_first & ~ranks, empty, row_first)
    ew = _gap_fillers(row_first & ~files, empty, col_first)
    if not ns | ew:
        return 0
    nf = t.not_col_first
    nl = t.not_col_last
    out = 0
    for cand, first, last in ((ns, row_first, t.row_last), (ew, col_first, t.col_last)):
        if not cand:
            continue
        a = component(t, bits & first, bits)
        cand &= first | ((a << n) | (a >> n) | ((a << 1) & nf) | ((a >> 1) & nl))
        if not cand:
            continue
        b = component(t, bits & last, bits)
        out |= cand & (last | ((b << n) | (b >> n) | ((b << 1) & nf) | ((b >> 1) & nl)))
    return out


def step_wins(board: Board, turn: int) -> int:
    """Squares where side `turn` completes a road by moving its flat or capstone from the
    top of a neighbouring stack onto them (an empty square or an enemy flat): each is a
    move that wins at once, whatever it uncovers. Exact for these one-piece steps;
    walls' steps, longer spreads and capstone crushes are left to the search."""
    t = board.t
    mine = board.black if turn else board.white
    road_bits = mine & ~board.walls
    if road_bits.bit_count() < t.size - 1:
        return 0
    targets = neighbours(t, road_bits) & ~(board.walls | board.caps | mine)
    cands = win_squares(t, road_bits, targets) if targets else 0
    out = 0
    heights = board.heights
    colors = board.colors
    while cands:
        low = cands & -cands
        cands ^= low
        movers = neighbours(t, low) & road_bits
        while movers:
            m = movers & -movers
            movers ^= m
            sq = m.bit_length() - 1
            h = heights[sq]
            after = road_bits | low
            if h < 2 or (colors[sq] >> (h - 2)) & 1 != turn:
                after &= ~m  # the square left behind is empty or the opponent's
            if road(t, after):
                out |= low
                break
    return out


def spread_threat(board: Board) -> bool:
    """Whether the side not to move would complete a road with one slide of a stack of
    two or more pieces if it were its turn (the spreads `step_wins` leaves out)."""
    board.turn ^= 1  # slide_win reads the turn only; the hash is left as it is
    found = board.slide_win(2)
    board.turn ^= 1
    return found != 0


def _groups_score(t: SizeTables, et: EvalTables, bits: int) -> int:
    """Sum over connected groups of road pieces of the span bonus."""
    n = t.size
    row_first = t.row_first
    col_first = t.col_first
    bonus = et.span_bonus
    keep1 = et.keep1
    keep2 = et.keep2
    keep4 = et.keep4
    total = 0
    # pieces without a neighbour of their colour span 1 and score nothing
    rest = bits & neighbours(t, bits)
    while rest:
        group = component(t, rest & -rest, rest)
        rest ^= group
        x = group | group >> n
        x |= x >> 2 * n
        files = (x | x >> 4 * n) & row_first
        x = group | (group >> 1) & keep1
        x |= (x >> 2) & keep2
        ranks = (x | (x >> 4) & keep4) & col_first
        span = max(files.bit_count(), ranks.bit_count())
        total += bonus[span]
    return total


def evaluate(board: Board) -> int:
    """Static value for the side to move, in centi-flats (WIN_NOW if it wins at once)."""
    t = board.t
    if board.ply < 2:
        return static(board, 0)
    empty = t.full & ~(board.white | board.black)
    w_road = board.white & ~board.walls
    b_road = board.black & ~board.walls
    mine, theirs = (b_road, w_road) if board.turn else (w_road, b_road)
    if win_squares(t, mine, empty):
        return WIN_NOW
    return static(board, win_squares(t, theirs, empty).bit_count())


def static(board: Board, their_wins: int) -> int:
    """The evaluation of a position where the side to move has no placement win and the
    opponent has `their_wins` squares where a placement would make it a road."""
    t = board.t
    et = eval_tables(board.size)
    white = board.white
    black = board.black
    walls = board.walls
    caps = board.caps
    turn = board.turn
    w_road = white & ~walls
    b_road = black & ~walls
    standing = walls | caps
    w_flats = white & ~standing
    b_flats = black & ~standing
    flats = 2 * (w_flats.bit_count() - b_flats.bit_count()) - board.half_komi
    score = 0
    # placement
    for k, plane in enumerate(et.flat_planes):
        score += ((w_flats & plane).bit_count() - (b_flats & plane).bit_count()) << k
    cap_pst = et.cap_pst
    cap = et.cap
    x = caps
    while x:
        low = x & -x
        sq = low.bit_length() - 1
        score += cap + cap_pst[sq] if white & low else -cap - cap_pst[sq]
        x ^= low
    # control of the empty squares
    if et.control:
        empty = t.full & ~(white | black)
        w_ctrl, b_ctrl = control_squares(t, w_road, b_road)
        score += et.control * ((w_ctrl & empty).bit_count() - (b_ctrl & empty).bit_count())
    # walls: a base value plus the enemy road pieces they touch
    wall = et.wall
    wall_block = et.wall_block
    x = walls
    while x:
        low = x & -x
        near = neighbours(t, low)
        if white & low:
            score += wall + wall_block * (near & b_road).bit_count()
        else:
            score -= wall + wall_block * (near & w_road).bit_count()
        x ^= low
    # stacks: reserves and captives within the carry limit
    reserve = et.reserve
    captive = et.captive
    colors = board.colors
    n = t.size
    for sq, h in enumerate(board.heights):
        if h < 2:
            continue
        low = h - n if h > n else 0
        count = h - 1 - low
        blacks = ((colors[sq] >> low) & ((1 << count) - 1)).bit_count()
        bit = 1 << sq
        black_top = black & bit
        if standing & bit:
            safety = 3 if caps & bit else 2
        else:
            safety = 0 if neighbours(t, bit) & (white if black_top else black) else 1
        if black_top:
            score -= reserve[safety] * blacks + captive[safety] * (count - blacks)
        else:
            score += reserve[safety] * (count - blacks) + captive[safety] * blacks
    # roads
    score += _groups_score(t, et, w_road) - _groups_score(t, et, b_road)
    # near the end (few pieces in hand or few empty squares) the flat count takes over
    stones = board.stones
    capstones = board.capstones
    left = min(
        stones[0] + capstones[0],
        stones[1] + capstones[1],
        t.squares - (white | black).bit_count(),
    )
    if left < ENDGAME:
        weight = et.flat + et.endgame_flat * (ENDGAME - left)
        score = score * left // ENDGAME + flats * weight // 2
    else:
        score += flats * et.flat // 2
    value = et.tempo + (-score if turn else score)
    if their_wins:
        value -= et.threat_many if their_wins > 1 else et.threat_one
    return value
