#!/usr/bin/env python3
"""A TEI engine for the playtak tests: random legal Tak moves, and one misbehaviour.

--mode good     answers every `go` at once
--mode crash    exits (code 3) on the N-th `go` (--at N), once: a marker file (--marker)
                makes the restarted process behave
--mode stall    never answers the N-th `go` (ignores stop), once, same marker rule
--log FILE      keeps a copy of every command received
--gate FILE     reads nothing until FILE exists (an engine slow to start)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from rules.registry import new_game


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="good", choices=("good", "crash", "stall", "gone"))
    parser.add_argument("--at", type=int, default=3)
    parser.add_argument("--marker", type=Path)
    parser.add_argument("--no-komi", action="store_true", help="declare no HalfKomi option")
    parser.add_argument("--log", type=Path, help="append every line received to this file")
    parser.add_argument("--gate", type=Path, help="read nothing until this file exists")
    args = parser.parse_args()
    while args.gate and not args.gate.exists():
        time.sleep(0.02)
    marked = bool(args.marker and args.marker.exists())
    if args.mode == "gone" and marked:
        return 1  # once crashed, it never starts again
    armed = args.mode != "good" and not marked
    options = {"size": "5", "halfkomi": "0"}
    moves: list[str] = []
    start: str | None = None
    gos = 0
    stalled = False
    out = sys.stdout
    for raw in sys.stdin:
        if args.log:
            with args.log.open("a") as log:
                log.write(raw)
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "tei":
            out.write("id name flaky\nid author tests\n")
            if not args.no_komi:
                out.write("option name HalfKomi type spin default 0 min 0 max 8\n")
            out.write("teiok\n")
        elif command == "isready":
            out.write("readyok\n")
        elif command == "setoption" and len(words) >= 5 and words[2].lower() == "halfkomi":
            options["halfkomi"] = words[4]
        elif command == "teinewgame":
            if len(words) > 1:
                options["size"] = words[-1] if words[1] != "size" else words[2]
        elif command == "position":
            rest = raw.split(" moves ")
            head = rest[0].split()
            start = " ".join(head[2:]) if len(head) > 1 and head[1] == "tps" else None
            moves = rest[1].split() if len(rest) > 1 else []
        elif command == "go":
            gos += 1
            if armed and gos >= args.at:
                if args.marker:
                    args.marker.write_text(args.mode)
                if args.mode in ("crash", "gone"):
                    out.write("info string crashing now\n")
                    out.flush()
                    return 3
                stalled = True
            if not stalled:
                game = new_game("tak", options)
                if start:
                    game = type(game).from_position_string(start, options)
                game.play_all(moves)
                move = random.choice(game.legal())
                out.write(f"info depth 1\nbestmove {game.format_action(move)}\n")
        elif command == "quit":
            return 0
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
