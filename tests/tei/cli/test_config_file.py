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
    finish,
    key_lines,
    merge,
    read_config,
    read_toml,
    settings,
)
from tei.cli.keys import Declared, Kind, OptionTable
from tei.values import POSITIVE_SECONDS, int_in


def declare(real: argparse.ArgumentParser) -> OptionTable:
    parser = Declared(real, secret=["password"])
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
    parser.add_argument("--each", nargs="+")
    parser.add_argument("--player", action="append", nargs="+")
    parser.add_argument("-v", "--verbose", action="store_true")
    return finish(parser)


def parser() -> argparse.ArgumentParser:
    real = argparse.ArgumentParser(prog="demo")
    declare(real)
    return real


def table() -> OptionTable:
    return declare(argparse.ArgumentParser())


def problems(text: str) -> tuple[str, ...]:
    with pytest.raises(ConfigError) as caught:
        read_toml(table(), text, "bot.toml")
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
        "each",
        "player",
        "verbose",
    ]  # not help, config nor print-config
    assert keys["verbose"].kind is Kind.FLAG and keys["verbose"].default is False
    assert keys["option"].kind is Kind.LIST and keys["option"].default == []
    assert keys["each"].kind is Kind.WORDS and keys["player"].kind is Kind.WORD_LISTS
    assert keys["overhead"].kind is Kind.VALUE and keys["overhead"].default == 1000
    assert keys["password"].secret and not keys["name"].secret
    assert table().exclusive == (("engine", "bot"),)


def test_the_parsers_defaults_become_not_given_and_help_keeps_the_real_ones() -> None:
    demo = parser()
    args = demo.parse_args([])
    assert args.overhead is None and args.verbose is None and args.option is None
    assert args.each is None and args.player is None
    assert args.config is None and args.print_config is False
    assert "ms (default 1000)" in demo.format_help()


def test_values_go_through_the_options_types() -> None:
    text = (
        'bot = "random"\ngames = 3\noverhead = 0\nwait = 5\nprotocol = 1\n'
        'option = ["A=1", "B=2"]\nverbose = true\nname = "x"\n'
    )
    read = read_toml(table(), text, "bot.toml")
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
    file = read_toml(table(), 'games = 3\noverhead = 200\noption = ["A=1"]\n', "bot.toml")
    given = {"overhead": 50, "games": None, "option": None}
    merged = merge(table(), given, file)
    assert merged.values["overhead"] == 50 and merged.sources["overhead"] == COMMAND_LINE
    assert merged.values["games"] == 3 and merged.sources["games"] == "bot.toml:1"
    assert merged.values["wait"] == 30.0 and merged.sources["wait"] == DEFAULT
    assert merged.values["option"] == ["A=1"]
    # a repeatable option given on the command line replaces the file's list
    assert merge(table(), {"option": ["B=2"]}, file).values["option"] == ["B=2"]


def test_an_option_on_the_command_line_drops_the_files_options_it_excludes() -> None:
    file = read_toml(table(), 'bot = "random"\n', "bot.toml")
    merged = merge(table(), {"engine": "./mine"}, file)
    assert merged.values["engine"] == "./mine" and merged.values["bot"] is None
    assert merge(table(), {}, file).values["bot"] == "random"


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
    demo = Declared(argparse.ArgumentParser())
    demo.add_argument("--move-overhead", type=int)
    found = demo.table()
    with pytest.raises(ConfigError) as caught:
        read_toml(found, "move_overhead = 5\n", "bot.toml")
    assert str(caught.value) == (
        "bot.toml:1: move_overhead: unknown key: write it 'move-overhead' "
        "(the option's name, with dashes)"
    )
    assert read_toml(found, "move-overhead = 5\n", "bot.toml").values == {"move_overhead": 5}


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
        ("option = {a = 1}", "option: expected a list [...], each a string; not a table"),
        ("each = 5", "each: expected a string of KEY=VALUE words, not 5"),
        ("each = 'a=\"b'", "each: 'a=\"b': No closing quotation"),
        ("player = [['a', 1]]", "player: expected a string of KEY=VALUE words, not a list"),
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
        read_toml(table(), "games = 0\nwait = 0\n", "bot.toml")
    assert str(caught.value) == (
        "2 problems:\n  bot.toml:1: games: must be at least 1, not 0\n"
        "  bot.toml:2: wait: must be more than 0, not 0"
    )


def test_a_file_that_is_not_toml_names_its_line() -> None:
    (problem,) = problems('games = 3\nname = = "x"\n')
    assert problem.startswith("bot.toml: not TOML: ") and "line 2" in problem


def test_relative_paths_are_taken_from_the_files_folder(tmp_path: Path) -> None:
    read = read_toml(table(), 'out = "games"\n', "bot.toml", tmp_path)
    assert read.values["out"] == tmp_path / "games"
    assert read_toml(table(), 'out = "/abs/games"\n', "bot.toml", tmp_path).values["out"] == Path(
        "/abs/games"
    )


def test_key_lines_skip_comments_and_multi_line_values_and_know_tables() -> None:
    text = (
        '# games = 1\n"games" = 2\nlist = [\n  "x = 1",\n]\ntext = """\nname = 3\n"""\n'
        '[table]\nname = "x"\n[name]\nkey.sub = 1\n'
    )
    found = key_lines(text)
    assert found[("games",)] == 2 and found[("list",)] == 3 and found[("text",)] == 6
    assert ("x",) not in found and found[("table",)] == 9 and found[("table", "name")] == 10
    assert found[("name",)] == 11 and found[("name", "key")] == 12
    assert key_lines("gamesx = 1\n").get(("games",)) is None


def test_a_repeatable_option_given_one_plain_value_is_a_list_of_one() -> None:
    read = read_toml(
        table(), 'option = "A=1"\neach = "tc=1 name=\'a b\'"\nplayer = "x=1 y=2"\n', "f"
    )
    assert read.values == {
        "option": ["A=1"],
        "each": ["tc=1", "name=a b"],
        "player": [["x=1", "y=2"]],
    }
    lists = read_toml(table(), 'each = ["tc=1", "st=2"]\nplayer = ["x=1 y=2", ["z=3"]]\n', "f")
    assert lists.values == {"each": ["tc=1", "st=2"], "player": [["x=1", "y=2"], ["z=3"]]}


def test_printed_settings_mask_secrets_name_sources_and_read_back(tmp_path: Path) -> None:
    file = read_toml(table(), 'password = "hunter22"\ngames = 4\nname = "a \\"b\\""\n', "bot.toml")
    given = {"option": ["A=1"], "out": Path("x"), "each": ["a=1 2"], "player": [["p=a b", "q"]]}
    merged = merge(table(), given, file)
    text = merged.render()
    assert "hunter22" not in text
    assert f'password = "{MASK}"  # bot.toml:1' in text
    assert "games = 4  # bot.toml:2" in text and "# engine: not set" in text
    assert 'option = ["A=1"]  # command line' in text and "wait = 30.0  # default" in text
    assert "each = [\"'a=1 2'\"]  # command line" in text
    again = read_toml(table(), text, "printed.toml")
    assert {dest: again.values.get(dest) for dest in merged.values} == {
        **merged.values,
        "password": MASK,
    }
    assert tomllib.loads(text)["name"] == 'a "b"'


def test_settings_reads_the_config_option_of_parsed_arguments(tmp_path: Path) -> None:
    config = tmp_path / "demo.toml"
    config.write_text('games = 2\nout = "records"\n')
    merged = settings(parser().parse_args(["--config", str(config), "--games", "5"]), table())
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


def test_an_option_that_cannot_be_a_key_is_found_when_it_is_declared() -> None:
    demo = Declared(argparse.ArgumentParser())
    with pytest.raises(TypeError, match="--quiet: action 'count' cannot be a config file key"):
        demo.add_argument("-q", "--quiet", action="count")
