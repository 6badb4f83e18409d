"""Config files read against a command's options (tei.cli.config), on a small parser."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest

from tei.cli.config import (
    COMMAND_LINE,
    DEFAULT,
    MASK,
    ConfigError,
    Kind,
    OptionTable,
    add_config_options,
    key_line,
    read_config,
    settings,
    table_of,
)
from tei.cli.numbers import POSITIVE_SECONDS, int_in


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="demo")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--engine")
    which.add_argument("--bot")
    parser.add_argument("--games", type=int_in(1))
    parser.add_argument("--overhead", type=int_in(0), default=1000, help="ms (default %(default)s)")
    parser.add_argument("--wait", type=POSITIVE_SECONDS, default=30.0)
    parser.add_argument("--protocol", type=int, choices=(0, 1, 2), default=2)
    parser.add_argument("--name", default="demo")
    parser.add_argument("--password")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("-v", "--verbose", action="store_true")
    add_config_options(parser, secret=["password"])
    return parser


def table() -> OptionTable:
    return table_of(parser())


def problems(text: str) -> tuple[str, ...]:
    with pytest.raises(ConfigError) as caught:
        table().read(text, "bot.toml")
    return caught.value.problems


def test_every_long_option_is_a_key_of_its_kind_with_its_default() -> None:
    keys = {option.key: option for option in table().options}
    assert list(keys) == [
        "engine",
        "bot",
        "games",
        "overhead",
        "wait",
        "protocol",
        "name",
        "password",
        "out",
        "option",
        "verbose",
    ]  # not help, config nor print-config
    assert keys["verbose"].kind is Kind.FLAG and keys["verbose"].default is False
    assert keys["option"].kind is Kind.LIST and keys["option"].default == []
    assert keys["overhead"].kind is Kind.VALUE and keys["overhead"].default == 1000
    assert keys["password"].secret and not keys["name"].secret
    assert table().exclusive == (("engine", "bot"),)


def test_the_parsers_defaults_become_not_given_and_help_keeps_the_real_ones() -> None:
    demo = parser()
    args = demo.parse_args([])
    assert args.overhead is None and args.verbose is None and args.option is None
    assert args.config is None and args.print_config is False
    assert "ms (default 1000)" in demo.format_help()


def test_values_go_through_the_options_types() -> None:
    text = (
        'bot = "random"\ngames = 3\noverhead = 0\nwait = 5\nprotocol = 1\n'
        'option = ["A=1", "B=2"]\nverbose = true\nname = "x"\n'
    )
    read = table().read(text, "bot.toml")
    assert read.values == {
        "bot": "random",
        "games": 3,
        "overhead": 0,
        "wait": 5.0,
        "protocol": 1,
        "option": ["A=1", "B=2"],
        "verbose": True,
        "name": "x",
    }
    assert read.where("games") == "bot.toml:2"


def test_the_command_line_overrides_the_file_which_overrides_the_defaults() -> None:
    file = table().read('games = 3\noverhead = 200\noption = ["A=1"]\n', "bot.toml")
    given = {"overhead": 50, "games": None, "option": None}
    merged = table().merge(given, file)
    assert merged.values["overhead"] == 50 and merged.sources["overhead"] == COMMAND_LINE
    assert merged.values["games"] == 3 and merged.sources["games"] == "bot.toml:1"
    assert merged.values["wait"] == 30.0 and merged.sources["wait"] == DEFAULT
    assert merged.values["option"] == ["A=1"]
    # a repeatable option given on the command line replaces the file's list
    assert table().merge({"option": ["B=2"]}, file).values["option"] == ["B=2"]


def test_an_option_on_the_command_line_drops_the_files_options_it_excludes() -> None:
    file = table().read('bot = "random"\n', "bot.toml")
    merged = table().merge({"engine": "./mine"}, file)
    assert merged.values["engine"] == "./mine" and merged.values["bot"] is None
    assert table().merge({}, file).values["bot"] == "random"


def test_both_of_an_exclusive_pair_in_the_file_are_refused_with_their_lines() -> None:
    assert problems('# x\nengine = "./e"\nbot = "random"\n') == (
        "bot.toml:2: engine: cannot go with bot (bot.toml:3): give one of them",
    )


def test_unknown_keys_are_named_with_their_line_and_the_likely_key() -> None:
    assert problems('name = "a"\n\nover_head = 5\nverbos = true\nfoo = 1\nconfig = "x"\n') == (
        "bot.toml:3: over_head: unknown key (did you mean 'overhead'?)",
        "bot.toml:4: verbos: unknown key (did you mean 'verbose'?)",
        "bot.toml:5: foo: unknown key",
        "bot.toml:6: config: unknown key: only a command-line option",
    )
    assert problems("print_config = true\n") == (
        "bot.toml:1: print_config: unknown key: only a command-line option",
    )


def test_keys_with_underscores_are_refused_with_the_dashed_name() -> None:
    demo = argparse.ArgumentParser()
    demo.add_argument("--move-overhead", type=int)
    found = OptionTable.from_parser(demo)
    with pytest.raises(ConfigError) as caught:
        found.read("move_overhead = 5\n", "bot.toml")
    assert str(caught.value) == (
        "bot.toml:1: move_overhead: unknown key: write it 'move-overhead' "
        "(the option's name, with dashes)"
    )
    assert found.read("move-overhead = 5\n", "bot.toml").values == {"move_overhead": 5}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("games = 0", "games: must be at least 1, not 0"),
        ("games = 2.5", "games: not an integer: '2.5'"),
        ("games = true", "games: expected an integer, not true"),
        ("games = [1]", "games: expected an integer, not a list"),
        ("wait = -1", "wait: must be more than 0, not -1"),
        ("wait = inf", "wait: must be a finite number, not inf"),
        ("protocol = 7", "protocol: 7 is not one of 0, 1, 2"),
        ("protocol = 'x'", "protocol: invalid int value: 'x'"),
        ("verbose = 'yes'", "verbose: expected true or false, not 'yes'"),
        ("verbose = 1", "verbose: expected true or false, not 1"),
        ("name = 5", "name: expected a string (in quotes), not 5"),
        ("name = {a = 1}", "name: expected a string, not a table"),
        ("out = 5", "out: expected a path (a string) (in quotes), not 5"),
        ("option = 'A=1'", "option: expected a list [...], each a string; not 'A=1'"),
        ("option = ['A=1', 2]", "option: expected a string (in quotes), not 2"),
        ("[bot]\nx = 1", "bot: expected a string, not a table"),
    ],
)
def test_bad_values_are_refused_with_the_key_and_its_line(text: str, problem: str) -> None:
    assert problems("# settings\n" + text + "\n") == (f"bot.toml:2: {problem}",)


def test_a_bad_secret_is_refused_without_showing_it() -> None:
    assert problems("password = 31415926\n") == (
        "bot.toml:1: password: expected a string (the value is not shown)",
    )


def test_every_problem_is_listed_at_once() -> None:
    with pytest.raises(ConfigError) as caught:
        table().read("games = 0\nwait = 0\n", "bot.toml")
    assert str(caught.value) == (
        "2 problems:\n  bot.toml:1: games: must be at least 1, not 0\n"
        "  bot.toml:2: wait: must be more than 0, not 0"
    )


def test_a_file_that_is_not_toml_names_its_line() -> None:
    (problem,) = problems('games = 3\nname = = "x"\n')
    assert problem.startswith("bot.toml: not TOML: ") and "line 2" in problem


def test_relative_paths_are_taken_from_the_files_folder(tmp_path: Path) -> None:
    read = table().read('out = "games"\n', "bot.toml", tmp_path)
    assert read.values["out"] == tmp_path / "games"
    assert table().read('out = "/abs/games"\n', "bot.toml", tmp_path).values["out"] == Path(
        "/abs/games"
    )


def test_key_lines_skip_tables_and_comments() -> None:
    text = '# games = 1\n"games" = 2\n[table]\nname = "x"\n[name]\n'
    assert key_line(text, "games") == 2
    assert key_line(text, "name") == 5  # line 4 is inside [table]
    assert key_line("a.b = 1\n", "a") == 1
    assert key_line("gamesx = 1\n", "games") is None


def test_printed_settings_mask_secrets_name_sources_and_read_back(tmp_path: Path) -> None:
    file = table().read('password = "hunter22"\ngames = 4\nname = "a \\"b\\""\n', "bot.toml")
    merged = table().merge({"option": ["A=1"], "out": Path("x")}, file)
    text = merged.render()
    assert "hunter22" not in text
    assert f'password = "{MASK}"  # bot.toml:1' in text
    assert "games = 4  # bot.toml:2" in text and "# engine: not set" in text
    assert 'option = ["A=1"]  # command line' in text and "wait = 30.0  # default" in text
    again = table().read(text, "printed.toml")
    assert {dest: again.values.get(dest) for dest in merged.values} == {
        **merged.values,
        "password": MASK,
    }
    assert tomllib.loads(text)["name"] == 'a "b"'


def test_settings_reads_the_config_option_of_parsed_arguments(tmp_path: Path) -> None:
    config = tmp_path / "demo.toml"
    config.write_text('games = 2\nout = "records"\n')
    merged = settings(parser().parse_args(["--config", str(config), "--games", "5"]))
    assert merged.values["games"] == 5 and merged.values["out"] == tmp_path / "records"
    assert merged.blame("bad", "out") == f"{config}:2: out: bad"
    assert merged.blame("bad", "games") == "bad"  # from the command line
    args = merged.apply(parser().parse_args([]))
    assert (args.games, args.overhead, args.verbose) == (5, 1000, False)


def test_unreadable_files_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"cannot read the config file .*: No such file"):
        read_config(tmp_path / "missing.toml", table())
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(ConfigError, match=r"latin.toml: not UTF-8 text \(byte 11\)"):
        read_config(latin, table())


def test_an_option_that_cannot_be_a_key_is_found_when_the_table_is_built() -> None:
    demo = argparse.ArgumentParser()
    demo.add_argument("-q", "--quiet", action="count")
    with pytest.raises(TypeError, match="--quiet: a _CountAction cannot be a config file key"):
        OptionTable.from_parser(demo)
