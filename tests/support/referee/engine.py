#!/usr/bin/env python3
"""A tiny TEI engine for referee tests: plays legal moves of any game, and misbehaves on
request from a given ply on.

  --mode good       answers at once with a seeded random legal move
  --mode crash      exits with code 3 on `go`
  --mode hang       never answers `go`, ignores `stop` (time forfeit / stalled)
  --mode slow       thinks until `stop` (answers then: a time forfeit, no restart)
  --mode illegal    answers a well-formed move that is not legal
  --mode malformed  answers `bestmove ???`
  --mode stall      never answers the `isready` after `teinewgame`
  --mode info       like good, with an info line (score and depth) before bestmove
  --mode nokomi     like good, but declares no HalfKomi option
  --mode twice      answers every `go` with two bestmove lines
  --mode orphan     on `go`, starts a helper in a new session that keeps stdout open
                    (its command line holds --tag), then exits with code 3

--at PLY: misbehave only when the game has at least PLY plies (default 0);
--delay S: think S seconds before each answer (honours stop); --seed N; --tag WORD
(ignored: lets a test find its processes); --script "a1 c3 ...": the action to play at
each ply while the script lasts; --score "cp -700": an `info score` with it before every
answer ("solved loss", "mate 3", ...); --last-words TEXT: what `crash` writes on stderr;
--gate CONTROL WATCH NEEDLE: answer no `go` while the gate is shut (tests/support/engines/gate.py).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(1, str(Path(__file__).resolve().parents[3]))  # the project's root

from rules.registry import game_class
from tei.protocol import Go, IsReady, Position, Quit, SetOption, Stop, Tei, TeiNewGame
from tei.protocol import parse_gui_line as parse
from tests.support.engines.gate import gate_of


def out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Engine:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.options: dict[str, str] = {"game": "tak"}
        self.size: int | None = None
        self.game: Any = None
        self.rng = random.Random(args.seed)
        self.stop = threading.Event()
        self.search: threading.Thread | None = None
        self.newgame_pending = False
        self.gate = gate_of(args.gate)

    def misbehaving(self) -> bool:
        return self.game is not None and self.game.ply >= self.args.at

    def hello(self) -> None:
        out("id name refbot")
        out("id author tests")
        out("option name Game type combo default tak var tak var trike var traxit")
        if self.args.mode != "nokomi":
            out("option name HalfKomi type spin default 0 min 0 max 8")
        out("option name Players type spin default 2 min 2 max 4")
        out("option name Teams type check default false")
        out("option name ShortGame type check default false")
        out("option name Hash type spin default 16 min 1 max 1024")
        out("teiok")

    def rules(self) -> dict[str, str]:
        rules = {k: v for k, v in self.options.items() if k != "game" and k != "hash"}
        if self.size is not None and self.options["game"] in ("tak", "trike"):
            rules["size"] = str(self.size)
        return rules

    def set_position(self, msg: Position) -> None:
        cls = game_class(self.options["game"])
        rules = self.rules()
        game = cls.from_position_string(msg.position, rules) if msg.position else cls.new(rules)
        game.play_all(list(msg.moves))
        self.game = game

    def answer(self) -> str:
        game = self.game
        mode = self.args.mode
        if self.misbehaving() and mode == "illegal":
            for text in game.history_text():
                try:
                    action = game.parse_action(text)
                except ValueError:
                    return text
                if action not in game.legal():
                    return text
            return "a1"
        if self.misbehaving() and mode == "malformed":
            return "???"
        script = self.args.script.split()
        if game.ply < len(script):
            return str(script[game.ply])
        return game.format_action(self.rng.choice(game.legal()))

    def think(self) -> None:
        mode = self.args.mode
        if self.gate:
            self.gate.wait()
        if self.misbehaving() and mode == "hang":
            return
        if self.args.delay:
            self.stop.wait(self.args.delay)
        if self.misbehaving() and mode == "slow":
            self.stop.wait()
        if mode == "info":
            out("info depth 3 score cp 25 nodes 100 pv " + self.answer())
        if self.args.score:
            out(f"info depth 1 score {self.args.score}")
        best = "bestmove " + self.answer()
        if self.misbehaving() and mode == "twice":
            # both lines in one write: written apart, the second could come after the next
            # `go` (a loaded machine), where no referee can tell it from that go's answer
            # (TEI numbers no go) and it plays a move of the position before
            best += "\n" + best
        out(best)

    def go(self, msg: Go) -> None:
        if self.misbehaving() and self.args.mode == "orphan":
            helper = "import sys, time; time.sleep(60)"
            subprocess.Popen([sys.executable, "-c", helper, self.args.tag], start_new_session=True)
            os._exit(3)
        if self.misbehaving() and self.args.mode == "crash":
            sys.stderr.write(self.args.last_words + "\n")
            sys.stderr.flush()
            sys.exit(3)
        self.stop.clear()
        self.search = threading.Thread(target=self.think, daemon=True)
        self.search.start()

    def run(self) -> None:
        for raw in sys.stdin:
            msg = parse(raw)
            if isinstance(msg, Tei):
                self.hello()
            elif isinstance(msg, SetOption):
                self.options[msg.name.lower()] = (msg.value or "").lower()
            elif isinstance(msg, TeiNewGame):
                self.size = msg.size
                self.game = None
                self.newgame_pending = True
            elif isinstance(msg, IsReady):
                if self.newgame_pending and self.args.mode == "stall":
                    continue
                out("readyok")
            elif isinstance(msg, Position):
                self.set_position(msg)
            elif isinstance(msg, Go):
                self.go(msg)
            elif isinstance(msg, Stop):
                self.stop.set()
            elif isinstance(msg, Quit):
                return


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="good")
    parser.add_argument("--at", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tag", default="", help="ignored; marks the process for tests")
    parser.add_argument("--script", default="", help="the actions to play, by ply")
    parser.add_argument("--score", default="", help="the score reported with every move")
    parser.add_argument("--last-words", default="refbot: crashing as asked")
    parser.add_argument(
        "--gate",
        nargs=3,
        metavar=("CONTROL", "WATCH", "NEEDLE"),
        help="see gate.py",
    )
    Engine(parser.parse_args()).run()
    time.sleep(0)


if __name__ == "__main__":
    main()
