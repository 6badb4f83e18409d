"""The line by which an engine host says that its bot failed and its answer is a stand-in.

When a bot raises, returns something that is not a legal action, or overruns its time,
`tei engine` still sends one `bestmove` per `go` (a stand-in move), but first, for the
same search, one line `info string error: bot failed: <detail>` (an exception or a bad
value) or `info string error: bot overran its time: <detail>`. The host writes these lines
with `BotFailure.to_string`; a driver reads them back with `BotFailure.from_string`, so the
format is written once.
"""

from __future__ import annotations

from typing import Literal

import attrs

Kind = Literal["error", "overrun"]
#: the kinds of failure, with the words that open their `info string`
FAILED: Kind = "error"
OVERRAN: Kind = "overrun"
_ERROR = "error: "
_PREFIXES: dict[Kind, str] = {
    FAILED: _ERROR + "bot failed: ",
    OVERRAN: _ERROR + "bot overran its time: ",
}


@attrs.frozen
class BotFailure:
    """A bot's failure as the host reports it: `kind` is "error" (it raised, or returned
    something that is not a legal action) or "overrun" (no answer in time); `detail` is
    one line (for an exception: its type and message)."""

    kind: Kind
    detail: str

    def to_string(self) -> str:
        """The text of the `info string` that reports it."""
        return _PREFIXES[self.kind] + self.detail

    def describe(self) -> str:
        """`bot failed: DETAIL`, `bot overran its time: DETAIL` (the text without `error: `)."""
        return self.to_string().removeprefix(_ERROR)

    @classmethod
    def from_string(cls, text: str | None) -> BotFailure | None:
        """The failure an `info string` text reports, None for any other text."""
        if text is None:
            return None
        for kind, prefix in _PREFIXES.items():
            if text.startswith(prefix):
                return cls(kind, text[len(prefix) :])
        return None
