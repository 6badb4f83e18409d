"""The `--help` of every `tei` command: metavars alike (N, S, MS), and `-v` and `--log`
either meaning the same or each saying how it differs from the other commands'."""

from __future__ import annotations

import re

import pytest

from tei.cli import SUBCOMMANDS, main

#: metavars that other commands write as N, S or MS
OLD_METAVARS = (
    "GAMES",
    "CONCURRENCY",
    "MAX_PLIES",
    "TIMEOUT",
    "SECONDS",
    "ROUNDS",
    "SEED",
    "SIZE",
    "PLAYERS",
    "DEPTH",
)


def help_of(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return " ".join(capsys.readouterr().out.split())  # one line: wrapping ignored


@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_metavars_are_alike(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(command, capsys)
    for old in OLD_METAVARS:
        assert not re.search(rf"--[a-z-]+ {old}\b", text), (command, old)


@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_log_and_verbose_say_how_they_differ(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = help_of(command, capsys)
    if "--log FILE" in text:  # traffic everywhere but in tei playtak, and each says so
        assert "tei playtak --log is its whole log" in text or (
            command == "playtak" and "write engine traffic with --log instead" in text
        ), command
    if re.search(r"-v, --verbose", text):
        others = re.findall(r"tei (?:playtak|serve|check) -v", text)
        assert others or command == "playtak", command
        if command == "playtak":
            assert "means --log-level debug" in text
