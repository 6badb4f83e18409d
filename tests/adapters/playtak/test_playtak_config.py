"""`tei playtak --config FILE`: every option a key, the example file in docs/, the merged
settings, bad files (status 2), and a game played from a config file on the local server."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import trio

from rules.tak.ptn import PtnGame
from tei.cli import main
from tei.cli.config import MASK, read_toml, toml_value
from tei.cli.fields import flags
from tei.cli.keys import NOT_SETTINGS, OptionTable
from tei.cli.playtak import configure
from tei.cli.playtak_options import SETTINGS, option_table
from tests.support import ROOT

TEI = [sys.executable, "-m", "tei", "playtak"]
DOCS = ROOT / "docs"
EXAMPLE = DOCS / "playtak-bot.toml"
#: a commented-out setting of the example file: `# key = value`
COMMENTED = re.compile(r"# ([a-z][a-z0-9-]*) = (.+)$")


def config_file(folder: Path, text: str) -> Path:
    """`bot.toml` in `folder`, holding `text`."""
    config = folder / "bot.toml"
    config.write_text(text)
    return config


def refused(capsys: pytest.CaptureFixture[str], config: Path, *argv: str) -> str:
    """`tei playtak --config CONFIG ARGV...` exits 2: what it wrote to stderr."""
    assert main(["playtak", "--config", str(config), *argv]) == 2
    return capsys.readouterr().err


def playtak_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tei playtak")
    configure(parser)
    return parser


def playtak_table() -> OptionTable:
    return option_table()


def test_every_option_of_tei_playtak_is_a_config_key() -> None:
    dests = set(vars(playtak_parser().parse_args([])))  # every option of the parser
    keys = {option.key for option in playtak_table().options}
    assert {option.dest for option in playtak_table().options} == dests - {
        key.replace("-", "_") for key in NOT_SETTINGS
    }
    assert keys == {flag.key for cls in SETTINGS for _, flag in flags(cls)}
    assert {"seek", "engine-option", "password", "log-max-bytes", "verbose"} <= keys
    secret = {option.key for option in playtak_table().options if option.secret}
    assert secret == {"password", "guest-token"}


def test_the_example_file_is_valid_and_shows_every_key_with_its_default() -> None:
    table = playtak_table()
    text = EXAMPLE.read_text()
    read_toml(table, text, EXAMPLE.name, EXAMPLE.parent)  # no unknown key, no bad value
    active = set(tomllib.loads(text))
    commented: dict[str, str] = {}
    for line in text.splitlines():
        match = COMMENTED.match(line)
        if match and match[1] in table.by_key():
            commented[match[1]] = match[2]
    missing = set(table.by_key()) - active - set(commented)
    assert not missing, f"keys missing from {EXAMPLE.name}: {sorted(missing)}"
    for key, value in commented.items():
        option = table.by_key()[key]
        shown = option.value(tomllib.loads(f"{key} = {value}")[key])
        # --print-config writes it so that it reads back the same
        assert option.value(tomllib.loads(f"{key} = {toml_value(shown)}")[key]) == shown
        if option.default not in (None, []):  # commented out: the default, as the file says
            assert shown == option.default, (key, value, option.default)


def test_each_default_is_stated_by_its_help_as_the_parser_has_it() -> None:
    """The settings classes are the one source of defaults (the example file is checked
    above); the help, written by hand, must agree with them."""
    helps = {field.name: flag.help for cls in SETTINGS for field, flag in flags(cls)}
    for option in playtak_table().options:
        if option.default in (None, False, []):
            continue
        default = option.default
        text = f"{default:g}" if isinstance(default, float) else str(default)
        assert re.search(rf"\b{re.escape(text)}\b", helps[option.dest]), (option.key, text)


def test_the_docs_name_every_key() -> None:
    page = (DOCS / "playtak.md").read_text()
    for option in playtak_table().options:
        assert f"`{option.flag}" in page, option.flag
    assert "docs/playtak-bot.toml" in (DOCS.parent / "README.md").read_text()


@pytest.mark.process
def test_a_bad_key_in_the_config_file_exits_2_naming_the_key_and_its_line(
    tmp_path: Path,
) -> None:
    config = config_file(
        tmp_path, 'bot = "random"\nseek = ["5 180 5"]\nmove_overhead = 500\ngames = 0\n'
    )
    done = subprocess.run(
        [*TEI, "--config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr == (
        "tei playtak: 2 problems:\n"
        f"  {config}:3: move_overhead: unknown key: write it 'move-overhead'"
        " (the option's name, with dashes)\n"
        f"  {config}:4: games: must be at least 1, not 0\n"
    )
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('seek = ["5 180"]', "bot.toml:2: seek: seek '5 180': give at least 'size time increment'"),
        ('seek = ["5 180 5"]\nserver = "http://x"', "bot.toml:3: server: bad server address"),
        ('seek = ["5 180 5"]\nengine-option = ["Depth"]', "bot.toml:3: engine-option: "),
        ('seek = ["5 180 5"]\nbot = "nosuchbot"', "bot.toml:3: bot: no bot 'nosuchbot' for tak"),
        ('seek = ["5 180 5"]\nlive = "x"', "bot.toml:3: live: live view address 'x'"),
        ('seek = ["5 180 5"]\nping-interval = 100.0', "bot.toml:3: ping-interval: --dead-after"),
        ('seek = ["5 180 5"]\nengine = "e"\nbot = "random"', "bot.toml:3: engine: cannot go"),
        (
            'seek = "5 300 5"\nengine-conf = "mine"',
            "bot.toml:3: engine-conf: --engine-conf mine: give the engines file",
        ),
        (
            'seek = "5 300 5"\nlog-level = "loud"',
            "bot.toml:3: log-level: 'loud' is not one of debug, info, warning",
        ),
        ('seek = ["5 180 5"]\naccept = true\naccept-size = "9"', "bot.toml:4: accept-size: "),
        ('seek = ["5 180 5"]\naccept-komi = "4"', "bot.toml:3: accept-komi: --accept-komi filters"),
        ('seek = ["5 180 5"]\ngoodbye = "bye {x}"', "bot.toml:3: goodbye: --goodbye 'bye {x}'"),
        ("games = 3", "give --seek SPEC, --accept or --accept-from NAME (or the key seek, "),
        ('seek = ["5 180 5"]\nuser = "x"\npassword-env = "NO_SUCH_VAR"', "$NO_SUCH_VAR"),
        ("seek = 5", "bot.toml:2: seek: expected a string (in quotes), not 5"),
        ("seek = {a = 1}", "bot.toml:2: seek: expected a list [...], each a string; not a table"),
        ('seek = ["5 180 5"]\nengine-name = 5', "bot.toml:3: engine-name: expected a string (in"),
        ("seek = ['5 180 5']\n[connection]", "bot.toml:3: connection: unknown key"),
        ("seek = ", "bot.toml: not TOML: "),
    ],
)
def test_a_bad_value_in_the_config_file_exits_2_naming_the_key_and_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    config = config_file(tmp_path, "# the bot\n" + text + "\n")
    # a closed local port, so a row that wrongly passed could not reach any server
    closed = [] if "server" in text else ["--server", "tcp://127.0.0.1:9"]
    err = refused(capsys, config, *closed)
    assert err.startswith("tei playtak: ") and message in err.replace(f"{tmp_path}/", "")


def test_seeks_a_list_and_accept_from_go_together_in_a_config_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`seek` is repeatable (a list, posted in turn) and no longer excludes `accept-from`:
    the seeks of the player are taken first, our own posted while there is none."""
    config = config_file(
        tmp_path, 'seek = ["5 180 5", "6 600 10 A 4"]\naccept-from = "alice"\naccept-size = "5"\n'
    )
    assert main(["playtak", "--config", str(config), "--print-config"]) == 0
    out = capsys.readouterr().out
    assert f'seek = ["5 180 5", "6 600 10 A 4"]  # {config}:1' in out
    assert f'accept-from = "alice"  # {config}:2' in out
    assert playtak_table().exclusive == (("engine", "bot", "engine_conf"),)


def test_a_repeatable_key_given_one_plain_value_is_a_list_of_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_file(tmp_path, 'seek = "5 300 5"\nengine-option = "MaxDepth=6"\n')
    assert main(["playtak", "--config", str(config), "--print-config"]) == 0
    out = capsys.readouterr().out
    assert f'seek = ["5 300 5"]  # {config}:1' in out
    assert f'engine-option = ["MaxDepth=6"]  # {config}:2' in out


def test_a_missing_config_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playtak", "--config", str(tmp_path / "none.toml")]) == 2
    assert "cannot read the config file" in capsys.readouterr().err


def test_the_command_line_fixes_what_the_file_gets_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad value checked after the merge is the command line's to override."""
    config = config_file(tmp_path, 'seek = ["5 180"]\nbot = "random"\n')
    argv = ["playtak", "--config", str(config), "--print-config"]
    assert main([*argv, "--seek", "5 180 5", "--engine", "./mine"]) == 0
    out = capsys.readouterr().out
    assert 'seek = ["5 180 5"]  # command line' in out
    assert 'engine = "./mine"  # command line' in out and "# bot: not set" in out


def test_print_config_shows_the_merged_settings_with_the_password_masked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_file(
        tmp_path,
        'user = "MyBot"\npassword = "file-secret-1"\nseek = ["6 600 10 A 4"]\n'
        'ptn-dir = "games"\nmove-overhead = 500\n',
    )
    argv = ["playtak", "--config", str(config), "--print-config", "--server", "tcp://h:1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "file-secret-1" not in out
    assert f'password = "{MASK}"  # {config}:2' in out
    assert f'ptn-dir = "{tmp_path / "games"}"  # {config}:4' in out
    assert 'server = "tcp://h:1"  # command line' in out
    assert "move-overhead = 500" in out and "max-backoff = 60.0  # default" in out
    # the output is a config file: read back, it gives the same settings (masked)
    printed = tmp_path / "printed.toml"
    printed.write_text(out)
    assert main(["playtak", "--config", str(printed), "--print-config"]) == 0
    again = capsys.readouterr().out

    def settings(text: str) -> list[str]:
        return [line.split("  # ")[0] for line in text.splitlines()[1:]]

    assert settings(again) == settings(out)
    secrets = ["--password", "cli-secret-2", "--guest-token", "abcdefghijklmnopqrst"]
    assert main([*argv, *secrets]) == 0
    out = capsys.readouterr().out
    assert "cli-secret-2" not in out and "abcdefghijklmnopqrst" not in out
    assert f'password = "{MASK}"  # command line' in out
    assert f'guest-token = "{MASK}"  # command line' in out


def test_print_config_of_bad_settings_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["playtak", "--print-config", "--bot", "random"]) == 2
    out, err = capsys.readouterr()
    assert 'bot = "random"  # command line' in out and "give --seek SPEC" in err


def test_the_example_file_would_start_a_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playtak", "--config", str(EXAMPLE), "--print-config"]) == 0
    out = capsys.readouterr().out
    assert f'log = "{DOCS / "takbot.log"}"  # {EXAMPLE}:' in out


@pytest.mark.process
async def test_a_bot_plays_its_games_from_a_config_file_and_exits_0(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """The file gives everything (an account with its password in the environment,
    relative paths from the file's folder); the command line overrides its `games`."""
    from adapters.playtak.server.listeners import LocalServer

    server = LocalServer()
    await nursery.start(server.serve)
    url = f"tcp://127.0.0.1:{server.tcp_port}"
    (tmp_path / "etc").mkdir()
    (tmp_path / "run").mkdir()
    config = tmp_path / "etc" / "bot.toml"
    config.write_text(
        f'server = "{url}"\nuser = "cfgbot"\npassword-env = "CFGBOT_PW"\nbot = "random"\n'
        'seek = ["4 60 3 W 0 15 0 1 0"]\ngames = 5\nmove-overhead = 100\n'
        'ptn-dir = "games"\nlog = "bot.log"\nlog-max-bytes = 100000\n'
    )
    env = dict(os.environ, CFGBOT_PW="cfg-secret-3")
    seeker = [*TEI, "--config", str(config), "--games", "1"]
    opponent = [*TEI, "--server", url, "--bot", "random", "--accept-from", "cfgbot"]
    results: dict[str, subprocess.CompletedProcess[bytes]] = {}

    async def run(name: str, argv: list[str]) -> None:
        results[name] = await trio.run_process(
            argv,
            env=env,
            cwd=tmp_path / "run",
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )

    with trio.fail_after(90):
        async with trio.open_nursery() as games:
            games.start_soon(run, "cfgbot", seeker)
            await server.wait_for(lambda: server.core.seeks, "the seek of cfgbot", 30)
            games.start_soon(run, "guest", [*opponent, "--games", "1", "--move-overhead", "100"])
    for name, done in results.items():
        assert done.returncode == 0, (name, done.stderr.decode()[-2000:])
    line = results["cfgbot"].stdout.decode()
    assert line.startswith("game 1: ") and line.count("\n") == 1  # one game, not five
    (record,) = (tmp_path / "etc" / "games").glob("*.ptn")
    assert PtnGame.parse(record.read_text()).tag("Player1") == "cfgbot"
    log = (tmp_path / "etc" / "bot.log").read_text()
    assert "logged in as cfgbot" in log and "cfg-secret-3" not in log
    assert list((tmp_path / "run").iterdir()) == []  # nothing relative to the working dir


@pytest.mark.process
async def test_a_password_refused_from_a_config_file_exits_1(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    from adapters.playtak.server.listeners import LocalServer
    from adapters.playtak.server.lobby import ServerSettings

    server = LocalServer(ServerSettings(users={"alice": "secret1"}))
    await nursery.start(server.serve)
    config = config_file(
        tmp_path,
        f'server = "tcp://127.0.0.1:{server.tcp_port}"\nuser = "alice"\n'
        'password = "wrong12"\nbot = "random"\nseek = ["5 60 0"]\n',
    )
    config.chmod(0o644)
    with trio.fail_after(60):
        done = await trio.run_process(
            [*TEI, "--config", str(config)], capture_stderr=True, check=False
        )
    assert done.returncode == 1
    assert b"wrong password" in done.stderr and b"wrong12" not in done.stderr
    # a password in a file that others may read is worth a warning (not a refusal)
    assert f"{config} holds the password and other users may read it".encode() in done.stderr
    config.chmod(0o600)
    with trio.fail_after(60):
        done = await trio.run_process(
            [*TEI, "--config", str(config)], capture_stderr=True, check=False
        )
    assert done.returncode == 1 and b"other users may read" not in done.stderr


def _toml_snippets(text: str) -> list[str]:
    """The config files shown in a page: ```toml blocks, and indented blocks of only
    `key = value` lines and comments."""
    found = re.findall(r"```toml\n(.*?)```", text, re.S)
    for block in re.findall(r"(?:^    .*\n|^\n)+", text, re.M):
        lines = [line[4:] for line in block.splitlines() if line.strip()]
        if lines and all(re.match(r"#|[a-z][a-z-]* = ", line) for line in lines):
            found.append("\n".join(lines) + "\n")
    return found


def test_the_config_files_shown_in_the_docs_are_valid() -> None:
    table = playtak_table()
    pages = {"README.md": DOCS.parent / "README.md", "playtak.md": DOCS / "playtak.md"}
    for name, path in pages.items():
        snippets = _toml_snippets(path.read_text())
        assert len(snippets) >= (1 if name == "README.md" else 2), name
        for snippet in snippets:
            read_toml(table, snippet, name)


def named(tmp_path: Path, *argv: str) -> argparse.Namespace:
    """The arguments of `tei playtak ARGV` with the --engine-conf engine resolved."""
    from tei.cli.config import settings
    from tei.cli.playtak import with_named_engine

    args = playtak_parser().parse_args(list(argv))
    merged = settings(args, option_table())
    return with_named_engine(merged.apply(args), merged)


NAMED = """\
[mine]
cmd = "./my-engine --threads 2"
arg = ["--quiet"]
name = "Mine"
dir = "engines"
options = { MaxDepth = 6, Hash = 64 }
tc = "10+0.1"

[builtin]
bot = "greedy"
"""


def test_engine_conf_gives_the_command_name_options_and_folder(tmp_path: Path) -> None:
    engines = tmp_path / "engines.toml"
    engines.write_text(NAMED)
    args = named(tmp_path, "--engines", str(engines), "--engine-conf", "mine",
                 "--engine-option", "Hash=128")  # fmt: skip
    from tei.cli.playtak import _engine_argv, _engine_settings

    assert _engine_argv(args) == ["./my-engine", "--threads", "2", "--quiet"]
    assert args.engine_name == "Mine" and args.engine_dir == str(tmp_path / "engines")
    assert _engine_settings(args) == {"MaxDepth": "6", "Hash": "128"}  # the command line wins
    args = named(tmp_path, "--engines", str(engines), "--engine-conf", "builtin",
                 "--engine-name", "G")  # fmt: skip
    assert args.bot == "greedy" and args.engine is None and args.engine_name == "G"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--engine-conf", "mine"], "--engine-conf mine: give the engines file too"),
        (["--engines", "E", "--engine-conf", "mien"], "E: no engine 'mien' (did you mean 'mine'?"),
        (["--engines", "E", "--engine-conf", "mine", "--bot", "random"], "not allowed with"),
        (["--engines", "E", "--engine-conf", "builtin", "--ponder"], None),
        (["--engines", "E", "--engine-conf", "mine", "--ponder"], "--ponder works with bots"),
        (["--engines", "BAD", "--engine-conf", "x"], "BAD:2: engine 'x': bot: expected a string"),
        (["--engines", "NONE", "--engine-conf", "x"], "cannot read the engines file 'NONE'"),
    ],
)
def test_a_bad_engine_conf_exits_2_naming_the_file_the_line_and_the_engine(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str | None,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "E").write_text(NAMED)
    (tmp_path / "BAD").write_text('[x]\nbot = ["a"]\n')
    seek = ["--seek", "5 300 5", "--server", "tcp://127.0.0.1:9", "--print-config"]
    if message is None:
        assert main(["playtak", *argv, *seek]) == 0
        return
    with contextlib.suppress(SystemExit):  # argparse's own refusals exit by themselves
        assert main(["playtak", *argv, *seek]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "level"),
    [([], logging.INFO), (["--log-level", "warning"], logging.WARNING),
     (["--log-level", "debug"], logging.DEBUG), (["-v", "--log-level", "warning"], logging.DEBUG)],
)  # fmt: skip
def test_log_level_sets_the_least_important_messages_logged(argv: list[str], level: int) -> None:
    from tei.cli.playtak import _logging

    args = playtak_parser().parse_args(argv)
    args = named_defaults(args)
    root = logging.getLogger()
    before = root.level
    with _logging(args):
        assert root.level == level
    assert root.level == before


def named_defaults(args: argparse.Namespace) -> argparse.Namespace:
    from tei.cli.config import settings

    return settings(args, option_table()).apply(args)


@pytest.mark.process
async def test_a_named_engine_plays_on_the_local_server_and_warning_keeps_info_out(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    from adapters.playtak.server.listeners import LocalServer

    server = LocalServer()
    await nursery.start(server.serve)
    url = f"tcp://127.0.0.1:{server.tcp_port}"
    (tmp_path / "engine").mkdir()
    engines = tmp_path / "engines.toml"
    command = shlex.join([sys.executable, "-m", "tei", "engine", "--game", "tak"])
    engines.write_text(
        f'[rnd]\ncmd = {json.dumps(command)}\narg = ["--bot", "random"]\n'
        'dir = "engine"\nname = "RandomOne"\n'
    )
    seeker = [*TEI, "--server", url, "--engines", str(engines), "--engine-conf", "rnd",
              "--seek", "4 60 3 W", "--games", "1", "--log-level", "warning"]  # fmt: skip
    opponent = [*TEI, "--server", url, "--bot", "random", "--games", "1", "--accept",
                "--log-level", "debug"]  # fmt: skip
    results: dict[str, subprocess.CompletedProcess[bytes]] = {}

    async def run(name: str, argv: list[str]) -> None:
        results[name] = await trio.run_process(
            argv, cwd=tmp_path, capture_stdout=True, capture_stderr=True, check=False
        )

    with trio.fail_after(90):
        async with trio.open_nursery() as games:
            games.start_soon(run, "seeker", seeker)
            await server.wait_for(lambda: server.core.seeks, "the seek", 30)
            games.start_soon(run, "opponent", opponent)
    for name, done in results.items():
        assert done.returncode == 0, (name, done.stderr.decode()[-2000:])
    assert results["seeker"].stdout.decode().startswith("game 1: ")
    assert " INFO " not in results["seeker"].stderr.decode()
    assert " DEBUG " in results["opponent"].stderr.decode()
