"""Settings classes (tei.cli.fields): one declaration makes the argparse options, the
config file's keys and the value read back."""

from __future__ import annotations

import argparse
from typing import ClassVar

import attrs
import pytest

from tei.cli.config import finish
from tei.cli.fields import add_settings, declare, flags, of, setting
from tei.cli.options import GameOptions, list_option
from tei.game_rules import FLAGS
from tei.values import UsageError, int_in


@attrs.frozen
class Sample:
    TITLE: ClassVar[str] = "sample"
    EXCLUSIVE: ClassVar[tuple[str, ...]] = ("engine", "bot")

    engine: str | None = setting("--engine", metavar="CMD", help="an engine")
    bot: str | None = setting("--bot", metavar="NAME", help="a bot")
    games: int = setting("--games", type=int_in(1), default=2, metavar="N", help="games")
    word: list[str] = list_option("--word", "words (repeatable)")
    password: str | None = setting("--password", secret=True, help="a secret")
    resume: bool = setting(
        "--resume", action="store_true", default=False, setting=False, help="not a key"
    )


def parser_of(*classes: type) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sample")
    add_settings(parser, classes)
    return parser


def test_the_parsed_values_make_an_instance_with_the_fields_defaults() -> None:
    read = of(Sample, parser_of(Sample).parse_args(["--games", "4", "--word", "a=1"]))
    assert read == Sample(games=4, word=["a=1"])
    assert of(Sample, parser_of(Sample).parse_args([])) == Sample()
    assert Sample().word is not Sample().word  # a list default is made per instance


def test_a_fields_type_checks_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        parser_of(Sample).parse_args(["--games", "0"])
    assert exit_.value.code == 2
    assert "--games: must be at least 1, not 0" in capsys.readouterr().err


def test_exclusive_fields_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parser_of(Sample).parse_args(["--engine", "x", "--bot", "y"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_the_config_keys_come_from_the_same_fields() -> None:
    table = finish(declare(argparse.ArgumentParser(), (Sample,)))
    keys = {option.key: option for option in table.options}
    assert list(keys) == ["engine", "bot", "games", "word", "password"]  # not resume
    assert keys["password"].secret and not keys["games"].secret
    assert keys["games"].default == 2 and keys["games"].group == "sample"
    assert table.exclusive == (("engine", "bot"),)
    assert keys["games"].value(5) == 5
    with pytest.raises(ValueError, match="must be at least 1, not 0"):
        keys["games"].value(0)


def test_game_options_read_the_rules_by_their_rules_names() -> None:
    args = parser_of(GameOptions).parse_args(
        ["--size", "6", "--komi", "2.5", "--teams", "--short-game", "--rule", "Flats = 25"]
    )
    rules = of(GameOptions, args).rules()
    assert rules == {
        "size": "6",
        "komi": "2.5",
        "teams": "true",
        "shortgame": "true",
        "flats": "25",
    }
    assert of(GameOptions, parser_of(GameOptions).parse_args([])).rules() == {}


def test_a_bad_rule_is_named() -> None:
    with pytest.raises(UsageError, match="--rule 'flats' is not KEY=VALUE"):
        GameOptions(rule=["flats"]).rules()


def test_every_rules_flag_is_a_game_option() -> None:
    """tei.game_rules.FLAGS (its hints name the flag to drop) and GameOptions agree."""
    names = {flag.names[0] for _, flag in flags(GameOptions)}
    assert set(FLAGS.values()) <= names
