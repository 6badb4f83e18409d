"""TEI codec behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

import pytest

from tei.protocol import Info, ProtocolError, parse_engine_line, parse_gui_line


def test_a_long_bad_number_is_quoted_by_its_first_24_characters() -> None:
    word = "9" * 20 + "abcdefghij"
    with pytest.raises(ProtocolError) as caught:
        parse_gui_line(f"teinewgame {word}")
    assert f"must be an integer, not {word[:24]!r}... (30 characters)" in str(caught.value)


def test_an_option_line_with_no_name_says_so() -> None:
    with pytest.raises(ProtocolError, match="option needs 'name <name>'"):
        parse_engine_line("option name")


def test_an_info_key_without_its_number_does_not_swallow_the_next_key() -> None:
    assert parse_engine_line("info depth nodes 100") == Info(nodes=100, skipped=("depth",))
    info = parse_engine_line("info seldepth x1 time 7")
    assert info.time == 7 and info.skipped == ("seldepth", "x1")
