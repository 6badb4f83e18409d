"""How fast the referee runs games between two engines that answer instantly.

Two scripted TEI engines replay a fixed legal Tak game (the answer to `go` is the next
move of the script, found by counting the moves of `position`), so engine time is close
to zero and what is measured is the referee and the driver. Printed:

* baseline: a bare driver loop (new game, then `play` + `Game.play` per ply), in wall
  time and in CPU time of this process (the driver's own cost, steady on a busy machine);
* referee: the referee's game loop (`play_game`: clocks, limits, judging, the record)
  over the same engines;
* the referee's own overhead per ply = (referee - baseline) / plies;
* a whole match (`Match.run`: engine start-up, schedule, state file, records) for scale.

Usage: python benchmarks/referee.py [--games 10] [--plies 120] [--size 6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from adapters.referee.clock import Clock, TimeControl, go_limits
from adapters.referee.config import DEFAULTS, build_config
from adapters.referee.engines import EngineSpec
from adapters.referee.facts import Termination
from adapters.referee.game_loop import GameSettings, Player, play_game
from adapters.referee.runner import Match
from adapters.referee.schedule import make_schedule
from rules.registry import new_game
from tei.driver import open_engine
from tei.seat import EngineSeat

ENGINE = """
import sys
script = open(sys.argv[1]).read().split()
moves = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "tei":
        print("id name instant\\nid author bench\\nteiok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        moves = len(words) - words.index("moves") - 1 if "moves" in words else 0
    elif words[0] == "go":
        print("bestmove " + script[moves], flush=True)
    elif words[0] == "quit":
        break
"""


def scripted_game(size: int, plies: int, seed: int) -> list[str]:
    """A legal Tak game of `plies` plies that is not over (random moves that do not end it)."""
    rng = random.Random(seed)
    options = {"size": str(size)}
    game = new_game("tak", options)
    while game.ply < plies:
        actions = game.legal()
        rng.shuffle(actions)
        for action in actions:
            game.play(action)
            if game.result is None:
                break
            game.undo()
        else:
            return scripted_game(size, plies, seed + 1)
    return game.history_text()


async def baseline(argv: list[str], games: int, plies: int, rules: dict[str, str]) -> float:
    """Seconds spent in a bare driver loop for `games` games of `plies` plies."""
    total = 0.0
    control = TimeControl(base_ms=600_000, inc_ms=0)
    limits = go_limits([Clock(control), Clock(control)], 0)  # the same go as the referee's
    async with open_engine(argv, name="a") as a, open_engine(argv, name="b") as b:
        for _ in range(games):
            start = time.perf_counter()
            await a.new_game("tak", rules)
            await b.new_game("tak", rules)
            game = new_game("tak", rules)
            while game.ply < plies:
                engine = a if game.turn == 0 else b
                answer = await engine.play(game, limits, deadline=trio.current_time() + 60)
                game.play(answer.action)
            total += time.perf_counter() - start
    return total


async def referee_loop(argv: list[str], games: int, plies: int, rules: dict[str, str]) -> float:
    """Seconds spent in the referee's game loop for the same games."""
    control = TimeControl(base_ms=600_000, inc_ms=0)
    specs = [
        EngineSpec("a", tuple(argv), control=control),
        EngineSpec("b", tuple(argv), control=control),
    ]
    settings = GameSettings(game="tak", rules=rules, max_plies=plies, grace=1.0, timeout=60.0)
    schedule = make_schedule(2, games=games)
    start_position = new_game("tak", rules)
    total = 0.0
    async with trio.open_nursery() as nursery:
        seats = [
            EngineSeat(spec.launch, label=spec.name, timeout=10.0, nursery=nursery)
            for spec in specs
        ]
        for seat in seats:
            await seat.open()
        for pairing in schedule:
            players = [Player(specs[i], seats[i], i) for i in pairing.seats]
            start = time.perf_counter()
            result = await play_game(pairing, players, settings, None, start_position)
            total += time.perf_counter() - start
            assert result.termination is Termination.ADJUDICATED, result.detail
        for seat in seats:
            await seat.close()
    return total


async def whole_match(
    argv: list[str], games: int, plies: int, rules: dict[str, str], tmp: Path
) -> float:
    settings: dict[str, Any] = {
        **DEFAULTS,
        "engines": [{"cmd": argv, "name": "a"}, {"cmd": argv, "name": "b"}],
        "each": {"tc": "600+0"},
        "games": games,
        "rules": rules,
        "max_plies": plies,
        "records": str(tmp / "games.ptn"),
    }
    match = Match.open(build_config(settings), state_path=tmp / "games.state")
    start = time.perf_counter()
    progress = await match.run(handle_signals=False)
    assert len(progress.finished) == games
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each loop (best counts)")
    args = parser.parse_args()
    rules = {"size": str(args.size)}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        script = tmp / "script.txt"
        script.write_text(" ".join(scripted_game(args.size, args.plies, 1)))
        engine = tmp / "instant.py"
        engine.write_text(ENGINE)
        argv = [sys.executable, str(engine), str(script)]
        plies = args.games * args.plies
        bases, refs, cpus = [], [], []
        for _ in range(args.repeat):  # interleaved; the best of each counts
            cpu = time.process_time()
            bases.append(trio.run(baseline, argv, args.games, args.plies, rules))
            cpus.append(time.process_time() - cpu)
            refs.append(trio.run(referee_loop, argv, args.games, args.plies, rules))
        base, ref, cpu = min(bases), min(refs), min(cpus)
        full = trio.run(whole_match, argv, args.games, args.plies, rules, tmp)
    print(f"{args.games} games x {args.plies} plies on {args.size}x{args.size} ({plies} plies)")
    print(f"baseline driver loop : {plies / base:8.0f} plies/s  {base / plies * 1000:6.3f} ms/ply")
    print(f"  its CPU (this process, steady under load): {cpu / plies * 1000:6.3f} ms/ply")
    print(f"referee game loop    : {plies / ref:8.0f} plies/s  {ref / plies * 1000:6.3f} ms/ply")
    print(f"referee overhead     : {(ref - base) / plies * 1000:6.3f} ms/ply (target < 1 ms)")
    print(f"whole match          : {plies / full:8.0f} plies/s  (start-up, state file, records)")


if __name__ == "__main__":
    main()
