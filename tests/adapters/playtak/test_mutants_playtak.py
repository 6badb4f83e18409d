"""Playtak adapter behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

from adapters.playtak.repeats import Repeats
from adapters.playtak.seek_filter import SeekFilter


def test_a_filter_parsed_from_no_options_is_the_accept_anything_filter() -> None:
    assert SeekFilter.parse() == SeekFilter()
    assert SeekFilter.parse().opponents == "any"


def test_a_repeated_line_is_said_once_and_64_kinds_are_told_apart() -> None:
    said = Repeats()
    assert (said.first("a"), said.last("a"), said.first("a"), said.last("a")) == (
        True,
        True,
        False,
        False,
    )
    assert all(said.first(f"k{i}") for i in range(63))  # 64 kinds with "a"
    assert said.first("k63") is True  # the first of the rest, which count as one
    assert said.last("k63") is True
    assert said.first("k64") is False
