"""The playtak codec and notation against the verified lines and quirks of the spec."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.playtak import protocol as p
from adapters.playtak.live_game import play_server_move
from adapters.playtak.notation import MoveNotationError, ServerMove
from adapters.playtak.server.lobby import LobbyCore
from rules.game import NotationError
from rules.registry import new_game
from rules.tak.move import Move

# --- notation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("server", "ptn"),
    [
        ("P A1", "a1"),
        ("P A1 W", "Sa1"),
        ("P C3 C", "Cc3"),
        ("M A1 C1 1 2", "3a1>12"),
        ("M C2 C3 1", "c2+"),
        ("M E5 E3 1 1", "2e5-11"),
        ("M H8 A8 1 1 1 1 1 1 1", "7h8<1111111"),
        ("M B2 B3 3", "3b2+"),
    ],
)
def test_server_and_ptn_notation_round_trip(server: str, ptn: str) -> None:
    assert ServerMove.parse(server).to_move().ptn() == ptn
    assert ServerMove.from_move(Move.from_ptn(ptn)).to_text() == server


@pytest.mark.parametrize(
    ("ptn", "server"),
    [
        ("e3+*", "M E3 E4 1"),  # the crush mark never reaches the server
        ("6e3+411*", "M E3 E6 4 1 1"),
        ("1e4<1", "M E4 D4 1"),  # explicit count and drops
        ("1d1+1", "M D1 D2 1"),
        ("Fa1", "P A1"),
        ("c2+'", "M C2 C3 1"),  # annotations are dropped
        ("Sb2!?", "P B2 W"),
    ],
)
def test_ptn_variants_towards_the_server(ptn: str, server: str) -> None:
    assert ServerMove.from_move(Move.from_ptn(ptn)).to_text() == server


@pytest.mark.parametrize(
    ("ptn", "server"),
    [
        ("c3>12", "M C3 E3 1 2"),  # the count left out: the drops add up to it
        ("Cd4", "P D4 C"),
        ("e8<", "M E8 D8 1"),
    ],
)
def test_the_one_ptn_reader_feeds_the_server(ptn: str, server: str) -> None:
    assert ServerMove.from_move(Move.from_ptn(ptn)).to_text() == server


@pytest.mark.parametrize("bad", ["", "a9", "3a1>13", "Sa1+", "2a1", "i1", "Cd4*", "Fe8<"])
def test_bad_ptn_is_refused_with_its_text(bad: str) -> None:
    with pytest.raises(NotationError) as info:
        Move.from_ptn(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", ["P a1", "M A1 C1 1", "M A1 B2 1", "X A1", "P A1 S", "M A1 A1 1"])
def test_bad_server_moves_are_refused(bad: str) -> None:
    with pytest.raises(MoveNotationError) as info:
        ServerMove.parse(bad)
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, NotationError)  # one root with the core's notation errors


# --- server lines (transcript of the verified login and game) ------------------------

TRANSCRIPT = [
    ("Welcome!", p.Welcome()),
    ("Login or Register", p.LoginPrompt()),
    ("OK", p.Ok()),
    ("Welcome alice!", p.LoggedIn("alice")),
    ("Welcome Guest12!", p.LoggedIn("Guest12")),
    ("Is Mod", p.IsMod()),
    ("Online 3", p.Online(3)),
    ('OnlinePlayers ["Guest1", "alice", "bobby"]', p.OnlinePlayers(("Guest1", "alice", "bobby"))),
    ("Authentication failure", p.AuthFailure()),
    ("NOK", p.Nok()),
    ("Error:Square not empty", p.ErrorText("Square not empty")),
    ("Game#1 P A1", p.GameMove(1, "P A1")),
    ("Game#1 P B1 W", p.GameMove(1, "P B1 W")),
    ("Game#1 P C3 C", p.GameMove(1, "P C3 C")),
    ("Game#1 M B1 B2 1", p.GameMove(1, "M B1 B2 1")),
    ("Game#1 Over R-0", p.GameOver(1, "R-0")),
    ("Game#1 Over 1/2-1/2", p.GameOver(1, "1/2-1/2")),
    ("Game#1 Abandoned. bobby quit", p.GameAbandoned(1, "bobby")),
    ("Game#1 OfferDraw", p.GameSignal(1, "OfferDraw")),
    ("Game#1 RemoveDraw", p.GameSignal(1, "RemoveDraw")),
    ("Game#1 RequestUndo", p.GameSignal(1, "RequestUndo")),
    ("Game#1 Undo", p.GameSignal(1, "Undo")),
    (
        "Message bobby has disconnected. They have 120 seconds to reconnect",
        p.PlayerDisconnected("bobby", 120),
    ),
    ("Message bobby has reconnected.", p.PlayerReconnected("bobby")),
    ("Message Your game is resumed", p.GameResumed()),
    (
        "Message You've logged in from another window. Disconnecting",
        p.LoggedInElsewhere(),
    ),
    ("Message server restarts soon", p.Message("server restarts soon")),
    ("Shout <alice> hi all", p.Chat("Shout", "alice", "hi all")),
    ("Tell <alice> hello there", p.Chat("Tell", "alice", "hello there")),
    ("Told <bobby> hello there", p.Chat("Told", "bobby", "hello there")),
    ("ShoutRoom testroom <alice> hey", p.Chat("ShoutRoom", "alice", "hey", "testroom")),
]


@pytest.mark.parametrize(("line", "event"), TRANSCRIPT)
def test_server_lines_parse_and_print_back(line: str, event: p.ServerEvent) -> None:
    assert p.parse_server_line(line) == event
    assert event.to_line() == line


def test_clock_lines_of_both_protocols_read_as_milliseconds() -> None:
    seconds = p.parse_server_line("Game#1 Time 190 180")
    millis = p.parse_server_line("Game#1 Timems 190000 180000")
    assert seconds == millis == p.GameTime(1, 190_000, 180_000)
    assert millis.to_line(0) == "Game#1 Time 190 180"
    assert millis.to_line(1) == "Game#1 Timems 190000 180000"


def test_game_start_protocol_0_has_no_increment_and_komi_in_word_10() -> None:
    line = "Game Start 1 5 alice vs bobby white 180 4 21 1 0 0"
    event = p.parse_server_line(line)
    assert event == p.GameStart(
        1, "alice", "bobby", "white", p.GameTerms(5, 180, 0, 4, 21, 1), untold=frozenset({"inc"})
    )
    assert line.split()[9] == "4"
    assert event.to_line(0) == line


def test_game_start_protocol_2_carries_increment_and_flags() -> None:
    line = "Game Start 1 alice vs bobby black 5 180 10 4 21 1 0 0 0 0 0"
    event = p.parse_server_line(line)
    assert isinstance(event, p.GameStart)
    assert (event.white, event.black, event.color, event.size) == ("alice", "bobby", "black", 5)
    assert (event.time, event.inc, event.komi, event.pieces) == (180, 10, 4, (21, 1))
    assert event.bot_game is False
    assert event.to_line(2) == line


def test_historic_game_start_without_clock_is_tolerated() -> None:
    event = p.parse_server_line("Game Start 7 6 alice vs bobby black")
    assert isinstance(event, p.GameStart)
    assert (event.game_id, event.size, event.color, event.time) == (7, 6, "black", None)
    assert event.pieces == (30, 1)


def test_seek_new_protocol_0_ends_with_a_space_for_the_empty_opponent() -> None:
    line = "Seek new 1 alice 5 180 10 W 4 21 1 0 0 0 0 "
    event = p.parse_server_line(line)
    assert isinstance(event, p.SeekNew)
    assert (event.seek.name, event.seek.komi, event.seek.opponent, event.seek.bot) == (
        "alice",
        4,
        "",
        None,
    )
    assert event.to_line(0) == line


def test_seek_new_protocol_2_has_opponent_placeholder_and_bot_flag() -> None:
    line = "Seek new 1 alice 5 180 10 W 4 21 1 0 0 0 0 0 1"
    event = p.parse_server_line(line)
    assert isinstance(event, p.SeekNew)
    assert (event.seek.opponent, event.seek.bot) == ("", True)
    assert event.to_line(2) == line
    named = p.parse_server_line("Seek remove 2 bob 6 600 5 B 0 30 1 1 0 0 0 alice 0")
    assert isinstance(named, p.SeekRemove)
    assert (named.seek.opponent, named.seek.unrated, named.seek.bot) == ("alice", True, False)


def test_historic_lobby_lines_are_tolerated() -> None:
    seek = p.parse_server_line("Seek new 3 alice 5 180 W")
    assert isinstance(seek, p.SeekNew)
    assert (seek.seek.time, seek.seek.color) == (180, "W")
    game = p.parse_server_line(
        "GameList Add Game#4 alice vs bobby, 5x5, 180, 15, 0 half-moves played, alice to move"
    )
    assert game == p.GameListAdd(p.GameInfo(4, "alice", "bobby", p.GameTerms(5, 180, 15)))


def test_game_list_and_observe_lines() -> None:
    line = "GameList Add 1 alice bobby 5 180 10 4 21 1 0 0 0 0"
    event = p.parse_server_line(line)
    assert event == p.GameListAdd(
        p.GameInfo(1, "alice", "bobby", p.GameTerms(5, 180, 10, 4, 21, 1))
    )
    assert event.to_line() == line
    observe = p.parse_server_line("Observe 1 alice bobby 5 180 10 4 21 1 0 0 0 0")
    assert isinstance(observe, p.ObserveStart)


@pytest.mark.parametrize(
    "line",
    [
        "tak.Game@557c7331",  # the broken `Show` reply
        "CmdReply something",
        "sudoReply ok",
        "Game#x P A1",
        "Game#1 P Z9",
        "Game#1 Time soon never",
        "Game#1 Over 2-0",
        "OnlinePlayers not json",
        "Online many",
        "Game Start garbage",
        "Seek new x",
        "",
        "\x00\xff binary",
    ],
)
def test_unreadable_lines_become_unknown(line: str) -> None:
    event = p.parse_server_line(line)
    assert isinstance(event, p.Unknown)
    assert event.line == line


# --- client commands -------------------------------------------------------------------


def test_client_commands_print_the_documented_lines() -> None:
    assert p.ProtocolCmd(2).to_line() == "Protocol 2"
    assert p.ClientCmd("tei-playtak").to_line() == "Client tei-playtak"
    assert p.Login("alice", "secret1").to_line() == "Login alice secret1"
    assert p.LoginGuest().to_line() == "Login Guest"
    assert p.LoginGuest("abcdefghijklmnopqrst").to_line() == "Login Guest abcdefghijklmnopqrst"
    assert p.RemoveSeek().to_line() == "Seek 0 0 0 A 0 0 0 0 0 "
    assert p.Accept(12).to_line() == "Accept 12"
    assert p.PlayMove(3, "M A1 C1 1 2").to_line() == "Game#3 M A1 C1 1 2"
    assert p.GameAction(3, "Resign").to_line() == "Game#3 Resign"
    assert p.Ping().to_line() == "PING"
    assert p.Quit().to_line() == "quit"
    assert "secret1" not in repr(p.Login("alice", "secret1"))


def test_seek_always_keeps_the_space_before_the_opponent_field() -> None:
    seek = p.Seek.parse_spec("5 180 10 W 4 21 1 0 0")
    assert seek.to_line() == "Seek 5 180 10 W 4 21 1 0 0 "
    # what the server reads from it keeps the komi
    assert p.parse_client_line(seek.to_line()) == attrs_evolve(
        seek, terms=p.GameTerms(5, 180, 10, 4, 21, 1)
    )
    extra = p.Seek.parse_spec("6 600 5 B 2 30 1 1 0 20 300 bobby")
    assert extra.to_line() == "Seek 6 600 5 B 2 30 1 1 0 20 300 bobby"


def attrs_evolve(seek: p.Seek, **changes: object) -> p.Seek:
    import attrs

    return attrs.evolve(seek, **changes)  # type: ignore[arg-type]


def test_seek_trailing_space_trap_on_the_server_side() -> None:
    # without the trailing space the V2 regex does not match: V1 wins and komi is lost
    trapped = p.parse_client_line("Seek 5 180 10 W 4 21 1 0 0")
    assert isinstance(trapped, p.Seek)
    assert (trapped.komi, trapped.color) == (0, "W")
    kept = p.parse_client_line("Seek 5 180 10 W 4 21 1 0 0 ")
    assert isinstance(kept, p.Seek)
    assert kept.komi == 4
    v3 = p.parse_client_line("Seek 5 180 10 A 4 21 1 0 0 10 60 ")
    assert isinstance(v3, p.Seek)
    assert (v3.trigger, v3.amount, v3.opponent) == (10, 60, "")


def test_server_clamps_seek_fields() -> None:
    seek = p.parse_client_line("Seek 9 60 0 B 12 99 7 1 0 ")
    assert isinstance(seek, p.Seek)
    assert (seek.size, seek.komi, seek.flats, seek.caps, seek.unrated) == (5, 8, 80, 5, True)
    assert p.parse_client_line("Seek 0 0 0 A 0 0 0 0 0 ") == p.RemoveSeek()


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("PING", p.Ping()),
        ("PING\r\n", p.Ping()),
        ("PING\nList", p.UnknownCommand("PING\nList")),  # two commands in one frame
        ("Protocol 2", p.ProtocolCmd(2)),
        ("Protocol 0", p.UnknownCommand("Protocol 0")),
        ("Client TakWeb-22.04.12", p.ClientCmd("TakWeb-22.04.12")),
        ("client Tiltak", p.UnknownCommand("client Tiltak")),  # case-sensitive
        ("Login Guest", p.LoginGuest()),
        ("Login Guest abcdefghijklmnopqrst", p.LoginGuest("abcdefghijklmnopqrst")),
        ("Login Guest short", p.LoginGuest()),  # other token shapes: a new guest
        ("Login abc password", p.UnknownCommand("Login abc password")),  # 3-letter name
        ("Login alice pw", p.UnknownCommand("Login alice pw")),  # short password
        ("Accept 4", p.Accept(4)),
        ("List", p.ListSeeks()),
        ("GameList", p.ListGames()),
        ("Observe 3", p.Observe(3)),
        ("Unobserve 3", p.Observe(3, stop=True)),
        ("Game#2 P A1 C", p.PlayMove(2, "P A1 C")),
        ("Game#2 P A1 W", p.PlayMove(2, "P A1 W")),
        ("Game#2 M A1 A3 1 1", p.PlayMove(2, "M A1 A3 1 1")),
        # the regex takes any squares and drops: the game answers with an error text
        ("Game#2 M A1 B2 1", p.PlayMove(2, "M A1 B2 1")),
        ("Game#2 P Z9", p.PlayMove(2, "P Z9")),
        ("Game#2 M A1 A1", p.UnknownCommand("Game#2 M A1 A1")),
        ("Game#2 OfferDraw", p.GameAction(2, "OfferDraw")),
        ("Game#2 Resign", p.GameAction(2, "Resign")),
        ("Shout hello all", p.Say("hello all")),
        ("Tell bobby hi", p.Say("hi", to="bobby")),
        ("quit", p.Quit()),
        ("Fly away", p.UnknownCommand("Fly away")),
    ],
)
def test_server_reads_client_lines_like_playtak(line: str, command: p.ClientCommand) -> None:
    assert p.parse_client_line(line) == command


@pytest.mark.parametrize(
    "spec",
    ["5 180", "5 x 10", "5 180 10 Q", "9 180 10", "5 180 10 W 9 21 1 0 0", "5 180 10 W 4 21"],
)
def test_bad_seek_specs_name_the_input(spec: str) -> None:
    with pytest.raises(ValueError, match="seek"):
        p.Seek.parse_spec(spec)


# --- nothing crashes on bad input --------------------------------------------------------


WORDS = st.sampled_from(
    [
        "Game#1",
        "Seek",
        "new",
        "remove",
        "Game",
        "Start",
        "P",
        "M",
        "A1",
        "C1",
        "vs",
        "1",
        "0",
        "W",
        "Time",
        "Timems",
        "Over",
        "Message",
        "Welcome",
        "Login",
        "Guest",
        "Accept",
        "-5",
        "99999999999999999999",
        "",
        "x",
        "OfferDraw",
        "Protocol",
        "Client",
        "<a>",
    ]
)
LINES = st.one_of(st.text(max_size=60), st.lists(WORDS, max_size=18).map(" ".join))


@settings(max_examples=300, deadline=None)
@given(LINES)
def test_any_line_parses_without_raising(line: str) -> None:
    event = p.parse_server_line(line)
    assert isinstance(event.to_line(), str)
    command = p.parse_client_line(line)
    assert isinstance(command.to_line(), str)


@settings(max_examples=100, deadline=None)
@given(st.lists(LINES, max_size=12))
def test_the_server_core_survives_any_lines(lines: list[str]) -> None:
    """Whatever the clients send, the core answers only with lines a client can read
    (every one parses as a known server event) and keeps its games consistent: each
    game's record of moves replays on a fresh board to the position it holds."""
    core = LobbyCore()
    out = core.connect(1, 0.0) + core.connect(2, 0.0)
    out += core.receive(1, "Login alice secret1", 0.0)
    out += core.receive(2, "Login bobby secret1", 0.0)
    out += core.receive(1, "Seek 4 60 0 W 0 15 0 0 0 ", 0.0)
    out += core.receive(2, "Accept 1", 0.0)
    assert core.games, "the accepted seek started a game"
    for index, line in enumerate(lines):
        out += core.receive(1 + index % 2, line, float(index))
    out += core.tick(1000.0)
    sent = [text for _, text in out if text is not None]
    unreadable = [t for t in sent if isinstance(p.parse_server_line(t), p.Unknown)]
    assert unreadable == []
    for game in core.games.values():
        replay = new_game("tak", {"size": str(game.size)})
        for move in game.moves:
            play_server_move(replay, ServerMove.parse(move))
        assert replay.position_string() == game.game.position_string()


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=3, max_value=8), st.randoms(use_true_random=False))
def test_every_legal_move_survives_the_trip_through_server_notation(
    size: int, rng: random.Random
) -> None:
    game = new_game("tak", {"size": str(size)})
    for _ in range(60):
        actions = game.legal()
        if not actions:
            break
        for action in actions:
            server = ServerMove.from_move(action)
            assert ServerMove.parse(server.to_text()) == server
            assert server.to_move() == attrs.evolve(action, crush=False)
            replay = game.copy()
            assert play_server_move(replay, server) == action
        game.play(rng.choice(actions))


def test_a_crushing_move_gets_its_mark_back_from_the_rules() -> None:
    game = new_game("tak", {"size": "5"})
    game.play_all(["a1", "e5", "Cc3", "Sd3"])
    action = play_server_move(game, ServerMove.parse("M C3 D3 1"))
    assert game.format_action(action) == "c3>*"
    assert ServerMove.from_move(Move.from_ptn("c3>*")).to_text() == "M C3 D3 1"
