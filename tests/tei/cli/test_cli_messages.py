"""What the `tei` command says when it is used wrongly: the subcommand's own usage, and
reasons in plain words (no protocol lines)."""

from __future__ import annotations

import pytest

from adapters.playtak.server import listeners as local_server
from tei.cli import main


@pytest.mark.parametrize(
    "argv", [["match"], ["perft", "--depth", "1"], ["show"], ["engine"], ["playtak"]]
)
def test_an_unknown_option_prints_the_subcommands_usage(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    command = argv[0]
    with pytest.raises(SystemExit) as done:
        main([*argv, "--bogus"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: tei {command} ")
    assert f"tei {command}: error: unrecognized arguments: --bogus" in err


def test_an_unknown_top_level_option_prints_the_top_level_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--bogus"])
    assert capsys.readouterr().err.startswith("usage: tei [-h] [--version] COMMAND")


@pytest.mark.parametrize("command", ["engine", "serve"])
@pytest.mark.parametrize(
    ("game", "option", "reason"),
    [
        ("tak", "Foo=1", "unknown option 'Foo'"),
        ("tak", "HalfKomi=x", "option 'HalfKomi' takes an integer, not 'x'"),
        ("tak", "Teams=maybe", "unknown option 'Teams'"),  # a Traxit option: not Tak's
        ("traxit", "Teams=maybe", "option 'Teams' takes true or false, not 'maybe'"),
    ],
)
def test_engine_option_errors_are_plain_messages(
    command: str, game: str, option: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--game", game, "--option", option]) == 2
    err = capsys.readouterr().err
    assert err == f"tei {command}: --option {option!r}: {reason}\n"


@pytest.mark.parametrize("command", ["engine", "serve"])
@pytest.mark.parametrize("option", ["HalfKomi", "=4", " =4"])
def test_an_engine_option_must_be_name_equals_value(
    command: str, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--option", option]) == 2
    assert capsys.readouterr().err == f"tei {command}: --option {option!r} is not NAME=VALUE\n"


def test_serve_takes_options_for_its_built_in_bot_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--option", "HalfKomi=4", "--", "tiltak"]) == 2
    assert "--option is for the built-in bot" in capsys.readouterr().err


@pytest.mark.parametrize("user", ["alice", ":secret"])
def test_a_local_server_account_must_be_name_colon_password(
    user: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert local_server.main(["--user", user]) == 2
    assert capsys.readouterr().err == f"playtak server: --user {user!r} is not NAME:PASSWORD\n"
