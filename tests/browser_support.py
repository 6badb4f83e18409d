"""Headless Chromium for tests: Debian's `chromium` package driven by Playwright.

Playwright's own browser downloads are never used (`playwright install` is not run):
`launch_chromium` starts `/usr/bin/chromium`. Without it the test is skipped, except
under CI, where `.ci/run` installs it and a missing browser is a failure.
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


def require_chromium() -> None:
    """Skip the calling test when Chromium is missing (fail under CI)."""
    if os.path.exists(CHROMIUM) or shutil.which("chromium"):
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: .ci/run should have installed chromium")
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install -y chromium)")


@contextmanager
def launch_chromium() -> Iterator[Any]:
    """A fresh headless Chromium (a Playwright `Browser`), closed afterwards."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()
