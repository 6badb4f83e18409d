"""The lobby of the local playtak server as a sans-IO state machine.

The I/O layer (`listeners`) feeds it connections, lines and ticks with the current
time and sends what it returns: a list of `(connection id, line)` pairs, where a line of
None means "close this connection". Each line is formatted for the protocol version
the receiving connection asked for.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import attrs

from adapters.playtak import protocol as p
from adapters.playtak.seeks import SeekInfo
from adapters.playtak.server.game import ServerGame

Output = tuple[int, str | None]

_BEFORE_LOGIN = (p.ProtocolCmd, p.ClientCmd, p.Login, p.LoginGuest, p.Ping, p.Quit)


@attrs.frozen
class ServerSettings:
    """Rules of the house: accounts, timeouts (seconds) and randomness."""

    #: name -> password; unknown names register on first login when auto_register
    users: dict[str, str] = attrs.field(factory=dict)
    auto_register: bool = True
    reconnect_seconds: float = 120.0
    #: the reconnect window of tournament games
    tournament_reconnect_seconds: float = 900.0
    idle_timeout: float = 60.0
    cleanup_interval: float = 30.0
    guest_token_seconds: float = 4 * 3600.0
    #: bot accounts (flagged in protocol-2 seeks and game starts)
    bots: frozenset[str] = attrs.field(factory=frozenset, converter=frozenset)
    #: a bot playing black wins when white has not moved within this time
    bot_first_move_seconds: float = 300.0
    seed: int | None = None


@attrs.define
class Connection:
    id: int
    last_activity: float
    protocol: int = 0
    name: str | None = None


class LobbyCore:
    """Players, seeks and games of one server."""

    def __init__(self, settings: ServerSettings | None = None, now: float = 0.0) -> None:
        self.settings = settings or ServerSettings()
        self.passwords = dict(self.settings.users)
        self.rng = random.Random(self.settings.seed)
        self.conns: dict[int, Connection] = {}
        self.online: dict[str, int] = {}  # name -> connection id
        self.seeks: dict[int, SeekInfo] = {}
        self.games: dict[int, ServerGame] = {}
        self.finished: list[ServerGame] = []
        self.guest_tokens: dict[str, tuple[str, float]] = {}
        self._next_seek = 1
        self._next_game = 1
        self._next_guest = 1
        self._next_cleanup = now + self.settings.cleanup_interval
        self._out: list[Output] = []

    # ---- sending -----------------------------------------------------------------------
    def _send(self, conn_id: int, event: p.ServerEvent) -> None:
        conn = self.conns.get(conn_id)
        if conn is not None:
            self._out.append((conn_id, event.to_line(conn.protocol)))

    def _send_name(self, name: str, event: p.ServerEvent) -> None:
        if name in self.online:
            self._send(self.online[name], event)

    def _broadcast(self, event: p.ServerEvent) -> None:
        for conn_id in self.online.values():
            self._send(conn_id, event)

    def _to_game(self, game: ServerGame, event: p.ServerEvent) -> None:
        for name in game.players:
            self._send_name(name, event)
        for conn_id in game.observers:
            self._send(conn_id, event)

    def _flush(self) -> list[Output]:
        out, self._out = self._out, []
        return out

    # ---- events from the I/O layer ---------------------------------------------------
    def connect(self, conn_id: int, now: float) -> list[Output]:
        self.conns[conn_id] = Connection(conn_id, now)
        self._send(conn_id, p.Welcome())
        self._send(conn_id, p.LoginPrompt())
        return self._flush()

    def disconnect(self, conn_id: int, now: float) -> list[Output]:
        conn = self.conns.pop(conn_id, None)
        if conn is None:
            return []
        for game in self.games.values():
            game.observers.discard(conn_id)
        name = conn.name
        if name is not None and self.online.get(name) == conn_id:
            del self.online[name]
            self._remove_seek_of(name)
            running = self._game_of(name)
            if running is not None:
                window = (
                    self.settings.tournament_reconnect_seconds
                    if running.tournament
                    else self.settings.reconnect_seconds
                )
                running.absent[name] = now + window
                seconds = int(window)
                self._send_name(running.opponent_of(name), p.PlayerDisconnected(name, seconds))
            self._announce_online()
        return self._flush()

    def receive(self, conn_id: int, line: str, now: float) -> list[Output]:
        conn = self.conns.get(conn_id)
        if conn is None:
            return []
        self.tick(now)
        command = p.parse_client_line(line)
        if isinstance(command, p.Ping):
            conn.last_activity = now
            self._send(conn_id, p.Ok())
        elif isinstance(command, p.Quit):
            self._out.append((conn_id, None))
        elif conn.name is None:
            self._before_login(conn, command, now)
        else:
            self._logged_in(conn, conn.name, command, now)
        return self._flush()

    def tick(self, now: float) -> list[Output]:
        """Time losses, expired reconnect windows and idle connections."""
        for game in list(self.games.values()):
            if game.check_flag(now):
                self._to_game(game, p.GameTime(game.no, *game.remaining(now)))
                self._finish(game)
                continue
            bot_wins_at = game.bot_deadline(self.settings.bot_first_move_seconds)
            if bot_wins_at is not None and now >= bot_wins_at:
                game.result = "0-1"
                self._finish(game)
                continue
            for name, deadline in list(game.absent.items()):
                if now >= deadline and game.result is None:
                    game.abandon(name)
                    self._send_name(game.opponent_of(name), p.GameAbandoned(game.no, name))
                    self._finish(game, announce=False)
        if now >= self._next_cleanup:
            self._next_cleanup = now + self.settings.cleanup_interval
            for conn in self.conns.values():
                if now - conn.last_activity > self.settings.idle_timeout:
                    self._out.append((conn.id, None))
        return self._flush()

    def next_deadline(self) -> float:
        deadlines = [self._next_cleanup]
        for game in self.games.values():
            flag = game.flag_deadline()
            if flag is not None:
                deadlines.append(flag)
            deadlines.extend(game.absent.values())
            bot_wins_at = game.bot_deadline(self.settings.bot_first_move_seconds)
            if bot_wins_at is not None:
                deadlines.append(bot_wins_at)
        return min(deadlines)

    # ---- login -------------------------------------------------------------------------
    def _before_login(self, conn: Connection, command: p.ClientCommand, now: float) -> None:
        if not isinstance(command, _BEFORE_LOGIN):
            self._send(conn.id, p.Nok())
        elif isinstance(command, p.ProtocolCmd):
            conn.protocol = command.version
            self._send(conn.id, p.Ok())
        elif isinstance(command, p.ClientCmd):
            self._send(conn.id, p.Ok())
        elif isinstance(command, p.LoginGuest):
            self._login(conn, self._guest_name(command.token, now), now)
        elif isinstance(command, p.Login):
            known = self.passwords.get(command.name)
            if known is None and self.settings.auto_register and command.name[:5] != "Guest":
                self.passwords[command.name] = known = command.password
            if known is None or known != command.password:
                self._send(conn.id, p.AuthFailure())
            else:
                self._login(conn, command.name, now)

    def _guest_name(self, token: str | None, now: float) -> str:
        if token is not None:
            entry = self.guest_tokens.get(token)
            if entry is not None and entry[1] > now:
                self.guest_tokens[token] = (entry[0], now + self.settings.guest_token_seconds)
                return entry[0]
        name = f"Guest{self._next_guest}"
        self._next_guest += 1
        if token is not None:
            self.guest_tokens[token] = (name, now + self.settings.guest_token_seconds)
        return name

    def _login(self, conn: Connection, name: str, now: float) -> None:
        old = self.online.get(name)
        if old is not None and old != conn.id:
            self._send(old, p.LoggedInElsewhere())
            self._out.append((old, None))
            self.conns[old].name = None
        conn.name = name
        self.online[name] = conn.id
        self._send(conn.id, p.LoggedIn(name))
        self._announce_online()
        for seek in self.seeks.values():
            self._send(conn.id, p.SeekNew(seek))
        for game in self.games.values():
            self._send(conn.id, p.GameListAdd(game.info()))
        running = self._game_of(name)
        if running is not None:
            self._resume(conn, running, name, now)

    def _announce_online(self) -> None:
        self._broadcast(p.Online(len(self.online)))
        self._broadcast(p.OnlinePlayers(tuple(sorted(self.online))))

    def _resume(self, conn: Connection, game: ServerGame, name: str, now: float) -> None:
        self._send(conn.id, game.start_line(name))
        for move in game.moves:
            self._send(conn.id, p.GameMove(game.no, move))
        self._send(conn.id, p.GameTime(game.no, *game.remaining(now)))
        self._send(conn.id, p.GameResumed())
        if game.absent.pop(name, None) is not None:
            self._send_name(game.opponent_of(name), p.PlayerReconnected(name))

    # ---- commands of logged-in players -----------------------------------------------
    def _logged_in(self, conn: Connection, name: str, command: p.ClientCommand, now: float) -> None:
        if isinstance(command, p.ClientCmd):
            self._send(conn.id, p.Ok())
        elif isinstance(command, p.Seek | p.RemoveSeek):
            self._seek(conn, name, command)
        elif isinstance(command, p.Accept):
            self._accept(conn, name, command.seek_no, now)
        elif isinstance(command, p.ListSeeks):
            for seek in self.seeks.values():
                self._send(conn.id, p.SeekNew(seek))
        elif isinstance(command, p.ListGames):
            for game in self.games.values():
                self._send(conn.id, p.GameListAdd(game.info()))
        elif isinstance(command, p.Observe):
            self._observe(conn, command, now)
        elif isinstance(command, p.PlayMove | p.GameAction):
            self._game_command(conn, name, command, now)
        elif isinstance(command, p.Say):
            self._say(conn, name, command)
        else:
            self._send(conn.id, p.Nok())

    def _seek(self, conn: Connection, name: str, command: p.Seek | p.RemoveSeek) -> None:
        if self._game_of(name) is not None:
            self._send(conn.id, p.Nok())
            return
        self._remove_seek_of(name)
        if isinstance(command, p.RemoveSeek):
            return
        seek = SeekInfo(
            self._next_seek,
            name,
            command.terms,
            command.color,
            command.opponent,
            bot=name in self.settings.bots,
        )
        self._next_seek += 1
        self.seeks[seek.no] = seek
        self._broadcast(p.SeekNew(seek))

    def _remove_seek_of(self, name: str) -> None:
        for seek in [s for s in self.seeks.values() if s.name == name]:
            del self.seeks[seek.no]
            self._broadcast(p.SeekRemove(seek))

    def _accept(self, conn: Connection, name: str, seek_no: int, now: float) -> None:
        seek = self.seeks.get(seek_no)
        if (
            seek is None
            or seek.name == name
            or self._game_of(name) is not None
            or self._game_of(seek.name) is not None
            or (seek.opponent and seek.opponent.lower() != name.lower())
        ):
            self._send(conn.id, p.Nok())
            return
        seeker_white = seek.color == "W" or (seek.color == "A" and self.rng.random() < 0.5)
        white, black = (seek.name, name) if seeker_white else (name, seek.name)
        self._remove_seek_of(seek.name)
        self._remove_seek_of(name)
        game = ServerGame(
            self._next_game,
            white,
            black,
            seek.terms,
            bot_game=bool({white, black} & self.settings.bots),
            black_bot=black in self.settings.bots,
            created_at=now,
        )
        self._next_game += 1
        self.games[game.no] = game
        self._broadcast(p.GameListAdd(game.info()))
        for player in game.players:
            self._send_name(player, game.start_line(player))

    def _observe(self, conn: Connection, command: p.Observe, now: float) -> None:
        game = self.games.get(command.game_id)
        if game is None:
            self._send(conn.id, p.Nok())
        elif command.stop:
            game.observers.discard(conn.id)
            self._send(conn.id, p.Ok())
        else:
            game.observers.add(conn.id)
            self._send(conn.id, p.ObserveStart(game.info()))
            for move in game.moves:
                self._send(conn.id, p.GameMove(game.no, move))
            self._send(conn.id, p.GameTime(game.no, *game.remaining(now)))

    def _game_command(
        self, conn: Connection, name: str, command: p.PlayMove | p.GameAction, now: float
    ) -> None:
        game = self.games.get(command.game_id)
        if game is None or name not in game.players:
            self._send(conn.id, p.Nok())
            return
        opponent = game.opponent_of(name)
        if isinstance(command, p.PlayMove):
            error = game.play(name, command.move, now)
            if error is not None:
                self._send(conn.id, p.Nok())
                self._send(conn.id, p.ErrorText(error))
                return
            self._to_game(game, p.GameTime(game.no, *game.remaining(now)))
            self._send_name(opponent, p.GameMove(game.no, command.move))
            for conn_id in game.observers:
                self._send(conn_id, p.GameMove(game.no, command.move))
            self._send(conn.id, p.Ok())
            if game.result is not None:
                self._finish(game)
            return
        kind = command.kind
        if kind == "Resign":
            game.resign(name)
            self._finish(game)
        elif kind == "OfferDraw":
            self._send(conn.id, p.Ok())
            if game.offer_draw(name):
                self._finish(game)
            else:
                self._send_name(opponent, p.GameSignal(game.no, "OfferDraw"))
        elif kind == "RequestUndo":
            self._send(conn.id, p.Ok())
            if game.request_undo(name):
                self._to_game(game, p.GameSignal(game.no, "Undo"))
            else:
                self._send_name(opponent, p.GameSignal(game.no, "RequestUndo"))
        else:  # RemoveDraw / RemoveUndo
            (game.draw_offers if kind == "RemoveDraw" else game.undo_requests).discard(
                game.seat_of(name)
            )
            self._send(conn.id, p.Ok())
            self._send_name(opponent, p.GameSignal(game.no, kind))

    def _finish(self, game: ServerGame, announce: bool = True) -> None:
        if announce and game.result is not None:
            self._to_game(game, p.GameOver(game.no, game.result))
        self.games.pop(game.no, None)
        self.finished.append(game)
        self._broadcast(p.GameListRemove(game.info()))

    def _say(self, conn: Connection, name: str, command: p.Say) -> None:
        if command.to is None:
            self._broadcast(p.Chat("Shout", name, command.text))
        elif command.to in self.online:
            self._send_name(command.to, p.Chat("Tell", name, command.text))
            self._send(conn.id, p.Chat("Told", command.to, command.text))
        else:
            self._send(conn.id, p.Message("No such player"))

    def _game_of(self, name: str) -> ServerGame | None:
        return next((g for g in self.games.values() if name in g.players), None)

    # ---- helpers for the I/O layer and tests -------------------------------------------
    def names(self) -> Iterable[str]:
        return self.online.keys()
