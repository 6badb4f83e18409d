"""A command's options declared once: each `add_argument` call on a `Declared` parser
adds the argparse option and records it as a config-file key (`Option`), so the parser
and the file's keys come from the same declaration and nothing reads argparse's
internals. `Declared.finish` adds `--config FILE` and `--print-config` and returns the
command's `OptionTable`.

The parser is given None for every default ("not given", so that the command line can
be told from the file); the real default stays on the `Option` and in the help.
"""

from __future__ import annotations

import argparse
import difflib
import enum
import shlex
from collections.abc import Callable, Iterable
from pathlib import Path, PurePath
from typing import Any, Protocol

import attrs

from tei.lines import quote

#: options that are not settings: they never get a key
NOT_SETTINGS = ("help", "config", "print-config")


class Container(Protocol):
    """What declares options: an argparse parser or group, or a `Declared` one."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action: ...


class Parser(Container, Protocol):
    """What declares groups of options: an argparse parser or a `Declared` one."""

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any: ...


class Kind(enum.Enum):
    """How an option takes its value: the file's TOML type."""

    VALUE = "value"  # one value: a string (or a number, for a typed option)
    FLAG = "flag"  # true or false
    LIST = "list"  # a repeatable option: a list of values
    WORDS = "words"  # one option with several words (`--each tc=10 st=1`)
    WORD_LISTS = "word lists"  # a repeatable option of several words (`--engine`)


def _article(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def show(raw: object) -> str:
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


def split_words(text: str) -> list[str]:
    """Shell words of a TOML string (`"cmd='my bot' tc=10"`); ValueError if unbalanced."""
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"{quote(text)}: {exc}") from None


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

    @property
    def shell_words(self) -> bool:
        """Its TOML strings are shell words (`engine = ["bot=search name='a b'"]`)."""
        return self.kind in (Kind.WORDS, Kind.WORD_LISTS) and self.convert is None

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
                raise ValueError(f"expected true or false, not {show(raw)}")
            return self.on if raw else self.off
        if self.kind is Kind.VALUE:
            return self._one(raw, folder)
        items = raw if isinstance(raw, list) else [raw]  # a plain value: a list of one
        if isinstance(raw, dict):
            raise ValueError(f"expected a list [...], each {self.what()}; not a table")
        if self.kind is Kind.WORD_LISTS:
            return [self._words(item) for item in items]
        if self.shell_words:
            return [word for item in items for word in self._words(item)]
        return [self._one(item, folder) for item in items]

    def _words(self, raw: object) -> list[str]:
        """One string of shell words, or a list of words as they are."""
        if isinstance(raw, list) and all(isinstance(word, str) for word in raw):
            return list(raw)
        if not isinstance(raw, str):
            raise ValueError(f"expected a string of KEY=VALUE words, not {show(raw)}")
        return split_words(raw)

    def _one(self, raw: object, folder: Path | None) -> Any:
        numbers_too = self.convert is not None and not self.is_path
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            raise ValueError(f"expected {self.what()}, not {show(raw)}")
        if not isinstance(raw, str) and not numbers_too:
            raise ValueError(f"expected {self.what()} (in quotes), not {show(raw)}")
        value = self._convert(str(raw))
        if self.choices is not None and value not in self.choices:
            shown = ", ".join(str(choice) for choice in self.choices)
            raise ValueError(f"{show(raw)} is not one of {shown}")
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

    def toml(self, value: Any) -> Any:
        """`value` (as the command line gives it) as the file writes it."""
        if self.kind is Kind.WORD_LISTS:
            return [shlex.join(words) for words in value]
        if self.shell_words:
            return [shlex.quote(word) for word in value]
        return value


def option_of(
    flags: tuple[str, ...], kwargs: dict[str, Any], dest: str, group: str, secret: bool
) -> Option | None:
    """The key declared by `add_argument(*flags, **kwargs)`, or None for no setting."""
    longs = [flag for flag in flags if flag.startswith("--")]
    if not longs or longs[0][2:] in NOT_SETTINGS:
        return None
    flag = longs[0]
    action = kwargs.get("action", "store")
    many = kwargs.get("nargs") not in (None, "?")
    common: dict[str, Any] = {
        "key": flag[2:],
        "dest": dest,
        "flag": flag,
        "secret": secret,
        "group": group,
    }
    if action == "store_true" or action is argparse.BooleanOptionalAction:
        return Option(kind=Kind.FLAG, default=kwargs.get("default", False), **common)
    if action == "store_false":
        return Option(
            kind=Kind.FLAG, default=kwargs.get("default", True), on=False, off=True, **common
        )
    if action == "store_const":
        default = kwargs.get("default")
        return Option(kind=Kind.FLAG, default=default, on=kwargs["const"], off=default, **common)
    if action not in ("store", "append"):
        raise TypeError(f"{flag}: action {action!r} cannot be a config file key")
    if action == "append":
        kind = Kind.WORD_LISTS if many else Kind.LIST
    else:
        kind = Kind.WORDS if many else Kind.VALUE
    default = kwargs.get("default")
    if default is None and kind in (Kind.LIST, Kind.WORD_LISTS):
        default = []  # a repeatable option given none; a WORDS option not given is None
    choices = kwargs.get("choices")
    return Option(
        kind=kind,
        default=default,
        convert=kwargs.get("type"),
        choices=tuple(choices) if choices is not None else None,
        **common,
    )


@attrs.frozen
class OptionTable:
    """The options of a command as keys of a config file."""

    options: tuple[Option, ...]
    #: groups of dests that exclude each other (argparse's mutually exclusive groups)
    exclusive: tuple[tuple[str, ...], ...] = ()

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


class _Group:
    """An argparse group whose options are recorded as keys by its `Declared`."""

    def __init__(self, owner: Declared, real: Any, title: str, exclusive: int | None) -> None:
        self._owner, self._real, self._title, self._exclusive = owner, real, title, exclusive

    def add_argument(self, *flags: str, **kwargs: Any) -> argparse.Action:
        return self._owner.declare(self._real, self._title, self._exclusive, flags, kwargs)

    def add_mutually_exclusive_group(self) -> _Group:
        real = self._real.add_mutually_exclusive_group()
        return _Group(self._owner, real, self._title, self._owner.new_exclusive())


class Declared:
    """A parser whose options become the keys of the command's config file."""

    def __init__(
        self,
        parser: argparse.ArgumentParser,
        secret: Iterable[str] = (),
        not_settings: Iterable[str] = (),
    ) -> None:
        self.parser = parser
        self._secret = set(secret)
        self._skip = set(not_settings)
        self._options: list[Option] = []
        self._exclusive: list[list[str]] = []

    def add_argument(self, *flags: str, **kwargs: Any) -> argparse.Action:
        return self.declare(self.parser, "", None, flags, kwargs)

    def add_argument_group(self, title: str, description: str | None = None) -> _Group:
        return _Group(self, self.parser.add_argument_group(title, description), title, None)

    def add_mutually_exclusive_group(self) -> _Group:
        return _Group(self, self.parser.add_mutually_exclusive_group(), "", self.new_exclusive())

    def new_exclusive(self) -> int:
        self._exclusive.append([])
        return len(self._exclusive) - 1

    def declare(
        self,
        real: Container,
        group: str,
        exclusive: int | None,
        flags: tuple[str, ...],
        kwargs: dict[str, Any],
    ) -> argparse.Action:
        """Add the option to the real parser (default None: "not given") and record it."""
        default = kwargs.get("default")
        help_text = kwargs.get("help")
        if isinstance(help_text, str) and "%(default)s" in help_text:
            kwargs = {**kwargs, "help": help_text.replace("%(default)s", str(default))}
        settable = not any(flag.lstrip("-") in self._skip for flag in flags)
        given = {**kwargs, "default": None} if settable else kwargs
        if given.get("action") == "store_const":
            given["default"] = None
        action = real.add_argument(*flags, **given)
        option = option_of(flags, kwargs, action.dest, group, False) if settable else None
        if option is not None:
            option = attrs.evolve(option, secret=option.key in self._secret)
            self._options.append(option)
            if exclusive is not None:
                self._exclusive[exclusive].append(option.dest)
        return action

    def table(self) -> OptionTable:
        keys = {option.key for option in self._options}
        if self._secret - keys:
            raise ValueError(f"no option for the secret keys {sorted(self._secret - keys)}")
        return OptionTable(tuple(self._options), tuple(tuple(g) for g in self._exclusive if g))
