"""`PlayResult`: what one `Engine.play` answers, built from the search's `info` lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from tei.bot_failure import BotFailure
from tei.protocol import Info


def informative(info: Info) -> bool:
    """Whether an `info` says something of the search (a score, a depth or a pv)."""
    return info.score is not None or info.depth is not None or bool(info.pv)


@attrs.frozen
class PlayResult:
    """The answer to one `play`: the checked action (play it as is) and its text, the last
    informative `info` (one with a score, depth or pv; else the last one), all infos, and
    the seconds from sending `go` to reading `bestmove`."""

    action: Any
    text: str
    info: Info | None
    infos: tuple[Info, ...]
    elapsed: float
    #: the `bestmove` line as the engine wrote it
    line: str = ""
    #: set when an engine host said, during this search, that its bot failed and the
    #: answer is a stand-in (`info string error: bot failed: ...`, see tei.bot_failure)
    failure: BotFailure | None = None

    @classmethod
    def of(
        cls, action: Any, text: str, infos: Sequence[Info], elapsed: float, line: str
    ) -> PlayResult:
        """The result of a search that sent `infos` and ended with `line`."""
        said = [i for i in infos if informative(i)]
        last = said[-1] if said else (infos[-1] if infos else None)
        failure = next(
            (f for f in map(BotFailure.from_string, (i.string for i in infos)) if f), None
        )
        return cls(action, text, last, tuple(infos), elapsed, line, failure)
