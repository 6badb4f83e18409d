"""Built-in players for every game, behind the small `Bot` interface in bots.base."""

from bots.base import Bot, BotOption, Info, Limits
from bots.registry import bot_names, default_bot, make_bot

__all__ = ["Bot", "BotOption", "Info", "Limits", "bot_names", "default_bot", "make_bot"]
