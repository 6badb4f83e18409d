"""Playtak adapter behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

from adapters.playtak.seek_filter import SeekFilter


def test_a_filter_parsed_from_no_options_is_the_accept_anything_filter() -> None:
    assert SeekFilter.parse() == SeekFilter()
    assert SeekFilter.parse().opponents == "any"
