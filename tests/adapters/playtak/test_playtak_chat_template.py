"""`--greeting` and `--goodbye` templates: what a bad placeholder is told."""

from __future__ import annotations

import pytest

from adapters.playtak.game_policy import ChatTemplate, PolicyError


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("hi {me!r}", "{me!r} has a conversion or format; the placeholders take none: write {me}"),
        ("hi {opponent:>9}", "{opponent:>9} has a conversion or format"),
        ("hi {you}", "unknown placeholder {you}; use {me} and {opponent}"),
    ],
)
def test_a_bad_placeholder_is_named_as_written(text: str, why: str) -> None:
    with pytest.raises(PolicyError) as caught:
        ChatTemplate.parse(text, "--greeting")
    assert why in str(caught.value)


def test_good_placeholders_are_filled() -> None:
    assert ChatTemplate.parse("hi {opponent}, {me} {{here}}", "--greeting").fill("b", "a") == (
        "hi a, b {here}"
    )
