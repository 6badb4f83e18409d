"""Every error a package defines descends from that package's one root."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
import trio

from tei.errors import leaves, main_error

ROOTS = {
    "rules": ("rules.game", "GameError"),
    "tei": ("tei.errors", "TeiError"),
    "adapters.referee": ("adapters.referee.errors", "RefereeError"),
    "adapters.playtak": ("adapters.playtak.errors", "PlaytakError"),
    "adapters.web": ("adapters.web.errors", "WebError"),
}


def errors_defined_in(package: str) -> list[type[BaseException]]:
    found = []
    module = importlib.import_module(package)
    names = [package] + [
        info.name for info in pkgutil.walk_packages(module.__path__, prefix=f"{package}.")
    ]
    for name in names:
        if name.endswith("__main__"):
            continue
        mod = importlib.import_module(name)
        for _, obj in inspect.getmembers(mod, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__ == name:
                found.append(obj)
    return found


@pytest.mark.parametrize("package", sorted(ROOTS))
def test_every_error_of_a_package_has_its_root(package: str) -> None:
    module, name = ROOTS[package]
    root = getattr(importlib.import_module(module), name)
    errors = errors_defined_in(package)
    assert root in errors
    strays = [e.__qualname__ for e in errors if not issubclass(e, root)]
    assert strays == [], f"errors of {package} outside {name}: {strays}"


async def test_the_main_error_of_a_group_is_its_first_leaf_that_is_not_a_cancellation() -> None:
    with trio.CancelScope() as scope:  # trio.Cancelled cannot be made by hand: catch one
        scope.cancel()
        try:
            await trio.sleep(0)
        except trio.Cancelled as caught:
            cancelled = caught

    nested = BaseExceptionGroup(
        "outer", [BaseExceptionGroup("inner", [cancelled]), KeyError("b"), ValueError("c")]
    )
    assert leaves(nested)[0] is cancelled
    assert isinstance(main_error(nested), KeyError)
    only = BaseExceptionGroup("outer", [cancelled])
    assert main_error(only) is cancelled
