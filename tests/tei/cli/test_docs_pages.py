"""The user-facing pages tell the truth: every member of the `Game` interface is on its
page, the examples run, the README's first bot works, and docs point only at files a
user has."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rules.game import Game
from tests.support import ROOT

DOCS = ROOT / "docs"


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)


def test_every_public_member_of_game_is_on_its_page() -> None:
    page = (DOCS / "game.md").read_text(encoding="utf-8")
    members = sorted(name for name in dir(Game) if not name.startswith("_"))
    assert len(members) > 30
    missing = [name for name in members if not re.search(rf"`{name}[`(]", page)]
    assert missing == []


def test_the_game_page_example_prints_what_it_says() -> None:
    (block,) = python_blocks(DOCS / "game.md")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/game.md", "exec"), {})
    printed = out.getvalue().splitlines()
    said = [line.split("# ")[1] for line in block.splitlines() if "print(" in line and "# " in line]
    assert printed[0] == said[0].split(":")[0]  # "1"
    assert printed[-1] == said[-1]  # "True None"
    assert printed[2] == "x4,1/x3,2C,x/x2,1,x2/x5/2,x4 1 3"


@pytest.mark.process
def test_the_readme_first_bot_serves_checks_and_plays(tmp_path: Path) -> None:
    (block,) = python_blocks(ROOT / "README.md")
    (tmp_path / "first_bot.py").write_text(block, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": "."}
    moves = "a1 e5 e4 a2 e3 a3 e2 a4"  # white to move has a road in one: e1
    with subprocess.Popen(
        [sys.executable, "-m", "tei", "engine", "--bot", "first_bot:FirstBot"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    ) as engine:
        assert engine.stdin is not None and engine.stdout is not None
        engine.stdin.write(f"tei\nteinewgame 5\nposition startpos moves {moves}\ngo movetime 200\n")
        engine.stdin.flush()
        answer = next(line for line in engine.stdout if line.startswith("bestmove"))
        engine.stdin.write("quit\n")
        engine.stdin.close()
        assert engine.wait(timeout=30) == 0
    assert answer.split() == ["bestmove", "e1"]
    match = subprocess.run(
        [
            *(sys.executable, "-m", "tei", "match", "--quiet", "--games", "2", "--each", "st=0.05"),
            *("--engine", "bot=first_bot:FirstBot", "--engine", "bot=random"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert match.returncode == 0, match.stderr
    assert "Games: 2 of 2 (finished)" in match.stdout


def test_docs_point_only_at_files_a_user_has() -> None:
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    bad = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if re.search(r"shared/|\bspec/\w+\.md|protocol notes|TEI notes", line):
                bad.append(f"{page.name}:{number}: {line.strip()}")
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" not in target and not (page.parent / target).exists():
                bad.append(f"{page.name}: link to missing {target}")
    assert bad == []
