"""`tei match --game trike` and `tei check --game trike` against the built-in engines."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rules.trike.game import TrikeGame

pytestmark = pytest.mark.process


def tei(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tei", *args],
        capture_output=True,
        text=True,
        timeout=100,
        cwd=cwd,
    )


def records(text: str) -> list[tuple[dict[str, str], list[str]]]:
    """(tags, move texts) of each game in a records file."""
    games: list[tuple[dict[str, str], list[str]]] = []
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', block, flags=re.M))
        body = "\n".join(line for line in block.splitlines() if not line.startswith("["))
        moves = re.sub(r"\{[^}]*\}", " ", body).split()
        games.append((tags, moves))
    return games


def test_referee_plays_search_against_random(tmp_path: Path) -> None:
    done = tei(
        "match", "--game", "trike", "--size", "5",
        "--engine", "bot=search", "--engine", "bot=random", "option.Seed=7",
        "--each", "depth=2", "--games", "2",
        "--ptnout", str(tmp_path / "games.ptn"), "--json", str(tmp_path / "match.json"),
        "--quiet",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "match.json").read_text())
    assert summary["game"] == "trike" and summary["games_done"] == 2
    games = records((tmp_path / "games.ptn").read_text())
    assert len(games) == 2
    for tags, moves in games:
        game = TrikeGame.new({"size": "5"})
        game.play_all(moves)
        outcome = game.result
        assert outcome is not None, moves
        assert tags["Result"] == outcome.code


def test_check_passes_for_the_trike_engine() -> None:
    done = tei(
        "check", "--game", "trike", "--size", "7", "--",
        sys.executable, "-m", "tei", "engine", "--game", "trike",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"(\d+)/\1 checks passed", done.stdout), done.stdout
