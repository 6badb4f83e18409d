"""`tei perft` and `tei show` for Traxit, run as real commands."""

from __future__ import annotations

import subprocess

import pytest

from rules.traxit.game import TraxitGame
from tests.rules.traxit.test_traxit_props import tree_count
from tests.support.engines import procs

pytestmark = pytest.mark.process


def tei(*args: str) -> subprocess.CompletedProcess[str]:
    return procs.tei(*args, timeout=100)


@pytest.mark.parametrize(
    ("players", "moves", "depth"),
    [
        ("2", "", 4),
        ("3", "@b1 @a2 @b8 @c1 @a3", 3),
        ("4", "@b1 @a2 @b8 @h2 @c1 @a3 @c8 @h3", 3),
        ("2", "@b1 @b8 @c1 @c8 T05 b1-d3 T03", 3),
    ],
)
def test_perft_command_matches_brute_force(players: str, moves: str, depth: int) -> None:
    args = ["perft", "--game", "traxit", "--players", players, "--depth", str(depth)]
    out = tei(*args, "--moves", moves) if moves else tei(*args)
    assert out.returncode == 0, out.stderr
    game = TraxitGame.new({"players": players})
    game.play_all(moves.split())
    assert int(out.stdout.split()[-1]) == tree_count(game, depth)


def test_perft_divide_from_a_position_string() -> None:
    text = "TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00"
    out = tei("perft", "--game", "traxit", "--position", text, "--depth", "1", "--divide")
    assert out.returncode == 0, out.stderr
    rows = dict(line.split() for line in out.stdout.splitlines()[:-1])
    assert set(rows) == {"c1-b4", "c1-f2", "f1-e4"}


def test_show_draws_the_board_and_refuses_bad_input() -> None:
    out = tei("show", "--game", "traxit", "--players", "3", "--moves", "@b1 @a2")
    assert out.returncode == 0, out.stderr
    assert "G places a pawn" in out.stdout
    assert out.stdout.strip().splitlines()[-1].startswith("TX ")
    bad = tei("show", "--game", "traxit", "TX", "8/8/8", "R@S,G@N")
    assert bad.returncode != 0 and "TraxitPS" in bad.stderr
    illegal = tei("show", "--game", "traxit", "--moves", "@a1")
    assert illegal.returncode != 0 and "@a1" in illegal.stderr
