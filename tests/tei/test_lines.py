"""The bounded line splitter and the short quotes of bad input."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import TypeVar

from hypothesis import given
from hypothesis import strategies as st

from tei.lines import LineSplitter, LongLine, SafeFormatter, message_lines, printable, quote

T = TypeVar("T")


def in_pieces(feed: Callable[[bytes], list[T]], data: bytes, cuts: list[int]) -> list[T]:
    """What `feed` gives for `data` fed in pieces of the sizes in `cuts`, in turn."""
    got: list[T] = []
    position, turn = 0, 0
    while position < len(data):
        size = cuts[turn % len(cuts)]
        got += feed(data[position : position + size])
        position, turn = position + size, turn + 1
    return got


def test_a_long_line_is_reported_once_and_the_rest_dropped() -> None:
    splitter = LineSplitter(max_line=8)
    assert splitter.feed_marked(b"isready\n0123") == ["isready"]
    assert splitter.feed_marked(b"456789") == [LongLine("01234567", 8)]
    assert splitter.feed_marked(b"abcdef" * 100) == []
    assert splitter.feed_marked(b"xyz\nstop\n") == ["stop"]
    assert splitter.feed_marked(b"0123456789\n") == [LongLine("01234567", 8)]
    assert splitter.flush() == []


def test_a_line_of_exactly_the_limit_is_kept() -> None:
    splitter = LineSplitter(max_line=4)
    assert splitter.feed_marked(b"abcd\nabcde\n") == ["abcd", LongLine("abcd", 4)]


def test_the_rest_of_a_cut_line_is_not_the_last_line_at_eof() -> None:
    splitter = LineSplitter(max_line=4)
    assert splitter.feed_marked(b"abcdefgh") == [LongLine("abcd", 4)]
    assert splitter.flush() == []


def test_quote_cuts_long_text_and_names_its_length() -> None:
    assert quote("go") == "'go'"
    text = "x" * 1000
    quoted = quote(text, limit=10)
    assert quoted == "'xxxxxxxxxx'... (1000 characters)"
    assert LongLine(text, 8).describe().startswith("line longer than 8 bytes ignored: 'xxx")


def test_a_huge_line_keeps_no_more_than_the_limit() -> None:
    chunk = b"position startpos moves " + b"a1 " * 21_837
    splitter = LineSplitter(max_line=1 << 16)
    out: list[str | LongLine] = []
    for _ in range(200):
        out += splitter.feed_marked(chunk)
        assert len(splitter._buffer) <= 1 << 16
    out += splitter.feed_marked(b"\nisready\n")
    assert [type(x) for x in out] == [LongLine, str]
    assert out[-1] == "isready"


@given(
    st.lists(st.text(alphabet="ab \r\n\xe9", max_size=20), max_size=8),
    st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=8),
)
def test_marked_lines_do_not_depend_on_chunking(texts: list[str], cuts: list[int]) -> None:
    data = "\n".join(texts).encode("utf-8")
    whole = LineSplitter(max_line=6)
    expected = [*whole.feed_marked(data), *whole.flush()]
    pieces = LineSplitter(max_line=6)
    got = [*in_pieces(pieces.feed_marked, data, cuts), *pieces.flush()]
    assert got == expected


def test_line_splitter_handles_crlf_partial_and_bad_bytes() -> None:
    splitter = LineSplitter(max_line=8)
    assert splitter.feed(b"teiok\r\nread") == ["teiok"]
    assert splitter.feed(b"yok\n\xff\n") == ["readyok", "\ufffd"]
    assert splitter.feed(b"0123456789abcdef") == ["01234567"]
    assert splitter.feed(b"ghij\nok\n") == ["ok"]
    assert splitter.feed(b"tail") == []
    assert splitter.flush() == ["tail"]


@given(
    st.lists(st.text(alphabet="ab \r\n\t\xe9", max_size=12), max_size=8),
    st.lists(st.integers(min_value=1, max_value=7), min_size=1, max_size=8),
)
def test_line_splitting_does_not_depend_on_chunking(texts: list[str], cuts: list[int]) -> None:
    data = "\n".join(texts).encode("utf-8")
    whole = LineSplitter()
    expected = whole.feed(data) + whole.flush()
    pieces = LineSplitter()
    got = [*in_pieces(pieces.feed, data, cuts), *pieces.flush()]
    assert got == expected
    assert all("\n" not in line for line in got)


def test_printable_escapes_every_control_character_and_keeps_the_rest() -> None:
    assert printable("a\x1b[2Jb\x00c\x07\x7f\x9b\t\n") == (
        "a\\x1b[2Jb\\x00c\\x07\\x7f\\x9b\\x09\\x0a"
    )
    assert printable("Grüße, 五目 \\ ok") == "Grüße, 五目 \\ ok"
    assert printable("a\u202eb\u200bc\U000e0001") == "a\\u202eb\\u200bc\\U000e0001"


@given(st.text())
def test_printable_text_has_no_control_character(text: str) -> None:
    shown = printable(text)
    assert shown.isprintable()
    assert shown == text or len(shown) > len(text)


def test_the_safe_formatter_escapes_messages_and_tracebacks_but_keeps_their_lines() -> None:
    formatter = SafeFormatter("%(levelname)s %(message)s")
    try:
        raise ValueError("bad \x1b]0;title\x07")
    except ValueError:
        record = logging.LogRecord(
            "t", logging.ERROR, __file__, 1, "%s said %s", ("ev\x1bil", "hi\x9b"), None
        )
        record.exc_info = sys.exc_info()
    text = formatter.format(record)
    lines = text.split("\n")
    assert lines[0] == "ERROR ev\\x1bil said hi\\x9b"
    assert lines[-1] == "ValueError: bad \\x1b]0;title\\x07"
    assert not any(c in text for c in "\x1b\x07\x9b")


def test_a_message_gives_its_non_blank_lines() -> None:
    got = message_lines("tei\r\nisready\n\n\n   \n\rgo depth 2")
    assert got.lines == ("tei", "isready", "go depth 2") and not got.dropped


def test_a_message_of_newlines_gives_nothing() -> None:
    got = message_lines("\n" * (4 << 20))
    assert got.lines == () and not got.dropped


def test_a_message_is_cut_at_its_line_limit_blank_lines_counted() -> None:
    got = message_lines("isready\n" * 1000, limit=256)
    assert got.lines == ("isready",) * 256 and got.dropped
    assert "more than 256 lines" in got.describe()
    got = message_lines(" \n" * 300 + "isready", limit=256)
    assert got.lines == () and got.dropped
    got = message_lines("a\n" * 256 + "\n" * 100, limit=256)
    assert len(got.lines) == 256 and not got.dropped


@given(st.lists(st.sampled_from(["", " ", "a", "bc d", "\r"]), max_size=40))
def test_message_lines_are_the_non_blank_lines_up_to_the_limit(parts: list[str]) -> None:
    text = "\n".join(parts)
    expected = [p for p in text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if p]
    got = message_lines(text, limit=5)
    assert list(got.lines) == [p for p in expected[:5] if not p.isspace()]
    assert got.dropped == (len(expected) > 5)
