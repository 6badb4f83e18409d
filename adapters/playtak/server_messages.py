"""Server -> client messages of the playtak protocol as frozen value objects.

Each event prints itself with `to_line(protocol)`; the protocol version matters for
`Seek new/remove`, `Game Start` and the clock lines. Parsing lives in
`adapters.playtak.protocol.parse_server_line`.
"""

from __future__ import annotations

import json
from typing import ClassVar

import attrs

from adapters.playtak.notation import ServerMove, server_move
from adapters.playtak.seeks import (
    DRAW_UNDO,
    AsRead,
    FixedLine,
    GameInfo,
    GameWord,
    SeekInfo,
    Template,
)
from adapters.playtak.terms import OLD_START, GameTerms, TermsView


class Welcome(FixedLine):
    LINE = "Welcome!"


class LoginPrompt(FixedLine):
    LINE = "Login or Register"


@attrs.frozen
class LoggedIn(Template):
    """`Welcome alice!`: the login succeeded under this name."""

    FORMAT = "Welcome {name}!"

    name: str


class AuthFailure(FixedLine):
    LINE = "Authentication failure"


class IsMod(FixedLine):
    LINE = "Is Mod"


class Ok(FixedLine):
    LINE = "OK"


class Nok(FixedLine):
    LINE = "NOK"


@attrs.frozen
class ErrorText(Template):
    """`Error:<text>`: the reason that goes with a refused move."""

    FORMAT = "Error:{text}"

    text: str


@attrs.frozen
class Online(Template):
    FORMAT = "Online {count}"

    count: int


@attrs.frozen
class OnlinePlayers:
    names: tuple[str, ...]

    def to_line(self, protocol: int = 2) -> str:
        return "OnlinePlayers " + json.dumps(list(self.names))


@attrs.frozen
class SeekLine:
    """`<HEAD> <seek fields>`: a seek put on the list or taken off it."""

    HEAD: ClassVar[str] = ""

    seek: SeekInfo

    def to_line(self, protocol: int = 2) -> str:
        return f"{self.HEAD} {self.seek.fields(protocol)}"


class SeekNew(SeekLine):
    HEAD = "Seek new"


class SeekRemove(SeekLine):
    HEAD = "Seek remove"


@attrs.frozen
class GameLine:
    """`<HEAD> <game fields>`: a game put on the list, taken off it, or observed."""

    HEAD: ClassVar[str] = ""

    game: GameInfo

    def to_line(self, protocol: int = 2) -> str:
        return f"{self.HEAD} {self.game.fields()}"


class GameListAdd(GameLine):
    HEAD = "GameList Add"


class GameListRemove(GameLine):
    HEAD = "GameList Remove"


class ObserveStart(GameLine):
    HEAD = "Observe"


@attrs.frozen
class GameStart(TermsView):
    """`Game Start ...`: a game begins (or is replayed after a reconnect).

    Protocol 0/1 lines carry no increment and no unrated/tournament flags, historic lines
    stop after the colour: `untold` names the clock terms the line left out, which read
    None (`inc`, `time`) and print as 0.
    """

    game_id: int
    white: str
    black: str
    color: str  # "white" or "black": the receiver's colour
    terms: GameTerms
    bot_game: bool | None = None
    untold: frozenset[str] = frozenset()

    @property
    def time(self) -> int | None:
        """Seconds on each clock; None when the line does not say."""
        return None if "time" in self.untold else self.terms.time

    @property
    def inc(self) -> int | None:
        """Seconds added each move; None when the line does not say."""
        return None if "inc" in self.untold else self.terms.inc

    def to_line(self, protocol: int = 2) -> str:
        if protocol >= 2:
            return (
                f"Game Start {self.game_id} {self.white} vs {self.black} {self.color} "
                f"{self.terms.text()} {int(bool(self.bot_game))}"
            )
        return (
            f"Game Start {self.game_id} {self.size} {self.white} vs {self.black} {self.color} "
            f"{self.terms.text(OLD_START)}"
        )


@attrs.frozen
class GameMove:
    """`Game#1 P A1 W` / `Game#1 M A1 C1 1 2`; `move` in server notation."""

    game_id: int
    move: ServerMove = attrs.field(converter=server_move)

    def to_line(self, protocol: int = 2) -> str:
        return f"Game#{self.game_id} {self.move.to_text()}"


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
class GameOver(Template):
    FORMAT = "Game#{game_id} Over {result}"

    game_id: int
    result: str  # R-0 0-R F-0 0-F 1-0 0-1 1/2-1/2


@attrs.frozen
class GameAbandoned(Template):
    """`Game#1 Abandoned. bobby quit`: the opponent did not come back in time."""

    FORMAT = "Game#{game_id} Abandoned. {quitter} quit"

    game_id: int
    quitter: str


#: what the server says about a game in one word: the draw and undo words, and `Undo` done
GAME_SIGNALS = (*DRAW_UNDO, "Undo")


class GameSignal(GameWord):
    """`Game#1 OfferDraw` and friends (kind is one of GAME_SIGNALS)."""


@attrs.frozen
class Message(Template):
    """`Message <text>` that is none of the messages below."""

    FORMAT = "Message {text}"

    text: str


class GameResumed(FixedLine):
    LINE = "Message Your game is resumed"


@attrs.frozen
class PlayerDisconnected(Template):
    FORMAT = "Message {name} has disconnected. They have {seconds} seconds to reconnect"

    name: str
    seconds: int


@attrs.frozen
class PlayerReconnected(Template):
    FORMAT = "Message {name} has reconnected."

    name: str


class LoggedInElsewhere(FixedLine):
    LINE = "Message You've logged in from another window. Disconnecting"


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
class Unknown(AsRead):
    """A line this codec does not read (or cannot): log it and carry on."""

    reason: str = ""


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

#: the server lines without fields, each read as its event
FIXED_EVENTS: tuple[ServerEvent, ...] = (
    Welcome(),
    LoginPrompt(),
    AuthFailure(),
    IsMod(),
    Ok(),
    Nok(),
    GameResumed(),
    LoggedInElsewhere(),
)
