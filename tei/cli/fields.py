"""Settings classes: a command's options declared once, as the fields of frozen attrs
classes.

Each field is one option: `setting("--games", help=..., type=int_in(1), default=2)` gives
the field its default and its command-line form (a `Flag`). `add_fields` declares a
class's fields on a parser, one argument group per class (its `TITLE`); on a `Declared`
parser they are the keys of the command's config file too (`declare`). `of` builds an
instance from the parsed (or merged) values.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from tei.cli.keys import Declared, Parser

#: the metadata key of a field's `Flag`
FLAG = "tei.cli.flag"


@attrs.frozen
class Flag:
    """How a field is given on the command line (argparse's words for it)."""

    names: tuple[str, ...]
    help: str
    metavar: str | None = None
    type: Callable[[str], Any] | None = None
    choices: tuple[Any, ...] | None = None
    #: argparse's action: its name or class (argparse.BooleanOptionalAction)
    action: Any = None
    nargs: str | None = None
    required: bool = False
    #: --print-config masks its value
    secret: bool = False
    #: False: a command-line option only, never a key of the config file
    setting: bool = True

    @property
    def key(self) -> str:
        """Its config-file key: the long name without the dashes."""
        longs = [name for name in self.names if name.startswith("--")]
        return longs[0][2:] if longs else self.names[0]

    def arguments(self, dest: str, default: Any) -> dict[str, Any]:
        """`add_argument`'s keyword arguments for it."""
        given = {
            "metavar": self.metavar,
            "type": self.type,
            "choices": self.choices,
            "action": self.action,
            "nargs": self.nargs,
            "required": self.required or None,
        }
        out: dict[str, Any] = {name: value for name, value in given.items() if value is not None}
        if not self.names[0].startswith("-"):  # a positional: its name is its dest
            return {**out, "help": self.help}
        out["dest"] = dest
        if default is not None or self.action in (None, "append"):
            out["default"] = default
        return {**out, "help": self.help}


def setting(*names: str, help: str, default: Any = None, **flag: Any) -> Any:
    """A field that is the option `names` (see `Flag`); a list default is copied per
    instance."""
    if isinstance(default, list):
        return attrs.field(factory=default.copy, metadata={FLAG: Flag(names, help, **flag)})
    return attrs.field(default=default, metadata={FLAG: Flag(names, help, **flag)})


def switch(*names: str, help: str, **flag: Any) -> Any:
    """A field that is an on/off option (`store_true`), off by default."""
    return setting(*names, help=help, action="store_true", default=False, **flag)


T = TypeVar("T")


def flags(cls: type) -> list[tuple[attrs.Attribute[Any], Flag]]:
    """The fields of `cls` and their flags, in order."""
    return [(field, field.metadata[FLAG]) for field in attrs.fields(cls)]


def _default(field: attrs.Attribute[Any]) -> Any:
    default: Any = field.default
    return default.factory() if isinstance(default, attrs.Factory) else default  # type: ignore[arg-type]


def add_fields(parser: Parser, cls: type) -> None:
    """Declare the fields of `cls` as options of `parser`: in the group `cls.TITLE` (with
    `cls.DESCRIPTION`), those named in `cls.EXCLUSIVE` excluding each other."""
    title: str = getattr(cls, "TITLE", "")
    group: Any = parser
    if title:
        group = parser.add_argument_group(title, getattr(cls, "DESCRIPTION", None))
    exclusive_names: tuple[str, ...] = getattr(cls, "EXCLUSIVE", ())
    exclusive = group.add_mutually_exclusive_group() if exclusive_names else None
    for field, flag in flags(cls):
        where = exclusive if exclusive is not None and field.name in exclusive_names else group
        where.add_argument(*flag.names, **flag.arguments(field.name, _default(field)))


def add_settings(parser: Parser, classes: Iterable[type]) -> None:
    """Declare the fields of each of `classes` on `parser`, in turn (`add_fields`)."""
    for cls in classes:
        add_fields(parser, cls)


def declare(real: argparse.ArgumentParser, classes: Sequence[type]) -> Declared:
    """A `Declared` parser holding the fields of `classes` (their secret flags masked,
    their command-line-only flags no keys), ready for more options and `finish`."""
    every = [flag for cls in classes for _, flag in flags(cls)]
    secret = [flag.key for flag in every if flag.secret]
    skip = [flag.key for flag in every if not flag.setting]
    parser = Declared(real, secret, skip)
    add_settings(parser, classes)
    return parser


def of(cls: type[T], values: argparse.Namespace | Mapping[str, Any]) -> T:
    """An instance of `cls` from parsed arguments or values by dest."""
    found = vars(values) if isinstance(values, argparse.Namespace) else values
    return cls(**{field.name: found[field.name] for field in attrs.fields(cls)})  # type: ignore[arg-type]
