"""Pure parts of the driver: option rules, new-game plans, transcripts."""

from __future__ import annotations

import io

import pytest

from tei.driver.engine_options import (
    NewGameMessages,
    OptionRefused,
    declared_games,
    find_option,
    normalize_value,
    plan_new_game,
    tei_settings,
)
from tei.protocol import OptionDecl, SizeDecl, TeiNewGame
from tei.transcript import Transcript, TranscriptEntry

KOMI_COMBO = OptionDecl("HalfKomi", "combo", "0", vars=("0", "4"))
KOMI_SPIN = OptionDecl("HalfKomi", "spin", "0", min=0, max=8)
GAME = OptionDecl("Game", "combo", "tak", vars=("tak", "trike", "traxit"))
PLAYERS = OptionDecl("Players", "spin", "2", min=2, max=4)


def table(*decls: OptionDecl) -> dict[str, OptionDecl]:
    return {d.name: d for d in decls}


def test_option_names_match_case_insensitively() -> None:
    options = table(KOMI_COMBO)
    assert find_option(options, "halfkomi") is KOMI_COMBO
    assert find_option(options, "Hash") is None


@pytest.mark.parametrize(
    ("decl", "value", "sent"),
    [
        (KOMI_COMBO, "4", "4"),
        (OptionDecl("Style", "combo", "Solid", vars=("Solid", "Wild")), "wild", "Wild"),
        (KOMI_SPIN, " 7 ", "7"),
        (OptionDecl("Ponder", "check", "false"), "TRUE", "true"),
        (OptionDecl("Book", "string", "<empty>"), "my book.txt", "my book.txt"),
        (OptionDecl("Clear Hash", "button"), "", None),
    ],
)
def test_values_are_normalized(decl: OptionDecl, value: str, sent: str | None) -> None:
    assert normalize_value(decl, value) == sent


@pytest.mark.parametrize(
    ("decl", "value", "why"),
    [
        (KOMI_COMBO, "2", "takes one of 0, 4, not '2'"),
        (KOMI_SPIN, "9", "takes 0..8, not '9'"),
        (KOMI_SPIN, "-1", "takes 0..8, not '-1'"),
        (KOMI_SPIN, "four", "takes an integer, not 'four'"),
        (OptionDecl("Ponder", "check", "false"), "maybe", "takes true or false, not 'maybe'"),
    ],
)
def test_values_outside_the_declaration_are_refused(decl: OptionDecl, value: str, why: str) -> None:
    with pytest.raises(OptionRefused, match=why):
        normalize_value(decl, value)


def plan(
    game: str,
    rules: dict[str, str],
    options: dict[str, OptionDecl],
    sizes: SizeDecl | None = None,
) -> NewGameMessages:
    """The plan of a new game of `game` under `rules` (rules options)."""
    return plan_new_game(tei_settings(game, rules), options, sizes)


def test_games_default_to_tak() -> None:
    assert declared_games({}) == frozenset({"tak"})
    assert declared_games(table(GAME)) == frozenset({"tak", "trike", "traxit"})


def test_legacy_tak_plan_sends_komi_and_size() -> None:
    planned = plan("tak", {"size": "6", "halfkomi": "4"}, table(KOMI_COMBO))
    assert planned.settings == (("HalfKomi", "4"),)
    assert planned.teinewgame == TeiNewGame(6)


def test_default_sizes_per_game() -> None:
    assert plan("tak", {}, {}).teinewgame == TeiNewGame(5)
    assert plan("trike", {}, table(GAME)).teinewgame == TeiNewGame(13)
    assert plan("traxit", {}, table(GAME)).teinewgame == TeiNewGame(None)


def test_game_is_selected_first_and_variant_options_follow() -> None:
    planned = plan("traxit", {"players": "3", "teams": "false"}, table(PLAYERS, GAME))
    assert planned.settings == (("Game", "traxit"), ("Players", "3"))


def test_neutral_values_need_no_option() -> None:
    assert plan("tak", {"halfkomi": "0"}, {}).settings == ()
    traxit = plan("traxit", {"players": "2", "shortgame": "no"}, table(GAME))
    assert traxit.settings == (("Game", "traxit"),)


def test_rules_the_game_does_not_take_are_refused_by_name() -> None:
    with pytest.raises(OptionRefused, match="players") as caught:
        plan("tak", {"players": "2"}, table(GAME))
    assert caught.value.name == "players"


@pytest.mark.parametrize(
    ("game", "rules", "options", "name"),
    [
        ("tak", {"halfkomi": "4"}, {}, "HalfKomi"),
        ("tak", {"halfkomi": "2"}, table(KOMI_COMBO), "HalfKomi"),
        ("tak", {"halfkomi": "x"}, table(KOMI_SPIN), "HalfKomi"),
        ("trike", {}, {}, "Game"),
        ("chess", {}, table(GAME), "Game"),
        ("traxit", {"players": "5"}, table(GAME, PLAYERS), "Players"),
        ("traxit", {"players": "3"}, table(GAME), "Players"),
        ("tak", {"size": "six"}, {}, "size"),
    ],
)
def test_unplayable_rules_are_refused(
    game: str, rules: dict[str, str], options: dict[str, OptionDecl], name: str
) -> None:
    with pytest.raises(OptionRefused) as caught:
        plan(game, rules, options)
    assert caught.value.name.lower() == name.lower()


def test_v1_engines_get_komi_in_teinewgame() -> None:
    sizes = SizeDecl((5, 6), (0, 4))
    planned = plan("tak", {"size": "6", "halfkomi": "4"}, table(KOMI_COMBO), sizes)
    assert planned.settings == ()
    assert planned.teinewgame == TeiNewGame(6, 4, v1=True)
    with pytest.raises(OptionRefused, match="sizes"):
        plan("tak", {"size": "7"}, {}, sizes)
    with pytest.raises(OptionRefused, match="half-komi"):
        plan("tak", {"size": "5", "halfkomi": "2"}, {}, sizes)


def test_transcript_lines_round_trip_and_marks() -> None:
    sink = io.StringIO()
    transcript = Transcript(sink, keep=3)
    transcript.record("My Engine", ">", "tei")
    mark = transcript.count
    for line in ("id name X", "teiok", "readyok"):
        transcript.record("My Engine", "<", line)
    assert [e.line for e in transcript.since(mark)] == ["id name X", "teiok", "readyok"]
    assert len(transcript) == 3
    entries = [TranscriptEntry.parse(line) for line in sink.getvalue().splitlines()]
    assert (entries[0].engine, entries[0].direction, entries[0].line) == ("My_Engine", ">", "tei")
    assert len(entries) == 4
    with pytest.raises(ValueError, match="not a transcript line"):
        TranscriptEntry.parse("hello")


def test_transcript_lines_carry_no_control_characters() -> None:
    """An engine's escape sequences are written escaped to the log (one line each),
    while the entry kept in memory holds the line as it came."""
    sink = io.StringIO()
    transcript = Transcript(sink)
    entry = transcript.record("evil\x1b[2J", "!", "boom\x1b]0;owned\x07\x9b31m\rover")
    assert entry.line == "boom\x1b]0;owned\x07\x9b31m\rover"
    written = sink.getvalue()
    assert written.endswith(" evil\\x1b[2J ! boom\\x1b]0;owned\\x07\\x9b31m\\x0dover\n")
    assert written.count("\n") == 1 and not any(c in written for c in "\x1b\x07\x9b\r")
