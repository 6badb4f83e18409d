"""Strength of the Tak search bot against outside engines, as one Markdown table.

Usage:
    python benchmarks/strength.py --seed 4242 \\
        --opponent taktician="/path/to/taktician tei" --opponent tiltak=/path/to/tiltak-tei \\
        --row taktician,5,0,10+0.1,100 --row tiltak,5,0,10+0.1,100 [--out table.md]

Each `--row OPPONENT,SIZE,KOMI,TC,GAMES` is one `tei match` of this install's bot
(`--ours`, default `bot=search`) against the opponent's command (your own build of it),
on a book of GAMES/2 openings of two random flat placements written by
benchmarks/tak_openings.py with `--seed` (each opening played from both seats; GAMES is
rounded up to an even number). TC is any `tei match` limit: `10+0.1` (a clock),
`st=0.5`, `nodes=20000`, `depth=5`. The table gives the date, our build (`tei --version`:
compiled or pure Python), the book's seed, W-L-D, score, the referee's 95% Elo interval
(from game pairs), the games each side lost by a fault of its own rather than on the
board (a crash, a hang, output that is not a legal move, the clock), and the machine's
load average at the start and end of the row: a timed row on a loaded machine is slower
for both sides, and the load is the baseline it must be read against. `--records DIR`
keeps each row's games as PTN.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
from tak_openings import book_lines

from adapters.referee.stats import format_elo
from tei.cli import version_line
from tei.driver.launch import tei_command

OURS = "ours"


class StrengthError(ValueError):
    """A bad command-line value (quoted in the message)."""


@attrs.frozen
class Row:
    """One match of the table: our bot against `opponent` on a board of `size`."""

    opponent: str
    size: int
    komi: float
    limit: str
    games: int

    def limit_key(self) -> str:
        """The `tei match --each` word for the limit: `tc=10+0.1`, `st=0.5`, ..."""
        return self.limit if "=" in self.limit else f"tc={self.limit}"


@attrs.frozen
class Outcome:
    """A finished row: our W-L-D, the Elo interval and the load around it."""

    row: Row
    wins: int
    losses: int
    draws: int
    elo: tuple[float, float, float] | None
    load: tuple[float, float]
    #: average milliseconds a move: ours, the opponent's (None when not measured)
    move_ms: tuple[float, float] | None = None
    #: games ended by a fault (crash, bad output, time) of ours and of the opponent: the
    #: referee's count of each engine's games with it as the culprit (summary `faults`)
    faults: tuple[int, int] = (0, 0)

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


def parse_row(text: str) -> Row:
    """`OPPONENT,SIZE,KOMI,TC,GAMES` -> Row; StrengthError quoting `text` when bad."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 5 or not all(parts):
        raise StrengthError(f"row {text!r}: expected OPPONENT,SIZE,KOMI,TC,GAMES")
    name, size, komi, limit, games = parts
    try:
        row = Row(name, int(size), float(komi), limit, int(games))
    except ValueError:
        raise StrengthError(
            f"row {text!r}: SIZE and GAMES must be integers, KOMI a number"
        ) from None
    if not 3 <= row.size <= 8:
        raise StrengthError(f"row {text!r}: SIZE must be 3 to 8")
    if row.games < 1:
        raise StrengthError(f"row {text!r}: GAMES must be at least 1")
    if row.komi * 2 != int(row.komi * 2) or row.komi < 0:
        raise StrengthError(f"row {text!r}: KOMI must be a non-negative multiple of 0.5")
    return attrs.evolve(row, games=row.games + row.games % 2)


def parse_opponent(text: str) -> tuple[str, list[str]]:
    """`NAME=COMMAND` -> (name, argv); StrengthError quoting `text` when bad."""
    name, sep, command = text.partition("=")
    argv = shlex.split(command) if sep else []
    if not name.strip() or not argv:
        raise StrengthError(f"opponent {text!r}: expected NAME=COMMAND")
    if name.strip() == OURS:
        raise StrengthError(f"opponent {text!r}: the name {OURS!r} is our bot's")
    return name.strip(), argv


def check_rows(rows: Sequence[Row], opponents: dict[str, list[str]]) -> None:
    """Every row names a given opponent (StrengthError naming the first that does not)."""
    for row in rows:
        if row.opponent not in opponents:
            known = ", ".join(sorted(opponents)) or "none"
            raise StrengthError(
                f"row opponent {row.opponent!r} is not given by --opponent (given: {known})"
            )


def match_args(
    row: Row, ours: str, command: Sequence[str], book: Path, json_out: Path
) -> list[str]:
    """The `tei match` arguments of one row."""
    return [
        "--engine", *shlex.split(ours), f"name={OURS}",
        "--engine", f"cmd={shlex.join(command)}", f"name={row.opponent}",
        "--each", row.limit_key(),
        "--size", str(row.size), "--komi", f"{row.komi:g}",
        "--games", str(row.games), "--openings", str(book), "--json", str(json_out), "--quiet",
    ]  # fmt: skip


def outcome(row: Row, summary: dict[str, Any], load: tuple[float, float]) -> Outcome:
    """Our result in a `tei match --json` summary (the pair of `ours` and the opponent)."""
    for pair in summary.get("pairs", []):
        names = pair["engines"]
        if OURS in names and row.opponent in names:
            mine = names[0] == OURS
            wins, losses = (
                (pair["wins"], pair["losses"]) if mine else (pair["losses"], pair["wins"])
            )
            penta = any(pair.get("pentanomial") or [])
            elo = _interval(pair.get("elo_pentanomial" if penta else "elo"), mine)
            timing = summary.get("timing", {})
            ms = [timing.get(n, {}).get("average_ms") for n in (OURS, row.opponent)]
            move_ms = (ms[0], ms[1]) if None not in ms else None
            by_engine = summary.get("faults", {})
            lost = [sum(by_engine.get(n, {}).values()) for n in (OURS, row.opponent)]
            return Outcome(row, wins, losses, pair["draws"], elo, load, move_ms, (lost[0], lost[1]))
    raise StrengthError(f"match summary has no pair of {OURS!r} and {row.opponent!r}")


def _interval(
    data: dict[str, float | None] | None, mine: bool
) -> tuple[float, float, float] | None:
    """The summary's interval for the first engine (None stands for an infinite value:
    the estimate is then infinite on the side of its finite bound), turned to our side."""
    if data is None or (data["low"] is None and data["high"] is None):
        return None
    low = -math.inf if data["low"] is None else data["low"]
    high = math.inf if data["high"] is None else data["high"]
    elo = data["elo"]
    if elo is None:
        elo = math.inf if data["high"] is None else -math.inf
    return (elo, low, high) if mine else (-elo, -high, -low)


HEADER = (
    "| date | build | opponent | size | komi | limit | book seed | games | W-L-D | score "
    "| Elo [95%] | ms a move (ours, theirs) | games lost by a fault (ours, theirs) "
    "| load (start, end) |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
)


def table(outcomes: Sequence[Outcome], date: str, build: str, seed: int) -> str:
    """The Markdown table of finished rows."""
    lines = [
        f"| {date} | {build} | {o.row.opponent} | {o.row.size}x{o.row.size} | {o.row.komi:g} "
        f"| {o.row.limit} | {seed} | {o.games} | {o.wins}-{o.losses}-{o.draws} "
        f"| {o.score:.1%} | {format_elo(o.elo)} | {_ms(o.move_ms)} "
        f"| {o.faults[0]}, {o.faults[1]} | {o.load[0]:.1f}, {o.load[1]:.1f} |"
        for o in outcomes
    ]
    return HEADER + "\n".join(lines) + "\n"


def _ms(pair: tuple[float, float] | None) -> str:
    return "-" if pair is None else f"{pair[0]:.0f}, {pair[1]:.0f}"


def run_row(row: Row, ours: str, command: Sequence[str], seed: int, workdir: Path,
            records: Path | None) -> Outcome:  # fmt: skip
    """Play one row with `tei match` (this Python's install, never a source tree in the
    working directory) and read its summary."""
    book = workdir / f"book{row.size}_{seed}.txt"
    book.write_text("\n".join(book_lines(row.size, 2, row.games // 2, seed)) + "\n")
    json_out = workdir / f"{row.opponent}_{row.size}.json"
    args = match_args(row, ours, command, book, json_out)
    if records is not None:
        args += ["--ptnout", str(records / f"{row.opponent}_{row.size}_{row.komi:g}.ptn")]
    start = os.getloadavg()[0]
    subprocess.run(tei_command("match", *args), check=True, stdout=sys.stderr)
    load = (start, os.getloadavg()[0])
    return outcome(row, json.loads(json_out.read_text()), load)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
    )  # fmt: skip
    parser.add_argument(
        "--opponent",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="an outside engine's command line, e.g. tiltak=/path/to/tei (repeatable)",
    )
    parser.add_argument(
        "--row",
        action="append",
        default=[],
        metavar="OPPONENT,SIZE,KOMI,TC,GAMES",
        help="one match, e.g. tiltak,6,2,10+0.1,100 (repeatable)",
    )
    parser.add_argument("--seed", type=int, required=True, help="seed of the opening books")
    parser.add_argument(
        "--ours",
        default="bot=search",
        help="our engine as `tei match --engine` keys (default: bot=search)",
    )
    parser.add_argument("--out", type=Path, help="also write the table to this file")
    parser.add_argument("--records", type=Path, help="keep each row's games as PTN in this folder")
    args = parser.parse_args(argv)  # fmt: skip
    try:
        opponents = dict(parse_opponent(t) for t in args.opponent)
        rows = [parse_row(t) for t in args.row]
        if not rows:
            raise StrengthError("no --row given")
        check_rows(rows, opponents)
    except StrengthError as e:
        parser.error(str(e))
    build = version_line().removeprefix("tei-host ")
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    if args.records is not None:
        args.records.mkdir(parents=True, exist_ok=True)
    done: list[Outcome] = []
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows:
            done.append(
                run_row(row, args.ours, opponents[row.opponent], args.seed, Path(tmp), args.records)
            )
    text = table(done, date, build, args.seed)
    print(text, end="")
    if args.out is not None:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
