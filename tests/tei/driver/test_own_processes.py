"""Our own processes (built-in engines of `tei match` and `tei playtak`) start the same
whatever folder they run in: a bot author's own `bots/` package in the working folder
does not shadow ours, and user bots still load from PYTHONPATH."""

from __future__ import annotations

import itertools
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tei.driver import tei_command
from tei.driver.launch import _default_name
from tests.support.playtak.processes import tcp_server

pytestmark = pytest.mark.process

#: the `tei` console script of this environment (what users type)
TEI = Path(sys.executable).with_name("tei")

USER_BOT = """
import threading
from typing import Any, ClassVar

from bots.base import Bot, Limits, Report
from rules.game import Game



class FirstBot(Bot):
    name: ClassVar[str] = "first"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        return game.legal()[0]
"""


@pytest.fixture
def bot_author(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A working folder holding a package named `bots`, and an environment whose
    PYTHONPATH holds a user bot (`my_bot:FirstBot`) from another folder."""
    work = tmp_path / "work"
    (work / "bots").mkdir(parents=True)
    (work / "bots" / "__init__.py").write_text("")
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "my_bot.py").write_text(USER_BOT)
    assert TEI.exists(), TEI
    return work, dict(os.environ, PYTHONPATH=str(lib))


def test_the_command_of_our_own_tei_keeps_the_working_folder_off_the_path() -> None:
    argv = tei_command("engine", "--bot", "random")
    assert argv == (sys.executable, "-P", "-m", "tei", "engine", "--bot", "random")
    assert _default_name(argv) == "tei"


def test_a_match_runs_in_a_folder_with_its_own_bots_package(
    bot_author: tuple[Path, dict[str, str]],
) -> None:
    work, env = bot_author
    argv = [str(TEI), "match", "--engine", "bot=random", "--engine", "bot=my_bot:FirstBot"]
    argv += ["--size", "4", "--games", "2", "--each", "st=0.05", "--ptnout", "g.ptn", "--quiet"]
    done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    # the user bot plays, named by the name it declares ("first")
    assert re.search(r"^ *\d +first +2 ", done.stdout, re.M), done.stdout
    assert "Games: 2 of 2" in done.stdout


def test_the_playtak_bot_starts_in_a_folder_with_its_own_bots_package(
    bot_author: tuple[Path, dict[str, str]],
) -> None:
    work, env = bot_author
    with tcp_server("--user", "alice:secret1") as address:
        argv = [str(TEI), "playtak", "--bot", "random", "--user", "alice", "-v"]
        argv += ["--password", "secret1", "--seek", "5 60 0", "--server", address]
        bot = subprocess.Popen(argv, cwd=work, env=env, stderr=subprocess.PIPE, text=True)
        try:
            assert bot.stderr is not None
            # the seek is posted once the engine has shaken hands (it may refuse the seek)
            log = list(itertools.takewhile(lambda line: "seeking:" not in line, bot.stderr))
            bot.send_signal(signal.SIGTERM)
            assert bot.wait(timeout=60) == 0
        finally:
            bot.kill()
    assert any("< id name tei-host random" in line for line in log), "".join(log)[-2000:]
