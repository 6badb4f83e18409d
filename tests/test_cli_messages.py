"""What the `tei` command says when it is used wrongly: the subcommand's own usage, and
reasons in plain words (no protocol lines)."""

from __future__ import annotations

import pytest

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
    assert capsys.readouterr().err.startswith("usage: tei [-h] COMMAND")


@pytest.mark.parametrize(
    ("option", "reason"),
    [
        ("Foo=1", "unknown option 'Foo'"),
        ("HalfKomi=x", "option 'HalfKomi' takes an integer, not 'x'"),
        ("Teams=maybe", "option 'Teams' takes true or false, not 'maybe'"),
    ],
)
def test_engine_option_errors_are_plain_messages(
    option: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["engine", "--game", "tak", "--option", option]) == 2
    err = capsys.readouterr().err
    assert err == f"tei engine: --option {option!r}: {reason}\n"
