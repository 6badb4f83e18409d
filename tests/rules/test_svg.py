"""Board pictures: the SVG of known positions parsed as XML, pieces counted by class."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from rules.game import Game, GameError
from rules.tak.game import TakGame
from rules.traxit.game import TraxitGame
from rules.trike.game import TrikeGame

NS = "{http://www.w3.org/2000/svg}"


def parts(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return list(root.iter())


def classes(svg: str, first: str) -> Counter[str]:
    """Counts of the class strings of elements whose first class word is `first`."""
    found: Counter[str] = Counter()
    for el in parts(svg):
        words = el.get("class", "").split()
        if words and words[0] == first:
            found[" ".join(words[1:])] += 1
    return found


def marked(svg: str, key: str) -> set[str]:
    return {el.get(key, "") for el in parts(svg) if "last" in el.get("class", "").split()}


TPS = "x2,2,x2,1/x,221S,x,1C,x2/x,2,12121212121,x3/x2,1,2C,x2/x,21,x3,2/1,x4,2 1 12"


def test_tak_pieces_walls_caps_and_tall_stack() -> None:
    game = TakGame.from_position_string(TPS)
    svg = game.render_svg()
    pieces = classes(svg, "piece")
    # b5 221S is a white wall on two black flats; d5 a white cap, d3 a black cap
    # black flats under a top: two in b5, one in b2, four of the eight drawn in c4
    assert pieces["wall white top"] == 1 and pieces["flat black"] == 7
    assert pieces["flat white"] == 3
    assert pieces["cap white top"] == 1 and pieces["cap black top"] == 1
    tops = {k: v for k, v in pieces.items() if k.endswith("top")}
    assert sum(tops.values()) == 12  # one top per occupied square
    assert tops["flat white top"] == 5 and tops["flat black top"] == 4
    heights = {
        el.get("data-square"): int(el.get("data-height", "0"))
        for el in parts(svg)
        if el.get("class") == "stack"
    }
    assert heights["c4"] == 11 and heights["b5"] == 3 and len(heights) == 12
    # the tall stack draws at most 8 pieces; its badge says 11
    texts = [el.text for el in parts(svg) if el.tag == f"{NS}text"]
    assert "11" in texts
    reserve = {
        el.get("class"): (el.get("data-stones"), el.get("data-caps"))
        for el in parts(svg)
        if el.get("class", "").startswith("reserve")
    }
    assert reserve == {"reserve white": ("19", "0"), "reserve black": ("18", "0")}
    assert marked(svg, "data-square") == set()


def test_tak_last_slide_highlights_origin_and_drops() -> None:
    game = TakGame.from_position_string(TPS)
    game.play_text("3c4>12")
    svg = game.render_svg()
    assert marked(svg, "data-square") == {"c4", "d4", "e4"}
    assert marked(game.render_svg(last=False), "data-square") == set()
    game = TakGame.new({"size": "5"})
    game.play_all(["a1", "e5", "Cc3"])
    svg = game.render_svg()
    assert marked(svg, "data-square") == {"c3"}
    assert classes(svg, "piece") == Counter(
        {"flat black top": 1, "flat white top": 1, "cap white top": 1}
    )


def test_tak_finished_game_names_the_result() -> None:
    game = TakGame.from_position_string("1,1,1,1,x/x5/x5/x5/2,2,2,2,x 1 5")
    game.play_text("e5")
    assert game.result is not None
    texts = [el.text or "" for el in parts(game.render_svg())]
    assert any("R-0" in t for t in texts)


def test_trike_checkers_pawn_and_last_cell() -> None:
    game = TrikeGame.new({"size": "7"})
    game.play_all(["d2", "swap", "c3"])
    svg = game.render_svg()
    assert classes(svg, "checker") == Counter({"x": 1, "o": 1})
    pawn = [el for el in parts(svg) if el.get("class") == "pawn"]
    assert [el.get("data-cell") for el in pawn] == ["c3"]
    assert marked(svg, "data-cell") == {"c3"}
    assert sum(classes(svg, "cell").values()) == 28


def test_traxit_levels_obstacles_and_pawns_by_colour() -> None:
    game = TraxitGame.new({"players": "3"})
    game.play_all(["@b1", "@a4", "@d8", "@c1", "@a5", "@e8"])
    svg = game.render_svg()
    cells = classes(svg, "cell")
    assert cells == Counter({"level-1": 28, "level-2": 20, "level-3": 12, "level-4": 4})
    assert classes(svg, "pawn") == Counter({"R": 2, "B": 2, "G": 2})
    obstacles = {el.get("data-cell") for el in parts(svg) if el.get("class") == "obstacle"}
    assert obstacles == {"c6", "f3"}
    assert marked(svg, "data-cell") == {"e8"}


def test_a_game_without_a_picture_says_so() -> None:
    class Bare(TakGame):
        name = "bare"

        def render_svg(self, last: bool = True) -> str:
            return Game.render_svg(self, last)

    with pytest.raises(GameError, match="bare"):
        Bare.new().render_svg()


def tei_show(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tei", "show", *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.process
def test_tei_show_svg_to_stdout_and_file(tmp_path: Path) -> None:
    out = tei_show("--tps", TPS, "--svg", "-")
    assert out.returncode == 0, out.stderr
    assert classes(out.stdout, "piece")["wall white top"] == 1
    path = tmp_path / "board.svg"
    out = tei_show("--game", "trike", "--size", "5", "--moves", "c2", "--svg", str(path))
    assert out.returncode == 0, out.stderr
    assert "5:" in out.stdout  # the text picture is still printed
    assert classes(path.read_text(encoding="utf-8"), "checker") == Counter({"x": 1})


@pytest.mark.process
def test_tei_show_svg_unwritable_path_is_a_usage_error(tmp_path: Path) -> None:
    out = tei_show("--svg", str(tmp_path / "missing" / "board.svg"))
    assert out.returncode == 2
    assert "cannot write" in out.stderr and "board.svg" in out.stderr
