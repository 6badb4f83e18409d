#!/usr/bin/env python3
"""A tiny scripted TEI engine for tests, with a switchable misbehaviour.

It plays Tak placements only: its answer is the first empty square (a1, b1, ...) of the
position it was given, which is legal in any Tak position reached by placements (and in
the tests' toy game). `--mode` picks how it misbehaves:

  good          answers everything properly (isready at once, also during a search)
  slow          takes --delay seconds per move; honours stop
  until-stop    answers `go` only after `stop` (or quit), whatever the limits; writes
                `thinking (pid N)` on stderr when a search starts
  silent        never answers `go` (ignores stop too)
  mute          shakes hands, then never writes anything again
  no-teiok      answers `tei` with id lines but no teiok
  exit-at-start exits with code 2 at once, after a line on stderr
  crash         writes an info line on `go`, then exits with code 3
  illegal       answers with an occupied square (or a1 twice)
  unparsable    answers `bestmove ???`
  empty-bestmove answers a bare `bestmove`
  garbage       writes junk lines (and malformed info) around a good answer
  ignore-stop   keeps searching after stop in infinite mode (answers only at quit)
  bad-pv        prints an info pv that repeats its move (illegal at the second ply)
  late          takes --delay seconds per move whatever comes (stop is ignored)
  ignore-quit   does not exit on quit (nor on SIGTERM with --ignore-sigterm)
  strict        exits with code 101 on what Tiltak cannot take: bare go, go depth,
                an undeclared or wrongly-cased option, an F prefix
  no-read-while-searching  does not read input while it searches (like go nodes in Tiltak)
  two-bestmoves writes two bestmove lines per go
  no-author     sends no `id author`
  no-name       sends no `id name`
  bad-option    declares a malformed option and one whose default is out of range
  bestmove-on-stop  answers `stop` with a bestmove even when it is not searching
  double-block  prints its id/option/teiok block at start and again on tei
  close-stdout  on `go`, closes its stdout and goes on running (until stdin ends)
  bestmove-on-isready  answers `isready` during an infinite search with readyok and a bestmove

Other flags: --score "cp -900" (the score of its info lines; "none": info lines without
a score), --delay S, --options "Name type default [min max|var ...]" (repeatable; a
declared MultiPV set to N makes its last info N lines, `multipv K` on the K-th empty
square),
--spawn-child (start a sleeping helper process and print its pid on stderr),
--orphan TOKEN (start a helper in a new session that keeps stdout open, with TOKEN on its
command line, and print its pid on stderr), --ignore-sigterm, --games tak,trike (declare a
Game combo), --crash-on PREFIX (exit with code 4 on a line that starts with PREFIX),
--gate CONTROL WATCH NEEDLE (answer no `go` while the gate is shut: see gate.py).
"""

from __future__ import annotations

import argparse
import functools
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

sys.path.insert(1, str(Path(__file__).resolve().parents[3]))  # the project's root
from tests.support.engines.gate import gate_of

FILES = "abcdefgh"


def write_line(stream: TextIO, line: str) -> None:
    """`line` in one write, flushed (the search thread writes too)."""
    stream.write(line + "\n")
    stream.flush()


out = functools.partial(write_line, sys.stdout)
err = functools.partial(write_line, sys.stderr)


class Fake:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.mode = args.mode
        self.size = 5
        self.occupied: set[str] = set()
        self.moves: list[str] = []
        self.stop = threading.Event()
        self.search: threading.Thread | None = None
        self.infinite = False
        self.lock = threading.Lock()
        self.gate = gate_of(args.gate)
        self.declared: dict[str, str] = {}
        self.multipv = 1
        for spec in args.options:
            words = spec.split()
            self.declared[words[0]] = spec

    # ---- output blocks ---------------------------------------------------------------
    def id_block(self) -> None:
        if self.mode != "no-name":
            out("id name Fake " + self.mode)
        if self.mode != "no-author":
            out("id author Test Suite")
        for spec in self.args.options:
            words = spec.split()
            name, kind = words[0], words[1]
            line = f"option name {name} type {kind}"
            if len(words) > 2:
                line += f" default {words[2]}"
            if kind == "spin" and len(words) > 4:
                line += f" min {words[3]} max {words[4]}"
            if kind == "combo":
                line += "".join(f" var {v}" for v in words[3:])
            out(line)
        if self.mode == "bad-option":
            out("option name Broken")
            out("option name Size type spin default 99 min 1 max 8")
        if self.args.games:
            games = self.args.games.split(",")
            out(
                f"option name Game type combo default {games[0]}"
                + "".join(f" var {g}" for g in games)
            )
        if self.mode != "no-teiok":
            out("teiok")

    # ---- position ----------------------------------------------------------------------
    def set_position(self, words: list[str]) -> None:
        self.occupied = set()
        rest = words[1:]
        if rest and rest[0] == "tps":
            rows = rest[1].split("/")
            self.size = len(rows)
            for index, row in enumerate(rows):
                rank = len(rows) - index
                col = 0
                for item in row.split(","):
                    if item.startswith("x"):
                        col += int(item[1:] or 1)
                    else:
                        self.occupied.add(f"{FILES[col]}{rank}")
                        col += 1
            rest = rest[4:]
        elif rest and rest[0] == "startpos":
            rest = rest[1:]
        self.moves = rest[1:] if rest and rest[0] == "moves" else []
        for move in self.moves:
            if self.mode == "strict" and move.startswith("F"):
                err("panic: F prefix")
                sys.exit(101)
            square = move.lstrip("FSC").rstrip("*")
            if len(square) == 2 and square[0] in FILES:
                self.occupied.add(square)

    def empty(self) -> list[str]:
        squares = (
            f"{file}{rank}" for rank in range(1, self.size + 1) for file in FILES[: self.size]
        )
        return [square for square in squares if square not in self.occupied]

    def answer(self) -> str:
        if self.mode == "illegal":
            return self.moves[0].lstrip("FSC") if self.moves else "Ca1"
        if self.mode == "unparsable":
            return "???"
        return next(iter(self.empty()), "--")

    # ---- search ------------------------------------------------------------------------
    def score(self, usual: str) -> str:
        """` score ...` for an info line (the --score given, or `usual`; none: nothing)."""
        chosen = self.args.score or usual
        return "" if chosen == "none" else f" score {chosen}"

    def go(self, words: list[str]) -> None:
        fields = words[1:]
        if self.mode == "strict" and (not fields or fields[0] == "depth"):
            err("panic: Invalid go command")
            sys.exit(101)
        if self.mode == "close-stdout":
            sys.stdout.close()
            os.close(1)
            return
        if self.mode == "until-stop":
            err(f"thinking (pid {os.getpid()})")
        if self.mode == "crash":
            out("info depth 1 score cp 0 pv a1")
            err("fatal: crashed mid-search")
            os._exit(3)
        infinite = "infinite" in fields or not fields or self.mode == "until-stop"
        movetime = None
        if "movetime" in fields:
            movetime = int(fields[fields.index("movetime") + 1]) / 1000
        if self.search is not None and self.mode not in ("late", "ignore-stop"):
            # one search at a time, as real engines: the last one (stopped, or ending by
            # its limits) writes its bestmove before this one starts; each has its own stop
            self.search.join()
        self.stop = threading.Event()
        self.infinite = infinite
        self.search = threading.Thread(
            target=self.think, args=(infinite, movetime, self.stop), daemon=True
        )
        self.search.start()
        if self.mode == "no-read-while-searching":
            self.search.join()

    def think(self, infinite: bool, movetime: float | None, stop: threading.Event) -> None:
        if self.gate:
            self.gate.wait()
        if self.mode == "silent":
            return
        move = self.answer()  # decided for the position of this go
        if self.mode == "late":
            time.sleep(self.args.delay)
            out(f"info depth 1 score cp 1 pv {move}")
            out(f"bestmove {move}")
            return
        delay = self.args.delay
        if movetime is not None:
            delay = min(delay, movetime * 0.5) if self.mode != "slow" else delay
        if self.mode == "garbage":
            out("hello there, this is not TEI")
            out("info depth x score cp banana pv")
            out("")
            out("info depth 1 bogus 7 score cp 3 pv a1")
        pv = f"{move} {move}" if self.mode == "bad-pv" else move
        out(f"info depth 1 seldepth 1{self.score('cp 5')} nodes 10 nps 1000 time 1 pv {pv}")
        if self.mode == "ignore-stop" and infinite:
            threading.Event().wait()  # never set: only quit ends this search
        if infinite or self.mode in ("slow", "ignore-stop"):
            stop.wait(None if infinite else delay)  # until stop, or the delay's end
        elif delay:
            stop.wait(delay)
        if self.mode == "bestmove-on-isready" and infinite:
            return  # the bestmove goes with the readyok
        with self.lock:
            if self.multipv > 1:
                for k, square in enumerate(self.empty()[: self.multipv], 1):
                    out(f"info depth 2 multipv {k}{self.score(f'cp {8 - k}')} pv {square}")
            else:
                out(f"info depth 2{self.score('cp 7')} pv {self.answer()}")
            if self.mode == "empty-bestmove":
                out("bestmove")
            elif self.mode == "two-bestmoves":
                # one write: a thread switch between two writes could let readyok in first
                out(f"bestmove {self.answer()}\nbestmove {self.answer()}")
            else:
                out("bestmove " + self.answer())

    # ---- main loop ---------------------------------------------------------------------
    def run(self) -> int:
        if self.mode == "exit-at-start":
            err("fatal: cannot start")
            return 2
        if self.args.spawn_child:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            err(f"child {child.pid}")
        if self.args.orphan:
            helper = "import time; time.sleep(60)"
            child = subprocess.Popen(
                [sys.executable, "-c", helper, self.args.orphan], start_new_session=True
            )
            err(f"orphan {child.pid}")
        if self.args.ignore_sigterm:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if self.mode == "double-block":
            self.id_block()
        for raw in sys.stdin:
            words = raw.split()
            if not words:
                continue
            command = words[0]
            if self.args.crash_on and raw.strip().startswith(self.args.crash_on):
                err(f"crash on {raw.strip()!r}")
                return 4
            if self.mode == "mute" and command != "tei":
                continue
            if command == "tei":
                self.id_block()
            elif command == "isready":
                searching = self.search is not None and self.search.is_alive()
                if self.mode == "bestmove-on-isready" and searching and self.infinite:
                    # only an infinite search waits for this; a bounded one writes its own
                    # bestmove (and may be doing so right now: a second one would be a bug)
                    self.stop.set()
                    self.search.join()
                    self.search = None
                    out("readyok\nbestmove " + self.answer())
                else:
                    out("readyok")
            elif command == "setoption":
                name = words[2] if len(words) > 2 else ""
                if self.mode == "strict" and name not in self.declared and name != "Game":
                    err(f'panic: Unknown option "{name}"')
                    return 101
                if name == "MultiPV" and len(words) > 4:
                    self.multipv = int(words[4])
            elif command == "teinewgame":
                if len(words) > 1 and words[1].isdigit():
                    self.size = int(words[1])
            elif command == "position":
                self.set_position(words)
            elif command == "go":
                self.go(words)
            elif command == "stop":
                self.stop.set()
                idle = self.search is None or not self.search.is_alive()
                if self.mode == "bestmove-on-stop" and idle:
                    out("bestmove " + self.answer())
            elif command == "quit":
                if self.mode == "ignore-quit":
                    continue
                return 0
        if self.mode == "ignore-quit":
            while True:
                time.sleep(1)
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="good")
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument(
        "--gate",
        nargs=3,
        metavar=("CONTROL", "WATCH", "NEEDLE"),
        help="see gate.py",
    )
    parser.add_argument("--score", default="")
    parser.add_argument("--options", action="append", default=[])
    parser.add_argument("--games", default="")
    parser.add_argument("--spawn-child", action="store_true")
    parser.add_argument("--ignore-sigterm", action="store_true")
    parser.add_argument("--orphan", default="")
    parser.add_argument("--crash-on", default="")
    return Fake(parser.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
