"""`tei match --config FILE` (TOML, the loader of tei playtak), `--print-config`, named
engines (`--engines FILE`, `conf=NAME`), old JSON configs, and the help's metavars."""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

import pytest

from adapters.referee.config import build_config
from tei.cli import main
from tei.cli.match import configure, merged_settings
from tei.cli.match_options import option_table, settings_of
from tests.support import ROOT
from tests.support.engines.procs import tei

DOCS = ROOT / "docs"


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    configure(parser)
    return parser.parse_args(list(argv))


def match_settings(*argv: str) -> dict[str, object]:
    return settings_of(merged_settings(parse(*argv)))


def config_file(folder: Path, text: str) -> Path:
    """`match.toml` in `folder`, holding `text`."""
    config = folder / "match.toml"
    config.write_text(text)
    return config


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["match", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_keys_are_the_option_names_and_lists_take_what_the_option_takes(tmp_path: Path) -> None:
    config = config_file(
        tmp_path,
        '# a match\nengine = ["bot=search name=a", "cmd=\'./my bot\' name=b option.Hash=64"]\n'
        'each = ["tc=10+0.1"]\ngames = 20\nptnout = "games.ptn"\nsize = 6\nkomi = "2"\n'
        'rule = "flats=25"\nresign = "movecount=3 score=600"\n',
    )
    settings = match_settings("--config", str(config), "--games", "4")
    assert settings["engines"] == [
        {"bot": "search", "name": "a"},
        {"cmd": "./my bot", "name": "b", "options": {"Hash": "64"}},
    ]
    assert settings["each"]["tc"] == "10+0.1"  # type: ignore[index]
    assert settings["games"] == 4  # the command line over the file
    assert settings["records"] == str(tmp_path / "games.ptn")  # from the file's folder
    assert settings["rules"] == {"size": "6", "komi": "2", "flats": "25"}
    assert settings["resign"] == "movecount=3 score=600"


def test_every_option_but_resume_is_a_key() -> None:
    keys = {option.key for option in option_table().options}
    assert {"engine", "each", "engines", "games", "ptnout", "tinue-adjudication"} <= keys
    assert {"resume", "config", "print-config", "pgnout", "records"}.isdisjoint(keys)


def test_bad_keys_and_values_are_all_named_with_file_line_and_a_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_file(
        tmp_path, 'engine = ["bot=random", "bot=random"]\ngams = 3\nconcurrency = 0\n'
    )
    code, out, err = run(capsys, "--config", str(config))
    assert code == 2 and out == ""
    assert err == (
        "tei match: 2 problems:\n"
        f"  {config}:2: gams: unknown key (did you mean 'games'?)\n"
        f"  {config}:3: concurrency: must be 1..256, not 0\n"
    )


def test_a_bad_engine_spec_in_the_file_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_file(tmp_path, 'games = 2\nengine = ["bot=random colour=red", "bot=random"]\n')
    code, _, err = run(capsys, "--config", str(config))
    assert code == 2 and err.startswith(f"tei match: {config}:2: engine: unknown engine key")


def test_print_config_read_back_gives_the_same_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "--engine", "cmd=./my engine", "name=x y", "option.Hash=64",
        "--engine", "bot=random",
        "--each", "tc=5+0.1", "margin=80",
        "--games", "6", "--size", "4", "--rule", "flats=12", "--ptnout", str(tmp_path / "r.ptn"),
        "--tinue-adjudication", "--sprt", "elo0=0", "elo1=5", "--seed", "7", "--grace", "0.5",
    ]  # fmt: skip
    code, printed, _ = run(capsys, *argv, "--print-config")
    assert code == 0
    assert "engine = [\"'cmd=./my engine' 'name=x y' option.Hash=64\", \"bot=random\"]" in printed
    assert "games = 6  # command line" in printed and "tinue-adjudication = []" in printed
    again = tmp_path / "printed.toml"
    again.write_text(printed)
    assert match_settings("--config", str(again)) == match_settings(*argv)
    code, reprinted, _ = run(capsys, "--config", str(again), "--print-config")
    assert code == 0
    assert tomllib.loads(reprinted) == tomllib.loads(printed)


def test_print_config_shows_the_demonstration_match_and_bad_settings_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "--print-config")
    assert code == 0
    assert 'engine = ["bot=search", "bot=greedy"]  # the demonstration match' in out
    code, out, err = run(capsys, "--print-config", "--engine", "bot=random", "tc=fast")
    assert code == 2 and "engine =" in out and "tc" in err


def test_a_repeatable_key_given_one_plain_value_is_a_list_of_one(tmp_path: Path) -> None:
    config = config_file(
        tmp_path, 'engine = ["bot=random", "bot=greedy"]\neach = "st=0.1 margin=20"\n'
    )
    settings = match_settings("--config", str(config))
    assert {k: settings["each"][k] for k in ("st", "margin")} == {"st": "0.1", "margin": "20"}  # type: ignore[index]


OLD_JSON = {
    "game": "tak",
    "size": 4,
    "komi": 1.5,
    "games": 2,
    "engines": [
        {"cmd": [sys.executable, "my engine.py"], "name": "x", "options": {"Hash": 32}},
        {"bot": "random", "name": "y"},
    ],
    "each": {"tc": "10+0.1"},
    "records": "out.ptn",
    "openings_format": "tps",
    "resign": {"movecount": 3, "score": 600},
    "tinue_adjudication": True,
}


def test_a_json_config_is_refused_with_the_toml_it_means(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "match.json"
    old.write_text(json.dumps(OLD_JSON))
    code, out, err = run(capsys, "--config", str(old))
    assert code == 2 and out == ""
    assert err.startswith(f"tei match: {old}: a JSON config; tei match reads TOML")
    toml = err.split("\n", 1)[1]
    assert "ptnout = " in toml and "openings-format = " in toml and "records" not in toml
    assert not list(tmp_path.glob("*.ptn"))  # nothing was played


def test_print_config_converts_a_json_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "match.json"
    old.write_text(json.dumps(OLD_JSON))
    code, printed, _ = run(capsys, "--config", str(old), "--print-config")
    assert code == 0
    new = tmp_path / "match.toml"
    new.write_text(printed)
    settings = match_settings("--config", str(new))
    assert settings == settings_of(merged_settings(parse("--config", str(old))))
    assert settings["engines"][0] == {  # type: ignore[index]
        "cmd": f"{sys.executable} 'my engine.py'",
        "name": "x",
        "options": {"Hash": "32"},
    }
    assert settings["rules"] == {"size": "4", "komi": "1.5"}
    assert settings["records"] == str(tmp_path / "out.ptn")
    config = build_config(settings)
    assert config.adjudication.resign is not None and config.adjudication.tinue is not None


def test_a_json_config_with_an_unknown_key_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "match.json"
    old.write_text(json.dumps({"engines": [{"bot": "random"}] * 2, "gamez": 3}))
    code, _, err = run(capsys, "--config", str(old))
    assert code == 2 and f"{old}: gamez: unknown key (did you mean" in err


ENGINES = """\
# two engines
[fast]
bot = "random"
tc = "5+0.1"

[mine]
cmd = "./my-engine --threads 2"
arg = "--quiet"
name = "Mine"
dir = "engines"
options = { Hash = 256, Ponder = false }
"""


def test_named_engines_give_their_keys_and_the_spec_wins(tmp_path: Path) -> None:
    engines = tmp_path / "engines.toml"
    engines.write_text(ENGINES)
    settings = match_settings(
        "--engines", str(engines), "--engine", "conf=fast", "--engine", "conf=mine", "tc=1+0"
    )
    assert settings["engines"] == [
        {"bot": "random", "tc": "5+0.1", "name": "fast"},
        {
            "cmd": "./my-engine --threads 2",
            "arg": ["--quiet"],
            "name": "Mine",
            "dir": str(tmp_path / "engines"),
            "options": {"Hash": "256", "Ponder": "false"},
            "tc": "1+0",
        },
    ]


def test_the_engines_file_is_a_key_of_the_config_file_from_its_folder(tmp_path: Path) -> None:
    (tmp_path / "engines.toml").write_text(ENGINES)
    config = config_file(
        tmp_path, 'engines = "engines.toml"\nengine = ["conf=fast", "conf=fast name=b"]\n'
    )
    settings = match_settings("--config", str(config))
    assert [e["name"] for e in settings["engines"]] == ["fast", "b"]  # type: ignore[index, attr-defined]


@pytest.mark.parametrize(
    ("text", "argv", "message"),
    [
        (
            ENGINES.replace('tc = "5+0.1"', 'tc = "fast"'),
            ["conf=fast"],
            "engines.toml:2: engine 'fast': bad time control 'fast'",
        ),
        (
            ENGINES.replace("arg =", "args ="),
            ["conf=fast"],
            "engines.toml:8: engine 'mine': args: unknown key (did you mean 'arg'?)",
        ),
        (
            ENGINES.replace('bot = "random"', 'name = "x"'),
            ["conf=fast"],
            "engines.toml:2: engine 'fast': needs cmd = COMMAND or bot = NAME",
        ),
        (ENGINES, ["conf=slow"], "engines.toml: no engine 'slow' (known: fast, mine)"),
        (ENGINES, ["conf=mien"], "no engine 'mien' (did you mean 'mine'? known: fast, mine)"),
        (
            ENGINES + "[x]\noptions = 3\n",
            ["conf=x"],
            "engines.toml:13: engine 'x': options: expected a table",
        ),
        ("[a\n", ["conf=a"], "engines.toml: not TOML"),
    ],
)  # fmt: skip
def test_a_bad_named_engine_names_the_file_the_line_and_the_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, argv: list[str], message: str
) -> None:
    engines = tmp_path / "engines.toml"
    engines.write_text(text)
    code, _, err = run(
        capsys, "--engines", str(engines), "--engine", *argv, "--engine", "bot=random"
    )
    assert code == 2 and message in err.replace(f"{tmp_path}/", ""), err


def test_conf_without_an_engines_file_or_in_each_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "--engine", "conf=a", "--engine", "bot=random")
    assert code == 2 and "conf=a: give the engines file too (--engines FILE)" in err
    code, _, err = run(
        capsys, "--each", "conf=a", "--engine", "bot=random", "--engine", "bot=random"
    )
    assert code == 2 and "conf=NAME names one engine: give it in --engine" in err


def test_the_example_engines_file_is_valid() -> None:
    from tei.cli.engines import read_engines

    engines = read_engines(DOCS / "engines.toml")
    assert len(engines.engines) >= 3
    for conf in engines.engines:
        assert match_settings(
            "--engines",
            str(DOCS / "engines.toml"),
            "--engine",
            f"conf={conf}",
            "--engine",
            "bot=random",
        )


@pytest.mark.process
def test_a_match_between_named_engines_is_played(tmp_path: Path) -> None:
    engines = tmp_path / "engines.toml"
    engines.write_text('[one]\nbot = "random"\nst = "0.05"\n\n[two]\nbot = "greedy"\nst = "0.05"\n')
    summary = tmp_path / "summary.json"
    done = tei(
        "match", "--engines", str(engines), "--engine", "conf=one", "--engine", "conf=two",
        "--size", "3", "--games", "2", "--quiet", "--json", str(summary),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(summary.read_text())
    assert data["status"] == "finished" and data["pairs"][0]["engines"] == ["one", "two"]


def test_the_help_uses_the_metavars_of_the_other_commands() -> None:
    parser = argparse.ArgumentParser(prog="tei match")
    configure(parser)
    text = parser.format_help()
    for shown in ("--games N", "--concurrency N", "--max-plies N", "--timeout S", "--grace S"):
        assert shown in text
    for old in ("GAMES", "CONCURRENCY", "MAX_PLIES", "TIMEOUT", "SECONDS"):
        assert old not in text
