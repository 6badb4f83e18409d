"""Built-in bots by game and name, imported lazily."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping

from bots.base import Bot

# (game, bot name) -> "module:Class". The first entry per game marked default below.
_BOTS: dict[tuple[str, str], str] = {
    ("tak", "random"): "bots.random_bot:RandomBot",
    ("tak", "greedy"): "bots.tak.greedy:GreedyBot",
    ("tak", "search"): "bots.tak.bot:TakSearchBot",
    ("trike", "random"): "bots.random_bot:RandomBot",
    ("trike", "search"): "bots.trike.bot:TrikeSearchBot",
    ("traxit", "random"): "bots.random_bot:RandomBot",
    ("traxit", "search"): "bots.traxit.bot:TraxitSearchBot",
}

_DEFAULT: dict[str, str] = {"tak": "search", "trike": "search", "traxit": "search"}


def _available(game: str, name: str) -> bool:
    module_name = _BOTS[(game, name)].partition(":")[0]
    return importlib.util.find_spec(module_name) is not None


def bot_names(game: str) -> list[str]:
    """Names of the built-in bots that play `game`."""
    return [name for (g, name) in _BOTS if g == game and _available(g, name)]


def default_bot(game: str) -> str:
    """The strongest built-in bot for a game (falls back to random)."""
    name = _DEFAULT.get(game, "random")
    return name if (game, name) in _BOTS and _available(game, name) else "random"


def make_bot(game: str, name: str, settings: Mapping[str, str] | None = None) -> Bot:
    """A new bot instance; ValueError naming the choices for an unknown bot."""
    key = (game.lower(), name.lower())
    if key not in _BOTS or not _available(*key):
        known = ", ".join(bot_names(game.lower())) or "none"
        raise ValueError(f"no bot {name!r} for game {game!r}; known: {known}")
    module_name, _, attr = _BOTS[key].partition(":")
    cls: type[Bot] = getattr(importlib.import_module(module_name), attr)
    return cls(settings)


def bot_name(spec: str) -> str:
    """The name a bot is shown under: a built-in's as given, a `module:Class` bot's
    declared `name` (the spec itself when it declares none or does not load here; the
    engine that runs it says why)."""
    if ":" not in spec:
        return spec
    module_name, _, attr = spec.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except Exception:
        return spec
    declared = getattr(cls, "name", "") if isinstance(cls, type) and issubclass(cls, Bot) else ""
    return declared if isinstance(declared, str) and declared else spec
