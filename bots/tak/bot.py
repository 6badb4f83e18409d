"""TakSearchBot: the default Tak bot, iterative-deepening alpha-beta (see `bots.tak.search`).

Limits: `depth` caps the depth, `nodes` the node count, the side's clock or `movetime`
give a time budget (`bots.timing.plan`), `infinite` searches until `stop`; with no limit at
all the bot thinks for `DefaultMs` milliseconds. A road in one at the root is played at
once. After each finished depth it reports depth, score (centi-flats, or a proven
win/loss), nodes, nps, time and the principal variation.
"""

from __future__ import annotations

import threading
import time
from typing import Any, ClassVar, Final

from bots.base import DEFAULT_MS, BotOption, Info, Limits, Report, SeededBot
from bots.deepening import Iteration, deepen, iteration_info
from bots.tak.level import LEVELS, TOP, capped, pick
from bots.tak.search import CHECK_EVERY, FUTILITY_MARGIN, MAX_EXTENSION, WIN_BOUND, Searcher
from bots.timing import TimePlan, plan
from rules.game import Game
from rules.tak.board import Board, code_ptn
from rules.tak.game import TakGame
from rules.tak.tinue import Table, solve

MAX_DEPTH = 60
#: the tinue search before the main search (option `TinuePlies`, off by default: it cost
#: more time than it found wins at 10+0.1, see docs/bots.md): plies looked ahead by
#: default when on (attacker moves on plies 1, 3, ...), and attacker positions visited at
#: most (`rules.tak.tinue.solve`)
TINUE_PLIES = 7
TINUE_BUDGET = 300
#: the share of the move's soft time the tinue search may take at most
TINUE_SHARE = 0.15
#: a score fall (centi-flats) between iterations that marks the position as sharp
SHARP_DROP = 30


#: moves expected beyond half the pieces in hand (8 leaves about a quarter of a 10+0.1
#: clock unused at the end of a 5x5 game, where Taktician leaves an eighth; 6 and 4,
#: with `STRETCH` 1.3 and 1.5, raised the time a move by 4% only: see docs/bots.md)
MOVES_BEYOND: Final = 8


def moves_left(board: Board) -> int:
    """Moves the side to move plans its clock for: half its pieces in hand plus
    `MOVES_BEYOND`, within 6..24 (the game ends at the latest when its pieces run out)."""
    turn = board.turn
    return max(6, min(24, (board.stones[turn] + board.capstones[turn]) // 2 + MOVES_BEYOND))


def playable(game: Game[Any], who: str) -> TakGame:
    """`game` as a Tak game still in progress; ValueError naming `who` otherwise."""
    if not isinstance(game, TakGame):
        raise ValueError(f"{who} cannot play {game.name!r}")
    if game.result is not None:
        raise ValueError("no legal action: the game is over")
    return game


#: the growth of an iteration's time over the one before it: assumed when unknown, and
#: the range a measured one is held to
GROWTH = 3.0
GROWTH_RANGE = (1.5, 6.0)


def next_iteration_ms(ends: list[float]) -> float:
    """The predicted time of the next iteration, from the ends of the finished ones (ms
    from the start): the last one's time times its growth over the one before."""
    last = ends[-1] - (ends[-2] if len(ends) > 1 else 0.0)
    if len(ends) < 3 or ends[-2] - ends[-3] < 1.0:
        return last * GROWTH
    growth = last / (ends[-2] - ends[-3])
    return last * min(GROWTH_RANGE[1], max(GROWTH_RANGE[0], growth))


#: how far past the soft budget the next iteration may be predicted to end in a quiet
#: position
STRETCH: Final = 1.0


def sharpness(done: list[Iteration[int, int]]) -> float:
    """How far past the soft budget to keep deepening: `STRETCH`, and half the soft
    budget more for each of a best move that changed and a score that fell in the last
    iteration (the position is sharp)."""
    if len(done) < 3:
        return STRETCH
    last, before = done[-1], done[-2]
    factor = STRETCH
    if last.move != before.move:
        factor += 0.5
    if last.value < before.value - SHARP_DROP:
        factor += 0.5
    return factor


class TakSearchBot(SeededBot):
    name: ClassVar[str] = "search"
    games: ClassVar[tuple[str, ...]] = ("tak",)
    options: ClassVar[tuple[BotOption, ...]] = (
        *SeededBot.options,
        BotOption("Level", "spin", default=str(TOP), min=1, max=TOP),
        DEFAULT_MS,
        BotOption("MaxDepth", "spin", default=str(MAX_DEPTH), min=1, max=MAX_DEPTH),
        BotOption("ThreatPlies", "spin", default="0", min=0, max=MAX_EXTENSION),
        BotOption("TinuePlies", "spin", default="0", min=0, max=15),
        BotOption("FutilityMargin", "spin", default=str(FUTILITY_MARGIN), min=0, max=1000),
    )

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self.searcher = Searcher()
        #: the tinue solver's proven positions, kept from move to move in a game
        self.tinue_table: Table = {}

    def set_option(self, name: str, value: str) -> None:
        if name.lower() == "level" and value.strip() not in {str(k) for k in LEVELS}:
            raise ValueError(f"option 'Level' takes 1..{TOP}, not {value!r}")
        super().set_option(name, value.strip() if name.lower() == "level" else value)

    def new_game(self) -> None:
        self.searcher = Searcher()
        self.tinue_table = {}

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        game = playable(game, "the Tak search bot")
        started = time.monotonic()
        board = game.fast_board()
        options = game.options
        self.searcher.set_draw_rules(
            options.repetition, options.rule50, game.position_counts(), game.quiet_plies
        )
        code = self.choose(board, limits, stop, report, started)
        if limits.infinite:
            stop.wait()
        return game.move_of(code)

    def choose(
        self, board: Board, limits: Limits, stop: threading.Event, report: Report, started: float
    ) -> int:
        """The move code to play on `board` (which the search uses as scratch)."""
        win = board.winning_move()
        if win is not None:
            report(
                Info(depth=1, solved="win", nodes=1, time_ms=0,
                     pv=(code_ptn(win, board.size),))
            )  # fmt: skip
            return win
        turn = board.turn
        level = LEVELS[int(self.settings["Level"])]
        budget = capped(
            plan(limits, turn, moves_left(board), float(self.settings["DefaultMs"])), level
        )
        line = self._tinue(board, min(level.depth, limits.depth or MAX_DEPTH), budget, started)
        if line is not None:
            spent = int((time.monotonic() - started) * 1000)
            pv = tuple(code_ptn(c, board.size) for c in line)
            report(Info(depth=len(line), solved="win", nodes=1, time_ms=spent, pv=pv))
            return line[0]
        searcher = self.searcher
        origin = board.copy()
        searcher.load(board)
        searcher.node_limit = limits.nodes or 0
        searcher.next_check = min(CHECK_EVERY, limits.nodes or CHECK_EVERY)
        searcher.should_stop = stop.is_set
        searcher.deadline = (
            started + budget.hard / 1000 if budget.hard is not None else float("inf")
        )
        max_depth = min(limits.depth or MAX_DEPTH, int(self.settings["MaxDepth"]), level.depth)
        extension = int(self.settings["ThreatPlies"])
        searcher.futility = int(self.settings["FutilityMargin"])

        def step(depth: int, previous: Iteration[int, int] | None) -> tuple[int, int]:
            searcher.max_ply = depth + extension if extension else 0
            searcher.partial = None
            return searcher.root(depth)

        history: list[Iteration[int, int]] = []
        #: milliseconds from the start at which each iteration ended
        ends: list[float] = []

        def after(it: Iteration[int, int]) -> bool:
            report(self._info(searcher, origin, it.depth, it.value, it.move, started))
            history.append(it)
            elapsed = (time.monotonic() - started) * 1000
            ends.append(elapsed)
            return (
                abs(it.value) > WIN_BOUND  # proven
                or not budget.fits(elapsed, next_iteration_ms(ends), sharpness(history))
                or len(searcher.root_moves) == 1
            )

        outcome = deepen(step, max_depth, after, lambda: searcher.partial)
        done = outcome.last
        if outcome.aborted and done is not None:
            # a last report with the whole search's nodes and time
            report(self._info(searcher, origin, done.depth, done.value, done.move, started))
        if done is None:
            best = searcher.root_moves[0]
            elapsed = max(time.monotonic() - started, 1e-6)
            report(
                Info(nodes=searcher.nodes, nps=int(searcher.nodes / elapsed),
                     time_ms=int(elapsed * 1000), pv=(code_ptn(best, board.size),))
            )  # fmt: skip
        else:
            best = done.move
        chosen = pick(origin, best, searcher.root_moves, level, self.rng())
        if chosen != best:
            report(Info(string=f"level {self.settings['Level']}: {code_ptn(chosen, board.size)}"))
        return chosen

    def _tinue(
        self, board: Board, depth_cap: int, budget: TimePlan, started: float
    ) -> list[int] | None:
        """A forced road by threat moves (`TinuePlies` ahead, within the solver's budget,
        `TINUE_SHARE` of the soft time and the depth cap), or None; not tried with the
        optional draw rules on."""
        plies = min(int(self.settings["TinuePlies"]), depth_cap)
        if plies < 3 or self.searcher.rules:
            return None
        share = budget.soft if budget.soft is not None else budget.hard
        deadline = started + TINUE_SHARE * share / 1000 if share is not None else 0.0
        return solve(board, plies, self.tinue_table, TINUE_BUDGET, deadline)

    @staticmethod
    def _info(
        searcher: Searcher, origin: Board, depth: int, value: int, move: int, started: float
    ) -> Info:
        size = origin.size
        pv = tuple(code_ptn(c, size) for c in searcher.principal_variation(origin, move, depth))
        return iteration_info(depth, value, WIN_BOUND, searcher.nodes, started, pv)
