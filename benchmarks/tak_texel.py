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
from typing import Any

from tak_openings import opening

from bots.base import Limits
from bots.tak.bot import TakSearchBot
from bots.tak.eval import (
    ENDGAME,
    WEIGHTS,
    control_squares,
    neighbours,
    step_wins,
    weights_for,
    win_squares,
)
from rules.tak.board import Board
from rules.tak.game import TakGame
from rules.tak.ptn import parse_many
from rules.tak.roads import component

#: weight names in feature order (reserve and captive have three entries each)
NAMES = ["tempo", "flat", "endgame_flat", "flat_centre", "cap_centre", "wall", "wall_block",
         "reserve0", "reserve1", "reserve2", "captive0", "captive1", "captive2", "group_span",
         "threat_one", "threat_many", "cap", "control", "reserve3", "captive3",
         "spans0", "spans1", "spans2", "spans3", "spans4", "spans5"]  # fmt: skip
#: feature indices of the terms that fade out near the end of the game
BLENDED = [*range(3, 14), *range(16, 26)]


def flat_weights(weights: dict[str, Any], size: int) -> list[float]:
    """The weights file's values in feature order (a stack set of three gives walls'
    value to capstones; without `spans` the cubic `group_span` curve gives the spans)."""
    lists = dict(weights)
    for key in ("reserve", "captive"):
        if len(lists[key]) == 3:
            lists[key] = [*lists[key], lists[key][2]]
    if "spans" not in lists:
        span = weights["group_span"]
        lists["spans"] = [span * (s / size) ** 3 for s in range(2, 8)]
    lists["spans"] = [*lists["spans"], *[0.0] * 6][:6]
    out: list[float] = []
    for name in NAMES:
        if name == "group_span":
            out.append(0.0)  # given by the spans
        elif name[-1].isdigit():
            out.append(float(lists[name[:-1]][int(name[-1])]))
        else:
            out.append(float(weights.get(name, 0)))
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
            f[16] += sign
        else:
            f[5] += sign
            f[6] += sign * (neighbours(t, bit) & (b_road if sign > 0 else w_road)).bit_count()
        h = board.heights[sq]
        if h >= 2:
            low = h - n if h > n else 0
            count = h - 1 - low
            blacks = ((board.colors[sq] >> low) & ((1 << count) - 1)).bit_count()
            if standing & bit:
                safety = 3 if caps & bit else 2
            else:
                safety = 0 if neighbours(t, bit) & (black if sign > 0 else white) else 1
            own = count - blacks if sign > 0 else blacks
            f[18 if safety == 3 else 7 + safety] += sign * own
            f[19 if safety == 3 else 10 + safety] += sign * (count - own)
    for sign, bits in ((1, w_road), (-1, b_road)):
        rest = bits & neighbours(t, bits)
        while rest:
            group = component(t, rest & -rest, rest)
            rest ^= group
            files = len({sq % n for sq in range(n * n) if group >> sq & 1})
            ranks = len({sq // n for sq in range(n * n) if group >> sq & 1})
            span = max(files, ranks)
            if span < n:
                f[18 + span] += sign  # spans0 is span 2
    empty = t.full & ~(white | black)
    w_ctrl, b_ctrl = control_squares(t, w_road, b_road)
    f[17] = (w_ctrl & empty).bit_count() - (b_ctrl & empty).bit_count()
    left = min(board.stones[0] + board.capstones[0], board.stones[1] + board.capstones[1],
               t.squares - (white | black).bit_count())  # fmt: skip
    blend = left / ENDGAME if left < ENDGAME else 1.0
    for i in BLENDED:
        f[i] *= blend
    f[1] = flats / 2
    f[2] = flats / 2 * (ENDGAME - left) if left < ENDGAME else 0.0
    side = -1 if board.turn else 1
    f = [side * v for v in f]
    f[0] = 1.0
    theirs = b_road if board.turn == 0 else w_road
    threats = (win_squares(t, theirs, empty) | step_wins(board, 1 - board.turn)).bit_count()
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


def from_ptn(args: argparse.Namespace) -> None:
    """Positions of recorded games (any engines), labelled with each game's result."""
    rng = random.Random(args.seed)
    with Path(args.out).open("a") as out:
        for path in args.records:
            for record in parse_many(Path(path).read_text()):
                # games ended on the board only (not by time, resignation or adjudication)
                score = {"R-0": 1.0, "F-0": 1.0, "0-R": 0.0, "0-F": 0.0,
                         "1/2-1/2": 0.5}.get(record.result or "")  # fmt: skip
                if score is None:
                    continue
                game = TakGame.new(record.options())
                for ply in record.plies:
                    board = game.fast_board()
                    keep = game.ply >= 6 and rng.random() < args.share
                    if keep and board.copy().winning_move() is None:
                        out.write(f"{score}\t{board.tps()}\n")
                    game.play_text(ply.move)


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
    size = TakGame.from_tps(Path(args.data[0]).read_text().split("\n")[0].split("\t")[1]).size
    base = WEIGHTS["all"] if args.key == "all" else weights_for(int(args.key))
    w = flat_weights(base, size)
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
            if not args.signed:
                w[i] = max(0.0, w[i])
        if epoch % 50 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch}: error {error(data, w, k):.5f}")
    weights = dict(base)
    lists: dict[str, list[int]] = {}
    for name, value in zip(NAMES, w, strict=True):
        if name[-1].isdigit():
            lists.setdefault(name[:-1], []).append(round(value))
        elif name != "group_span":
            weights[name] = round(value)
    weights.update(lists)
    weights["spans"] = lists["spans"][: size - 2]
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
    records = sub.add_parser("fromptn", help="positions of PTN records labelled with results")
    records.add_argument("records", nargs="+", help="PTN files (e.g. tei match --ptnout)")
    records.add_argument("--out", required=True, help="file the positions are appended to")
    records.add_argument("--share", type=float, default=0.5, help="positions kept (default 0.5)")
    records.add_argument("--seed", type=int, default=1, help="seed of the sampling (default 1)")
    fitter = sub.add_parser("fit", help="fit the weights on position files")
    fitter.add_argument("data", nargs="+", help="files written by generate")
    fitter.add_argument("--out", required=True, help="weights file to update")
    fitter.add_argument("--key", default="all",
                        help='the set fitted: "all" (default) or one board size')  # fmt: skip
    fitter.add_argument("--epochs", type=int, default=300, help="descent steps (default 300)")
    fitter.add_argument("--rate", type=float, default=300.0, help="step size (default 300)")
    fitter.add_argument("--ridge", type=float, default=0.001,
                        help="pull back to the start per step (default 0.001)")  # fmt: skip
    fitter.add_argument("--signed", action="store_true",
                        help="let weights fall below 0 (default: kept at 0 or more)")  # fmt: skip
    fitter.add_argument("--fixed", nargs="*", default=["flat", "tempo"],
                        help="weights kept as they are (default: flat tempo)")  # fmt: skip
    args = parser.parse_args()
    {"generate": generate, "fromptn": from_ptn, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
