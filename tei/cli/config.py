"""Settings from a TOML config file under the command line (pure but for `read_text`).

The keys of the file are the long option names of a command, without the leading dashes
(`move-overhead = 500` for `--move-overhead 500`); a repeatable option takes a list of
what the option takes, and one plain value is a list of one. The keys come from the
command's declarations (tei.cli.keys), the same that make its argparse options; the
sources rank: the command line over the file over the defaults.

A file value goes through the option's own type as the command line's text would, so a
bad value is refused with the same words, plus the file's name, the key's line and the key
(`bot.toml:7: move-overhead: must be at least 0, not -5`); every problem is listed at once.
Relative paths in the file (options whose type is `Path`) are taken from the file's folder.
"""

from __future__ import annotations

import argparse
import copy
import json
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from tei.cli import fields
from tei.cli.keys import Declared, OptionTable
from tei.cli.options import set_epilog
from tei.errors import TeiError
from tei.file_bounds import read_config_bytes

#: where a value came from, when not from the file
DEFAULT = "default"
COMMAND_LINE = "command line"
#: what a secret value looks like in --print-config
MASK = "********"


class ConfigError(TeiError, ValueError):
    """Bad settings in a config file; each problem names the file, the line and the key."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        if len(self.problems) == 1:
            text = self.problems[0]
        else:
            text = f"{len(self.problems)} problems:\n  " + "\n  ".join(self.problems)
        super().__init__(text)


def _key_name(text: str) -> str:
    return text.strip().strip("\"'")


def _depth(text: str) -> int:
    """Brackets opened minus closed in a line of TOML, outside quotes and comments."""
    depth, quote_char = 0, ""
    for char in text:
        if quote_char:
            quote_char = "" if char == quote_char else quote_char
        elif char in "\"'":
            quote_char = char
        elif char == "#":
            break
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
    return depth


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The line (from 1) of each key of the TOML `text` by its path: `("games",)` for a
    top-level key, `("tiltak",)` for a `[tiltak]` table, `("tiltak", "tc")` for a key in
    it. The first line wins; lines inside multi-line values are skipped."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    open_brackets, in_string = 0, ""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if in_string:
            in_string = "" if stripped.count(in_string) % 2 else in_string
            continue
        if open_brackets > 0:
            open_brackets += _depth(stripped)
            continue
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            name = stripped.strip("[").split("]")[0]
            table = tuple(_key_name(part) for part in name.split("."))
            lines.setdefault(table, number)
            continue
        key, sep, value = stripped.partition("=")
        if not sep:
            continue
        path = (*table, _key_name(key.split(".")[0]))
        lines.setdefault(path, number)
        for mark in ('"""', "'''"):
            if value.count(mark) % 2:
                in_string = mark
        open_brackets = max(0, _depth(value))
    return lines


@attrs.frozen
class FileSettings:
    """The checked values of a config file, by dest, and the line of each."""

    name: str
    values: Mapping[str, Any]
    lines: Mapping[str, int | None]
    #: the format it was read from when not TOML (a JSON config of tei match)
    converted_from: str | None = None

    def where(self, dest: str) -> str:
        line = self.lines.get(dest)
        return f"{self.name}:{line}" if line else self.name


def check(
    table: OptionTable,
    data: Mapping[str, Any],
    name: str,
    lines: Mapping[tuple[str, ...], int],
    folder: Path | None = None,
) -> FileSettings:
    """The settings of the file `name` read as `data` (its keys' lines in `lines`);
    ConfigError lists every unknown key and bad value with its line."""
    keys = table.by_key()
    problems: list[str] = []
    values: dict[str, Any] = {}
    found: dict[str, int | None] = {}
    for key, raw in data.items():
        line = lines.get((key,))
        where = f"{name}:{line}" if line else name
        option = keys.get(key)
        if option is None:
            problems.append(f"{where}: {key}: {table.unknown(key)}")
            continue
        try:
            values[option.dest] = option.value(raw, folder)
        except ValueError as exc:
            problems.append(f"{where}: {key}: {exc}")
            continue
        found[option.dest] = line
    settings = FileSettings(name, values, found)
    by_dest = table.by_dest()
    for group in table.exclusive:
        given = [dest for dest in group if dest in values]
        if len(given) > 1:
            first, *others = given
            named = ", ".join(f"{by_dest[d].key} ({settings.where(d)})" for d in others)
            problems.append(
                f"{settings.where(first)}: {by_dest[first].key}: cannot go with {named}:"
                " give one of them"
            )
    if problems:
        raise ConfigError(problems)
    return settings


def read_toml(table: OptionTable, text: str, name: str, folder: Path | None = None) -> FileSettings:
    """The settings of the TOML `text` (the file `name`; relative paths from `folder`)."""
    return check(table, load_toml(text, name), name, key_lines(text), folder)


def load_toml(text: str, name: str) -> dict[str, Any]:
    """The data of the TOML `text` of the file `name`; ConfigError if not TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"{name}: not TOML: {exc}"]) from None
    except RecursionError:
        raise ConfigError([f"{name}: not TOML: nested too deep"]) from None


def merge(table: OptionTable, given: Mapping[str, Any], file: FileSettings | None) -> Settings:
    """The settings: the command line's values (`given`, by dest; None: not given) over the
    file's over the defaults. An option given on the command line drops the file's value of
    the options it excludes (`--engine` drops the file's `bot`)."""
    overruled = {
        dest
        for group in table.exclusive
        if any(given.get(d) is not None for d in group)
        for dest in group
    }
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for option in table.options:
        dest = option.dest
        if given.get(dest) is not None:
            values[dest], sources[dest] = given[dest], COMMAND_LINE
        elif file is not None and dest in file.values and dest not in overruled:
            values[dest], sources[dest] = file.values[dest], file.where(dest)
        else:
            values[dest], sources[dest] = copy.copy(option.default), DEFAULT
    if file is None:
        return Settings(table, values, sources)
    return Settings(table, values, sources, file.name, file.converted_from)


def toml_value(value: Any) -> str:
    """`value` (a string, path, number, bool or list of them) written as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string


@attrs.frozen
class Settings:
    """The merged settings of a command, by dest, and where each came from."""

    table: OptionTable
    values: Mapping[str, Any]
    sources: Mapping[str, str]
    file: str | None = None
    converted_from: str | None = None

    def fill(self, values: Mapping[str, Any], source: str) -> Settings:
        """These settings with `values` (by dest) where they hold a default."""
        filled = [dest for dest in values if self.sources.get(dest) == DEFAULT]
        return attrs.evolve(
            self,
            values={**self.values, **{dest: values[dest] for dest in filled}},
            sources={**self.sources, **dict.fromkeys(filled, source)},
        )

    def apply(self, args: argparse.Namespace) -> argparse.Namespace:
        """A copy of `args` with the merged values."""
        merged = argparse.Namespace(**vars(args))
        for dest, value in self.values.items():
            setattr(merged, dest, value)
        return merged

    def given(self, dest: str) -> bool:
        """Whether the command line or the file set `dest`."""
        return self.sources.get(dest, DEFAULT) != DEFAULT

    def blame(self, message: object, *dests: str) -> str:
        """`message` about the options `dests`, led by the file's name, line and key
        when the file set one of them."""
        by_dest = self.table.by_dest()
        for dest in dests:
            source = self.sources.get(dest, DEFAULT)
            if source not in (DEFAULT, COMMAND_LINE):
                return f"{source}: {by_dest[dest].key}: {message}"
        return str(message)

    def render(self, skip: Iterable[str] = (), title: str | None = None) -> str:
        """The settings as a TOML config file, each with its source, secrets masked
        (without those whose source is in `skip`)."""
        origin = f"{self.file} over " if self.file else ""
        lines = [title or f"# the settings: the command line over {origin}the defaults"]
        group = None
        for option in self.table.options:
            value = self.values[option.dest]
            source = self.sources[option.dest]
            if source in skip:
                continue
            if option.group != group:
                group = option.group
                lines += ["", f"# {group}"] if group else [""]
            if value is None:
                lines.append(f"# {option.key}: not set")
                continue
            shown = MASK if option.secret and value else option.toml(value)
            lines.append(f"{option.key} = {toml_value(shown)}  # {source}")
        return "\n".join(lines) + "\n"


def finish(declared: Declared, what: str = "settings") -> OptionTable:
    """`--config FILE` and `--print-config` after the options of `declared` (call it
    last); the command's table of keys."""
    group = declared.parser.add_argument_group("config file")
    group.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help=f"read the {what} from this TOML file: its keys are the long option names "
        "(games = 20); the command line overrides it",
    )
    group.add_argument(
        "--print-config",
        action="store_true",
        help="print the merged settings (command line, file, defaults) as a config file, "
        "passwords masked, and exit (status 2 if they are bad)",
    )
    return declared.table()


class Command:
    """A command's options, declared once by `declare`: on its parser (`configure`, with
    `epilog` after them) and as the keys of its config file (`table`)."""

    def __init__(self, declare: Callable[[argparse.ArgumentParser], OptionTable], epilog: str):
        self._declare = declare
        self._epilog = epilog
        self._table: OptionTable | None = None

    @classmethod
    def of(cls, settings: Sequence[type], epilog: str, what: str) -> Command:
        """The command whose options are the fields of the settings classes `settings`
        (tei.cli.fields), then `--config FILE` and `--print-config`; `what` names what
        the file holds."""

        def declare(real: argparse.ArgumentParser) -> OptionTable:
            return finish(fields.declare(real, settings), what)

        return cls(declare, epilog)

    def configure(self, parser: argparse.ArgumentParser) -> None:
        set_epilog(parser, self._epilog)
        self._declare(parser)

    def table(self) -> OptionTable:
        if self._table is None:
            self._table = self._declare(argparse.ArgumentParser())
        return self._table


def read_text(path: Path, what: str = "config file") -> str:
    """The text of the file at `path`; ConfigError naming it if unreadable or not UTF-8."""
    try:
        data = read_config_bytes(path)
    except OSError as exc:
        why = exc.strerror or exc
        raise ConfigError([f"cannot read the {what} {str(path)!r}: {why}"]) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError([f"{path}: not UTF-8 text (byte {exc.start})"]) from None


#: reads a config file that is not TOML (e.g. an old JSON one), or None for none
OtherFormat = Callable[[str, Path], FileSettings | None]


def read_config(path: Path, table: OptionTable, other: OtherFormat | None = None) -> FileSettings:
    """The config file at `path`, checked against `table`; ConfigError if bad or unreadable.
    `other` may read it first (a JSON config: see tei match)."""
    text = read_text(path)
    found = other(text, path) if other is not None else None
    if found is not None:
        return found
    return read_toml(table, text, str(path), path.absolute().parent)


def settings(
    args: argparse.Namespace, table: OptionTable, other: OtherFormat | None = None
) -> Settings:
    """The merged settings of parsed arguments: the command line over `--config FILE`
    over the defaults; ConfigError names a bad file, key or value."""
    config = getattr(args, "config", None)
    file = read_config(config, table, other) if config is not None else None
    given = {option.dest: getattr(args, option.dest, None) for option in table.options}
    return merge(table, given, file)
