"""`tei check` passes `tei engine --game traxit` (search bot) for 2, 3 and 4 players."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.process


@pytest.mark.parametrize(
    "variant",
    [["--players", "2"], ["--players", "3"], ["--players", "4", "--teams", "--short-game"]],
)
def test_check_passes_the_traxit_engine(variant: list[str]) -> None:
    engine = [sys.executable, "-m", "tei", "engine", "--game", "traxit", "--bot", "search"]
    out = subprocess.run(
        [sys.executable, "-m", "tei", "check", "--game", "traxit", *variant, "--", *engine],
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "FAIL" not in out.stdout
    assert "checks passed" in out.stdout
