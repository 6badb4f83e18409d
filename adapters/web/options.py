"""The live view's options of `tei match` and `tei playtak`: `--live [HOST:]PORT`,
`--live-public` and `--live-max-watchers`.

Light on purpose: the web stack is imported only when a live view is asked for.
"""

from __future__ import annotations

import argparse
import ipaddress

import attrs

from adapters.web.errors import WebError
from tei.cli.keys import Parser

DEFAULT_HOST = "127.0.0.1"
#: event streams served at once; more are answered 503
DEFAULT_MAX_WATCHERS = 32


def add_live_options(parser: Parser, what: str) -> None:
    """The live view's options in their own group; `what` says what the page shows."""
    group = parser.add_argument_group("live view")
    group.add_argument(
        "--live",
        metavar="[HOST:]PORT",
        help=f"serve a live web view of {what} on this address (host default 127.0.0.1,"
        " port 0 picks a free one); read-only and unauthenticated (docs/live.md)",
    )
    group.add_argument(
        "--live-public",
        action="store_true",
        help="allow --live on a non-loopback address (anyone who reaches it can watch)",
    )
    group.add_argument(
        "--live-max-watchers",
        type=_watchers,
        default=DEFAULT_MAX_WATCHERS,
        metavar="N",
        help=f"watchers served at once (default {DEFAULT_MAX_WATCHERS}); more are answered"
        " 503 (busy)",
    )


def _watchers(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= 10000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of watchers (1-10000)")
    return int(text)


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
