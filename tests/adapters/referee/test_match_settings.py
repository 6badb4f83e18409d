"""The match settings declared once (`adapters.referee.settings`): `tei match`'s options
take their defaults, ranges and choices from that declaration, and a settings dict
(a state file's) is checked against the same."""

from __future__ import annotations

import pytest

from adapters.referee.config import build_config
from adapters.referee.engines import MatchError
from adapters.referee.settings import DECLARED, DEFAULTS, RESUMABLE, check_shapes
from tei.cli.match_options import option_table

ENGINES = [{"bot": "random", "st": "0.01"}, {"bot": "random", "st": "0.01"}]


def test_the_options_are_the_declared_settings() -> None:
    options = option_table().by_dest()
    plain = [name for name, setting in DECLARED.items() if setting.form == "value"]
    assert len(plain) > 10  # game, the numbers, the choices, event, site, ...
    for name in plain:
        option, declared = options[name], DECLARED[name]
        assert option.default == DEFAULTS[name], name
        if declared.number is not None:
            assert option.convert is declared.number, name
        if declared.choices is not None:
            assert option.choices == declared.choices, name
    # a resumed match takes these from the command line: they are options
    assert set(RESUMABLE) <= set(options)


def test_the_defaults_have_their_own_shapes() -> None:
    check_shapes(DEFAULTS, "defaults")
    config = build_config({**DEFAULTS, "engines": ENGINES})
    assert (config.games, config.rounds, config.timeout) == (2, 1, 60.0)


@pytest.mark.parametrize(
    ("setting", "value", "why"),
    [
        ("games", 0, "games must be 1..100000, not 0"),
        ("concurrency", "many", "concurrency not an integer: 'many'"),
        ("timeout", 0, "timeout must be more than 0 and at most 1000000, not 0"),
        ("openings", "book.txt", "openings must be a list of file names, not a string"),
        ("game", 3, "game must be a string, not a number"),
    ],
)
def test_a_state_file_is_checked_against_the_declaration(
    setting: str, value: object, why: str
) -> None:
    with pytest.raises(MatchError, match=why):
        build_config({**DEFAULTS, "engines": ENGINES, setting: value})
