"""Headless Chromium for tests: Debian's `chromium` package driven by Playwright.

Playwright's own browser downloads are never used (`playwright install` is not run):
the browser is `/usr/bin/chromium`. Without it a test is skipped, except under CI
(`CI` set, as `.ci/run` does), where `.ci/run` installs it and a missing browser is a
failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    """The Chromium to drive; skips the test (fails it under CI) when there is none."""
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if path is None:
        message = f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def require_chromium() -> None:
    """Skip the calling test when Chromium is missing (fail under CI)."""
    chromium_path()


@contextmanager
def launch_chromium() -> Iterator[Any]:
    """A fresh headless Chromium (a Playwright `Browser`), closed afterwards."""
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def browser_page(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """A fresh page of a headless Chromium (sync Playwright API; run it in a thread from
    trio tests). The browser is closed on exit."""
    with launch_chromium() as browser:
        yield browser.new_page(viewport={"width": width, "height": height})
