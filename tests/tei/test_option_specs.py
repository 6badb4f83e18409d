"""Game options: each core's specs, the one validator, the TEI mapping derived from them,
the host's declarations and the docs' tables, all from the same specs."""

from __future__ import annotations

import pytest

from rules.game import (
    FALSE_WORDS,
    TRUE_WORDS,
    OptionError,
    OptionSpec,
    bool_word,
    validate_options,
)
from rules.registry import GAME_NAMES, game_class
from rules.tak.game import DEFAULT_SIZE as TAK_SIZE
from rules.tak.tables import RESERVES
from rules.traxit.board import DEFAULT_OWNERS
from rules.trike.game import DEFAULT_SIZE as TRIKE_SIZE
from rules.trike.geometry import MAX_SIZE, MIN_SIZE
from tei.game_rules import (
    TeiSettings,
    pinned_rules,
    referee_rules,
    rules_from_tei,
    rules_set_options,
    v1_komi_spec,
)
from tei.host.state import HostConfig, HostState, Send
from tests.support import ROOT
from tests.support.option_table import option_table

DOCS = ROOT / "docs"


def spec(game: str, name: str) -> OptionSpec:
    return next(s for s in game_class(game).option_specs() if s.name == name)


def test_each_core_declares_its_options_from_its_own_constants() -> None:
    size = spec("tak", "size")
    assert (size.low, size.high, size.default) == (min(RESERVES), max(RESERVES), str(TAK_SIZE))
    assert (size.tei, size.newgame, size.in_position) == ("Size", True, True)
    assert spec("tak", "halfkomi").tei == "HalfKomi" and spec("tak", "halfkomi").always
    assert spec("tak", "repetition").tei is None and spec("tak", "rule50").tei is None
    side = spec("trike", "size")
    assert (side.low, side.high, side.default) == (MIN_SIZE, MAX_SIZE, str(TRIKE_SIZE))
    players = spec("traxit", "players")
    assert (players.low, players.high) == (min(DEFAULT_OWNERS), max(DEFAULT_OWNERS))
    assert spec("traxit", "bonus_per").choices == ("set", "game")
    for game in GAME_NAMES:
        names = [s.name for s in game_class(game).option_specs()]
        assert len(names) == len(set(names)) and all(n == n.lower() for n in names)
        # the defaults are valid values, and a game built from all of them is the default
        for s in game_class(game).option_specs():
            if s.default != "":
                assert s.normalise(s.default) == s.default, (game, s.name)


@pytest.mark.parametrize(
    ("game", "given", "expected"),
    [
        ("tak", {"Size": " 6 ", "KOMI": "2.5"}, {"size": "6", "halfkomi": "5"}),
        (
            "tak",
            {"repetition": "ON", "rule50": "no", "flats": ""},
            {"repetition": "true", "rule50": "false"},
        ),
        ("tak", {"halfkomi": 4}, {"halfkomi": "4"}),
        ("trike", {"size": "19", "xseat": "1"}, {"size": "19", "xseat": "1"}),
        ("traxit", {"teams": "yes"}, {"teams": "true", "players": "4"}),
        ("traxit", {"teams": True, "players": "4"}, {"teams": "true", "players": "4"}),
        (
            "traxit",
            {"bonus_per": "GAME", "shortgame": "1", "tiles": ""},
            {"bonus_per": "game", "shortgame": "true"},
        ),
        ("traxit", {}, {}),
    ],
)
def test_validator_normalises_good_values(
    game: str, given: dict[str, object], expected: dict[str, str]
) -> None:
    checked = game_class(game).validate_options(given)
    assert checked == expected
    assert game_class(game).validate_options(checked) == checked  # idempotent
    game_class(game).new(checked)


@pytest.mark.parametrize(
    ("game", "given", "option", "message"),
    [
        ("tak", {"size": "9"}, "size", "bad Tak option size='9': must be 3..8"),
        ("tak", {"size": "five"}, "size", "size='five': not an integer"),
        ("tak", {"komi": "0.3"}, "komi", "komi='0.3': need a multiple of 0.5"),
        ("tak", {"komi": "501"}, "komi", "komi='501': must be at most 500"),
        ("tak", {"repetition": "maybe"}, "repetition", "use true or false"),
        ("tak", {"players": "2"}, "players", "unknown Tak option 'players'; known: size,"),
        ("trike", {"size": "99"}, "size", "bad Trike option size='99': must be 3..19"),
        ("trike", {"halfkomi": "0"}, "halfkomi", "unknown Trike option 'halfkomi'"),
        ("traxit", {"players": "5"}, "players", "bad Traxit option players='5': must be 2..4"),
        ("traxit", {"teams": "true", "players": "3"}, "players", "teams=true needs players=4"),
        ("traxit", {"bonus_per": "round"}, "bonus_per", "use one of set, game"),
        ("traxit", {"tiles": "T01"}, "tiles", "only the short game"),
        ("traxit", {"size": "8"}, "size", "unknown Traxit option 'size'"),
    ],
)
def test_validator_names_the_bad_option_and_value(
    game: str, given: dict[str, str], option: str, message: str
) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(")) as caught:
        game_class(game).validate_options(given)
    assert caught.value.option == option
    assert caught.value.value == given[option].strip()
    with pytest.raises(OptionError):  # the core refuses the same
        game_class(game).new(given)


def test_one_list_of_yes_and_no_words() -> None:
    assert all(bool_word(w) is True and bool_word(w.upper()) is True for w in TRUE_WORDS)
    assert all(bool_word(w) is False for w in FALSE_WORDS)
    assert bool_word("maybe") is None
    flag = OptionSpec("x", "bool", "false", "a flag")
    assert [flag.normalise(w) for w in ("Yes", "on", "0", "OFF")] == [
        "true",
        "true",
        "false",
        "false",
    ]
    assert validate_options((flag,), {"X": "1"}) == {"x": "true"}


@pytest.mark.parametrize(
    ("game", "given", "expected"),
    [
        # Tak: the size always, komi always (an engine's own default must not decide);
        # flats only when given; the referee's draw rules never
        (
            "tak",
            {},
            TeiSettings("tak", 5, (("HalfKomi", "0"),), frozenset({"HalfKomi"}), "HalfKomi"),
        ),
        (
            "tak",
            {"size": "6", "komi": "2", "flats": "25", "repetition": "true"},
            TeiSettings("tak", 6, (("HalfKomi", "4"), ("Flats", "25")), frozenset(), "HalfKomi"),
        ),
        ("trike", {"xseat": "1"}, TeiSettings("trike", 13)),
        ("trike", {"size": "7"}, TeiSettings("trike", 7)),
        ("traxit", {}, TeiSettings("traxit", None)),
        (
            "traxit",
            {"teams": "on", "seed": "7", "players": "4"},
            TeiSettings("traxit", None, (("Players", "4"), ("Teams", "true"), ("DealSeed", "7"))),
        ),
        (
            "traxit",
            {"players": "2", "bonus_per": "set"},
            TeiSettings(
                "traxit",
                None,
                (("Players", "2"), ("BonusPer", "set")),
                frozenset({"Players", "BonusPer"}),
            ),
        ),
    ],
)
def test_tei_mapping_of_validated_options(
    game: str, given: dict[str, str], expected: TeiSettings
) -> None:
    assert TeiSettings.of(game, given) == expected


@pytest.mark.parametrize(
    ("game", "given"),
    [
        ("tak", {"size": "6", "komi": "2", "flats": "25"}),
        ("tak", {}),
        ("trike", {"size": "7"}),
        ("traxit", {"teams": "on", "seed": "7", "shortgame": "true"}),
    ],
)
def test_rules_come_back_from_what_engines_are_told(game: str, given: dict[str, str]) -> None:
    """The host's way back (`rules_from_tei`) gives the rules the driver's way there
    (`TeiSettings.of`) was given: the same settings again."""
    told = TeiSettings.of(game, given)
    values = {name.lower(): value for name, value in told.settings}
    back = rules_from_tei(game_class(game), told.size, values)
    assert TeiSettings.of(game, back) == told
    told_names = {spec.name for spec in game_class(game).option_specs() if spec.told}
    checked = game_class(game).validate_options(given)
    assert {k: v for k, v in checked.items() if k in told_names}.items() <= back.items()


def test_tei_settings_name_the_bad_rules() -> None:
    with pytest.raises(OptionError, match="players"):
        TeiSettings.of("tak", {"players": "2"})
    with pytest.raises(ValueError, match="chess"):
        TeiSettings.of("chess", {})


@pytest.mark.parametrize("game", GAME_NAMES)
def test_host_declares_exactly_what_the_specs_say(game: str) -> None:
    state = HostState(HostConfig(game=game, games=(game,)))
    lines = [e.line for e in state.on_line("tei", 0.0) if isinstance(e, Send)]
    bot_names = {o.name for o in state.bot.options}
    declared = {
        line.split()[2]: line
        for line in lines
        if line.startswith("option name ") and line.split()[2] not in bot_names | {"Game"}
    }
    specs = [s for s in game_class(game).option_specs() if s.tei and not s.newgame]
    assert list(declared) == [s.tei for s in specs]
    for s in specs:
        line = declared[str(s.tei)]
        if s.kind == "int" and s.default != "":
            assert line.endswith(f"type spin default {s.default} min {s.low} max {s.high}")
        elif s.kind == "bool":
            assert line.endswith(f"type check default {s.default}")
        elif s.kind == "choice":
            assert line.endswith(f"type combo default {s.default} var " + " var ".join(s.choices))
        else:
            assert line.endswith(f"type string default {s.default or '<empty>'}")


def test_host_maps_tei_values_back_to_the_rules_options() -> None:
    state = HostState(HostConfig(game="traxit", games=("traxit",), rules={"teams": "true"}))
    assert state.values["players"] == "4"  # --teams means 4 players here too
    assert state.on_line("setoption name ShortGame value yes", 0.0) == []
    assert state.on_line("setoption name DealSeed value 7", 0.0) == []
    assert state.rules_options() == {
        "players": "4",
        "teams": "true",
        "shortgame": "true",
        "seed": "7",
        "allow_mirror": "false",
        "bonus_per": "set",
    }
    bad = state.on_line("setoption name BonusPer value round", 0.0)
    assert [e.line for e in bad if isinstance(e, Send)] == [
        "info string error: option 'BonusPer' takes one of set, game, not 'round'"
    ]


def test_docs_show_the_option_table_of_every_game() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    for game in GAME_NAMES:
        assert option_table(game) in text, f"docs/rules.md: {game}'s option table drifted"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_referee_facts_come_from_the_specs(game: str) -> None:
    """What the referee applies, what an engine entry may not set and what is written
    down for every match are read off the specs in tei.game_rules."""
    specs = game_class(game).option_specs()
    assert referee_rules(game) == {s.name for s in specs if s.tei is None}
    assert rules_set_options(game) == {"game"} | {s.tei.lower() for s in specs if s.tei}
    pinned = pinned_rules(game, {})
    assert pinned == {s.name: s.default for s in specs if s.newgame or s.always}
    size = next((s for s in specs if s.newgame), None)
    if size is not None:
        assert pinned_rules(game, {size.name: "7"})[size.name] == "7"


def test_only_tak_has_a_v1_komi() -> None:
    spec = v1_komi_spec(game_class("tak"))
    assert spec is not None and (spec.name, spec.tei) == ("halfkomi", "HalfKomi")
    assert v1_komi_spec(game_class("trike")) is None
    assert v1_komi_spec(game_class("traxit")) is None
