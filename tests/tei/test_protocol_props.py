"""Property tests of the TEI codec: whatever a message holds, its line parses back to it."""

from __future__ import annotations

import attrs
from hypothesis import given
from hypothesis import strategies as st

from tei.protocol import (
    BestMove,
    Go,
    Info,
    OptionDecl,
    Position,
    Score,
    SetOption,
    parse_engine_line,
    parse_gui_line,
)
from tei.protocol_messages import INFO_KEYWORDS

KEYWORDS = INFO_KEYWORDS | {"name", "value", "type", "default", "min", "max", "var", "moves"}
word = st.text(
    alphabet=st.characters(whitelist_categories=("L", "N", "P", "S"), max_codepoint=0x2FF),
    min_size=1,
    max_size=8,
).filter(lambda w: w.lower() not in KEYWORDS and w != "<empty>")
words = st.lists(word, min_size=1, max_size=4).map(" ".join)
count = st.integers(min_value=0, max_value=10**9)
maybe = st.none() | count


def counts_of(message: type) -> dict[str, st.SearchStrategy[int | None]]:
    """A count or None for every `int | None` field of a message class."""
    return {f.name: maybe for f in attrs.fields(message) if f.type == "int | None"}


@given(
    **counts_of(Info),
    score=st.none()
    | st.builds(
        Score,
        st.just("cp"),
        st.integers(-(10**6), 10**6),
        st.sampled_from([None, "lowerbound", "upperbound"]),
    )
    | st.builds(
        Score, st.just("solved"), st.none() | count, st.sampled_from(["win", "loss", "draw"])
    ),
    wdl=st.none() | st.tuples(count, count, count),
    pv=st.lists(word, max_size=6).map(tuple),
    string=st.none() | words,
)
def test_info_round_trips(**fields: object) -> None:
    info = Info(**fields)  # type: ignore[arg-type]
    assert parse_engine_line(info.to_line()) == info


@given(st.builds(Go, **counts_of(Go), infinite=st.booleans()))
def test_go_round_trips(go: Go) -> None:
    assert parse_gui_line(go.to_line()) == go


@given(st.none() | words, st.lists(word, max_size=8).map(tuple))
def test_position_round_trips(position: str | None, moves: tuple[str, ...]) -> None:
    message = Position(position, moves)
    assert parse_gui_line(message.to_line()) == message


@given(words, st.none() | words)
def test_setoption_round_trips(name: str, value: str | None) -> None:
    message = SetOption(name, value)
    assert parse_gui_line(message.to_line()) == message


@given(
    words,
    st.sampled_from(["check", "spin", "combo", "button", "string"]),
    st.none() | words,
    maybe,
    maybe,
    st.lists(words, max_size=3).map(tuple),
)
def test_option_declaration_round_trips(
    name: str,
    type_: str,
    default: str | None,
    low: int | None,
    high: int | None,
    vars_: tuple[str, ...],
) -> None:
    decl = OptionDecl(name, type_, default, low, high, vars_)
    assert parse_engine_line(decl.to_line()) == decl


@given(st.none() | word.filter(lambda w: w != "--"))
def test_bestmove_round_trips(move: str | None) -> None:
    assert parse_engine_line(BestMove(move).to_line()) == BestMove(move)


@given(st.text(max_size=80))
def test_no_line_crashes_the_parsers_except_with_protocol_errors(line: str) -> None:
    for parse in (parse_gui_line, parse_engine_line):
        try:
            parse(line)
        except ValueError as exc:
            assert repr(line.strip()) in str(exc)
