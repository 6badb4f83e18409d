"""PTN moves: every form in, the minimal canonical form out, errors that name the text."""

from __future__ import annotations

import pytest

from rules.game import IllegalAction, NotationError
from rules.tak.game import TakGame
from rules.tak.move import Move
from rules.tak.tables import COMPOSITIONS, SLIDE_INFO


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("a1", "a1"),
        ("Fa1", "a1"),
        ("Sb2", "Sb2"),
        ("Cc3", "Cc3"),
        ("c2+", "c2+"),
        ("1c2+1", "c2+"),
        ("1c2+", "c2+"),
        ("3c3>12", "3c3>12"),
        ("3c3>3", "3c3>"),
        ("c3>12", "3c3>12"),
        ("e1<*", "e1<*"),
        ("6e3+411*", "6e3+411*"),
        ("4e4<31*", "4e4<31*"),
        ("5b4>212", "5b4>212"),
        ("a1'", "a1"),
        ("a1''", "a1"),
        ('Cd4"', "Cd4"),
        ("b2!", "b2"),
        ("b2?", "b2"),
        ("2b2-11'!?", "2b2-11"),
        ("h8-", "h8-"),
        ("  a1  ", "a1"),
    ],
)
def test_forms_in_the_wild(text: str, canonical: str) -> None:
    move = Move.from_ptn(text)
    assert move.ptn() == canonical
    assert str(move) == canonical
    assert Move.from_ptn(canonical) == move


def test_fields() -> None:
    move = Move.from_ptn("3c3>12")
    assert (move.file, move.rank, move.direction, move.drops, move.count) == (2, 2, ">", (1, 2), 3)
    assert not move.is_placement and move.square == "c3" and not move.crush
    wall = Move.from_ptn("Sb2")
    assert wall.is_placement and wall.piece == "S" and wall.count == 0
    assert Move.placement("d4", "C") == Move.from_ptn("Cd4")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "not a Tak move"),
        ("i1", "not a Tak move"),
        ("a9", "not a Tak move"),
        ("a0", "not a Tak move"),
        ("Xa1", "not a Tak move"),
        ("a1^", "not a Tak move"),
        ("a1+x", "not a Tak move"),
        ("2a1", "placement has no count"),
        ("Sa1+", "stack move has no piece letter"),
        ("Fe8<", "stack move has no piece letter"),
        ("Cd4*", "not a Tak move"),
        ("8a1>11111111", "no board has 9 squares"),
        ("3c3>12*", "crush ends with a capstone alone"),
        ("3a1+11", "do not add up"),
        ("2a1+102", "at least 1"),
        ("0a1+", "at least one piece"),
        ("9a1+", "cannot carry"),
        ("a1*", "not a Tak move"),
        ("Ca1<*x", "not a Tak move"),
    ],
)
def test_bad_moves_are_named(text: str, named: str) -> None:
    with pytest.raises(NotationError, match=named) as info:
        Move.from_ptn(text)
    assert repr(text) in str(info.value)


def test_codes_round_trip_on_every_size() -> None:
    for size in range(3, 9):
        for sq in range(size * size):
            for piece in "FSC":
                move = Move(sq % size, sq // size, piece)
                assert Move.from_code(move.code(size), size) == move
        for drops in COMPOSITIONS:
            if sum(drops) <= size and len(drops) < size:
                for direction in "+-<>":
                    for crush in (False, True):
                        move = Move(0, 0, "F", direction, drops, crush)
                        code = move.code(size)
                        assert Move.from_code(code, size) == move
                        assert SLIDE_INFO[code >> 8][1] == sum(drops)


def test_code_off_the_board_is_named() -> None:
    with pytest.raises(NotationError, match="f6 is off the 5x5 board"):
        Move.from_ptn("f6").code(5)


@pytest.mark.parametrize(
    ("move", "named"),
    [
        (Move(0, 0, "X"), "unknown piece 'X'"),
        (Move(0, 0, "FS"), "unknown piece 'FS'"),
        (Move(0, 0, "F", "^", (1,)), "unknown direction '\\^'"),
        (Move(0, 0, "F", "+", (0, 1)), "bad drops"),
        (Move(0, 0, "F", "+", ()), "bad drops"),
        (Move(-1, 0), "bad square"),
        (Move(9, 0), "off the 5x5 board"),
    ],
)
def test_hand_made_bad_moves_are_named(move: Move, named: str) -> None:
    with pytest.raises(NotationError, match=named):
        move.code(5)
    game = TakGame.new()
    game.play_all(["a1", "e5"])
    with pytest.raises(IllegalAction, match=named):
        game.play(move)
