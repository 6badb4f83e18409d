"""Server -> client lines of the playtak protocol as typed events (sans-IO).

`parse_server_line(line)` never raises: a line it cannot read becomes `Unknown`, which a
client logs and ignores. Every event prints itself back with `to_line(protocol)`; the
protocol version matters for `Seek new/remove`, `Game Start` and the clock lines.
Client commands live in `adapters.playtak.commands` and are re-exported here.
"""

from __future__ import annotations

import json
import re

import attrs

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
from adapters.playtak.seeks import GameInfo, LineError, SeekInfo, standard_pieces, to_int


@attrs.frozen
class Welcome:
    def to_line(self, protocol: int = 2) -> str:
        return "Welcome!"


@attrs.frozen
class LoginPrompt:
    def to_line(self, protocol: int = 2) -> str:
        return "Login or Register"


@attrs.frozen
class LoggedIn:
    """`Welcome alice!`: the login succeeded under this name."""

    name: str

    def to_line(self, protocol: int = 2) -> str:
        return f"Welcome {self.name}!"


@attrs.frozen
class AuthFailure:
    def to_line(self, protocol: int = 2) -> str:
        return "Authentication failure"


@attrs.frozen
class IsMod:
    def to_line(self, protocol: int = 2) -> str:
        return "Is Mod"


@attrs.frozen
class Ok:
    def to_line(self, protocol: int = 2) -> str:
        return "OK"


@attrs.frozen
class Nok:
    def to_line(self, protocol: int = 2) -> str:
        return "NOK"


@attrs.frozen
class ErrorText:
    """`Error:<text>`: the reason that goes with a refused move."""

    text: str

    def to_line(self, protocol: int = 2) -> str:
        return f"Error:{self.text}"


@attrs.frozen
class Online:
    count: int

    def to_line(self, protocol: int = 2) -> str:
        return f"Online {self.count}"


@attrs.frozen
class OnlinePlayers:
    names: tuple[str, ...]

    def to_line(self, protocol: int = 2) -> str:
        return "OnlinePlayers " + json.dumps(list(self.names))


@attrs.frozen
class SeekNew:
    seek: SeekInfo

    def to_line(self, protocol: int = 2) -> str:
        return "Seek new " + self.seek.fields(protocol)


@attrs.frozen
class SeekRemove:
    seek: SeekInfo

    def to_line(self, protocol: int = 2) -> str:
        return "Seek remove " + self.seek.fields(protocol)


@attrs.frozen
class GameListAdd:
    game: GameInfo

    def to_line(self, protocol: int = 2) -> str:
        return "GameList Add " + self.game.fields()


@attrs.frozen
class GameListRemove:
    game: GameInfo

    def to_line(self, protocol: int = 2) -> str:
        return "GameList Remove " + self.game.fields()


@attrs.frozen
class ObserveStart:
    game: GameInfo

    def to_line(self, protocol: int = 2) -> str:
        return "Observe " + self.game.fields()


@attrs.frozen
class GameStart:
    """`Game Start ...`: a game begins (or is replayed after a reconnect).

    Protocol 0/1 lines carry no increment (`inc` is None then) and no unrated/tournament
    flags; historic lines stop after the colour (`time` None).
    """

    game_id: int
    size: int
    white: str
    black: str
    color: str  # "white" or "black": the receiver's colour
    time: int | None = None  # seconds
    inc: int | None = None  # seconds; None when the line does not say
    komi: int = 0
    flats: int | None = None
    caps: int | None = None
    unrated: bool = False
    tournament: bool = False
    trigger: int = 0
    amount: int = 0
    bot_game: bool | None = None

    @property
    def pieces(self) -> tuple[int, int]:
        flats, caps = standard_pieces(self.size)
        return (
            self.flats if self.flats is not None else flats,
            self.caps if self.caps is not None else caps,
        )

    def to_line(self, protocol: int = 2) -> str:
        flats, caps = self.pieces
        time = self.time or 0
        if protocol >= 2:
            return (
                f"Game Start {self.game_id} {self.white} vs {self.black} {self.color} "
                f"{self.size} {time} {self.inc or 0} {self.komi} {flats} {caps} "
                f"{int(self.unrated)} {int(self.tournament)} {self.trigger} {self.amount} "
                f"{int(bool(self.bot_game))}"
            )
        return (
            f"Game Start {self.game_id} {self.size} {self.white} vs {self.black} {self.color} "
            f"{time} {self.komi} {flats} {caps} {self.trigger} {self.amount}"
        )


@attrs.frozen
class GameMove:
    """`Game#1 P A1 W` / `Game#1 M A1 C1 1 2`; `move` in server notation."""

    game_id: int
    move: str

    @property
    def ptn(self) -> str:
        return ServerMove.parse(self.move).to_ptn()

    def to_line(self, protocol: int = 2) -> str:
        return f"Game#{self.game_id} {self.move}"


@attrs.frozen
class GameTime:
    """Clocks of both sides in milliseconds (`Time` in seconds, `Timems` in ms)."""

    game_id: int
    white_ms: int
    black_ms: int

    def to_line(self, protocol: int = 2) -> str:
        if protocol >= 1:
            return f"Game#{self.game_id} Timems {self.white_ms} {self.black_ms}"
        return f"Game#{self.game_id} Time {self.white_ms // 1000} {self.black_ms // 1000}"


@attrs.frozen
class GameOver:
    game_id: int
    result: str  # R-0 0-R F-0 0-F 1-0 0-1 1/2-1/2

    def to_line(self, protocol: int = 2) -> str:
        return f"Game#{self.game_id} Over {self.result}"


@attrs.frozen
class GameAbandoned:
    """`Game#1 Abandoned. bobby quit`: the opponent did not come back in time."""

    game_id: int
    quitter: str

    def to_line(self, protocol: int = 2) -> str:
        return f"Game#{self.game_id} Abandoned. {self.quitter} quit"


GAME_SIGNALS = ("OfferDraw", "RemoveDraw", "RequestUndo", "RemoveUndo", "Undo")


@attrs.frozen
class GameSignal:
    """`Game#1 OfferDraw` and friends (kind is one of GAME_SIGNALS)."""

    game_id: int
    kind: str

    def to_line(self, protocol: int = 2) -> str:
        return f"Game#{self.game_id} {self.kind}"


@attrs.frozen
class Message:
    """`Message <text>` that is none of the messages below."""

    text: str

    def to_line(self, protocol: int = 2) -> str:
        return f"Message {self.text}"


@attrs.frozen
class GameResumed:
    def to_line(self, protocol: int = 2) -> str:
        return "Message Your game is resumed"


@attrs.frozen
class PlayerDisconnected:
    name: str
    seconds: int

    def to_line(self, protocol: int = 2) -> str:
        return (
            f"Message {self.name} has disconnected. They have {self.seconds} seconds to reconnect"
        )


@attrs.frozen
class PlayerReconnected:
    name: str

    def to_line(self, protocol: int = 2) -> str:
        return f"Message {self.name} has reconnected."


@attrs.frozen
class LoggedInElsewhere:
    def to_line(self, protocol: int = 2) -> str:
        return "Message You've logged in from another window. Disconnecting"


@attrs.frozen
class Chat:
    """`Shout <name> text`, `Tell <name> text`, `Told <name> text`, `ShoutRoom r <name> t`."""

    kind: str  # Shout, Tell, Told, ShoutRoom
    name: str
    text: str
    room: str = ""

    def to_line(self, protocol: int = 2) -> str:
        room = f"{self.room} " if self.kind == "ShoutRoom" else ""
        return f"{self.kind} {room}<{self.name}> {self.text}"


@attrs.frozen
class Unknown:
    """A line this codec does not read (or cannot): log it and carry on."""

    line: str
    reason: str = ""

    def to_line(self, protocol: int = 2) -> str:
        return self.line


ServerEvent = (
    Welcome
    | LoginPrompt
    | LoggedIn
    | AuthFailure
    | IsMod
    | Ok
    | Nok
    | ErrorText
    | Online
    | OnlinePlayers
    | SeekNew
    | SeekRemove
    | GameListAdd
    | GameListRemove
    | ObserveStart
    | GameStart
    | GameMove
    | GameTime
    | GameOver
    | GameAbandoned
    | GameSignal
    | Message
    | GameResumed
    | PlayerDisconnected
    | PlayerReconnected
    | LoggedInElsewhere
    | Chat
    | Unknown
)

_SIMPLE: dict[str, ServerEvent] = {
    "Welcome!": Welcome(),
    "Login or Register": LoginPrompt(),
    "Authentication failure": AuthFailure(),
    "Is Mod": IsMod(),
    "OK": Ok(),
    "NOK": Nok(),
    "Message Your game is resumed": GameResumed(),
    "Message You've logged in from another window. Disconnecting": LoggedInElsewhere(),
}
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
        return GameMove(game_id, ServerMove.parse(rest).to_text())
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
    if len(words) >= 8 and words[4] == "vs":
        # protocol 2: no white vs black colour size time inc komi flats caps unrated
        # tournament trigger amount bot
        nums = [to_int(w, text) for w in words[7:]]
        nums += [5, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0][len(nums) :]
        size, time, inc, komi, flats, caps, unrated, tournament, trigger, amount, bot = nums[:11]
        return GameStart(
            to_int(words[2], text),
            size,
            words[3],
            words[5],
            words[6],
            time,
            inc,
            komi,
            None if flats < 0 else flats,
            None if caps < 0 else caps,
            bool(unrated),
            bool(tournament),
            trigger,
            amount,
            bool(bot) if len(words) > 17 else None,
        )
    if len(words) >= 8 and words[5] == "vs":
        # protocol 0/1: no size white vs black colour [time [komi flats caps [trigger amount]]]
        nums = [to_int(w, text) for w in words[8:]]
        seconds = nums[0] if nums else None
        rest = nums[1:] + [0, -1, -1, 0, 0][len(nums[1:]) :]
        komi, flats, caps, trigger, amount = rest[:5]
        return GameStart(
            to_int(words[2], text),
            to_int(words[3], text),
            words[4],
            words[6],
            words[7],
            seconds,
            None,
            komi,
            None if flats < 0 else flats,
            None if caps < 0 else caps,
            trigger=trigger,
            amount=amount,
        )
    raise LineError(f"cannot read the game start {text!r}")


# the codec in one namespace: server events here, client commands from commands.py
__all__ = [
    "GAME_SIGNALS",
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
