"""What the engine host's state machine asks its I/O loop to do."""

from __future__ import annotations

from typing import Any

import attrs

from bots.base import Bot, Limits
from rules.game import Game
from tei import protocol as p
from tei.lines import printable

#: longest error text sent (longer ones, which quote bad input, are cut)
MAX_ERROR_CHARS = 400


@attrs.frozen
class Send:
    """Write one line to the GUI."""

    line: str


@attrs.frozen
class StartSearch:
    """Run `bot` on `game` under `limits` in a worker; its reports carry `search_id`."""

    search_id: int
    bot: Bot
    game: Game[Any]
    limits: Limits


@attrs.frozen
class StopSearch:
    """Set the stop flag of the search `search_id`."""

    search_id: int


@attrs.frozen
class Log:
    """Write `text` (one or more lines: a traceback, say) to the engine's stderr and log."""

    text: str


@attrs.frozen
class Exit:
    """End the session with exit status `code`."""

    code: int = 0


Effect = Send | StartSearch | StopSearch | Log | Exit


def cut(text: str) -> str:
    """`text`, cut to MAX_ERROR_CHARS."""
    if len(text) > MAX_ERROR_CHARS:
        return f"{text[:MAX_ERROR_CHARS]}... (cut)"
    return text


def send_info(text: str) -> Send:
    """`info string <text>`, with any control character escaped (`printable`): quoted
    input or a bot's exception message cannot start a line of its own."""
    return Send(p.Info(string=printable(text)).to_line())


def send_error(text: str) -> Send:
    """`info string error: <text>`, cut to MAX_ERROR_CHARS."""
    return send_info(f"error: {cut(text)}")
