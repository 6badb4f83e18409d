"""The Tak bots (greedy, search): legal moves, roads in one, blocks, limits, every size."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from bots import Info, Limits
from bots.registry import make_bot
from bots.tak.bot import TINUE_PLIES
from bots.tak.eval import evaluate, win_squares
from bots.timing import plan
from rules.registry import new_game
from rules.tak.game import TakGame
from rules.tak.roads import road
from rules.tak.tinue import tinue
from tei import protocol as p
from tei.host.timing import limits_of

WAIT = 30.0  # liveness limit for threads only, never a timing assertion

# white has a1-d1 and e1 is empty: white to move wins with e1, black to move must block
PLACE_WIN = "x5/x5/x5/2,2,2,x2/1,1,1,1,x 1 4"
MUST_BLOCK = "x5/x5/x5/2,2,2,x2/1,1,1,1,x 2 4"
# only the slide e2- (onto the black flat at e1) completes white's road
SLIDE_WIN = "x5/x5/x5/2,2,2,2,1/1,1,1,1,2 1 6"


def collect() -> tuple[list[Info], Any]:
    infos: list[Info] = []
    return infos, infos.append


def think(bot_name: str, game: TakGame, limits: Limits, settings: Any = None) -> Any:
    bot = make_bot("tak", bot_name, settings)
    move = bot.think(game.copy(), limits, threading.Event(), lambda info: None)
    assert move in game.legal()
    return move


@pytest.mark.parametrize("bot", ["greedy", "search"])
@pytest.mark.parametrize("tps", [PLACE_WIN, SLIDE_WIN])
def test_takes_a_road_in_one(bot: str, tps: str) -> None:
    game = TakGame.from_tps(tps)
    game.play(think(bot, game, Limits(nodes=2000)))
    assert game.result is not None and game.result.code == "R-0"


@pytest.mark.parametrize(
    ("bot", "settings"),
    [("greedy", None), ("search", None), ("search", {"ThreatPlies": "4"})],
)
def test_blocks_a_road_in_one(bot: str, settings: Any) -> None:
    game = TakGame.from_tps(MUST_BLOCK)
    assert game.fast_board().copy().winning_move() is None  # black has no win itself
    game.play(think(bot, game, Limits(nodes=3000), settings))
    board = game.fast_board()
    assert board.turn == 0 and board.winning_move() is None


def test_search_sees_a_double_threat_two_plies_ahead() -> None:
    # white c3 makes two threats at once (e3 along rank 3, c5 along file c)
    game = TakGame.from_tps("2,x4/x2,1,x2/1,1,x,1,x/x2,1,x2/2,x,1,x,2 1 7")
    infos, report = collect()
    bot = make_bot("tak", "search")  # the search itself (the solver is off by default)
    move = bot.think(game.copy(), Limits(depth=3), threading.Event(), report)
    assert move in game.legal()
    assert infos[-1].solved == "win" and (infos[-1].nodes or 0) > 1
    game.play(move)
    reply = game.fast_board()
    assert reply.winning_move() is None  # black cannot win at once
    # whatever black does, white then has a road in one
    for code in reply.moves():
        reply.make(code)
        if reply.result() is None:
            assert reply.winning_move() is not None
        reply.unmake(code)


def test_search_plays_a_tinue_found_by_the_solver_and_reports_it_solved() -> None:
    game = TakGame.from_tps("2,x4/x2,1,x2/1,1,x,1,x/x2,1,x2/2,x,1,x,2 1 7")
    infos, report = collect()
    bot = make_bot("tak", "search", {"TinuePlies": str(TINUE_PLIES)})
    move = bot.think(game.copy(), Limits(nodes=3000), threading.Event(), report)
    line = tinue(game.copy(), TINUE_PLIES)
    assert line is not None and move == line[0]
    last = infos[-1]
    assert last.solved == "win" and last.nodes == 1 and last.depth == len(line)
    assert last.pv == tuple(m.ptn() for m in line)


@pytest.mark.parametrize("size", [3, 4, 5, 6, 7, 8])
def test_bots_play_legal_moves_on_every_size_with_komi(size: int) -> None:
    game = TakGame.new({"size": str(size), "halfkomi": str(size - 3)})
    bots = [make_bot("tak", "search"), make_bot("tak", "greedy", {"Seed": str(size)})]
    rng = random.Random(size)
    for _ in range(2 * size):
        if game.result is not None:
            break
        if rng.random() < 0.3:  # random plies reach odd positions (tall stacks, walls)
            game.play(rng.choice(game.legal()))
            continue
        bot = bots[game.ply % 2]
        move = bot.think(game.copy(), Limits(nodes=300), threading.Event(), lambda i: None)
        assert move in game.legal()
        game.play(move)


@pytest.mark.parametrize("nodes", [1, 40, 700])
def test_search_honours_the_node_limit(nodes: int) -> None:
    game = TakGame.new({"size": "6"})
    game.play_all(["a1", "f6", "c3", "d4", "c4", "d3"])
    infos, report = collect()
    bot = make_bot("tak", "search")
    move = bot.think(game.copy(), Limits(nodes=nodes), threading.Event(), report)
    assert move in game.legal()
    assert all(i.nodes is not None and i.nodes <= nodes for i in infos)
    assert bot.searcher.nodes <= nodes


def test_search_honours_the_depth_limit() -> None:
    game = TakGame.new({"size": "5"})
    game.play_all(["a1", "e5", "c3", "c2"])
    infos, report = collect()
    make_bot("tak", "search").think(game.copy(), Limits(depth=2), threading.Event(), report)
    assert [i.depth for i in infos] == [1, 2]
    assert all(len(i.pv) >= 1 for i in infos)


@pytest.mark.parametrize("limits", [Limits(movetime=40), Limits(wtime=300, btime=300, winc=5)])
def test_search_answers_under_a_clock(limits: Limits) -> None:
    game = TakGame.new({"size": "5"})
    game.play_all(["a1", "e5"])
    infos, report = collect()
    move = make_bot("tak", "search").think(game.copy(), limits, threading.Event(), report)
    assert move in game.legal()
    assert infos and infos[0].depth == 1


def test_search_returns_when_stop_is_set_during_an_infinite_search() -> None:
    game = TakGame.new({"size": "6"})
    game.play_all(["a1", "f6", "c3", "d4"])
    stop = threading.Event()
    infos: list[Info] = []
    answer: list[Any] = []

    def report(info: Info) -> None:
        infos.append(info)
        if info.depth is not None and info.depth >= 2:
            stop.set()

    bot = make_bot("tak", "search")
    worker = threading.Thread(
        target=lambda: answer.append(bot.think(game.copy(), Limits(infinite=True), stop, report))
    )
    worker.start()
    worker.join(WAIT)
    stop.set()  # let a stuck bot go before failing
    assert not worker.is_alive()
    assert answer[0] in game.legal()
    assert max(i.depth or 0 for i in infos) >= 2


def test_search_returns_a_legal_move_when_stopped_before_it_starts() -> None:
    game = TakGame.new({"size": "7"})
    game.play_all(["a1", "g7", "d4"])
    stop = threading.Event()
    stop.set()
    move = make_bot("tak", "search").think(game.copy(), Limits(), stop, lambda i: None)
    assert move in game.legal()


def test_greedy_is_reproducible_with_a_seed() -> None:
    game = TakGame.new({"size": "5"})
    game.play_all(["a1", "e5", "c3"])
    first = [think("greedy", game, Limits(), {"Seed": "7"}) for _ in range(3)]
    assert first[0] == first[1] == first[2]


def test_win_squares_match_a_brute_force_road_check() -> None:
    rng = random.Random(3)
    for size in (3, 4, 5, 6, 7, 8):
        game = TakGame.new({"size": str(size)})
        for _ in range(40 * size):
            if game.result is not None:
                game = TakGame.new({"size": str(size)})
            game.play(rng.choice(game.legal()))
            board = game.fast_board()
            t = board.t
            empty = t.full & ~(board.white | board.black)
            for colour in (0, 1):
                bits = board.road_bits(colour)
                if road(t, bits):
                    continue
                expected = 0
                for sq in range(t.squares):
                    if empty >> sq & 1 and road(t, bits | 1 << sq):
                        expected |= 1 << sq
                assert win_squares(t, bits, empty) == expected, board.stack


def test_evaluation_is_antisymmetric_under_colour_swap() -> None:
    a = TakGame.from_tps("x4,1/x,2,x3/x,1,1C,2,x/x,2S,x3/1,x4 2 5")
    b = TakGame.from_tps("x4,2/x,1,x3/x,2,2C,1,x/x,1S,x3/2,x4 1 5")
    assert evaluate(a.fast_board()) == evaluate(b.fast_board())


@pytest.mark.parametrize(
    "go",
    [
        p.Go(wtime=10_000, btime=10_000, winc=100, binc=100),
        p.Go(wtime=300, btime=9000, winc=100, binc=100),
        p.Go(wtime=60_000, btime=60_000, winc=1000, binc=1000),
        p.Go(wtime=40, btime=40),
        p.Go(movetime=500),
    ],
)
def test_time_plan_stays_inside_the_hosts_share(go: p.Go) -> None:
    limits = limits_of(go, 0)  # as the engine host gives them: with its cap
    budget = plan(limits, 0, 24, 1000.0)
    host = limits.cap_ms
    assert budget.soft is not None and budget.hard is not None and host is not None
    assert 0 < budget.soft <= budget.hard <= max(host * 0.95, 5.0)


def test_greedy_answers_at_once_when_stopped() -> None:
    game = TakGame.from_tps(
        "x6,1,x/x8/x4,2S,x3/x4,12,x3/x3,112,2,1,x,2C/x2,12,11221S,2,x3/"
        "x,2,12,x,2,x,21C,21/x,1111112C,2,x2,1,1,x 1 31"
    )
    stop = threading.Event()
    stop.set()
    infos, report = collect()
    move = make_bot("tak", "greedy").think(game.copy(), Limits(), stop, report)
    assert move in game.legal()
    assert infos[0].nodes is not None and infos[0].nodes < len(game.legal())


@pytest.mark.parametrize(
    ("bot", "who"), [("greedy", "greedy Tak bot"), ("search", "Tak search bot")]
)
def test_the_tak_bots_refuse_other_games_and_finished_ones(bot: str, who: str) -> None:
    player = make_bot("tak", bot)
    with pytest.raises(ValueError, match=f"the {who} cannot play 'trike'"):
        player.think(new_game("trike"), Limits(depth=1), threading.Event(), lambda info: None)
    won = TakGame.from_tps(PLACE_WIN)
    won.play(won.parse_action("e1"))
    with pytest.raises(ValueError, match="game is over"):
        player.think(won, Limits(depth=1), threading.Event(), lambda info: None)
