"""Helpers shared by the tests: fake engines, engine pipes, servers and clients.

Test bots are named from the repository root (`tests.support.engines.bad_bots:NAME`):
a subprocess that loads one gets `ROOT` on its PYTHONPATH.
"""

from __future__ import annotations

from pathlib import Path

#: the repository root (the folder holding `tests/`, `docs/` and the four packages)
ROOT = Path(__file__).resolve().parents[2]
