"""The live view's options of `tei match` and `tei playtak` (`--live [HOST:]PORT`,
`--live-public` and `--live-max-watchers`, declared by tei.cli.options): their values
and the address checked.

Light on purpose: the web stack is imported only when a live view is asked for.
"""

from __future__ import annotations

import argparse
import ipaddress

import attrs

from adapters.web.errors import WebError

DEFAULT_HOST = "127.0.0.1"
#: event streams served at once; more are answered 503
DEFAULT_MAX_WATCHERS = 32


@attrs.frozen
class LiveOptions:
    """Where to serve the live view, and how many watchers at once."""

    host: str
    port: int
    max_watchers: int = DEFAULT_MAX_WATCHERS


def live_address(args: argparse.Namespace) -> LiveOptions | None:
    """The live view's options, None without `--live`; LiveAddressError if bad."""
    if getattr(args, "live", None) is None:
        return None
    host, port = parse_address(args.live, bool(getattr(args, "live_public", False)))
    return LiveOptions(host, port, getattr(args, "live_max_watchers", DEFAULT_MAX_WATCHERS))


class LiveAddressError(WebError):
    """A bad `[HOST:]PORT` for the live view (the message names it)."""


def parse_address(text: str, public: bool = False) -> tuple[str, int]:
    """`8000`, `127.0.0.1:8000`, `[::1]:8000`, `0.0.0.0:8000` (with `public`) -> (host, port)."""
    raw = text.strip()
    host, sep, port_text = raw.rpartition(":")
    if not sep:
        host, port_text = DEFAULT_HOST, raw
    host = host.strip("[]") or DEFAULT_HOST
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise LiveAddressError(f"live view address {text!r}: the port must be 0-65535")
    if not public and not _loopback(host):
        raise LiveAddressError(
            f"live view address {text!r}: {host} is not a loopback address; the page is"
            " unauthenticated, so serving it to other machines needs --live-public"
        )
    return host, int(port_text)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
