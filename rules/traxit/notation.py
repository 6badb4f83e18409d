"""TraxitPS, the Traxit position string: format and parse with validation.

`TX <board> <seats> <turn> <clock> <paths> <scores> <bonus> [team] [mirror] [bonus=game]`

- board: ranks 8..1 separated by `/`, files a..h; a digit = that many empty cells, `x` an
  obstacle, a colour letter (R B G Y) a pawn of that owner.
- seats: owners in turn order with their sides, e.g. `R@S,G@N`.
- turn: `R:place`, `R:choose` (R's chooser picks one of R's tiles), `R:T08` (R moves with
  T08), `R:traxit:T08` (R has no move with T08; the chooser relocates), or `end`.
- clock: `<set>.<round>`, with `/<sets>x<rounds>` appended when not 4x4 (`/3x3`: short game).
- paths: remaining tiles per seat, 4 hex digits each (bit i-1 = Ti); a tile given to the
  mover stays listed until its turn ends.
- scores: points per seat; bonus: one digit per seat, 0 none, 1 earned in this set
  (added at its scoring), 2 already added (only with bonus=game).
"""

from __future__ import annotations

from rules.game import NotationError, Options, PositionError
from rules.traxit.board import (
    CELLS,
    COLOURS,
    OBSTACLE_CELLS,
    OBSTACLE_PAIRS,
    SIDES,
    START_ROWS,
    cell_name,
    xy_cell,
)
from rules.traxit.options import check_options
from rules.traxit.state import (
    BONUS_PAID,
    CHOOSE,
    END,
    MOVE,
    PLACE,
    TRAXIT,
    Layout,
    State,
    has_move,
)
from rules.traxit.tiles import ALL_TILES_MASK, TILE_IDS, parse_tile

TAG = "TX"


def format_position(layout: Layout, st: State) -> str:
    grid: list[str] = ["."] * CELLS
    for cell in range(CELLS):
        if layout.obstacles >> cell & 1:
            grid[cell] = "x"
    for index, cell in enumerate(st.pawns):
        if cell >= 0:
            grid[cell] = layout.owners[index // 2]
    ranks = []
    for y in range(7, -1, -1):
        text, run = "", 0
        for x in range(8):
            mark = grid[xy_cell(x, y)]
            if mark == ".":
                run += 1
                continue
            if run:
                text, run = text + str(run), 0
            text += mark
        ranks.append(text + (str(run) if run else ""))
    seats = ",".join(f"{o}@{s}" for o, s in zip(layout.owners, layout.sides, strict=True))
    owner = layout.owners[st.mover]
    turn = {
        PLACE: f"{owner}:place",
        CHOOSE: f"{owner}:choose",
        MOVE: f"{owner}:{TILE_IDS[st.tile]}" if st.tile >= 0 else "",
        TRAXIT: f"{owner}:traxit:{TILE_IDS[st.tile]}" if st.tile >= 0 else "",
        END: "end",
    }[st.phase]
    clock = f"{st.set_no}.{st.round_no}"
    if (layout.sets, layout.rounds) != (4, 4):
        clock += f"/{layout.sets}x{layout.rounds}"
    words = [
        TAG,
        "/".join(ranks),
        seats,
        turn,
        clock,
        ",".join(f"{p:04x}" for p in st.paths),
        ",".join(str(s) for s in st.scores),
        "".join(str(b) for b in st.bonus),
    ]
    if layout.teams:
        words.append("team")
    if layout.mirror:
        words.append("mirror")
    if layout.bonus_game:
        words.append("bonus=game")
    return " ".join(words)


def _fail(text: str, problem: str) -> PositionError:
    return PositionError(f"TraxitPS {text!r}: {problem}")


def parse_position(text: str, options: Options | None = None) -> tuple[Layout, State]:
    """Parse and validate a TraxitPS; NotationError/PositionError name the problem."""
    words = text.split()
    if not words or words[0].upper() != TAG:
        raise NotationError(f"TraxitPS {text!r}: must start with {TAG!r}")
    if len(words) < 8:
        raise NotationError(
            f"TraxitPS {text!r}: expected TX board seats turn clock paths scores bonus [flags]"
        )
    _, board, seats_text, turn_text, clock_text, paths_text, scores_text, bonus_text = words[:8]
    flags = {w.lower() for w in words[8:]}
    unknown = flags - {"team", "mirror", "bonus=game", "bonus=set"}
    if unknown:
        raise NotationError(f"TraxitPS {text!r}: unknown flag(s) {', '.join(sorted(unknown))}")
    opts = check_options(options)
    owners, sides = _read_seats(text, seats_text)
    n = len(owners)
    obstacles, cells_of = _read_board(text, board, owners)
    sets, rounds, set_no, round_no = _read_clock(text, clock_text)
    teams = "team" in flags or opts.get("teams") == "true"
    if teams and n != 4:
        raise _fail(text, "team play needs 4 players")
    mirror = "mirror" in flags or opts.get("allow_mirror") == "true"
    bonus_per = opts.get("bonus_per", "set")
    bonus_game = "bonus=game" in flags or ("bonus=set" not in flags and bonus_per == "game")
    layout = Layout(owners, sides, obstacles, teams, sets, rounds, mirror, bonus_game)
    phase, mover, tile = _read_turn(text, turn_text, owners)
    paths, scores, bonus = _read_tallies(text, paths_text, scores_text, bonus_text, layout)
    pawns = _placed_pawns(text, layout, cells_of, phase, mover, (set_no, round_no))
    occ = obstacles
    for c in pawns:
        if c >= 0:
            occ |= 1 << c
    st = State(tuple(pawns), occ, phase, mover, tile, set_no, round_no, paths, scores, bonus)
    _check_tiles(text, layout, st)
    return layout, st


def _read_seats(text: str, seats_text: str) -> tuple[str, str]:
    """The seats' colours and sides, in seat order."""
    owners, sides = "", ""
    for item in seats_text.split(","):
        owner, sep, side = item.upper().partition("@")
        if not sep or owner not in COLOURS or len(owner) != 1 or side not in SIDES or not side:
            raise NotationError(
                f"TraxitPS {text!r}: seat {item!r} is not <colour>@<side> (colours RBGY, "
                f"sides SWNE)"
            )
        if owner in owners or side in sides:
            raise _fail(text, f"seat {item!r} repeats a colour or a side")
        owners, sides = owners + owner, sides + side
    if not 2 <= len(owners) <= 4:
        raise _fail(text, f"{len(owners)} seats; Traxit has 2 to 4 players")
    return owners, sides


def _read_board(text: str, board: str, owners: str) -> tuple[int, dict[str, list[int]]]:
    """The obstacle mask and each colour's pawn cells."""
    ranks = board.split("/")
    if len(ranks) != 8:
        raise NotationError(f"TraxitPS {text!r}: the board needs 8 ranks, got {len(ranks)}")
    obstacles = 0
    cells_of: dict[str, list[int]] = {o: [] for o in owners}
    for row, rank in enumerate(ranks):
        y, x = 7 - row, 0
        for ch in rank:
            if ch.isdigit() and ch != "0":
                x += int(ch)
                continue
            if x >= 8:
                break
            cell = xy_cell(x, y)
            if ch.lower() == "x":
                obstacles |= 1 << cell
            elif ch.upper() in cells_of:
                cells_of[ch.upper()].append(cell)
            else:
                raise NotationError(
                    f"TraxitPS {text!r}: {ch!r} on {cell_name(cell)} is no obstacle (x) "
                    f"nor a seated colour ({owners})"
                )
            x += 1
        if x != 8:
            raise NotationError(
                f"TraxitPS {text!r}: rank {8 - row} ({rank!r}) does not describe 8 cells"
            )
    n = len(owners)
    bad = [cell_name(c) for c in range(CELLS) if obstacles >> c & 1 and c not in OBSTACLE_CELLS]
    if bad:
        raise _fail(text, f"obstacle on {', '.join(bad)} (only c3, f3, c6, f6 may hold one)")
    count = bin(obstacles).count("1")
    if count != 2 * (4 - n):
        raise _fail(text, f"{count} obstacles; {n} players need {2 * (4 - n)}")
    if n == 3 and frozenset(c for c in OBSTACLE_CELLS if obstacles >> c & 1) not in OBSTACLE_PAIRS:
        raise _fail(text, "with 3 players the two obstacles must be diagonally opposite")
    return obstacles, cells_of


def _read_clock(text: str, clock_text: str) -> tuple[int, int, int, int]:
    """(sets, rounds per set, set number, round number) of `<set>.<round>[/<s>x<r>]`."""
    clock, _, shape = clock_text.partition("/")
    sets, rounds = 4, 4
    try:
        set_no, round_no = (int(v) for v in clock.split("."))
        if shape:
            sets, rounds = (int(v) for v in shape.lower().split("x"))
    except ValueError:
        raise NotationError(
            f"TraxitPS {text!r}: clock {clock_text!r} is not <set>.<round>[/<sets>x<rounds>]"
        ) from None
    if not (sets >= 1 and rounds >= 1 and sets * rounds <= 16):
        raise _fail(text, f"game shape {sets}x{rounds} needs at most 16 tiles per player")
    if not (1 <= set_no <= sets and 1 <= round_no <= rounds):
        raise _fail(text, f"clock {clock_text!r} is outside {sets} sets of {rounds} rounds")
    return sets, rounds, set_no, round_no


def _read_turn(text: str, turn_text: str, owners: str) -> tuple[int, int, int]:
    """(phase, mover, tile) of `<seat>:place|choose|Tnn`, `<seat>:traxit:Tnn` or `end`."""
    tile = -1
    if turn_text.lower() == "end":
        return END, 0, tile
    parts = turn_text.split(":")
    owner = parts[0].upper()
    if owner not in owners or len(parts) not in (2, 3):
        raise NotationError(
            f"TraxitPS {text!r}: turn {turn_text!r} is not <seat>:place|choose|Tnn, "
            f"<seat>:traxit:Tnn or end"
        )
    mover = owners.index(owner)
    word = parts[1].lower()
    try:
        if len(parts) == 3 and word == "traxit":
            phase, tile = TRAXIT, parse_tile(parts[2])
        elif len(parts) == 2 and word in ("place", "choose"):
            phase = PLACE if word == "place" else CHOOSE
        elif len(parts) == 2:
            phase, tile = MOVE, parse_tile(parts[1])
        else:
            raise ValueError("unknown turn kind")
    except ValueError as exc:
        raise NotationError(f"TraxitPS {text!r}: turn {turn_text!r}: {exc}") from None
    return phase, mover, tile


def _read_tallies(
    text: str, paths_text: str, scores_text: str, bonus_text: str, layout: Layout
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Each seat's tiles left (a hex mask), score and bonus digit."""
    n = len(layout.owners)
    path_items = paths_text.split(",")
    score_items = scores_text.split(",")
    if len(path_items) != n or len(score_items) != n or len(bonus_text) != n:
        raise NotationError(
            f"TraxitPS {text!r}: paths, scores and bonus need one entry per seat ({n})"
        )
    try:
        paths = tuple(int(p, 16) for p in path_items)
        scores = tuple(int(s) for s in score_items)
        bonus = tuple(int(b) for b in bonus_text)
    except ValueError:
        raise NotationError(
            f"TraxitPS {text!r}: paths must be hex, scores integers, bonus digits"
        ) from None
    if any(
        len(p) != 4 or not 0 <= v <= ALL_TILES_MASK for p, v in zip(path_items, paths, strict=True)
    ):
        raise _fail(text, f"paths {paths_text!r}: 4 hex digits per seat")
    if any(s < 0 for s in scores):
        raise _fail(text, f"negative score in {scores_text!r}")
    top = BONUS_PAID if layout.bonus_game else 1
    if any(not 0 <= b <= top for b in bonus):
        raise _fail(text, f"bonus {bonus_text!r}: digits 0..{top}")
    return paths, scores, bonus


def _placed_pawns(
    text: str,
    layout: Layout,
    cells_of: dict[str, list[int]],
    phase: int,
    mover: int,
    clock: tuple[int, int],
) -> list[int]:
    """Two cells per seat (-1 for a pawn not placed yet), checked against the phase."""
    owners, sides, n = layout.owners, layout.sides, len(layout.owners)
    counts = [len(cells_of[o]) for o in owners]
    if phase == PLACE:
        placed = sum(counts)
        want = [placed // n + (1 if s < placed % n else 0) for s in range(n)]
        if counts != want or placed >= 2 * n or placed % n != mover:
            raise _fail(
                text,
                f"pawns placed {counts} do not fit {owners[mover]} placing next (seats place in "
                f"turn order, one pawn each round)",
            )
        for s, o in enumerate(owners):
            off = [cell_name(c) for c in cells_of[o] if c not in START_ROWS[sides[s]]]
            if off:
                raise _fail(text, f"{o} placed on {', '.join(off)}, outside its start row")
    elif counts != [2] * n:
        raise _fail(
            text, f"each player needs 2 pawns, found {dict(zip(owners, counts, strict=True))}"
        )
    pawns: list[int] = []
    for o in owners:
        pair = sorted(cells_of[o])
        pawns.extend([-1] * (2 - len(pair)) + pair)
    return pawns


def _check_tiles(text: str, layout: Layout, st: State) -> None:
    """The tiles left against the clock, the tile given, and a traxit only when due."""
    owners, sets, rounds = layout.owners, layout.sets, layout.rounds
    phase, mover, tile = st.phase, st.mover, st.tile
    if phase == PLACE and ((st.set_no, st.round_no) != (1, 1) or any(st.scores) or any(st.bonus)):
        raise _fail(text, "setup happens at clock 1.1 with no points")
    total = sets * rounds
    for s in range(len(owners)):
        if phase == END:
            used = total
        elif phase == PLACE:
            used = 0
        else:
            done = (st.set_no - 1) * rounds + (st.round_no - 1)
            used = done + (1 if s < mover else 0)
        left = bin(st.paths[s]).count("1")
        if left != total - used:
            raise _fail(
                text,
                f"{owners[s]} has {left} tiles left, the clock says {total - used}",
            )
    if phase in (MOVE, TRAXIT) and not st.paths[mover] >> tile & 1:
        raise _fail(text, f"{TILE_IDS[tile]} was given to {owners[mover]} but is not listed")
    if phase == END and (st.set_no, st.round_no) != (sets, rounds):
        raise _fail(text, f"a finished game ends at clock {sets}.{rounds}")
    if phase in (MOVE, TRAXIT):
        can = has_move(layout, st, mover, tile)
        if phase == MOVE and not can:
            raise _fail(text, f"{owners[mover]} has no move with {TILE_IDS[tile]}: write traxit")
        if phase == TRAXIT and can:
            raise _fail(text, f"{owners[mover]} can move with {TILE_IDS[tile]}: not traxit")
