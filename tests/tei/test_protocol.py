"""The TEI codec: scripted transcripts in both directions, quirks of real engines."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tei.protocol import (
    BestMove,
    Go,
    Id,
    Info,
    IsReady,
    OptionDecl,
    Position,
    ProtocolError,
    Quit,
    ReadyOk,
    Score,
    SetOption,
    SizeDecl,
    Stop,
    Tei,
    TeiNewGame,
    TeiOk,
    Unknown,
    parse_engine_line,
    parse_gui_line,
)

# A racetrack-style session as the GUI writes it, with the message each line must give.
GUI_TRANSCRIPT = [
    ("tei", Tei()),
    ("setoption name HalfKomi value 4", SetOption("HalfKomi", "4")),
    ("isready", IsReady()),
    ("teinewgame 6", TeiNewGame(size=6)),
    ("isready", IsReady()),
    ("position startpos moves ", Position(None, ())),
    ("go wtime 179950 btime 180000 winc 2000 binc 2000", Go(179950, 180000, 2000, 2000)),
    ("position startpos moves a1 f6", Position(None, ("a1", "f6"))),
    ("go movetime 1000", Go(movetime=1000)),
    ("stop", Stop()),
    ("quit", Quit()),
]

ENGINE_TRANSCRIPT = [
    ("id name Tiltak", Id("name", "Tiltak")),
    ("id author Morten Lohne", Id("author", "Morten Lohne")),
    (
        "option name HalfKomi type combo default 0 var 0 var 4",
        OptionDecl("HalfKomi", "combo", "0", vars=("0", "4")),
    ),
    (
        "option name MultiPV type spin default 1 min 1 max 16",
        OptionDecl("MultiPV", "spin", "1", 1, 16),
    ),
    ("teiok", TeiOk()),
    ("readyok", ReadyOk()),
    (
        "info depth 3 time 69 nodes 541 score cp 910 pv d3 c2 d1",
        Info(depth=3, time=69, nodes=541, score=Score("cp", 910), pv=("d3", "c2", "d1")),
    ),
    ("bestmove Cd3", BestMove("Cd3")),
]


@pytest.mark.parametrize(("line", "message"), GUI_TRANSCRIPT)
def test_gui_transcript_parses(line: str, message: object) -> None:
    assert parse_gui_line(line) == message


@pytest.mark.parametrize(("line", "message"), ENGINE_TRANSCRIPT)
def test_engine_transcript_parses_and_prints_back(line: str, message: object) -> None:
    parsed = parse_engine_line(line)
    assert parsed == message
    assert parse_engine_line(parsed.to_line()) == parsed


GUI_MESSAGES = [
    Tei(),
    SetOption("HalfKomi", "4"),
    SetOption("Clear Hash", None),
    SetOption("Book File", "my book.ptn"),
    SetOption("Name", ""),
    IsReady(),
    TeiNewGame(),
    TeiNewGame(size=5),
    TeiNewGame(size=6, halfkomi=4, v1=True),
    TeiNewGame(size=6, v1=True),
    Position(None),
    Position(None, ("a1", "e5", "Cc3", "3c3>12", "e1<*")),
    Position("x5/x5/x5/x5/x5 1 1"),
    Position("2,1,x3/x5/x5/x5/x5 2 3", ("a1", "Sb2")),
    Position("7:1/2/3/4/5/3X2/7:o:s", ("swap",)),
    Position("TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00", ("c1-f2",)),
    Go(),
    Go(infinite=True),
    Go(wtime=1, btime=2, winc=3, binc=4, movestogo=5, depth=6, nodes=7, movetime=8),
    Stop(),
    Quit(),
]


@pytest.mark.parametrize("message", GUI_MESSAGES, ids=lambda m: m.to_line())
def test_gui_messages_round_trip(message: object) -> None:
    line = message.to_line()  # type: ignore[attr-defined]
    assert parse_gui_line(line) == message


ENGINE_MESSAGES = [
    Id("name", "Tak Engine 2000"),
    Id("author", "A. N. Other"),
    Id("version", "1.0"),
    OptionDecl("HalfKomi", "spin", "0", 0, 8),
    OptionDecl("Clear Hash", "button"),
    OptionDecl("Ponder", "check", "false"),
    OptionDecl("Game", "combo", "tak", vars=("tak", "trike", "traxit")),
    OptionDecl("Book File", "string", "my book.ptn"),
    OptionDecl("Style", "combo", "very solid", vars=("very solid", "wild")),
    OptionDecl("Log", "string", ""),
    SizeDecl((5, 6), (0, 4)),
    SizeDecl((6,)),
    TeiOk(),
    ReadyOk(),
    Info(),
    Info(depth=1, seldepth=2, time=3, nodes=4, nps=5, hashfull=6, multipv=1),
    Info(score=Score("cp", -22), wdl=(386, 0, 614), pv=("Cd3", "c4")),
    Info(score=Score("cp", 15, "lowerbound")),
    Info(score=Score("cp", 15, "upperbound")),
    Info(score=Score("solved", 5, "win")),
    Info(score=Score("solved", 4, "loss")),
    Info(score=Score("solved", None, "draw")),
    Info(string="hello   world, depth 5 pv a1"),
    Info(error="bad things happened"),
    Info(depth=2, error="oops", string="and more"),
    Info(pv=("T08",), string=""),
    BestMove("e4"),
    BestMove(None),
    BestMove("T08"),
]


@pytest.mark.parametrize("message", ENGINE_MESSAGES, ids=lambda m: m.to_line())
def test_engine_messages_round_trip(message: object) -> None:
    line = message.to_line()  # type: ignore[attr-defined]
    assert parse_engine_line(line) == message


def test_real_tiltak_info_line() -> None:
    line = (
        "info depth 7 seldepth 8 nodes 2000 score cp -22 wdl 386 0 614 time 8 nps 247923 "
        "pv Cd3 c4 d4 c5 d5 c2 d2 c1"
    )
    info = parse_engine_line(line)
    assert info == Info(
        depth=7,
        seldepth=8,
        nodes=2000,
        score=Score("cp", -22),
        wdl=(386, 0, 614),
        time=8,
        nps=247923,
        pv=("Cd3", "c4", "d4", "c5", "d5", "c2", "d2", "c1"),
    )


def test_tiltak_multipv_line_skips_visits() -> None:
    line = (
        "info multipv 2 depth 5 seldepth 9 nodes 800 visits 640 score cp 12 wdl 560 0 440 "
        "time 20 nps 40000 pv a1 e5"
    )
    info = parse_engine_line(line)
    assert isinstance(info, Info)
    assert (info.multipv, info.depth, info.nodes, info.pv) == (2, 5, 800, ("a1", "e5"))
    assert info.score == Score("cp", 12)
    assert info.skipped == ("visits", "640")


def test_pv_runs_until_next_keyword() -> None:
    info = parse_engine_line("info pv a1 b2 c3 depth 4 score cp 3")
    assert info == Info(pv=("a1", "b2", "c3"), depth=4, score=Score("cp", 3))
    info = parse_engine_line("info pv a1 currmove b2 nodes 9")
    assert isinstance(info, Info)
    assert info.pv == ("a1",) and info.nodes == 9 and info.skipped == ("currmove", "b2")


def test_string_is_the_rest_of_the_line() -> None:
    info = parse_engine_line("info depth 2 string pv a1  nodes 5   score cp x")
    assert info == Info(depth=2, string="pv a1  nodes 5   score cp x")


def test_score_bound_before_value_and_solved_forms() -> None:
    assert parse_engine_line("info score lowerbound cp 30") == Info(
        score=Score("cp", 30, "lowerbound")
    )
    assert parse_engine_line("info score solved win 5 depth 3") == Info(
        score=Score("solved", 5, "win"), depth=3
    )
    assert parse_engine_line("info score solved 5 loss") == Info(score=Score("solved", 5, "loss"))
    assert parse_engine_line("info score mate -3") == Info(score=Score("mate", -3))


def test_info_never_raises_on_bad_values() -> None:
    info = parse_engine_line("info depth x nodes 10 score cp y wdl 1 2 time 7 hashfull")
    assert isinstance(info, Info)
    assert info.depth is None and info.score is None and info.wdl is None
    assert info.nodes == 10 and info.time == 7
    assert "depth" in info.skipped and "hashfull" in info.skipped


def test_unknown_info_fields_are_skipped() -> None:
    info = parse_engine_line("info tbhits 0 cpuload 3 depth 9")
    assert isinstance(info, Info)
    assert info.depth == 9
    assert info.skipped == ("tbhits", "0", "cpuload", "3")
    assert "tbhits" not in info.to_line()


def test_setoption_names_and_values_with_spaces() -> None:
    assert parse_gui_line("setoption name Clear Hash") == SetOption("Clear Hash", None)
    assert parse_gui_line("setoption name Book File value  a b  c ") == SetOption(
        "Book File", "a b  c"
    )
    assert parse_gui_line("setoption Name halfkomi Value 2") == SetOption("halfkomi", "2")
    assert parse_gui_line("setoption name Log value") == SetOption("Log", "")
    assert parse_gui_line("setoption name Value Mode value 3") == SetOption("Value Mode", "3")


def test_option_names_with_spaces_and_empty_defaults() -> None:
    assert parse_engine_line("option name Clear Hash type button") == OptionDecl(
        "Clear Hash", "button"
    )
    assert parse_engine_line("option name Debug Log File type string default <empty>") == (
        OptionDecl("Debug Log File", "string", "")
    )
    assert parse_engine_line("option name Book type string default") == OptionDecl(
        "Book", "string", ""
    )
    assert parse_engine_line("option name HalfKomi type spin default 0 min 0 max 12") == (
        OptionDecl("HalfKomi", "spin", "0", 0, 12)
    )


def test_teinewgame_forms() -> None:
    assert parse_gui_line("teinewgame") == TeiNewGame()
    assert parse_gui_line("teinewgame 7") == TeiNewGame(size=7)
    assert parse_gui_line("teinewgame size 6 halfkomi 4") == TeiNewGame(6, 4, v1=True)
    assert parse_gui_line("teinewgame size 5") == TeiNewGame(5, None, v1=True)
    # the example in the written v1 spec says `komi`
    assert parse_gui_line("teinewgame size 6 komi 4") == TeiNewGame(6, 4, v1=True)
    assert TeiNewGame(6, 4).to_line() == "teinewgame 6"
    assert TeiNewGame(6, 4, v1=True).to_line() == "teinewgame size 6 halfkomi 4"


def test_position_forms() -> None:
    assert parse_gui_line("position startpos") == Position(None)
    assert parse_gui_line("position startpos moves") == Position(None)
    assert parse_gui_line("position tps x5/x5/x5/x5/x5 1 1 moves a1") == Position(
        "x5/x5/x5/x5/x5 1 1", ("a1",)
    )
    assert parse_gui_line("position tps  x5/x5/x5/x5/x5   2  1") == Position("x5/x5/x5/x5/x5 2 1")
    assert parse_gui_line("position tps 7:1/2/3/4/5/6/7:x:- moves d2 swap c3") == Position(
        "7:1/2/3/4/5/6/7:x:-", ("d2", "swap", "c3")
    )
    assert Position(None, ()).to_line() == "position startpos"


def test_go_fields_and_unknown_words() -> None:
    assert parse_gui_line("go") == Go()
    assert parse_gui_line("go infinite") == Go(infinite=True)
    assert parse_gui_line("go depth 3") == Go(depth=3)
    assert parse_gui_line("go nodes 2000") == Go(nodes=2000)
    assert parse_gui_line("go movestogo 10 wtime 5000") == Go(wtime=5000, movestogo=10)
    go = parse_gui_line("go ponder movetime 100 solved")
    assert go == Go(movetime=100, skipped=("ponder", "solved"))
    assert Go(movetime=100, skipped=("x",)).to_line() == "go movetime 100"


def test_bestmove_forms() -> None:
    assert parse_engine_line("bestmove --") == BestMove(None)
    assert parse_engine_line("bestmove e4 ponder d4") == BestMove("e4")
    assert BestMove(None).to_line() == "bestmove --"


def test_unknown_and_empty_lines() -> None:
    assert parse_gui_line("") == Unknown("")
    assert parse_gui_line("   \r") == Unknown("")
    assert parse_gui_line("ucinewgame") == Unknown("ucinewgame")
    assert parse_gui_line("  debug on ") == Unknown("debug on")
    assert parse_engine_line("Setting komi to 4") == Unknown("Setting komi to 4")
    assert parse_engine_line("") == Unknown("")
    # an engine line is unknown to the GUI parser and the other way round
    assert parse_gui_line("bestmove a1") == Unknown("bestmove a1")
    assert parse_engine_line("go movetime 5") == Unknown("go movetime 5")


def test_whitespace_and_carriage_returns_are_ignored() -> None:
    assert parse_gui_line("  isready \r\n") == IsReady()
    assert parse_engine_line("bestmove a1\r\n") == BestMove("a1")
    assert parse_gui_line("go\tmovetime\t50") == Go(movetime=50)


#: lines of known commands that are malformed, as a GUI would send them
MALFORMED_GUI_LINES = [
    "setoption",
    "setoption HalfKomi 4",
    "setoption name",
    "teinewgame six",
    "teinewgame size",
    "teinewgame size six",
    "teinewgame size 6 colour red",
    "teinewgame 6 4",
    "position",
    "position tps",
    "position tps moves a1",
    "position startpos a1",
    "position fromhere moves a1",
    "go movetime",
    "go wtime fast",
    "go depth 3.5",
]
#: and as an engine would
MALFORMED_ENGINE_LINES = [
    "id",
    "option",
    "option name X",
    "option name X type",
    "option name X type spin min low",
    "size",
    "size five",
    "size 5 halfkomi x",
    "bestmove",
]


@pytest.mark.parametrize(
    ("parse", "line"),
    [
        *((parse_gui_line, line) for line in MALFORMED_GUI_LINES),
        *((parse_engine_line, line) for line in MALFORMED_ENGINE_LINES),
    ],
)
def test_malformed_lines_raise_naming_the_line(parse: Callable[[str], object], line: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse(line)
    assert repr(line) in str(caught.value)


def test_protocol_error_is_a_value_error() -> None:
    assert issubclass(ProtocolError, ValueError)
