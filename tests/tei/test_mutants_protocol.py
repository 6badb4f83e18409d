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


@pytest.mark.parametrize("line", ["position bogus", "position bogus moves e1"])
def test_an_unknown_position_kind_is_quoted(line: str) -> None:
    with pytest.raises(ProtocolError, match="expected 'startpos' or 'tps', not 'bogus'"):
        parse_gui_line(line)


@pytest.mark.parametrize("line", ["option name type", "option name type spin"])
def test_an_option_named_by_its_type_keyword_alone_needs_a_type(line: str) -> None:
    with pytest.raises(ProtocolError, match="option needs 'type <type>'"):
        parse_engine_line(line)


def test_a_score_bound_at_the_end_of_the_line_is_kept() -> None:
    info = parse_engine_line("info depth 3 score lowerbound")
    assert info.depth == 3 and info.score is not None and info.score.bound == "lowerbound"
