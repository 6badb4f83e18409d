"""The playtak protocol codec (sans-IO): server lines -> typed events, and back.

`parse_server_line(line)` never raises: a line it cannot read becomes `Unknown`, which a
client logs and ignores. The events (`adapters.playtak.server_messages`) print themselves back
with `to_line(protocol)`. Client commands (`adapters.playtak.commands`) are re-exported
here, so `protocol` is the one namespace for both directions.
"""

from __future__ import annotations

import json
import re

from adapters.playtak.commands import (
    Accept,
    ClientCmd,
    ClientCommand,
    GameAction,
    ListGames,
    ListSeeks,
    Login,
    LoginGuest,
    Observe,
    Ping,
    PlayMove,
    ProtocolCmd,
    Quit,
    RemoveSeek,
    Say,
    Seek,
    UnknownCommand,
    parse_client_line,
)
from adapters.playtak.notation import MoveNotationError, ServerMove
from adapters.playtak.seeks import GameInfo, LineError, SeekInfo, to_int
from adapters.playtak.server_messages import (
    FIXED_EVENTS,
    GAME_SIGNALS,
    AuthFailure,
    Chat,
    ErrorText,
    GameAbandoned,
    GameListAdd,
    GameListRemove,
    GameMove,
    GameOver,
    GameResumed,
    GameSignal,
    GameStart,
    GameTime,
    IsMod,
    LoggedIn,
    LoggedInElsewhere,
    LoginPrompt,
    Message,
    Nok,
    ObserveStart,
    Ok,
    Online,
    OnlinePlayers,
    PlayerDisconnected,
    PlayerReconnected,
    SeekNew,
    SeekRemove,
    ServerEvent,
    Unknown,
    Welcome,
)
from adapters.playtak.terms import OLD_START, TERMS, GameTerms

#: the longest line either side takes (the client closes the connection past it, the
#: server drops such a client); playtak's text is ISO-8859-1, so every byte is a character
MAX_LINE = 64 * 1024
ENCODING = "iso-8859-1"

_SIMPLE = {event.to_line(): event for event in FIXED_EVENTS}
_DISCONNECTED = re.compile(
    r"Message (\S+) has disconnected\. They have (\d+) seconds to reconnect\.?"
)
_RECONNECTED = re.compile(r"Message (\S+) has reconnected\.?")
_CHAT = re.compile(r"(Shout|Tell|Told) <([^>]*)> ?(.*)", re.S)
_ROOM_CHAT = re.compile(r"ShoutRoom (\S+) <([^>]*)> ?(.*)", re.S)
_GAME = re.compile(r"Game#(\d+) (.*)", re.S)
_RESULTS = ("R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0")


def parse_server_line(line: str) -> ServerEvent:
    """One server line (without its newline) -> event; never raises."""
    text = line.rstrip("\r\n")
    try:
        return _parse(text)
    except (LineError, MoveNotationError, ValueError) as exc:
        return Unknown(text, str(exc))


def _parse(text: str) -> ServerEvent:
    if text in _SIMPLE:
        return _SIMPLE[text]
    words = text.split(" ")
    head = words[0]
    if head.startswith("Error"):
        return ErrorText(text[5:].lstrip(":").strip())
    if head == "Welcome" and text.endswith("!") and len(words) == 2:
        return LoggedIn(words[1][:-1])
    if head == "Online" and len(words) == 2:
        return Online(to_int(words[1], text))
    if head == "OnlinePlayers":
        names = json.loads(text[len("OnlinePlayers") :].strip() or "[]")
        if not isinstance(names, list):
            raise LineError(f"no player list in {text!r}")
        return OnlinePlayers(tuple(str(n) for n in names))
    if head == "Seek" and len(words) > 2 and words[1] in ("new", "remove"):
        seek = SeekInfo.parse_fields(words[2:], text)
        return SeekNew(seek) if words[1] == "new" else SeekRemove(seek)
    if head == "GameList" and len(words) > 2 and words[1] in ("Add", "Remove"):
        info = GameInfo.parse_fields([w for w in words[2:] if w], text)
        return GameListAdd(info) if words[1] == "Add" else GameListRemove(info)
    if head == "Observe" and len(words) > 1:
        return ObserveStart(GameInfo.parse_fields([w for w in words[1:] if w], text))
    if head == "Game" and len(words) > 2 and words[1] == "Start":
        return _game_start(text)
    if head == "Message":
        return _message(text)
    if head == "ShoutRoom":
        match = _ROOM_CHAT.fullmatch(text)
        if match:
            return Chat("ShoutRoom", match[2], match[3], match[1])
    match = _CHAT.fullmatch(text)
    if match:
        return Chat(match[1], match[2], match[3])
    match = _GAME.fullmatch(text)
    if match:
        return _game_line(int(match[1]), match[2], text)
    return Unknown(text)


def _message(text: str) -> ServerEvent:
    match = _DISCONNECTED.fullmatch(text)
    if match:
        return PlayerDisconnected(match[1], int(match[2]))
    match = _RECONNECTED.fullmatch(text)
    if match:
        return PlayerReconnected(match[1])
    return Message(text[len("Message ") :])


def _game_line(game_id: int, rest: str, text: str) -> ServerEvent:
    words = rest.split()
    if not words:
        return Unknown(text)
    kind = words[0]
    if kind in ("P", "M"):
        return GameMove(game_id, ServerMove.parse(rest))
    if kind in ("Time", "Timems") and len(words) == 3:
        white, black = to_int(words[1], text), to_int(words[2], text)
        scale = 1000 if kind == "Time" else 1
        return GameTime(game_id, white * scale, black * scale)
    if kind == "Over" and len(words) == 2 and words[1] in _RESULTS:
        return GameOver(game_id, words[1])
    if kind.startswith("Abandoned"):
        quitter = words[1] if len(words) > 1 else ""
        return GameAbandoned(game_id, quitter)
    if kind in GAME_SIGNALS and len(words) == 1:
        return GameSignal(game_id, kind)
    return Unknown(text)


def _game_start(text: str) -> GameStart:
    words = text.split()
    bot: bool | None = None
    if len(words) >= 8 and words[4] == "vs":
        # protocol 2: no white vs black colour size time inc komi flats caps unrated
        # tournament trigger amount bot
        nums = [to_int(w, text) for w in words[7:]]
        terms, untold = GameTerms.read(nums, TERMS), frozenset[str]()
        if len(words) > 17:
            bot = bool(nums[10])
        game_id, white, black, color = words[2], words[3], words[5], words[6]
    elif len(words) >= 8 and words[5] == "vs":
        # protocol 0/1: no size white vs black colour [time [komi flats caps [trigger amount]]]
        nums = [to_int(w, text) for w in words[8:]]
        terms = GameTerms.read(nums, OLD_START, size=to_int(words[3], text))
        untold = frozenset({"inc"} if nums else {"time", "inc"})
        game_id, white, black, color = words[2], words[4], words[6], words[7]
    else:
        raise LineError(f"cannot read the game start {text!r}")
    return GameStart(to_int(game_id, text), white, black, color, terms, bot, untold)


# the codec in one namespace: server events here, client commands from commands.py
__all__ = [
    "ENCODING",
    "GAME_SIGNALS",
    "MAX_LINE",
    "Accept",
    "AuthFailure",
    "Chat",
    "ClientCmd",
    "ClientCommand",
    "ErrorText",
    "GameAbandoned",
    "GameAction",
    "GameInfo",
    "GameListAdd",
    "GameListRemove",
    "GameMove",
    "GameOver",
    "GameResumed",
    "GameSignal",
    "GameStart",
    "GameTerms",
    "GameTime",
    "IsMod",
    "LineError",
    "ListGames",
    "ListSeeks",
    "LoggedIn",
    "LoggedInElsewhere",
    "Login",
    "LoginGuest",
    "LoginPrompt",
    "Message",
    "Nok",
    "Observe",
    "ObserveStart",
    "Ok",
    "Online",
    "OnlinePlayers",
    "Ping",
    "PlayMove",
    "PlayerDisconnected",
    "PlayerReconnected",
    "ProtocolCmd",
    "Quit",
    "RemoveSeek",
    "Say",
    "Seek",
    "SeekInfo",
    "SeekNew",
    "SeekRemove",
    "ServerEvent",
    "Unknown",
    "UnknownCommand",
    "Welcome",
    "parse_client_line",
    "parse_server_line",
]
