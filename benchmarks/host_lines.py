"""How fast `tei engine` gets through huge input lines, against a bare pipe reader.

For each size, one `position startpos moves a1 a1 ...` line of that many bytes is written
to the host, then `isready`; the time to `readyok` is printed. The baseline is the same
bytes written to a Python process that only reads its stdin to the end of the line and
answers. A host whose reader is linear stays within a small factor of the baseline.

Usage: python benchmarks/host_lines.py [--sizes 1,10,60] (megabytes)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from tei.driver import tei_command

BASELINE = (
    "import sys\n"
    "r = sys.stdin.buffer\n"
    "while True:\n"
    "    line = r.readline()\n"
    "    if not line or line.startswith(b'isready'):\n"
    "        break\n"
    "sys.stdout.write('readyok\\n'); sys.stdout.flush()\n"
)


def time_to_readyok(argv: list[str], megabytes: int) -> float:
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    line = b"position startpos moves " + b"a1 " * (megabytes * 1_000_000 // 3)
    started = time.perf_counter()
    proc.stdin.write(line + b"\nisready\n")
    proc.stdin.flush()
    while not proc.stdout.readline().startswith(b"readyok"):
        pass
    elapsed = time.perf_counter() - started
    proc.kill()
    proc.wait()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,60", help="line sizes in MB (default 1,10,60)")
    args = parser.parse_args()
    host = list(tei_command("engine", "--bot", "random"))
    base = [sys.executable, "-c", BASELINE]
    print(f"{'MB':>4} {'baseline s':>11} {'tei engine s':>13} {'ratio':>6}")
    for size in (int(s) for s in args.sizes.split(",")):
        baseline = time_to_readyok(base, size)
        hosted = time_to_readyok(host, size)
        print(f"{size:>4} {baseline:>11.3f} {hosted:>13.3f} {hosted / baseline:>6.1f}")


if __name__ == "__main__":
    main()
