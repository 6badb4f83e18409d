"""Which web pages may open a TEI websocket session: the `Origin` allow-list (pure).

Any web page can open a websocket to localhost, so the server checks the `Origin` header
that browsers send with the upgrade request. A pattern is an origin (`https://ptn.ninja`)
or an origin with `:*` for any port (`http://localhost:*`, which also matches no port).
A request without `Origin` comes from a program, not a browser page, and is allowed.
"""

from __future__ import annotations

import attrs

from adapters.web.errors import WebError

#: PTN Ninja, and pages served from this machine under each loopback name `tei serve`
#: listens on (127.0.0.1 and ::1)
DEFAULT_ORIGINS = (
    "https://ptn.ninja",
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
)


class OriginPatternError(WebError):
    """An `--allow-origin` value that is no `scheme://host[:port|:*]`."""


def check_pattern(pattern: str) -> str:
    """The pattern, lower-cased, or OriginPatternError naming it."""
    text = pattern.strip().lower().rstrip("/")
    scheme, sep, rest = text.partition("://")
    if not sep or not scheme or not rest or "/" in rest or " " in rest:
        raise OriginPatternError(
            f"origin {pattern!r} is not scheme://host[:port] (e.g. http://localhost:*)"
        )
    return text


@attrs.frozen
class OriginPolicy:
    """The origins allowed to connect; `any_origin` lets every page in."""

    patterns: tuple[str, ...] = DEFAULT_ORIGINS
    any_origin: bool = False

    @classmethod
    def build(cls, extra: tuple[str, ...] = (), any_origin: bool = False) -> OriginPolicy:
        """The default list plus `extra` patterns (OriginPatternError for a bad one)."""
        return cls(tuple(check_pattern(p) for p in (*DEFAULT_ORIGINS, *extra)), any_origin)

    def allows(self, origin: str | None) -> bool:
        if self.any_origin or origin is None:
            return True
        text = origin.strip().lower().rstrip("/")
        for pattern in self.patterns:
            if pattern.endswith(":*"):
                base = pattern[:-2]
                if text == base or (
                    text.startswith(base + ":") and text[len(base) + 1 :].isdigit()
                ):
                    return True
            elif text == pattern:
                return True
        return False
