"""Fit the Tak evaluation's weights on self-play positions (a logistic "Texel" fit).

Recipe (the data is made, not shipped; a few minutes per thousand positions):

    python benchmarks/tak_texel.py generate --size 5 --games 150 --out pos5.txt
    python benchmarks/tak_texel.py generate --size 6 --games 100 --komi 2 --out pos6.txt
    python benchmarks/tak_texel.py fit pos5.txt --key 5 --out bots/tak/weights.json
    python benchmarks/tak_texel.py fit pos6.txt --key 6 --out bots/tak/weights.json

`generate` plays the search bot against itself at a fixed node count per move from
random four-ply openings and writes one line per sampled position: the game's result
for white (1, 0.5, 0), a tab and the position's TPS. Positions where the side to move
has a road in one, and the first plies, are left out. `fit` computes each position's
evaluation terms (`features`, the same terms as `bots.tak.eval.static`, whose value is
their weighted sum), scales the logistic curve to the current weights, then moves the
weights by gradient descent on the mean squared error between the curve of the
evaluation and the results (with a small ridge pull towards the starting weights, so
that terms the data hardly shows stay near their values), and writes the weights file
the evaluation loads.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import threading
from pathlib import Path

from tak_openings import opening

from bots.base import Limits
from bots.tak.bot import TakSearchBot
from bots.tak.eval import ENDGAME, WEIGHTS, neighbours, weights_for, win_squares
from rules.tak.board import Board
from rules.tak.game import TakGame
from rules.tak.roads import component

#: weight names in feature order (reserve and captive have three entries each)
NAMES = ["tempo", "flat", "endgame_flat", "flat_centre", "cap_centre", "wall", "wall_block",
         "reserve0", "reserve1", "reserve2", "captive0", "captive1", "captive2", "group_span",
         "threat_one", "threat_many"]  # fmt: skip


def flat_weights(weights: dict[str, object]) -> list[float]:
    """The weights file's values in feature order."""
    out: list[float] = []
    for name in NAMES:
        if name[-1].isdigit():
            out.append(float(weights[name[:-1]][int(name[-1])]))  # type: ignore[index]
        else:
            out.append(float(weights[name]))  # type: ignore[arg-type]
    return out


def features(board: Board) -> list[float]:
    """The evaluation terms of a position without a road in one for the side to move,
    from its view: `static(board, threats) == sum(w * f)` up to rounding."""
    t = board.t
    n = t.size
    white, black, walls, caps = board.white, board.black, board.walls, board.caps
    w_road, b_road = white & ~walls, black & ~walls
    standing = walls | caps
    w_flats, b_flats = white & ~standing, black & ~standing
    flats = 2 * (w_flats.bit_count() - b_flats.bit_count()) - board.half_komi
    centre = (n - 1) / 2

    def edge(sq: int) -> float:
        rank, file = divmod(sq, n)
        return 1.0 - (abs(rank - centre) + abs(file - centre)) / (2 * centre)

    f = [0.0] * len(NAMES)
    for sq in range(n * n):
        bit = 1 << sq
        sign = 1 if white & bit else -1 if black & bit else 0
        if not sign:
            continue
        if not standing & bit:
            f[3] += sign * edge(sq)
        elif caps & bit:
            f[4] += sign * edge(sq)
        else:
            f[5] += sign
            f[6] += sign * (neighbours(t, bit) & (b_road if sign > 0 else w_road)).bit_count()
        h = board.heights[sq]
        if h >= 2:
            low = h - n if h > n else 0
            count = h - 1 - low
            blacks = ((board.colors[sq] >> low) & ((1 << count) - 1)).bit_count()
            if standing & bit:
                safety = 2
            else:
                safety = 0 if neighbours(t, bit) & (black if sign > 0 else white) else 1
            own = count - blacks if sign > 0 else blacks
            f[7 + safety] += sign * own
            f[10 + safety] += sign * (count - own)
    for sign, bits in ((1, w_road), (-1, b_road)):
        rest = bits & neighbours(t, bits)
        while rest:
            group = component(t, rest & -rest, rest)
            rest ^= group
            files = len({sq % n for sq in range(n * n) if group >> sq & 1})
            ranks = len({sq // n for sq in range(n * n) if group >> sq & 1})
            span = max(files, ranks)
            if span < n:
                f[13] += sign * (span / n) ** 3
    left = min(board.stones[0] + board.capstones[0], board.stones[1] + board.capstones[1],
               t.squares - (white | black).bit_count())  # fmt: skip
    blend = left / ENDGAME if left < ENDGAME else 1.0
    for i in range(3, 14):
        f[i] *= blend
    f[1] = flats / 2
    f[2] = flats / 2 * (ENDGAME - left) if left < ENDGAME else 0.0
    side = -1 if board.turn else 1
    f = [side * v for v in f]
    f[0] = 1.0
    empty = t.full & ~(white | black)
    threats = win_squares(t, b_road if board.turn == 0 else w_road, empty).bit_count()
    f[14] = -1.0 if threats == 1 else 0.0
    f[15] = -1.0 if threats > 1 else 0.0
    return f


def generate(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    bot = TakSearchBot()
    options = {"size": str(args.size), "halfkomi": str(int(args.komi * 2))}
    with Path(args.out).open("a") as out:
        for number in range(args.games):
            game = TakGame.new(options)
            game.play_all(opening(args.size, 4, rng).split())
            bot.new_game()
            sampled: list[str] = []
            while game.result is None and game.ply < 400:
                board = game.fast_board()
                if game.ply >= 8 and rng.random() < 0.5 and board.copy().winning_move() is None:
                    sampled.append(board.tps())
                game.play(
                    bot.think(game, Limits(nodes=args.nodes), threading.Event(), print_nothing)
                )
            result = game.result
            score = 0.5 if result is None or len(result.winners) != 1 else 1.0 - result.winners[0]
            out.writelines(f"{score}\t{tps}\n" for tps in sampled)
            out.flush()
            code = result.code if result else "unfinished"
            print(f"game {number + 1}: {code}, {len(sampled)} positions")


def print_nothing(info: object) -> None:
    return None


def load(paths: list[str]) -> list[tuple[float, list[float]]]:
    data = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            score, tps = line.split("\t")
            board = TakGame.from_tps(tps).fast_board()
            white = float(score)
            data.append((white if board.turn == 0 else 1.0 - white, features(board)))
    return data


def curve(value: float, k: float) -> float:
    """Expected score of an evaluation (centi-flats) on the logistic curve of scale k."""
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, value * k / 100))))


def error(data: list[tuple[float, list[float]]], w: list[float], k: float) -> float:
    total = 0.0
    for result, f in data:
        total += (result - curve(sum(a * b for a, b in zip(w, f, strict=True)), k)) ** 2
    return total / len(data)


def fit(args: argparse.Namespace) -> None:
    data = load(args.data)
    base = WEIGHTS["all"] if args.key == "all" else weights_for(int(args.key))
    w = flat_weights(base)
    start = list(w)
    k = min((error(data, w, k / 100), k / 100) for k in range(5, 300, 5))[1]
    print(f"{len(data)} positions, scale {k}, error {error(data, w, k):.5f}")
    # feature scales, so that one step size fits every weight
    scale = [
        max(1e-9, math.sqrt(sum(f[i] ** 2 for _, f in data) / len(data))) for i in range(len(w))
    ]
    for epoch in range(args.epochs):
        grad = [0.0] * len(w)
        for result, f in data:
            p = curve(sum(a * b for a, b in zip(w, f, strict=True)), k)
            common = (p - result) * p * (1 - p) * k / 100
            for i, v in enumerate(f):
                grad[i] += common * v
        for i in range(len(w)):
            if NAMES[i] in args.fixed:
                continue
            w[i] -= args.rate * grad[i] / len(data) / (scale[i] ** 2) * 100
            # a pull towards the starting weights keeps terms the data hardly sees
            w[i] -= args.ridge * (w[i] - start[i])
            w[i] = max(0.0, w[i])
        if epoch % 50 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch}: error {error(data, w, k):.5f}")
    weights = dict(base)
    for name, value in zip(NAMES, w, strict=True):
        if name[-1].isdigit():
            weights[name[:-1]] = [*weights[name[:-1]]]
            weights[name[:-1]][int(name[-1])] = round(value)
        else:
            weights[name] = round(value)
    out = Path(args.out)
    every = json.loads(out.read_text()) if out.exists() else {}
    every[args.key] = weights
    out.write_text(json.dumps(every, indent=1) + "\n")
    print(json.dumps(weights))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="self-play positions labelled with results")
    gen.add_argument("--size", type=int, default=5, help="board size (default 5)")
    gen.add_argument("--komi", type=float, default=0.0, help="komi in flats (default 0)")
    gen.add_argument("--games", type=int, default=100, help="games (default 100)")
    gen.add_argument("--nodes", type=int, default=1500, help="nodes per move (default 1500)")
    gen.add_argument("--seed", type=int, default=1, help="seed of the openings (default 1)")
    gen.add_argument("--out", required=True, help="file the positions are appended to")
    fitter = sub.add_parser("fit", help="fit the weights on position files")
    fitter.add_argument("data", nargs="+", help="files written by generate")
    fitter.add_argument("--out", required=True, help="weights file to update")
    fitter.add_argument("--key", default="all",
                        help='the set fitted: "all" (default) or one board size')  # fmt: skip
    fitter.add_argument("--epochs", type=int, default=300, help="descent steps (default 300)")
    fitter.add_argument("--rate", type=float, default=300.0, help="step size (default 300)")
    fitter.add_argument("--ridge", type=float, default=0.001,
                        help="pull back to the start per step (default 0.001)")  # fmt: skip
    fitter.add_argument("--fixed", nargs="*", default=["flat", "tempo"],
                        help="weights kept as they are (default: flat tempo)")  # fmt: skip
    args = parser.parse_args()
    generate(args) if args.command == "generate" else fit(args)


if __name__ == "__main__":
    main()
