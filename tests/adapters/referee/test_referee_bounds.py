"""Bounded inputs of `tei match`: config and state files are regular files under a cap,
their types and counts are checked; every refusal is exit status 2 with a message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tei.cli import main
from tei.file_bounds import CONFIG_CAP, read_config_bytes

pytestmark = pytest.mark.process

BOTS = ["--engine", "bot=random", "--engine", "bot=random", "--size", "3"]


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """`tei match ARGS` is refused with exit status 2 and no traceback: its message."""
    capsys.readouterr()
    try:
        code = main(["match", *args])
    except SystemExit as exc:  # an option argparse refuses (after its usage lines)
        code = exc.code
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert code == 2 and "Traceback" not in err and last.startswith("tei match: "), err
    assert len(last) < 300, last
    return last


def test_read_config_bytes_takes_regular_files_under_the_cap(tmp_path: Path) -> None:
    small, big, fifo = tmp_path / "small", tmp_path / "big", tmp_path / "fifo"
    small.write_bytes(b"x" * CONFIG_CAP)
    big.write_bytes(b"x" * (CONFIG_CAP + 1))
    os.mkfifo(fifo)
    assert read_config_bytes(small) == b"x" * CONFIG_CAP
    for path, why in (
        (big, f"larger than {CONFIG_CAP} bytes"),
        (fifo, "a FIFO, not a regular file"),
        (tmp_path, "a folder, not a regular file"),
        ("/dev/zero", "a character device, not a regular file"),
    ):
        with pytest.raises(OSError) as caught:
            read_config_bytes(path)
        assert caught.value.strerror == why


def test_config_dev_zero_and_a_fifo_are_refused_at_once(tmp_path: Path) -> None:
    """In a process of its own: before the fix /dev/zero is read until MemoryError and
    a FIFO without a writer blocks forever."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        done = subprocess.run(
            [sys.executable, "-m", "tei", "match", "--config", path],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 2, done.stderr
        assert "not a regular file" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("config", "why"),
    [
        ("engine = 5", "engine: expected a string of KEY=VALUE words, not 5"),
        ('engine = [5, "bot=random"]', "engine: expected a string of KEY=VALUE words, not 5"),
        ("each = [1]", "each: expected a string of KEY=VALUE words, not 1"),
        ("rule = {size = 4}", "rule: expected a list [...], each a string; not a table"),
        ("size = [4]", "size: expected an int, not a list"),
        ("engine = [{cmd = 5}]", "engine: expected a string of KEY=VALUE words, not a table"),
        ("openings = 5", "openings: expected a path (a string) (in quotes), not 5"),
        ("sprt = 5", "sprt: expected a string of KEY=VALUE words, not 5"),
        ("games = [1]", "games: expected an integer, not a list"),
        ("games = 1" + "0" * 18, "games: must be 1..100000, not 1000000000"),
    ],
)
def test_wrong_types_in_a_config_file_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], config: str, why: str
) -> None:
    path = tmp_path / "c.toml"
    path.write_text(config + "\n")
    assert f"{path}:1: {why}" in refused(["--config", str(path)], capsys)


def test_a_config_nested_too_deep_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.toml"
    path.write_text("a = " + "[" * 100_000 + "]" * 100_000)
    assert "not TOML: nested too deep" in refused(["--config", str(path)], capsys)
    path = tmp_path / "c.json"
    path.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert "nested too deep" in refused(["--config", str(path)], capsys)


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--games", "10000000"], "--games: must be 1..100000, not 10000000"),
        (["--rounds", "100001"], "--rounds: must be 1..100000"),
        (["--concurrency", "1000"], "--concurrency: must be 1..256"),
        (["--max-plies", "2000000"], "--max-plies: must be 0..1000000"),
        (["--timeout", "1e9"], "--timeout: must be more than 0 and at most 1000000, not 1e9"),
        (["--games", "1000", "--rounds", "101"], "the schedule has 101000 games"),
    ],
)
def test_counts_have_a_ceiling(
    args: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert why in refused([*BOTS, *args], capsys)


def finished_state(tmp_path: Path) -> tuple[Path, str, str, list[str]]:
    """The state file of a finished two-game match: its path, header, first game line and
    the lines after it."""
    out = tmp_path / "g.ptn"
    assert main(["match", *BOTS, "--games", "2", "--ptnout", str(out), "--quiet"]) == 0
    state = Path(f"{out}.state")
    header, game, *rest = state.read_text().splitlines()
    return state, header, game, rest


def test_a_state_file_with_absurd_numbers_is_refused_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state, header, game, rest = finished_state(tmp_path)
    settings = json.loads(header)

    def resumed(*lines: str) -> str:
        state.write_text("\n".join(lines) + "\n")
        return refused(["--resume", str(state)], capsys)

    long_number = game.replace('"plies":', '"plies":' + "9" * 5001 + ',"x":')
    assert f"{state}:2: a number too long" in resumed(header, long_number)
    for key, value in (("plies", 10**300), ("index", -1), ("group", 2**60)):
        changed = json.dumps({**json.loads(game), key: value})
        assert f"{state}:2: bad game entry" in resumed(header, changed, *rest)
    huge = json.dumps({**settings, "settings": {**settings["settings"], "games": 10**3000}})
    assert "games must be 1..100000, not '1000" in resumed(huge, game)
    many = json.dumps({**settings, "settings": {**settings["settings"], "rounds": 100_000}})
    assert "the schedule has 200000 games" in resumed(many, game)
    assert f"{state}:2: nested too deep" in resumed(header, "[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize(
    ("line", "key", "value", "why"),
    [
        (1, "games", "four", "games not an integer: 'four'"),
        (1, "engines", 5, "engines must be a list of at most 256 engine objects, not a number"),
        (1, "rules", [1], "rules must be an object of rules options, not a list"),
        (1, "openings", {"a": 1}, "openings must be a list of file names, not an object"),
        (2, "winners", "x", "2: bad game entry in state file: winners 'x' is not a list"),
        (2, "plies", "3", "2: bad game entry in state file: '3' is not a count"),
        (2, "seats", None, "2: bad game entry in state file: seats 'None' is not a list"),
        (2, "timing", [5], "2: bad game entry in state file: timing entry '5' is not a list"),
    ],
)
def test_wrong_types_in_a_state_file_are_named(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    line: int,
    key: str,
    value: object,
    why: str,
) -> None:
    """A wrong JSON type in the settings (line 1) or a game (line 2) of a real state file."""
    state, header, game, rest = finished_state(tmp_path)
    if line == 1:
        settings = json.loads(header)
        header = json.dumps({**settings, "settings": {**settings["settings"], key: value}})
    else:
        game = json.dumps({**json.loads(game), key: value})
    state.write_text("\n".join([header, game, *rest]) + "\n")
    assert why in refused(["--resume", str(state)], capsys)
