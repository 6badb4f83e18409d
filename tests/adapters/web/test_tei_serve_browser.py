"""A real browser runs an analysis through `tei serve`: headless Chromium loads the page
example of docs/gui.md from a local HTTP server on 127.0.0.1 and reads the bestmove."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.browser import launch_chromium
from tests.support.serve import Server

pytestmark = pytest.mark.browser

DOCS = ROOT / "docs" / "gui.md"


def page_example() -> str:
    """The HTML example of docs/gui.md (the one a reader copies)."""
    blocks = re.findall(r"```html\n(.*?)```", DOCS.read_text(), re.S)
    assert len(blocks) == 1, "docs/gui.md should hold one html example"
    return blocks[0]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    (tmp_path / "index.html").write_text(page_example(), encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_a_browser_page_gets_a_bestmove(site: str) -> None:
    server = Server("--bot", "random")
    try:
        port = server.url.rsplit(":", 1)[1].strip("/")
        with launch_chromium() as browser:
            page = browser.new_page()
            page.goto(f"{site}/index.html?port={port}")
            page.wait_for_function(
                "document.getElementById('best').textContent.length > 0", timeout=30_000
            )
            best = page.text_content("#best")
            log = page.text_content("#log") or ""
        assert best and best != "--", log
        assert "teiok" in log and "readyok" in log
        server.wait_log(r"session-1 opened \(origin 'http://127\.0\.0\.1:")
        server.wait_log("session-1 closed")
    finally:
        server.close()
