"""The compiled build against pure Python, in the same run: search nodes/s and perft rates.

Usage: python benchmarks/compiled.py [--nodes 20000] [--sizes 5 6] [--quick]

Runs `benchmarks/search.py` and `benchmarks/perft.py` twice each in subprocesses: once
with the Tak core and search imported from their sources (`bots.compiled.force_pure`,
the baseline) and once as installed (compiled when the install was built with
TEI_HOST_COMPILE=1; see docs/performance.md), then prints the factor of each figure.
Both runs search the same fixed positions to the same node counts, so the depth, score
and best move columns must agree (checked: a difference is reported and exits 1).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PRELUDE = (
    "import runpy, sys; from bots import compiled; from rules import build; {pure}"
    "print('build:', compiled.describe(), flush=True); "
    "sys.argv = [sys.argv[1], *sys.argv[2:]]; runpy.run_path(sys.argv[0], run_name='__main__')"
)

#: a perft row: position, depth, method, leaves, seconds, leaves/s, nodes/s
PERFT_ROW = re.compile(
    r"(\S+ \S+(?: stacks)?)\s+(\d+) (.+?)\s{2,}([\d,]+)\s+\S+\s+([\d,]+)\s+([\d,]+)"
)


def run(script: str, args: list[str], pure: bool) -> str:
    """The output of one benchmark script, pure or as installed."""
    code = PRELUDE.format(pure="compiled.force_pure(); " if pure else "build.guard(); ")
    done = subprocess.run(
        [sys.executable, "-c", code, str(HERE / script), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{script} failed:\n{done.stderr}")
    return done.stdout


def search_rows(text: str) -> dict[str, list[str]]:
    """Search rows by position label: [depth, score, best, nodes, nps, ...]."""
    rows = {}
    for line in text.splitlines():
        match = re.match(r"(\d \w+|total)\s+(.*)", line)
        if match:
            rows[match.group(1)] = match.group(2).split()
    return rows


def perft_rows(text: str) -> dict[str, float]:
    """Perft rates by "position, method": leaves/s of fast perft, nodes/s of the others."""
    rates = {}
    for line in text.splitlines():
        match = PERFT_ROW.match(line)
        if match:
            column = 5 if match.group(3) == "fast perft" else 6
            value = match.group(column).replace(",", "")
            rates[f"{match.group(1)}, {match.group(3)}"] = float(value)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=20_000, help="nodes per search")
    parser.add_argument("--sizes", nargs="*", default=[], help="only these sizes")
    parser.add_argument("--quick", action="store_true", help="perft one ply less")
    args = parser.parse_args()
    search_args = ["--nodes", str(args.nodes)] + (["--sizes", *args.sizes] if args.sizes else [])
    perft_args = ["--quick"] if args.quick else []
    pure = run("search.py", search_args, pure=True)
    built = run("search.py", search_args, pure=False)
    print(pure.splitlines()[0], "|", built.splitlines()[0])
    if "compiled" not in built.splitlines()[0]:
        print("the compiled build is not installed: TEI_HOST_COMPILE=1 pip install -e .")
    same = True
    print(f"{'position':<11} {'depth':>5} {'score':>6} {'best':>7} {'pure nps':>9} "
          f"{'built nps':>10} {'factor':>7}")  # fmt: skip
    base, other = search_rows(pure), search_rows(built)
    for label, row in base.items():
        new = other.get(label, [])
        if label == "total":
            print(f"{'total':<11} {'':>22} {float(row[1]):>9.0f} {float(new[1]):>10.0f} "
                  f"{float(new[1]) / float(row[1]):>7.2f}")  # fmt: skip
            continue
        if row[:4] != new[:4]:
            same = False
            print(f"{label}: pure {row[:4]} but built {new[:4]}")
        print(f"{label:<11} {row[0]:>5} {row[1]:>6} {row[2]:>7} {float(row[4]):>9.0f} "
              f"{float(new[4]):>10.0f} {float(new[4]) / float(row[4]):>7.2f}")  # fmt: skip
    base_p = perft_rows(run("perft.py", perft_args, pure=True))
    other_p = perft_rows(run("perft.py", perft_args, pure=False))
    for label, value in base_p.items():
        print(f"perft {label:<40} {value:>13,.0f} {other_p[label]:>13,.0f} "
              f"{other_p[label] / value:>7.2f}")  # fmt: skip
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
