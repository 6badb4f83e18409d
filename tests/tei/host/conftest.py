"""Tests of tei/host/: HostState (pure, time an input) and `tei engine` as a real subprocess
(those modules are marked `process`); the `host` fixture starts `tei engine` pipes."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.support.engine_pipe import EnginePipe
from tests.support.fixtures import Started


@pytest.fixture
def host() -> Iterator[Callable[..., EnginePipe]]:
    """Starts `tei engine` pipes (the test's arguments); each is closed after the test."""
    start = Started(EnginePipe)
    yield start
    for pipe in start.made:
        pipe.close()
