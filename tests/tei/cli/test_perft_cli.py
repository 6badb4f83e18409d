"""`tei perft` as a real subprocess."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

import pytest

from rules.registry import GAME_NAMES, game_class
from tests.support.engines.procs import tei

pytestmark = pytest.mark.process


def perft(*args: str) -> subprocess.CompletedProcess[str]:
    return tei("perft", *args)


@pytest.mark.parametrize(
    ("args", "last"),
    [
        (["--size", "3", "--depth", "3"], "1200"),
        (["--size", "4", "--depth", "3"], "7440"),
        (["--size", "6", "--depth", "2"], "1260"),
        (["--depth", "2"], "600"),  # the default size is 5
        (["--size", "5", "--depth", "0"], "1"),
        (["--tps", "x2,1/2,x,1/2,x,1 2 3", "--depth", "2"], "0"),  # already won
        (["--position", "x3/x3/x3 1 1", "--depth", "2"], "72"),
        (["--size", "3", "--moves", "a1 c3", "--depth", "1"], "16"),
        (["--size", "5", "--komi", "2.5", "--rule", "flats=3", "--depth", "1"], "25"),
    ],
)
def test_prints_the_leaf_count_last(args: list[str], last: str) -> None:
    done = perft(*args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == last


def test_divide_lists_each_root_move() -> None:
    done = perft("--size", "4", "--depth", "2", "--divide", "--time")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "240"
    rows = [line.split() for line in lines[:-1]]
    assert len(rows) == 16 and {move for move, _ in rows} == {
        f"{f}{r}" for f in "abcd" for r in "1234"
    }
    assert all(count == "15" for _, count in rows)
    assert "leaves/s" in done.stderr


def test_divide_of_a_middle_game_adds_up() -> None:
    tps = "2,x4/x,1C,x3/x,21,2S,x2/1,x,12,x2/x4,2 1 6"
    plain = perft("--tps", tps, "--depth", "2")
    divided = perft("--tps", tps, "--depth", "2", "--divide")
    rows = divided.stdout.splitlines()[:-1]
    assert sum(int(line.split()[1]) for line in rows) == int(plain.stdout.split()[-1])
    assert divided.stdout.splitlines()[-1] == plain.stdout.splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--tps", "x5/x5 1 1", "--depth", "1"], "rows"),
        (["--tps", "x3/x3/x3 1 1", "--size", "5", "--depth", "1"], "size=5"),
        (["--size", "9", "--depth", "1"], "size='9'"),
        (["--size", "5", "--moves", "a1 zz", "--depth", "1"], "zz"),
        (["--size", "5", "--rule", "colour=red", "--depth", "1"], "colour"),
        (["--size", "5", "--depth", "-1"], "--depth"),
        (["--game", "trike", "--tps", "x3/x3/x3 1 1", "--depth", "1"], "--tps is for Tak"),
        (["--size", "5", "--rule", "halfkomi=-1", "--depth", "1"], "halfkomi"),
        (["--size", "5", "--rule", "rule50=maybe", "--depth", "1"], "rule50"),
    ],
)
def test_errors_are_named(args: list[str], named: str) -> None:
    done = perft(*args)
    assert done.returncode == 2
    assert named in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--komi", "0.3", "--depth", "1"], "0.3"),
        (["--rule", "flats", "--depth", "1"], "'flats'"),
        (["--komi", "abc", "--depth", "1"], "abc"),
    ],
)
def test_bad_option_syntax_is_refused_by_name(args: list[str], named: str) -> None:
    done = perft(*args)
    assert done.returncode != 0 and done.stdout == ""
    assert named in done.stderr and "Traceback" not in done.stderr


def test_depth_is_required_and_help_is_complete() -> None:
    assert perft("--size", "5").returncode == 2
    text = perft("--help").stdout
    for option in ("--depth", "--divide", "--tps", "--position", "--moves", "--size", "--komi"):
        assert option in text


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_registered_game(game: str) -> None:
    expected = game_class(game).new({}).perft(1)
    done = perft("--game", game, "--depth", "1", "--divide")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == str(expected)
    assert len(lines) - 1 == expected  # one row per root action, each with one leaf


def test_help_example_position_is_still_in_play() -> None:
    text = perft("--help").stdout.replace("\n", " ")
    tps = re.search(r'--tps "([^"]+)"', text)
    assert tps is not None, text
    game = game_class("tak").from_position_string(tps.group(1))
    assert game.result is None and game.perft(3) > 0


def test_progress_per_root_action_on_request() -> None:
    done = perft("--size", "3", "--depth", "3", "--progress")
    assert done.stdout.splitlines() == ["1200"]
    reports = done.stderr.splitlines()
    assert len(reports) == 9  # one per root action of the empty 3x3 board
    assert re.fullmatch(r"perft: 1/9 a1 \d+ \(\d+\.\d s\)", reports[0]), reports
    assert sum(int(line.split()[3]) for line in reports) == 1200
    quiet = perft("--size", "3", "--depth", "5")  # stderr is a pipe: no progress
    assert quiet.stdout.splitlines() == ["271812"] and quiet.stderr == ""


def test_progress_at_depth_5_when_stderr_is_a_terminal() -> None:
    argv = [sys.executable, "-m", "tei", "perft", "--game", "trike", "--size", "3", "--depth", "5"]
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(
            argv,
            stdout=subprocess.PIPE,
            stderr=terminal,
            text=True,
            timeout=60,
        )
        os.close(terminal)
        terminal = -1
        seen = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the terminal is closed and drained
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if terminal != -1:
            os.close(terminal)
        os.close(controller)
    assert done.returncode == 0 and done.stdout.splitlines() == ["330"]
    lines = seen.decode().splitlines()
    assert len(lines) == 6 and all(line.startswith("perft: ") for line in lines), lines
