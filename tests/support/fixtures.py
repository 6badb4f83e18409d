"""What a fixture hands a test to start things with, so that it can close them after."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Started(Generic[T]):
    """Calls `make` with the test's arguments and keeps each thing made, in order."""

    def __init__(self, make: Callable[..., T]) -> None:
        self.make = make
        self.made: list[T] = []

    def __call__(self, *args: str) -> T:
        thing = self.make(*args)
        self.made.append(thing)
        return thing
