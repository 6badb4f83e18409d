"""Named engines (as cutechess-cli's engines.json): a TOML file of one table per engine,
read by `tei match --engines FILE` (`--engine conf=NAME`) and `tei playtak --engines FILE
--engine-conf NAME`.

    [tiltak]
    cmd = "tiltak --threads 2"
    options = { Hash = 256 }
    tc = "60+1"

A table's keys are those of an `--engine` spec (`cmd`, `bot`, `name`, `dir`, `arg`,
`options`, `tc`, ...); its entry is what `--engine` words give (strings; `options` a table
of strings; `arg` a list). `name` defaults to the table's name; a relative `dir` is taken
from the file's folder. Every problem names the file, the line and the engine.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from adapters.referee.config import ENGINE_KEYS
from tei.cli.config import ConfigError, key_lines, load_toml, read_text
from tei.cli.keys import show

#: keys whose value is one string (a number or true/false is written as one)
TEXT_KEYS = ("cmd", "name", "dir", "bot", "tc", "st", "nodes", "depth", "margin", "restart")


@attrs.frozen
class NamedEngine:
    """One engine of the file: its entry (as `--engine` words give it) and its place."""

    conf: str
    entry: Mapping[str, Any]
    file: str
    lines: Mapping[str, int]

    def place(self, key: str | None = None) -> str:
        """`FILE:LINE` (the line of `key` when it has one)."""
        line = self.lines.get(key or "") or self.lines.get("")
        return f"{self.file}:{line}" if line else self.file

    def where(self, key: str | None = None) -> str:
        """`FILE:LINE: engine 'NAME'` (the line of `key` when it has one)."""
        return f"{self.place(key)}: engine {self.conf!r}"


def _text(raw: object) -> str:
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, str | int | float):
        return str(raw)
    raise ValueError(f"expected a string, not {show(raw)}")


def _value(key: str, raw: object, folder: Path) -> Any:
    """The entry's value of `key` from its TOML value; ValueError if of the wrong type."""
    if key == "options":
        if not isinstance(raw, dict):
            raise ValueError(f"expected a table {{ NAME = VALUE, ... }}, not {show(raw)}")
        return {str(name): _text(value) for name, value in raw.items()}
    if key == "arg":
        items = raw if isinstance(raw, list) else [raw]
        return [_text(item) for item in items]
    if key == "conf":
        raise ValueError("a named engine cannot name another")
    text = _text(raw)
    if key == "dir" and not Path(text).is_absolute():
        return str(folder / text)
    return text


def _engine(
    conf: str, table: object, file: str, folder: Path, found: Mapping[tuple[str, ...], int]
) -> NamedEngine:
    lines = {"": found.get((conf,), 0)}
    lines.update(
        {path[1]: line for path, line in found.items() if len(path) == 2 and path[0] == conf}
    )
    where = NamedEngine(conf, {}, file, lines).where
    if not isinstance(table, dict):
        raise ConfigError(
            [f"{where()}: expected a table [{conf}] of engine keys, not {show(table)}"]
        )
    problems: list[str] = []
    entry: dict[str, Any] = {"name": conf}
    for key, raw in table.items():
        if key not in ENGINE_KEYS:
            close = difflib.get_close_matches(key, ENGINE_KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(f"{where(key)}: {key}: unknown key{hint}")
            continue
        try:
            entry[key] = _value(key, raw, folder)
        except ValueError as exc:
            problems.append(f"{where(key)}: {key}: {exc}")
    if "cmd" in entry and "bot" in entry:
        problems.append(f"{where('bot')}: give cmd or bot, not both")
    elif "cmd" not in entry and "bot" not in entry:
        problems.append(f"{where()}: needs cmd = COMMAND or bot = NAME")
    if problems:
        raise ConfigError(problems)
    return NamedEngine(conf, entry, file, lines)


@attrs.frozen
class EngineFile:
    """The engines of a file, by name."""

    file: str
    engines: Mapping[str, NamedEngine]

    def get(self, conf: str) -> NamedEngine:
        """The engine named `conf`; ConfigError naming the file and the names it has."""
        found = self.engines.get(conf)
        if found is not None:
            return found
        close = difflib.get_close_matches(conf, list(self.engines), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        known = ", ".join(self.engines) or "none"
        raise ConfigError([f"{self.file}: no engine {conf!r} ({hint}known: {known})"])


def parse_engines(text: str, file: str, folder: Path) -> EngineFile:
    """The engines of the TOML `text` (the file `file`); ConfigError lists every problem."""
    data = load_toml(text, file)
    found = key_lines(text)
    engines: dict[str, NamedEngine] = {}
    problems: list[str] = []
    for conf, table in data.items():
        try:
            engines[conf] = _engine(conf, table, file, folder, found)
        except ConfigError as exc:
            problems.extend(exc.problems)
    if problems:
        raise ConfigError(problems)
    return EngineFile(file, engines)


def read_engines(path: Path) -> EngineFile:
    """The engines file at `path`; ConfigError if unreadable or bad."""
    return parse_engines(read_text(path, "engines file"), str(path), path.absolute().parent)


def named_engine(path: Path | None, conf: str, flag: str) -> NamedEngine:
    """The engine `conf` of the engines file `path`; ConfigError when there is none
    (`flag` names what asked for it)."""
    if path is None:
        raise ConfigError([f"{flag} {conf}: give the engines file too (--engines FILE)"])
    return read_engines(path).get(conf)
