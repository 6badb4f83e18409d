"""The shapes match settings may have (from a config file, the command line or a state
file), checked before any is used (`adapters.referee.settings.check_shapes`): a wrong
type names the setting and what it must be, never a TypeError deep inside
(`"engines": 5`, `"each": [1]`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: the most engines a match may have
MAX_ENGINES = 256

#: a shape: the problem of a value at a name (None when it fits)
Shape = Callable[[str, Any], "str | None"]


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true or false"}
    return names.get(type(value), "a number" if isinstance(value, int | float) else "null")


def _is(test: Callable[[Any], bool], wanted: str) -> Shape:
    def shape(name: str, value: Any) -> str | None:
        if value is None or test(value):
            return None
        return f"{name} must be {wanted}, not {_json_type(value)}"

    return shape


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool)


SCALAR = _is(_scalar, "a string or a number")
TEXT = _is(lambda v: isinstance(v, str), "a string")
WORDS = _is(
    lambda v: isinstance(v, str) or (isinstance(v, list) and all(_scalar(w) for w in v)),
    "a string or a list of strings",
)


def _list_of(item: Shape, wanted: str, most: int | None = None) -> Shape:
    def shape(name: str, value: Any) -> str | None:
        if value is None:
            return None
        if not isinstance(value, list) or (most is not None and len(value) > most):
            return f"{name} must be {wanted}, not {_json_type(value)}"
        return next((w for n, v in enumerate(value, 1) if (w := item(f"{name} {n}", v))), None)

    return shape


def _object_of(shapes: Mapping[str, Shape], other: Shape, wanted: str) -> Shape:
    def shape(name: str, value: Any) -> str | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            return f"{name} must be {wanted}, not {_json_type(value)}"
        found = (shapes.get(k, other)(f"{name}.{k}", v) for k, v in value.items())
        return next((why for why in found if why), None)

    return shape


ENGINE: Shape = _object_of(
    {
        "options": _object_of({}, SCALAR, "an object of option values"),
        "cmd": WORDS,
        "arg": WORDS,
    },
    SCALAR,
    "an engine object",
)
ADJUDICATION = _is(
    lambda v: _scalar(v) or WORDS("", v) is None or _object_of({}, SCALAR, "")("", v) is None,
    "a string, a list of words or an object",
)

RULES = _object_of({}, SCALAR, "an object of rules options")
ENGINES = _list_of(ENGINE, f"a list of at most {MAX_ENGINES} engine objects", MAX_ENGINES)
FILES = _list_of(TEXT, "a list of file names")
