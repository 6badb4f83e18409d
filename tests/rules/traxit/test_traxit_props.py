"""Traxit properties: random games, round-trips, undo, and move counts against brute force."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.traxit.actions import Action
from rules.traxit.board import EDGE_CELLS, START_ROWS, cell_xy, xy_cell
from rules.traxit.game import TraxitGame
from rules.traxit.state import CHOOSE, MOVE, PLACE, TRAXIT
from rules.traxit.tiles import STEP_VECTORS, TILE_COUNT, TILES

VARIANTS = [
    {},
    {"players": "3"},
    {"players": "4"},
    {"players": "4", "teams": "true"},
    {"shortgame": "true", "players": "3", "seed": "5"},
    {"allow_mirror": "true", "bonus_per": "game"},
]


def brute_moves(game: TraxitGame) -> set[str]:
    """Every legal action, recomputed from the rules text without the route tables."""
    layout, state = game.layout, game.state
    pawns = [c for c in state.pawns if c >= 0]
    blocked = {c for c in range(64) if layout.obstacles >> c & 1} | set(pawns)
    mover = state.mover
    mine = state.pawns[2 * mover : 2 * mover + 2]
    if state.phase == PLACE:
        return {f"@{cell(c)}" for c in START_ROWS[layout.sides[mover]] if c not in blocked}
    if state.phase == CHOOSE:
        return {TILES[t].id for t in range(TILE_COUNT) if state.paths[mover] >> t & 1}
    if state.phase == TRAXIT:
        return {f"!{cell(p)}-{cell(e)}" for p in mine for e in EDGE_CELLS if e not in blocked}
    assert state.phase == MOVE
    steps = [STEP_VECTORS[s] for s in TILES[state.tile].steps]
    shapes = [steps, [(-x, -y) for x, y in reversed(steps)]]
    if layout.mirror:
        shapes += [[(-x, y) for x, y in shape] for shape in shapes]
    out = set()
    for pawn in mine:
        for shape in shapes:
            for turns in range(4):
                x, y = cell_xy(pawn)
                ok = True
                for dx, dy in shape:
                    for _ in range(turns):
                        dx, dy = -dy, dx
                    x, y = x + dx, y + dy
                    if not (0 <= x < 8 and 0 <= y < 8) or xy_cell(x, y) in blocked:
                        ok = False
                        break
                if ok:
                    out.add(f"{cell(pawn)}-{cell(xy_cell(x, y))}")
    return out


def cell(c: int) -> str:
    x, y = cell_xy(c)
    return "abcdefgh"[x] + str(y + 1)


def random_game(options: dict[str, str], seed: int) -> TraxitGame:
    game = TraxitGame.new(options)
    rng = random.Random(seed)
    while game.result is None:
        game.play(rng.choice(game.legal()))
    return game


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**6))
def test_random_games_end_with_consistent_scores(options: dict[str, str], seed: int) -> None:
    game = random_game(options, seed)
    layout = game.layout
    n = layout.players
    turns = [a for a in game.history if a.kind in ("move", "relocate")]
    assert len(turns) == layout.sets * layout.rounds * n
    assert sum(1 for a in game.history if a.kind == "choose") == len(turns)
    assert sum(1 for a in game.history if a.kind == "place") == 2 * n
    result = game.result
    assert result is not None and result.scores is not None
    # recount: each set ends after n * rounds turns; score the pawns there
    replay = TraxitGame.new(options)
    expected = [0] * n
    done = 0
    for action in game.history:
        replay.play(action)
        if action.kind in ("move", "relocate"):
            done += 1
            if done % (n * layout.rounds) == 0:
                state = replay.state
                for seat in range(n):
                    expected[seat] += sum(
                        (0, 0, 25, 50, 100)[
                            min(*cell_xy(c), 7 - cell_xy(c)[0], 7 - cell_xy(c)[1]) + 1
                        ]
                        for c in state.pawns[2 * seat : 2 * seat + 2]
                    )
    bonus = [s - e for s, e in zip(result.scores, expected, strict=True)]
    assert all(b >= 0 and b % 50 == 0 for b in bonus)
    limit = 1 if layout.bonus_game else layout.sets
    assert all(b // 50 <= limit for b in bonus)
    if layout.teams:
        totals = [result.scores[0] + result.scores[2], result.scores[1] + result.scores[3]]
        assert {s % 2 for s in result.winners} == {i for i in (0, 1) if totals[i] == max(totals)}
    else:
        assert set(result.winners) == {
            s for s in range(n) if result.scores[s] == max(result.scores)
        }


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**6))
def test_positions_round_trip_and_undo_restores(options: dict[str, str], seed: int) -> None:
    game = TraxitGame.new(options)
    rng = random.Random(seed)
    seen = [game.position_string()]
    while game.result is None:
        assert brute_moves(game) == {str(a) for a in game.legal()}
        game.play(rng.choice(game.legal()))
        text = game.position_string()
        again = TraxitGame.from_position_string(text)
        assert again.position_string() == text
        assert {str(a) for a in again.legal()} == {str(a) for a in game.legal()}
        assert again.turn == game.turn
        seen.append(text)
    history = list(game.history)
    while game.ply:
        action = game.undo()
        assert action == history[game.ply]
        assert game.position_string() == seen[game.ply]
    assert game.position_string() == seen[0]


def tree_count(game: TraxitGame, depth: int) -> int:
    """Leaf count by play/undo over brute-force move lists (independent of perft)."""
    if depth == 0:
        return 1
    if game.result is not None:
        return 0
    total = 0
    for text in sorted(brute_moves(game)):
        game.play(Action.parse(text))
        total += tree_count(game, depth - 1)
        game.undo()
    return total


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(VARIANTS[:4]), st.integers(0, 10**6), st.integers(4, 40))
def test_perft_matches_brute_force(options: dict[str, str], seed: int, plies: int) -> None:
    game = TraxitGame.new(options)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.result is None:
            game.play(rng.choice(game.legal()))
    for depth in (1, 2, 3):
        assert game.perft(depth) == tree_count(game, depth)
    divide = game.divide(2)
    assert sum(count for _, count in divide) == game.perft(2)


def test_start_perft_counts_setup_by_hand() -> None:
    # 2 players: 6 cells each for red's first pawn, green's first, then 5 and 5
    game = TraxitGame.new({})
    assert [game.perft(d) for d in range(1, 5)] == [6, 36, 180, 900]
    # then the start player chooses from 16 tiles
    assert game.perft(5) == 900 * 16
