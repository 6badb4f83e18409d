"""The JSON config files `tei match` once read, as the TOML keys they mean.

`tei match --config old.json` is refused (status 2) with the same settings written as
TOML; `--print-config` converts it. Their keys were the settings dict's (`records`,
`openings_format`, `engines` as objects, `rules` as an object).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tei.cli.config import ConfigError, FileSettings, check
from tei.cli.keys import OptionTable

#: rules given by their own option (the rest become `rule = ["key=value"]`)
RULE_KEYS = {"size": "size", "komi": "komi", "players": "players", "teams": "teams"}
#: settings keys whose option has another name
RENAMED = {"records": "ptnout", "engines": "engine", "shortgame": "short-game"}


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def engine_words(entry: Mapping[str, Any]) -> str:
    """A JSON engine object as the words of `--engine` (`cmd='./x --y' name=a`)."""
    words: list[str] = []
    for key, value in entry.items():
        if key == "options" and isinstance(value, Mapping):
            words += [f"option.{name}={_text(v)}" for name, v in value.items()]
        elif key == "arg" and isinstance(value, list):
            words += [f"arg={_text(v)}" for v in value]
        elif key == "cmd" and isinstance(value, list):
            words.append(f"cmd={shlex.join(_text(v) for v in value)}")
        elif value is not None:
            words.append(f"{key}={_text(value)}")
    return shlex.join(words)


def _words(value: Any) -> Any:
    """An adjudication setting (words, a list or an object; true: on) as option words."""
    if value is True:
        return []
    if isinstance(value, Mapping):
        return [f"{k}={_text(v)}" for k, v in value.items()]
    return value


def toml_keys(data: Mapping[str, Any]) -> dict[str, Any]:
    """The TOML keys and values that mean the settings of a JSON config."""
    out: dict[str, Any] = {}
    rest = dict(data)
    rules = {str(k).lower(): v for k, v in dict(rest.pop("rules", None) or {}).items()}
    for key in RULE_KEYS:
        if key in rest:
            rules[key] = rest.pop(key)
    for key, value in rules.items():
        if key in RULE_KEYS:
            out[key] = _text(value) if key == "komi" else value
        elif key == "shortgame":
            out["short-game"] = str(value).lower() == "true"
        else:
            out.setdefault("rule", []).append(f"{key}={_text(value)}")
    if isinstance(rest.get("engines"), list):
        rest["engines"] = [
            engine_words(e) if isinstance(e, Mapping) else e for e in rest["engines"]
        ]
    if isinstance(rest.get("each"), Mapping):
        rest["each"] = engine_words(rest["each"])
    for key in ("resign", "draw", "tinue_adjudication"):
        if key in rest:
            rest[key] = _words(rest[key])
    for key, value in rest.items():
        if value is None or value is False:
            continue
        out[RENAMED.get(key, key.replace("_", "-"))] = value
    return out


def read_json_config(table: OptionTable, text: str, path: Path) -> FileSettings | None:
    """The settings of an old JSON config file, or None when `text` is not one."""
    if not text.lstrip().startswith("{"):  # TOML never starts with a brace
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:  # not JSON, or nested too deep
        why = "nested too deep" if isinstance(exc, RecursionError) else exc
        raise ConfigError([f"{path}: not TOML (nor JSON: {why})"]) from None
    read = check(table, toml_keys(data), str(path), {}, path.absolute().parent)
    return FileSettings(read.name, read.values, read.lines, converted_from="JSON")
