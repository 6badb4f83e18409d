"""Every numeric option of every command refuses nonsense with a usage error (exit 2)
that names the option and the allowed range, before anything starts."""

from __future__ import annotations

import pytest

from adapters.playtak.server import listeners as local_server
from tei.cli import main

#: playtak rows point at a closed local port, so a row that wrongly passed could not
#: reach any server
PLAYTAK = ("playtak", "--seek", "5 300 5", "--server", "tcp://127.0.0.1:9")
ENGINE = ("--engine", "bot=random", "--engine", "bot=random")

#: (command line, bad value, what the error must say); the value goes in place of "@",
#: or at the end
ROWS: list[tuple[tuple[str, ...], str, str]] = [
    (("match", *ENGINE, "--games"), "0", "--games: must be 1..100000, not 0"),
    (("match", *ENGINE, "--rounds"), "-3", "--rounds: must be 1..100000, not -3"),
    (("match", *ENGINE, "--concurrency"), "0", "--concurrency: must be 1..256"),
    (("match", *ENGINE, "--openings-start"), "-1", "--openings-start: must be 0..1000000000"),
    (("match", *ENGINE, "--openings-plies"), "-1", "--openings-plies: must be 0..1000000"),
    (("match", *ENGINE, "--seed"), "-5", "--seed: must be 0..9223372036854775807, not -5"),
    (("match", *ENGINE, "--max-plies"), "-1", "--max-plies: must be 0..1000000, not -1"),
    (("match", *ENGINE, "--grace"), "-1", "--grace: must be 0..1000000, not -1"),
    (("match", *ENGINE, "--grace"), "nan", "--grace: must be a finite number, not nan"),
    (
        ("match", *ENGINE, "--timeout"),
        "0",
        "--timeout: must be more than 0 and at most 1000000, not 0",
    ),
    (("match", *ENGINE, "--games"), "two", "--games: not an integer: 'two'"),
    (("match", *ENGINE, "--size"), "9", "bad Tak option size='9': must be 3..8"),
    (("match", *ENGINE, "--game", "traxit", "--players"), "5", "players='5': must be 2..4"),
    (("match", *ENGINE, "--komi"), "0.3", "komi='0.3': need a multiple of 0.5"),
    (("engine", "--limit-cap"), "0", "--limit-cap: must be more than 0, not 0"),
    (("engine", "--limit-cap"), "inf", "--limit-cap: must be a finite number"),
    (("engine", "--game", "trike", "--size"), "99", "size='99': must be 3..19"),
    (("engine", "--game", "traxit", "--players"), "1", "players='1': must be 2..4"),
    (("engine", "--komi"), "-1", "komi='-1': need a multiple of 0.5, >= 0"),
    (("check", "--timeout", "@", "--", "true"), "0", "--timeout: must be more than 0, not 0"),
    (
        ("check", "--start-timeout", "@", "--", "true"),
        "-2",
        "--start-timeout: must be more than 0, not -2",
    ),
    (("check", "--game", "trike", "--size", "@", "--", "true"), "2", "size='2': must be 3..19"),
    (("perft", "--depth"), "-1", "--depth: must be at least 0, not -1"),
    (("perft", "--depth", "1", "--size"), "2", "size='2': must be 3..8"),
    (("perft", "--depth", "1", "--game", "traxit", "--players"), "9", "must be 2..4"),
    (("show", "--size"), "10", "bad Tak option size='10': must be 3..8"),
    (("show", "--game", "traxit", "--players"), "0", "players='0': must be 2..4"),
    ((*PLAYTAK, "--games"), "0", "--games: must be at least 1, not 0"),
    ((*PLAYTAK, "--move-overhead"), "-1", "--move-overhead: must be at least 0, not -1"),
    ((*PLAYTAK, "--max-move-time"), "0", "--max-move-time: must be more than 0"),
    ((*PLAYTAK, "--ping-interval"), "0", "--ping-interval: must be more than 0"),
    ((*PLAYTAK, "--dead-after"), "-1", "--dead-after: must be more than 0, not -1"),
    ((*PLAYTAK, "--dead-after"), "5", "--dead-after must be longer than --ping-interval"),
    ((*PLAYTAK, "--max-backoff"), "0.5", "--max-backoff: must be at least 1, not 0.5"),
    ((*PLAYTAK, "--protocol"), "7", "--protocol: invalid choice: 7"),
    ((*PLAYTAK, "--seek-rotate"), "0", "--seek-rotate: must be more than 0"),
    ((*PLAYTAK, "--undo"), "maybe", "--undo: invalid choice: 'maybe'"),
    ((*PLAYTAK, "--accept-rated"), "yes", "--accept-rated: invalid choice: 'yes'"),
    (("serve", "--port"), "70000", "--port: must be 0..65535, not 70000"),
    (("serve", "--max-sessions"), "0", "--max-sessions: must be at least 1, not 0"),
    (("serve", "--idle-timeout"), "-1", "--idle-timeout: must be at least 0, not -1"),
    (("serve", "--idle-timeout"), "inf", "--idle-timeout: must be a finite number, not inf"),
    (("local-server", "--port"), "70000", "--port: must be 0..65535, not 70000"),
    (("local-server", "--ws-port"), "-1", "--ws-port: must be 0..65535, not -1"),
    (("local-server", "--reconnect-time"), "-1", "--reconnect-time: must be at least 0"),
    (
        ("local-server", "--tournament-reconnect-time"),
        "-1",
        "--tournament-reconnect-time: must be at least 0",
    ),
    (("local-server", "--idle-timeout"), "0", "--idle-timeout: must be more than 0, not 0"),
    (("local-server", "--seed"), "-1", "--seed: must be 0..9223372036854775807, not -1"),
]


@pytest.mark.parametrize(("argv", "bad", "message"), ROWS)
def test_bad_numbers_are_usage_errors(
    argv: tuple[str, ...], bad: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    command, *rest = argv
    args = [bad if word == "@" else word for word in rest] if "@" in rest else [*rest, bad]
    try:
        code = local_server.main(args) if command == "local-server" else main([command, *args])
    except SystemExit as exc:
        code = exc.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert code == 2, (argv, bad, err)
    assert message in err
    assert out == ""
