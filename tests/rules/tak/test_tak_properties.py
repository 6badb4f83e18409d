"""Property tests over random legal games, and a plain reference move generator."""

from __future__ import annotations

import random

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.game import GameError
from rules.tak.game import TakGame
from rules.tak.move import Move
from rules.tak.position import Position
from rules.tak.ptn import PtnGame, parse_many

STEPS = {"+": (0, 1), "-": (0, -1), ">": (1, 0), "<": (-1, 0)}


def reference_moves(game: TakGame) -> set[str]:
    """Legal moves straight from the rules text, on TPS stacks (slow, obviously right)."""
    pos = game.position()
    n = pos.size
    (ws, wc), (bs, bc) = game.reserves()
    stones, caps = (ws, bs)[pos.turn], (wc, bc)[pos.turn]
    out: set[str] = set()
    names = [f"{'abcdefgh'[sq % n]}{sq // n + 1}" for sq in range(n * n)]
    for sq, stack in enumerate(pos.stacks):
        if stack:
            continue
        if pos.ply < 2:
            out.add(names[sq])
            continue
        if stones:
            out.update({names[sq], "S" + names[sq]})
        if caps:
            out.add("C" + names[sq])
    if pos.ply < 2:
        return out
    mine = "12"[pos.turn]
    for sq, stack in enumerate(pos.stacks):
        colours = stack.rstrip("SC")
        if not colours or colours[-1] != mine:
            continue
        top = stack[-1] if stack[-1] in "SC" else "F"
        for count in range(1, min(len(colours), n) + 1):
            for direction in STEPS:
                start = Move(sq % n, sq // n, "F", direction)
                _spread(pos, start, top, sq % n, sq // n, count, (), out)
    return out


def _spread(
    pos: Position,
    start: Move,
    top: str,
    f: int,
    r: int,
    left: int,
    drops: tuple[int, ...],
    out: set[str],
) -> None:
    """Add every way to drop `left` more pieces beyond square (f, r)."""
    df, dr = STEPS[start.direction or "+"]
    f, r = f + df, r + dr
    n = pos.size
    if not (0 <= f < n and 0 <= r < n):
        return
    target = pos.stacks[r * n + f]
    if target.endswith("C"):
        return
    if target.endswith("S"):
        if top == "C" and left == 1:
            out.add(attrs.evolve(start, drops=(*drops, 1), crush=True).ptn())
        return
    for d in range(1, left + 1):
        if d == left:
            out.add(attrs.evolve(start, drops=(*drops, d)).ptn())
        else:
            _spread(pos, start, top, f, r, left - d, (*drops, d), out)


def random_game(size: int, seed: int, plies: int) -> TakGame:
    """Play a random game, often moving whole stacks one square to grow tall stacks."""
    rng = random.Random(seed)
    game = TakGame.new({"size": str(size)})
    for _ in range(plies):
        moves = game.legal()
        if not moves:
            break
        stacking = [m for m in moves if len(m.drops) == 1]
        pool = stacking if stacking and rng.random() < 0.8 else moves
        game.play(rng.choice(pool))
    return game


games = st.builds(random_game, st.integers(3, 8), st.integers(0, 2**32), st.integers(0, 120))
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(games)
def test_moves_match_the_reference_generator(game: TakGame) -> None:
    if game.result is None:
        assert {m.ptn() for m in game.legal()} == reference_moves(game)
        board = game.fast_board()
        assert board.count_moves() == len(board.moves())
    else:
        assert game.legal() == []


@FAST
@given(games)
def test_tps_round_trips_and_hash_is_incremental(game: TakGame) -> None:
    tps = game.position_string()
    assert Position.from_tps(tps).tps() == tps
    again = TakGame.from_position_string(tps)
    assert again.position_string() == tps
    assert again.hash_key() == game.hash_key()
    assert again.reserves() == game.reserves()
    assert (again.result is None) == (game.result is None)


@FAST
@given(games)
def test_ptn_round_trips(game: TakGame) -> None:
    record = PtnGame.from_game(game, {"Player1": "a", "Player2": "b"})
    for index in range(0, len(record.plies), 3):
        record.comment(index, f"note {index}")
    again = PtnGame.parse(record.text())
    assert again.tags == record.tags and again.plies == record.plies
    replayed = again.replay()
    assert replayed.history_text() == game.history_text()
    assert replayed.position_string() == game.position_string()
    assert replayed.result == game.result
    for text in game.history_text():
        assert Move.from_ptn(text).ptn() == text


@FAST
@given(games)
def test_undo_restores_position_and_hash(game: TakGame) -> None:
    seen = []
    replay = TakGame.new({"size": str(game.size)})
    for move in game.history:
        seen.append((replay.position_string(), replay.hash_key()))
        replay.play(move)
    while replay.ply:
        replay.undo()
        assert (replay.position_string(), replay.hash_key()) == seen.pop()
    board = game.fast_board()
    before = (board.hash, [board.stack(sq) for sq in range(game.size**2)], board.turn)
    for code in board.moves():
        board.make(code)
        board.unmake(code)
    assert (board.hash, [board.stack(sq) for sq in range(game.size**2)], board.turn) == before


@FAST
@given(games)
def test_pieces_are_conserved(game: TakGame) -> None:
    stones, caps = game.options.stones, game.options.caps
    on_board = game.position().pieces()
    for colour in (0, 1):
        in_hand = game.reserves()[colour]
        assert on_board[colour][0] + in_hand[0] == stones
        assert on_board[colour][1] + in_hand[1] == caps
    board = game.fast_board()
    assert sum(board.heights) == sum(on_board[0]) + sum(on_board[1])


@FAST
@given(games)
def test_winning_move_finds_a_road_when_there_is_one(game: TakGame) -> None:
    board = game.fast_board()
    if board.result() is not None:
        return
    mover = board.turn
    winners = []
    for code in board.moves():
        board.make(code)
        if board.has_road(mover):
            winners.append(code)
        board.unmake(code)
    found = board.winning_move()
    assert (found is None) == (not winners)
    assert found is None or found in winners


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abcdefghix12345678SCF+-<>*'!?\"{}[] ./,\n", max_size=40))
def test_bad_text_raises_clear_errors(text: str) -> None:
    for parse in (Move.from_ptn, Position.from_tps, parse_many, TakGame.from_position_string):
        try:
            parse(text)
        except GameError as exc:
            assert str(exc)
    game = TakGame.new({"size": "4"})
    try:
        game.play_text(text)
    except GameError as exc:
        assert str(exc)


TALL = [
    "x2,2,1,x2/x,1212,21S,2,12,x/2,1,2211221C,1,12S,x/x,211221,2,1121,x,1/"
    "1,12,x,221S,1211212C,x/x,2,1,x,12,2 1 40",
    "x2,2,1,x2/x,1212,21S,2,12,x/2,1,2211221C,1,12S,x/x,211221,2,1121,x,1/"
    "1,12,x,221S,1211212C,x/x,2,1,x,12,2 2 40",
    "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26",
]


def test_tall_stacks_match_the_reference_two_plies_deep() -> None:
    for tps in TALL:
        game = TakGame.from_position_string(tps)
        assert {m.ptn() for m in game.legal()} == reference_moves(game)
        for move in game.legal():
            game.play(move)
            if game.result is None:
                assert {m.ptn() for m in game.legal()} == reference_moves(game), move
            game.undo()


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["Size", "Komi", "Flats", "Caps", "TPS", "size", "komi"]),
    st.text(alphabet="0123456789.-+xeinfaS12C/, ", max_size=12),
    st.sampled_from(["1. a1 e5", "", "1. c3 d4 2. 2a1+ *", "a1 zz"]),
)
def test_bad_tags_raise_clear_errors(name: str, value: str, moves: str) -> None:
    text = f'[Size "5"]\n[{name} "{value}"]\n{moves}\n'
    try:
        PtnGame.parse(text).replay()
    except GameError as exc:
        assert str(exc)
