"""Referee behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

import pytest

from adapters.referee.schedule import ScheduleError, make_schedule


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"rounds": 0}, "rounds must be at least 1, not 0"),
        ({"openings": -1}, "must not be negative"),
        ({"openings": 3, "start": -1}, "must not be negative"),
    ],
)
def test_each_bad_schedule_number_is_refused_alone(kwargs: dict[str, int], words: str) -> None:
    with pytest.raises(ScheduleError, match=words):
        make_schedule(2, **kwargs)  # type: ignore[arg-type]
