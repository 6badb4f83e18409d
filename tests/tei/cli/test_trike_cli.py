"""`tei show` and `tei perft` for Trike, run as real subprocesses."""

from __future__ import annotations

import pytest

from rules.trike.game import TrikeGame
from tests.support.engines.procs import tei

pytestmark = pytest.mark.process


def test_show_draws_the_triangle_and_prints_the_position() -> None:
    done = tei("show", "--game", "trike", "--size", "7", "--moves", "d2 swap c3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    game = TrikeGame.new({"size": "7"})
    game.play_all(["d2", "swap", "c3"])
    assert lines[-1] == game.position_string()
    assert game.render().splitlines() == lines[:-1]
    assert lines[7].split() == list("abcdefg")


def test_show_a_position_string() -> None:
    done = tei("show", "--game", "trike", "7:1/2/3/4/2O2/3x2/7:x:-")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "7:1/2/3/4/2O2/3x2/7:x:-"
    assert "O" in done.stdout.splitlines()[4]


def test_show_refuses_bad_input_with_a_message() -> None:
    done = tei("show", "--game", "trike", "7:1/2/3:x:-")
    assert done.returncode == 2 and "7:1/2/3:x:-" in done.stderr
    done = tei("show", "--game", "trike", "--size", "7", "--moves", "d2 a7")
    assert done.returncode == 2 and "a7" in done.stderr
    done = tei("show", "--game", "trike", "--size", "40")
    assert done.returncode == 2 and "40" in done.stderr


def test_perft_counts_like_the_core() -> None:
    done = tei("perft", "--game", "trike", "--size", "5", "--depth", "3")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) == TrikeGame.new({"size": "5"}).perft(3)
    done = tei("perft", "--game", "trike", "--size", "9", "--depth", "1")
    assert int(done.stdout.split()[-1]) == 9 * 10 // 2


def test_perft_from_a_position_with_divide() -> None:
    position = "7:1/2/3/4/2O2/3x2/7:x:-"
    done = tei("perft", "--game", "trike", "--position", position, "--depth", "2", "--divide")
    assert done.returncode == 0, done.stderr
    *rows, total = done.stdout.splitlines()
    game = TrikeGame.from_position_string(position)
    assert sorted(row.split()[0] for row in rows) == sorted(
        game.format_action(a) for a in game.legal()
    )
    assert sum(int(row.split()[1]) for row in rows) == int(total) == game.perft(2)
