"""The test run imports the game cores as the `tei` command does: never a stale compiled
module in place of an edited source (rules.build.guard)."""

from __future__ import annotations

import pytest

from rules import build


def pytest_configure(config: pytest.Config) -> None:
    build.guard()
