#!/usr/bin/env python3
"""A tiny TEI engine for tests that reports several lines per search (`MultiPV`).

It declares `option name MultiPV type spin default 1 min 1 max 4`; on `go` it writes, for
depths 1 and 2, one `info depth D multipv K score cp S pv M` per line K (line K is the
K-th empty square of the start position, a1 b1 c1 d1, scored 100 - 10 K + D), then
`bestmove` of line 1. It only knows empty boards (enough for the tests' start positions).
"""

from __future__ import annotations

import sys

SQUARES = ("a1", "b1", "c1", "d1")


def out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    lines = 1
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "tei":
            out("id name MultiPV fake")
            out("id author Test Suite")
            out("option name MultiPV type spin default 1 min 1 max 4")
            out("teiok")
        elif words[0] == "isready":
            out("readyok")
        elif words[0] == "setoption" and len(words) >= 5 and words[2].lower() == "multipv":
            lines = int(words[4])
        elif words[0] == "go":
            for depth in (1, 2):
                for k in range(1, lines + 1):
                    score = 100 - 10 * k + depth
                    out(f"info depth {depth} multipv {k} score cp {score} pv {SQUARES[k - 1]}")
            out(f"bestmove {SQUARES[0]}")
        elif words[0] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
