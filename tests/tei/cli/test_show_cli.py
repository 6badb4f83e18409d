"""`tei show`: a picture and the position string, for every game; bad input is named."""

from __future__ import annotations

import subprocess

import pytest

from tests.support.engines import procs

pytestmark = pytest.mark.process


def tei(*args: str) -> subprocess.CompletedProcess[str]:
    return procs.tei("show", *args)


def test_tak_tps_option_and_words_agree() -> None:
    tps = "x4,1/x5/x5/x5/2,x2,21C,x 2 3"
    by_option = tei("--tps", tps)
    by_words = tei(*tps.split())
    assert by_option.returncode == 0, by_option.stderr
    assert by_option.stdout == by_words.stdout
    assert by_option.stdout.splitlines()[-1] == tps
    assert "21C" in by_option.stdout


def test_moves_are_played_before_showing() -> None:
    out = tei("--game", "trike", "--size", "7", "--moves", "d2 swap c3")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "7:1/2/3/4/2O2/3x2/7:x:-"


def test_bad_position_is_named_and_exit_code_is_2() -> None:
    out = tei("--tps", "x5/x5/x5 1 1")
    assert out.returncode == 2
    assert "tei show:" in out.stderr and out.stdout == ""
    bad_move = tei("--moves", "a1 z9")
    assert bad_move.returncode == 2 and "z9" in bad_move.stderr


def test_bad_game_options_are_named() -> None:
    for args, named in (
        (["--size", "9"], "size='9'"),
        (["--rule", "caps=x"], "caps"),
        (["--tps", "x3/x3/x3 1 1", "--size", "5"], "size=5"),
    ):
        out = tei(*args)
        assert out.returncode == 2 and out.stdout == ""
        assert named in out.stderr and "Traceback" not in out.stderr


def test_badly_written_game_options_are_usage_errors() -> None:
    for args, named in ((["--komi", "0.3"], "0.3"), (["--rule", "foo"], "'foo'")):
        out = tei(*args)
        assert out.returncode == 2, args
        assert named in out.stderr and out.stdout == ""
