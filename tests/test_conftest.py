"""The suite's own rules (tests/conftest.py): which `-m` expressions select process tests,
and so how many workers `-n auto` starts."""

from __future__ import annotations

import os

import pytest

from tests.conftest import PROCESS_WORKERS, pytest_xdist_auto_num_workers, selects_process_tests


@pytest.mark.parametrize(
    ("markexpr", "selects"),
    [
        ("", True),
        ("not process and not browser and not cluster", False),
        ("not process", True),  # browser and cluster tests stay
        ("not process and not cluster", True),
        ("process", True),
        ("cluster or slow", True),
        ("socket", False),
        ("not slow and not (process or browser or cluster)", False),
        ("not (", True),  # a bad expression: pytest names it, the workers change nothing
    ],
)
def test_an_expression_selects_process_tests_if_a_process_marker_passes_it(
    markexpr: str, selects: bool
) -> None:
    assert selects_process_tests(markexpr) is selects


def test_auto_starts_one_worker_per_core_for_the_pure_tests_only(
    pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr(pytestconfig.option, "markexpr", "")
    assert pytest_xdist_auto_num_workers(pytestconfig) == PROCESS_WORKERS
    monkeypatch.setattr(
        pytestconfig.option, "markexpr", "not process and not browser and not cluster"
    )
    cores = len(os.sched_getaffinity(0))
    assert pytest_xdist_auto_num_workers(pytestconfig) == min(cores, PROCESS_WORKERS)
    # the environment variable is xdist's own: the hook leaves it to xdist
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert pytest_xdist_auto_num_workers(pytestconfig) is None
