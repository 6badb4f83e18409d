"""The optional compiled build (bots/compiled.py): pure imports on demand, same results.

The comparison runs only where the compiled build is installed (`TEI_HOST_COMPILE=1 pip
install -e .`, as .ci/run does in its second pass); the pure-import checks run everywhere.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bots import compiled

#: fixed positions (opening, middle, late; 5x5 to 8x8), each searched to a node count
POSITIONS = [
    "x5/x5/x5/2,x4/x,212,x,1,1 1 5",
    "x4,1/x2,112C,1,x/x2,2,x2/2,12,x,12S,x/2,21S,1,x,1 1 13",
    "x2,2,x,111112C/x2,2,x,2/1,1,2,2,x/x,122221S,2S,121C,x/x2,121S,x,1 1 23",
    "x2,1,x3/x2,1,x,2C,x/2,x,1,x3/x4,1,1S/21,2,21,2,21,x/x,2,x,2S,2,112 1 16",
    "x3,1,x2,2C/x6,2C/x6,2/x3,1,x3/x6,2/x3,2,x,1C,x/2,x3,1,1C,1 1 7",
    "x6,1,x/x8/x4,2S,x3/x4,12,x3/x3,112,2,1,x,2C/x2,12,11221S,2,x3/"
    "x,2,12,x,2,x,21C,21/x,1111112C,2,x2,1,1,x 1 31",
]

#: a child process: (pure or not) searches every position, prints the results as JSON
SEARCH = """
import json, sys, threading
from bots import compiled
if sys.argv[1] == "pure":
    compiled.force_pure()
from bots.tak.bot import TakSearchBot
from rules.tak.game import TakGame
from rules.tak.tinue import solve
from bots import Limits
out = {"build": compiled.compiled(), "results": []}
for tps in json.loads(sys.argv[2]):
    game = TakGame.from_tps(tps)
    infos = []
    bot = TakSearchBot()
    move = bot.think(game.copy(), Limits(nodes=3000), threading.Event(), infos.append)
    last = infos[-1]
    board = game.fast_board()
    out["results"].append([
        game.format_action(move), last.depth, last.score_cp, last.solved, list(last.pv),
        bot.searcher.nodes, board.perft(2), solve(board.copy(), 3),
    ])
print(json.dumps(out))
"""


def child(mode: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", SEARCH, mode, json.dumps(POSITIONS)],
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.process
def test_force_pure_imports_the_sources() -> None:
    pure = child("pure")
    assert pure["build"] == []
    assert len(pure["results"]) == len(POSITIONS)  # type: ignore[arg-type]


@pytest.mark.process
def test_force_pure_refuses_modules_imported_already() -> None:
    code = "import rules.tak.board; from bots import compiled; compiled.force_pure()"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode != 0
    assert "already imported: " in done.stderr and "rules.tak.board" in done.stderr


def test_module_list_names_importable_modules() -> None:
    names = compiled.module_names()
    assert "rules.tak.board" in names and "bots.tak.search" in names
    assert set(compiled.compiled()) <= set(names)


@pytest.mark.process
@pytest.mark.skipif(not compiled.compiled(), reason="the compiled build is not installed")
def test_compiled_build_searches_like_pure_python() -> None:
    built = child("built")
    pure = child("pure")
    assert built["build"] == compiled.module_names()
    assert built["results"] == pure["results"]
