"""The scripting examples of the docs run as written, with a built-in bot as the engine."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT

pytestmark = pytest.mark.process

DOCS = ROOT / "docs"
BOT = [sys.executable, "-m", "tei", "engine", "--bot", "search"]
ENGINE_RE = re.compile(r"^ENGINE = .*$", re.MULTILINE)


def examples(name: str) -> list[str]:
    """The ```python blocks of a docs page that script an engine through `ENGINE`."""
    text = (DOCS / name).read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    return [block for block in blocks if ENGINE_RE.search(block)]


def test_the_driver_page_has_examples() -> None:
    assert len(examples("driver.md")) >= 2


RUNNABLE = [
    (page, index) for page in ("driver.md", "analyse.md") for index in range(len(examples(page)))
]


@pytest.mark.parametrize(("page", "index"), RUNNABLE)
def test_example_runs(page: str, index: int, tmp_path: Path) -> None:
    code = ENGINE_RE.sub(f"ENGINE = {BOT!r}", examples(page)[index])
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
