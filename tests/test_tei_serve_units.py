"""The pure parts of `tei serve`: the origin allow-list and the one-bestmove-per-go relay."""

from __future__ import annotations

import pytest

from adapters.web.tei_origins import OriginPatternError, OriginPolicy, check_pattern
from adapters.web.tei_relay import RelayState


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("https://ptn.ninja", True),
        ("https://PTN.ninja/", True),
        ("http://ptn.ninja", False),
        ("https://ptn.ninja.evil.example", False),
        ("http://localhost:8080", True),
        ("http://localhost", True),
        ("http://localhost:", False),
        ("http://localhost.evil.example", False),
        ("http://localhost:80x", False),
        ("http://127.0.0.1:3000", True),
        ("https://127.0.0.1:3000", False),
        ("http://[::1]:8000", True),  # tei serve listens on ::1 too
        ("http://[::1]", True),
        ("http://[::2]:8000", False),
        ("http://[::1]:8000.evil.example", False),
        ("null", False),
        ("", False),
        (None, True),  # a program, not a browser page
    ],
)
def test_default_origins(origin: str | None, allowed: bool) -> None:
    assert OriginPolicy.build().allows(origin) is allowed


def test_added_and_any_origins() -> None:
    policy = OriginPolicy.build(("http://my.example:8080",))
    assert policy.allows("http://my.example:8080")
    assert not policy.allows("http://my.example:8081")
    assert OriginPolicy.build(any_origin=True).allows("https://evil.example")


@pytest.mark.parametrize("bad", ["ptn.ninja", "https://", "https://a.example/path", "://x"])
def test_bad_origin_patterns_are_named(bad: str) -> None:
    with pytest.raises(OriginPatternError, match="is not scheme://host"):
        check_pattern(bad)


def test_relay_gives_one_bestmove_per_go() -> None:
    relay = RelayState()
    assert relay.from_engine("bestmove a1") is False  # no search asked for: dropped
    relay.from_client("position startpos")
    relay.from_client("go movetime 100")
    assert relay.from_engine("info depth 1 pv a1")
    assert relay.from_engine("bestmove a1")
    assert relay.from_engine("bestmove b1") is False  # a second answer: dropped
    assert relay.dropped == 2
    relay.from_client("go infinite")
    assert relay.on_engine_exit("the engine exited (exit code 3)") == [
        "info string error: the engine exited (exit code 3)",
        "bestmove --",
    ]
    assert relay.on_engine_exit("again") == ["info string error: again"]
