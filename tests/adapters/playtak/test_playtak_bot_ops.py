"""A bot run around the clock against the local server: which seeks it accepts, its own
seeks in rotation and again after each game, resign and draws by its engine's score,
undo requests, greeting and goodbye, and Tells that are logged but never obeyed."""

from __future__ import annotations

import pytest
import trio

from adapters.playtak import protocol as p
from adapters.playtak.bridge import Bridge
from adapters.playtak.game_policy import ChatTemplate, ScorePolicy
from adapters.playtak.seek_filter import SeekFilter
from adapters.playtak.server.listeners import LocalServer
from adapters.referee.adjudication import DrawRule, ResignRule
from tests.support.engines.procs import fake
from tests.support.playtak.bridges import make_bridge, start_server, url
from tests.support.playtak.lines import LineClient
from tests.support.playtak.waiting import watch_log

pytestmark = pytest.mark.process

#: the opponent's placements, far from the fake engine's (a1, b1, c1 ...)
REPLIES = ["E5", "D5", "C5", "B5", "E4", "D4", "C4", "B4"]


async def play_black(
    conn: LineClient, game: int, plies: int, send_after: dict[int, str] | None = None
) -> list[str]:
    """Answer `plies` of the bot's moves in `game` with REPLIES; after the n-th answer,
    send `send_after[n]` too. The lines read."""
    seen: list[str] = []
    for n in range(plies):
        seen += await conn.expect(f"Game#{game} P *")
        await conn.send(f"Game#{game} P {REPLIES[n]}")
        if send_after and n in send_after:
            await conn.send(send_after[n])
    return seen


async def opponent(server: LocalServer, name: str, seek_of: str) -> tuple[LineClient, int]:
    """`name` logged in, accepting the first seek of `seek_of`; the game's number."""
    conn = await LineClient.logged_in(server.tcp_port or 0, name)
    seek = (await conn.expect(f"Seek new * {seek_of} *", timeout=20))[-1]
    await conn.send(f"Accept {seek.split()[2]}")
    start = (await conn.expect("Game Start *"))[-1]
    return conn, int(start.split()[2])


async def run_bot(nursery: trio.Nursery, bridge: Bridge) -> trio.Event:
    """Start `bridge`; the event is set once it has stopped."""
    stopped = trio.Event()

    async def run() -> None:
        try:
            await bridge.run()
        finally:
            stopped.set()

    nursery.start_soon(run)
    return stopped


async def test_a_seek_outside_the_filters_is_not_accepted_while_one_inside_is(
    nursery: trio.Nursery,
) -> None:
    server = await start_server(nursery, bots={"robo"})
    seekers = {}
    # the oldest first: without the filters, the choice rule would take alice's seek
    for name, seek in [
        ("alice", "Seek 6 300 5 W 0 30 1 0 0 "),  # size 6: outside
        ("carol", "Seek 5 300 5 W 0 21 1 0 0 "),  # a human: outside
        ("robo", "Seek 5 300 5 W 0 21 1 0 0 "),  # a bot, size 5: inside
    ]:
        seekers[name] = conn = await LineClient.logged_in(server.tcp_port or 0, name)
        await conn.send(seek)
        await conn.expect(f"Seek new * {name} *")
    bot = make_bridge(
        url(server), user="bobby", accept=SeekFilter.parse(sizes="5", opponents="bots")
    )
    stopped = await run_bot(nursery, bot)
    with trio.fail_after(30):
        start = (await seekers["robo"].expect("Game Start *"))[-1]
        await seekers["robo"].send(f"Game#{start.split()[2]} Resign")
        await stopped.wait()
    (game,) = server.core.finished
    assert (game.white, game.black, game.result) == ("robo", "bobby", "0-1")
    assert sorted(s.name for s in server.core.seeks.values()) == ["alice", "carol"]
    for conn in seekers.values():
        await conn.aclose()


async def test_our_seeks_rotate_while_none_fits_and_the_bot_seeks_again_after_a_game(
    nursery: trio.Nursery,
) -> None:
    server = await start_server(nursery)
    alice = await LineClient.logged_in(server.tcp_port or 0, "alice")
    await alice.send("Seek 4 60 0 W 0 15 0 0 0 ")  # not for a bot that takes size 5 only
    await alice.expect("Seek new 1 alice *")
    seeks = ("5 60 0 W", "5 120 0 W")
    bot = make_bridge(
        url(server),
        seeks=tuple(p.Seek.parse_spec(text) for text in seeks),
        seek_rotate_seconds=0.3,
        accept=SeekFilter.parse(sizes="5"),
        games=2,
    )
    stopped = await run_bot(nursery, bot)
    with trio.fail_after(30):
        posted = [(await alice.expect("Seek new * Guest1 *"))[-1] for _ in range(3)]
        assert [line.split()[5] for line in posted] == ["60", "120", "60"]  # in turn
        for game in (1, 2):
            seek = (await alice.expect("Seek new * Guest1 *"))[-1]  # again after game 1
            await alice.send(f"Accept {seek.split()[2]}")
            await alice.expect(f"Game Start {game} *")
            await alice.expect(f"Game#{game} P *")
            await alice.send(f"Game#{game} Resign")
        await stopped.wait()
    assert [g.result for g in server.core.finished] == ["1-0", "1-0"]
    await alice.aclose()


async def test_an_engine_losing_n_moves_in_a_row_resigns_one_without_scores_never(
    nursery: trio.Nursery,
) -> None:
    server = await start_server(nursery)
    results = []
    for score, game in (("cp -900", 1), ("none", 2)):
        bot = make_bridge(
            url(server),
            fake("good", "--score", score),
            user="bobby",
            seek="5 60 0 W",
            policy=ScorePolicy(resign=ResignRule(3, 500)),
        )
        stopped = await run_bot(nursery, bot)
        with trio.fail_after(30):
            alice, number = await opponent(server, "alice", "bobby")
            assert number == game
            if score == "none":
                await play_black(alice, game, 5)  # more than 3 moves: no resignation
                await alice.send(f"Game#{game} Resign")
            else:
                await play_black(alice, game, 2)
            await alice.expect(f"Game#{game} Over *")
            await stopped.wait()
        results.append((server.core.finished[-1].result, len(server.core.finished[-1].moves)))
        await alice.aclose()
    # resigned after its third move (a1 b1 c1; alice's two replies between)
    assert results[0] == ("0-1", 5)
    assert results[1][0] == "1-0"


@pytest.mark.parametrize(
    ("score", "movenumber", "result"),
    [
        ("cp 0", 0, "offered"),  # level from the first move: the bot offers, alice takes it
        ("cp 0", 1, "accepted"),  # level at move 1 when alice offers: the bot accepts
        ("cp -300", 0, "declined"),  # outside the band: no offer, alice's is declined
    ],
)
async def test_draw_offers_by_the_rule(
    nursery: trio.Nursery, score: str, movenumber: int, result: str
) -> None:
    server = await start_server(nursery)
    # the bot's moves take 1 s: its answer to alice's offer comes before its next move
    engine = fake("slow", "--delay", "1", "--score", score)
    policy = ScorePolicy(draw=DrawRule(movenumber, 1, 10))
    bot = make_bridge(url(server), engine, user="bobby", seek="5 60 0 W", policy=policy)
    stopped = await run_bot(nursery, bot)
    with trio.fail_after(30):
        alice, game = await opponent(server, "alice", "bobby")
        seen = await alice.expect(f"Game#{game} P *")
        if result == "offered":
            seen += await alice.expect(f"Game#{game} OfferDraw")
        await alice.send(f"Game#{game} P E5")
        await alice.send(f"Game#{game} OfferDraw")
        if result == "declined":
            seen += await alice.expect(f"Game#{game} P *")  # the bot plays on
            await alice.send(f"Game#{game} Resign")
        seen += await alice.expect(f"Game#{game} Over *")
        await stopped.wait()
    assert (f"Game#{game} OfferDraw" in seen) == (result == "offered")
    assert server.core.finished[-1].result == ("1-0" if result == "declined" else "1/2-1/2")
    await alice.aclose()


@pytest.mark.parametrize("accept", [False, True], ids=["default-refuse", "accept"])
async def test_undo_requests_are_refused_by_default_and_accepted_when_told(
    nursery: trio.Nursery, accept: bool
) -> None:
    server = await start_server(nursery)
    engine = fake("slow", "--delay", "1")  # the request comes while the bot thinks
    policy = ScorePolicy.parse(undo="accept" if accept else "refuse")
    bot = make_bridge(url(server), engine, user="bobby", seek="5 60 0 W", policy=policy)
    stopped = await run_bot(nursery, bot)
    with trio.fail_after(30):
        alice, game = await opponent(server, "alice", "bobby")
        seen = await alice.expect(f"Game#{game} P *")
        await alice.send(f"Game#{game} P E5")
        await alice.send(f"Game#{game} RequestUndo")  # alice takes E5 back
        if accept:
            seen += await alice.expect(f"Game#{game} Undo")
            await alice.send(f"Game#{game} P D5")
        seen += await alice.expect(f"Game#{game} P *")  # the bot's second move
        await alice.send(f"Game#{game} Resign")
        seen += await alice.expect(f"Game#{game} Over *")
        await stopped.wait()
    assert (f"Game#{game} Undo" in seen) == accept
    played = server.core.finished[-1].moves
    assert [str(move) for move in played][1] == ("P D5" if accept else "P E5")
    assert len(played) == 3
    await alice.aclose()


async def test_greeting_goodbye_and_a_tell_that_is_logged_never_obeyed(
    nursery: trio.Nursery,
) -> None:
    server = await start_server(nursery)
    bot = make_bridge(
        url(server),
        fake(),
        user="bobby",
        seek="5 60 0 W",
        greeting=ChatTemplate.parse("hi {opponent}, {me} here", "--greeting"),
        goodbye=ChatTemplate.parse("thanks {opponent}", "--goodbye"),
    )
    with watch_log("tell from") as tells:
        stopped = await run_bot(nursery, bot)
        with trio.fail_after(30):
            alice, _ = await opponent(server, "alice", "bobby")
            await alice.send("Tell bobby Game#1 Resign\x1b[2J")
            await tells.matches.reach(1)
            seen = await play_black(alice, 1, 3)  # the bot plays on
            await alice.send("Game#1 Resign")
            seen += await alice.expect("Tell <bobby> thanks alice")
            await stopped.wait()
    assert "Tell <bobby> hi alice, bobby here" in alice.seen
    assert server.core.finished[0].result == "1-0"
    assert tells.with_text() == [
        "tell from alice (not a command; nothing done): Game#1 Resign\\x1b[2J"
    ]
    await alice.aclose()
