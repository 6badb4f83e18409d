"""Settings from a TOML config file under the command line (pure but for `read_config`).

The keys of the file are the long option names of a command, with dashes
(`move-overhead = 500` for `--move-overhead 500`). `OptionTable.from_parser` reads them
off the argparse parser with each option's type, choices and default, so an option added
later has its key without more code and the parser stays the one source of defaults.
`add_config_options` adds `--config FILE` and `--print-config` and sets the parser's
defaults to None ("not given"), so that `OptionTable.merge` can rank the sources:
the command line over the file over the defaults.

A file value goes through the option's own type as the command line's text would, so a
bad value is refused with the same words, plus the file's name, the key's line and the key
(`bot.toml:7: move-overhead: must be at least 0, not -5`). Relative paths in the file
(options whose type is `Path`) are taken from the file's folder.
"""

from __future__ import annotations

import argparse
import copy
import difflib
import enum
import json
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path, PurePath
from typing import Any

import attrs

from tei.errors import TeiError
from tei.file_bounds import read_config_bytes
from tei.lines import quote

#: where a value came from, when not from the file
DEFAULT = "default"
COMMAND_LINE = "command line"
#: what a secret value looks like in --print-config
MASK = "********"
#: the namespace attribute that carries a parser's OptionTable (see `table_of`)
TABLE = "option_table"
#: options that are not settings: they never get a key
NOT_SETTINGS = ("help", "config", "print-config")


class ConfigError(TeiError, ValueError):
    """Bad settings in a config file; each problem names the file, the line and the key."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        if len(self.problems) == 1:
            text = self.problems[0]
        else:
            text = f"{len(self.problems)} problems:\n  " + "\n  ".join(self.problems)
        super().__init__(text)


class Kind(enum.Enum):
    """How an option takes its value: the file's TOML type."""

    VALUE = "value"  # one value: a string (or a number, for a typed option)
    FLAG = "flag"  # true or false
    LIST = "list"  # a repeatable option: a list of values


def _article(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _show(raw: object) -> str:
    """A TOML value as an error message mentions it."""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, str):
        return quote(raw)
    if isinstance(raw, int | float):
        return repr(raw)
    if isinstance(raw, list):
        return "a list"
    if isinstance(raw, dict):
        return "a table"
    return f"a {type(raw).__name__}"


@attrs.frozen
class Option:
    """One option of the command line as a key of the file."""

    key: str
    dest: str
    flag: str
    kind: Kind
    default: Any
    convert: Callable[[str], Any] | None = None
    choices: tuple[Any, ...] | None = None
    #: a flag's values for `true` and `false`
    on: Any = True
    off: Any = False
    secret: bool = False
    group: str = ""

    @property
    def is_path(self) -> bool:
        return isinstance(self.convert, type) and issubclass(self.convert, PurePath)

    def what(self) -> str:
        """What the file must give for one value (a flag: true or false)."""
        if self.kind is Kind.FLAG:
            return "true or false"
        if self.convert is None:
            return "a string"
        if self.is_path:
            return "a path (a string)"
        return _article(getattr(self.convert, "__name__", "value"))

    def value(self, raw: object, folder: Path | None = None) -> Any:
        """The file's TOML value as the command line would give it (relative paths from
        `folder`); ValueError says what is wrong with it (a secret's value unquoted)."""
        try:
            return self._value(raw, folder)
        except ValueError:
            if not self.secret:
                raise
            raise ValueError(f"expected {self.what()} (the value is not shown)") from None

    def _value(self, raw: object, folder: Path | None) -> Any:
        if self.kind is Kind.FLAG:
            if not isinstance(raw, bool):
                raise ValueError(f"expected true or false, not {_show(raw)}")
            return self.on if raw else self.off
        if self.kind is Kind.LIST:
            if not isinstance(raw, list):
                raise ValueError(f"expected a list [...], each {self.what()}; not {_show(raw)}")
            return [self._one(item, folder) for item in raw]
        return self._one(raw, folder)

    def _one(self, raw: object, folder: Path | None) -> Any:
        numbers_too = self.convert is not None and not self.is_path
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            raise ValueError(f"expected {self.what()}, not {_show(raw)}")
        if not isinstance(raw, str) and not numbers_too:
            raise ValueError(f"expected {self.what()} (in quotes), not {_show(raw)}")
        value = self._convert(str(raw))
        if self.choices is not None and value not in self.choices:
            shown = ", ".join(str(choice) for choice in self.choices)
            raise ValueError(f"{_show(raw)} is not one of {shown}")
        if self.is_path and folder is not None and not Path(value).is_absolute():
            value = type(value)(folder / value)
        return value

    def _convert(self, text: str) -> Any:
        if self.convert is None:
            return text
        try:
            return self.convert(text)
        except argparse.ArgumentTypeError as exc:
            raise ValueError(str(exc)) from None
        except (TypeError, ValueError):
            name = getattr(self.convert, "__name__", "")
            raise ValueError(f"invalid {name} value: {quote(text)}".replace("  ", " ")) from None


def _option(action: argparse.Action, secret: Iterable[str], group: str) -> Option | None:
    """The key of one argparse action, or None for an option that is no setting."""
    longs = [s for s in action.option_strings if s.startswith("--")]
    if not longs or longs[0][2:] in NOT_SETTINGS:
        return None
    flag = longs[0]
    key = flag[2:]
    common: dict[str, Any] = {
        "key": key,
        "dest": action.dest,
        "flag": flag,
        "default": action.default,
        "secret": key in secret,
        "group": group,
    }
    choices = tuple(action.choices) if action.choices is not None else None
    if isinstance(action, argparse.BooleanOptionalAction):
        return Option(kind=Kind.FLAG, **common)
    if isinstance(action, argparse._StoreConstAction):  # store_true, store_false, store_const
        return Option(kind=Kind.FLAG, on=action.const, off=action.default, **common)
    if isinstance(action, argparse._AppendAction | argparse._ExtendAction) or (
        isinstance(action, argparse._StoreAction) and action.nargs not in (None, "?")
    ):
        return Option(kind=Kind.LIST, convert=action.type, choices=choices, **common)  # type: ignore[arg-type]
    if isinstance(action, argparse._StoreAction):
        return Option(kind=Kind.VALUE, convert=action.type, choices=choices, **common)  # type: ignore[arg-type]
    raise TypeError(f"{flag}: a {type(action).__name__} cannot be a config file key")


def key_line(text: str, key: str) -> int | None:
    """The line (from 1) that sets the top-level `key` in the TOML `text`: `key = ...`
    (or `key.sub = ...`) before the first table, or a `[key]` or `[[key]]` table."""
    names = "|".join(re.escape(name) for name in (key, f'"{key}"', f"'{key}'"))
    assign = re.compile(rf"\s*(?:{names})\s*[.=]")
    header = re.compile(rf"\s*\[\[?\s*(?:{names})\s*[.\]]")
    in_table = False
    for number, line in enumerate(text.splitlines(), 1):
        if header.match(line):
            return number
        if line.lstrip().startswith("["):
            in_table = True
        elif not in_table and assign.match(line):
            return number
    return None


@attrs.frozen
class FileSettings:
    """The checked values of a config file, by dest, and the line of each."""

    name: str
    values: Mapping[str, Any]
    lines: Mapping[str, int | None]

    def where(self, dest: str) -> str:
        line = self.lines.get(dest)
        return f"{self.name}:{line}" if line else self.name


@attrs.frozen
class OptionTable:
    """The options of a command as keys of a config file."""

    options: tuple[Option, ...]
    #: groups of dests that exclude each other (argparse's mutually exclusive groups)
    exclusive: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def from_parser(
        cls, parser: argparse.ArgumentParser, secret: Iterable[str] = ()
    ) -> OptionTable:
        """Every option of `parser` (but --help, --config, --print-config); the keys in
        `secret` are masked by `Settings.render`."""
        secrets = set(secret)
        group_of = {
            id(action): group.title or ""
            for group in parser._action_groups
            for action in group._group_actions
        }
        options = []
        for action in parser._actions:
            option = _option(action, secrets, group_of.get(id(action), ""))
            if option is not None:
                options.append(option)
        dests = {option.dest for option in options}
        exclusive = tuple(
            tuple(a.dest for a in group._group_actions if a.dest in dests)
            for group in parser._mutually_exclusive_groups
        )
        unknown = secrets - {option.key for option in options}
        if unknown:
            raise ValueError(f"no option for the secret keys {sorted(unknown)}")
        return cls(tuple(options), exclusive)

    def by_key(self) -> dict[str, Option]:
        return {option.key: option for option in self.options}

    def by_dest(self) -> dict[str, Option]:
        return {option.dest: option for option in self.options}

    def unknown(self, key: str) -> str:
        """Why `key` is refused, with the key that was probably meant."""
        keys = self.by_key()
        dashed = key.replace("_", "-").lstrip("-")
        if dashed in keys:
            return f"unknown key: write it {dashed!r} (the option's name, with dashes)"
        if dashed in NOT_SETTINGS:
            return "unknown key: only a command-line option"
        close = difflib.get_close_matches(key, list(keys), n=1)
        return "unknown key" + (f" (did you mean {close[0]!r}?)" if close else "")

    def read(self, text: str, name: str, folder: Path | None = None) -> FileSettings:
        """The settings of the TOML `text` (the file `name`; relative paths from `folder`);
        ConfigError lists every unknown key and bad value with its line."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError([f"{name}: not TOML: {exc}"]) from None
        keys = self.by_key()
        problems: list[str] = []
        values: dict[str, Any] = {}
        lines: dict[str, int | None] = {}
        for key, raw in data.items():
            line = key_line(text, key)
            where = f"{name}:{line}" if line else name
            option = keys.get(key)
            if option is None:
                problems.append(f"{where}: {key}: {self.unknown(key)}")
                continue
            try:
                values[option.dest] = option.value(raw, folder)
            except ValueError as exc:
                problems.append(f"{where}: {key}: {exc}")
                continue
            lines[option.dest] = line
        settings = FileSettings(name, values, lines)
        by_dest = self.by_dest()
        for group in self.exclusive:
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

    def merge(self, given: Mapping[str, Any], file: FileSettings | None = None) -> Settings:
        """The settings: the command line's values (`given`, by dest; None: not given)
        over the file's over the defaults. An option given on the command line drops the
        file's value of the options it excludes (`--engine` drops the file's `bot`)."""
        overruled = {
            dest
            for group in self.exclusive
            if any(given.get(d) is not None for d in group)
            for dest in group
        }
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        for option in self.options:
            dest = option.dest
            if given.get(dest) is not None:
                values[dest], sources[dest] = given[dest], COMMAND_LINE
            elif file is not None and dest in file.values and dest not in overruled:
                values[dest], sources[dest] = file.values[dest], file.where(dest)
            else:
                values[dest], sources[dest] = copy.copy(option.default), DEFAULT
        return Settings(self, values, sources, file.name if file else None)


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

    def apply(self, args: argparse.Namespace) -> argparse.Namespace:
        """A copy of `args` with the merged values."""
        merged = argparse.Namespace(**vars(args))
        for dest, value in self.values.items():
            setattr(merged, dest, value)
        return merged

    def blame(self, message: object, *dests: str) -> str:
        """`message` about the options `dests`, led by the file's name, line and key
        when the file set one of them."""
        by_dest = self.table.by_dest()
        for dest in dests:
            source = self.sources.get(dest, DEFAULT)
            if source not in (DEFAULT, COMMAND_LINE):
                return f"{source}: {by_dest[dest].key}: {message}"
        return str(message)

    def render(self) -> str:
        """The settings as a TOML config file, each with its source, secrets masked."""
        origin = f"{self.file} over " if self.file else ""
        lines = [f"# the settings: the command line over {origin}the defaults"]
        group = None
        for option in self.table.options:
            if option.group != group:
                group = option.group
                lines += ["", f"# {group}"] if group else [""]
            value = self.values[option.dest]
            source = self.sources[option.dest]
            if value is None:
                lines.append(f"# {option.key}: not set")
                continue
            shown = MASK if option.secret and value else value
            lines.append(f"{option.key} = {toml_value(shown)}  # {source}")
        return "\n".join(lines) + "\n"


def add_config_options(
    parser: argparse.ArgumentParser, secret: Iterable[str] = (), what: str = "settings"
) -> OptionTable:
    """`--config FILE` and `--print-config` for every option added to `parser` so far
    (call it last); the parser's defaults become None ("not given": see `settings`)."""
    table = OptionTable.from_parser(parser, secret)
    group = parser.add_argument_group("config file")
    group.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help=f"read the {what} from this TOML file: its keys are the long option names "
        "(move-overhead = 500); the command line overrides it",
    )
    group.add_argument(
        "--print-config",
        action="store_true",
        help="print the merged settings (command line, file, defaults) as a config file, "
        "passwords masked, and exit (status 2 if they are bad)",
    )
    for action in parser._actions:
        if action.help and "%(default)s" in action.help:  # the real default, not None
            action.help = action.help.replace("%(default)s", str(action.default))
    parser.set_defaults(**{option.dest: None for option in table.options}, **{TABLE: table})
    return table


def table_of(parser: argparse.ArgumentParser) -> OptionTable:
    """The OptionTable that `add_config_options` attached to `parser`."""
    table = parser.get_default(TABLE)
    if not isinstance(table, OptionTable):
        raise TypeError("the parser has no config options (add_config_options)")
    return table


def read_config(path: Path, table: OptionTable) -> FileSettings:
    """The config file at `path`, checked against `table`; ConfigError if bad or unreadable."""
    try:
        data = read_config_bytes(path)
    except OSError as exc:
        why = exc.strerror or exc
        raise ConfigError([f"cannot read the config file {str(path)!r}: {why}"]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError([f"{path}: not UTF-8 text (byte {exc.start})"]) from None
    return table.read(text, str(path), path.absolute().parent)


def settings(args: argparse.Namespace) -> Settings:
    """The merged settings of parsed arguments: the command line over `--config FILE`
    over the defaults; ConfigError names a bad file, key or value."""
    table: OptionTable = getattr(args, TABLE)
    config = getattr(args, "config", None)
    file = read_config(config, table) if config is not None else None
    given = {option.dest: getattr(args, option.dest, None) for option in table.options}
    return table.merge(given, file)
