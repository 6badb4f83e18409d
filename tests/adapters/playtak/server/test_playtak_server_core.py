"""The local server's lobby and games as a sans-IO state machine, with made-up times."""

from __future__ import annotations

import pytest

from adapters.playtak.server.lobby import LobbyCore, Output, ServerSettings


class Lobby:
    """Drives a LobbyCore: connection ids by name, lines kept per connection."""

    def __init__(self, **settings: object) -> None:
        settings.setdefault("cleanup_interval", 1e9)  # no idle check unless a test wants it
        self.core = LobbyCore(ServerSettings(seed=1, **settings), now=0.0)  # type: ignore[arg-type]
        self.ids: dict[str, int] = {}
        self.lines: dict[int, list[str | None]] = {}

    def take(self, outputs: list[Output]) -> None:
        for conn_id, line in outputs:
            self.lines.setdefault(conn_id, []).append(line)

    def login(self, name: str, protocol: int = 2, now: float = 0.0) -> None:
        conn_id = len(self.ids) + 1
        self.ids[name] = conn_id
        self.take(self.core.connect(conn_id, now))
        if protocol:
            self.send(name, f"Protocol {protocol}", now)
        self.send(name, f"Login {name} secret1", now)

    def send(self, name: str, line: str, now: float = 0.0) -> None:
        self.take(self.core.receive(self.ids[name], line, now))

    def tick(self, now: float) -> None:
        self.take(self.core.tick(now))

    def seen(self, name: str) -> list[str | None]:
        return self.lines.get(self.ids[name], [])

    def last(self, name: str) -> str | None:
        return self.seen(name)[-1]


def game(seek: str = "Seek 5 180 10 W 0 21 1 0 0 ", **settings: object) -> Lobby:
    """alice seeks, bobby accepts: game 1."""
    lobby = Lobby(**settings)
    lobby.login("alice")
    lobby.login("bobby")
    lobby.send("alice", seek)
    lobby.send("bobby", "Accept 1")
    return lobby


def test_no_clock_runs_before_the_first_ply_and_the_increment_follows_each_ply() -> None:
    lobby = game()
    lobby.send("alice", "Game#1 P A1", now=50.0)  # 50 s of thinking on ply 1 cost nothing
    assert "Game#1 Timems 190000 180000" in lobby.seen("alice")
    lobby.send("bobby", "Game#1 P E5", now=57.5)
    assert lobby.seen("bobby")[-2:] == ["Game#1 Timems 190000 182500", "OK"]


def test_extra_time_once_the_trigger_move_is_reached() -> None:
    lobby = game("Seek 5 60 0 W 0 21 1 0 0 2 30 ")
    lobby.send("alice", "Game#1 P A1", now=1.0)
    lobby.send("bobby", "Game#1 P E5", now=2.0)
    lobby.send("alice", "Game#1 P B1", now=3.0)  # alice's second move: +30 s
    assert "Game#1 Timems 89000 59000" in lobby.seen("alice")
    lobby.send("bobby", "Game#1 P D5", now=4.0)  # and bobby's
    assert "Game#1 Timems 89000 88000" in lobby.seen("alice")


def test_time_runs_out_exactly_at_the_deadline() -> None:
    lobby = game("Seek 5 60 0 W 0 21 1 0 0 ")
    lobby.send("alice", "Game#1 P A1", now=1.0)
    assert lobby.core.next_deadline() == 61.0
    lobby.tick(60.9)
    assert lobby.core.games
    lobby.tick(61.0)
    seen = lobby.seen("alice")
    over = seen.index("Game#1 Over 1-0")
    assert seen[over - 1] == "Game#1 Timems 60000 0"
    assert not lobby.core.games
    assert "GameList Remove 1 alice bobby 5 60 0 0 21 1 0 0 0 0" in lobby.seen("alice")


def test_fifty_quiet_plies_draw() -> None:
    lobby = game("Seek 5 600 0 W 0 21 1 0 0 ")
    lobby.send("alice", "Game#1 P A1")
    lobby.send("bobby", "Game#1 P E5")
    # white owns e5, black owns a1: shuffle them back and forth, never placing
    cycle = [
        ("alice", "M E5 E4 1"),
        ("bobby", "M A1 A2 1"),
        ("alice", "M E4 E5 1"),
        ("bobby", "M A2 A1 1"),
    ]
    for ply in range(50):
        name, move = cycle[ply % 4]
        assert lobby.core.games, ply
        lobby.send(name, f"Game#1 {move}")
    assert "Game#1 Over 1/2-1/2" in lobby.seen("alice")


def test_undo_needs_both_requests() -> None:
    lobby = game()
    lobby.send("alice", "Game#1 P A1")
    lobby.send("bobby", "Game#1 RequestUndo")
    assert lobby.last("alice") == "Game#1 RequestUndo"
    lobby.send("alice", "Game#1 RequestUndo")
    assert lobby.last("alice") == lobby.last("bobby") == "Game#1 Undo"
    assert lobby.core.games[1].moves == []
    lobby.send("alice", "Game#1 P A1")  # the square is free again
    assert lobby.last("alice") == "OK"


@pytest.mark.parametrize(("tournament", "window"), [("0", 120), ("1", 900)])
def test_reconnect_window_expires_into_abandonment(tournament: str, window: int) -> None:
    # the server's window for a casual game; tournament games wait 900 seconds
    lobby = game(f"Seek 5 600 0 W 0 21 1 0 {tournament} ", reconnect_seconds=120.0)
    lobby.take(lobby.core.disconnect(lobby.ids["bobby"], 10.0))
    message = f"Message bobby has disconnected. They have {window} seconds to reconnect"
    assert message in lobby.seen("alice")
    assert lobby.core.next_deadline() <= 10.0 + window
    lobby.tick(9.0 + window)
    assert lobby.core.games
    lobby.tick(10.0 + window)
    assert "Game#1 Abandoned. bobby quit" in lobby.seen("alice")
    assert lobby.core.finished[0].result == "1-0"


def test_idle_connections_are_closed_only_pings_count() -> None:
    lobby = Lobby(idle_timeout=60.0, cleanup_interval=30.0)
    lobby.login("alice")
    lobby.login("bobby")
    lobby.send("alice", "List", now=50.0)
    lobby.send("bobby", "PING", now=50.0)
    lobby.tick(90.0)
    assert lobby.last("alice") is None  # closed
    assert lobby.last("bobby") is not None  # still open


def test_a_capstone_flattens_a_wall_without_a_crush_mark() -> None:
    lobby = game()
    for name, move in [
        ("alice", "P A1"),
        ("bobby", "P E5"),
        ("alice", "P C3 C"),
        ("bobby", "P D3 W"),
        ("alice", "M C3 D3 1"),
    ]:
        lobby.send(name, f"Game#1 {move}")
        assert lobby.last(name) == "OK", move
    assert lobby.core.games[1].game.history_text()[-1] == "c3>*"
    lobby.send("bobby", "Game#1 M D3 D4 1")  # the flattened wall's owner no longer controls it
    assert lobby.seen("bobby")[-2:] == ["NOK", "Error:You don't control stack"]


def test_every_error_text_of_playtak_in_its_order_of_checks() -> None:
    lobby = game()  # 5x5, one capstone each; alice white
    script = [
        ("alice", "P A1 C", "First move should be flat"),
        ("alice", "P F1", "Square not empty"),  # off the board: playtak says so too
        ("alice", "M A1 A2 1", "First move should be place"),
        ("bobby", "P A1", "Not your turn"),
        ("alice", "P A1", None),  # a black flat
        ("bobby", "P A1", "Square not empty"),
        ("bobby", "P E5", None),
        ("alice", "P B1 C", None),
        ("bobby", "P C1 W", None),
        ("alice", "P D1", None),
        ("bobby", "P D2", None),
        ("alice", "M D1 C1 1", "Capstone should be on top to flatten walls"),
        ("alice", "M D1 D2 1", None),  # D2: black, white on top
        ("bobby", "M A1 B1 1", "Can't stack over capstones"),
        ("bobby", "P C2 W", None),
        ("alice", "M D2 C1 1", "Move should be in straight line"),
        ("alice", "M D2 F2 1 1", "Out of bounds"),
        ("alice", "M C1 C2 1", "You don't control stack"),
        ("alice", "M D2 D4 1 2", "Invalid move"),  # more stones than the stack has
        ("alice", "M D2 D4 2", "Invalid move."),  # fewer drops than squares
        ("alice", "M D2 D4 0 2", "Should place atleast one tile in rest of the squares"),
        ("alice", "M D2 B2 1 1", "Can't stack over walls"),
        ("alice", "P E3 C", "You're out of capstones"),
        ("alice", "M D2 D4 1 1", None),
    ]
    for name, move, error in script:
        lobby.send(name, f"Game#1 {move}")
        expected = ["NOK", f"Error:{error}"] if error else ["Game#1 Timems", "OK"]
        got = [str(line) for line in lobby.seen(name)[-2:]]
        assert [got[0][: len(expected[0])], got[1]] == expected, (name, move)
    assert lobby.core.games[1].moves[-1] == "M D2 D4 1 1"


def test_a_ply_that_makes_both_roads_wins_for_the_mover() -> None:
    lobby = game("Seek 3 60 0 W 0 10 0 0 0 ")
    for name, move in [
        ("alice", "P C3"),  # a black flat
        ("bobby", "P A1"),  # a white flat
        ("alice", "P C1"),
        ("bobby", "P A2"),
        ("alice", "P B3"),
        ("bobby", "P B2"),
        ("alice", "M B3 B2 1"),  # B2: black under white
        ("bobby", "P C2"),
        # white completes row 1 and uncovers black's row 2 in the same ply
        ("alice", "M B2 B1 1"),
    ]:
        before = len(lobby.seen(name))
        lobby.send(name, f"Game#1 {move}")
        new = lobby.seen(name)[before:]
        assert "OK" in new and "NOK" not in new, move
    assert "Game#1 Over R-0" in lobby.seen("bobby")
    assert lobby.core.finished[0].result == "R-0"
    rows = lobby.core.finished[0].game.position_string().split()[0].split("/")
    assert rows[1:] == ["2,2,2", "1,1,1"]  # black's row 2 and white's row 1


def test_a_player_out_of_stones_ends_the_game_on_flats() -> None:
    lobby = game("Seek 5 60 0 W 0 10 0 0 0 ")  # ten flats each, no capstone
    # a checkerboard on files A-D: nobody gets two stones side by side, so no road
    squares = [f"{file}{rank}" for rank in range(1, 6) for file in "ABCD"]
    white = [sq for sq in squares if ("ABCD".index(sq[0]) + int(sq[1])) % 2 == 0]
    black = [sq for sq in squares if sq not in white]
    plies = [("alice", black[0]), ("bobby", white[0])]
    for turn in range(1, 10):
        plies.append(("alice", white[turn]))
        if turn < 9:
            plies.append(("bobby", black[turn]))
    for name, square in plies:
        before = len(lobby.seen(name))
        lobby.send(name, f"Game#1 P {square}")
        assert "OK" in lobby.seen(name)[before:], square
        assert lobby.core.finished == [] or square == plies[-1][1]
    # white's tenth stone was its last: counted 10 flats to 9
    assert "Game#1 Over F-0" in lobby.seen("bobby")


def test_protocol_1_has_clocks_in_ms_and_the_old_game_start() -> None:
    lobby = Lobby()
    lobby.login("alice", protocol=1)
    lobby.login("bobby", protocol=2)
    lobby.send("bobby", "Seek 5 180 10 B 4 21 1 0 0 ")
    lobby.send("alice", "Accept 1")
    assert "Game Start 1 5 alice vs bobby white 180 4 21 1 0 0" in lobby.seen("alice")
    assert "Seek new 1 bobby 5 180 10 B 4 21 1 0 0 0 0 " in lobby.seen("alice")
    lobby.send("alice", "Game#1 P A1")
    assert lobby.seen("alice")[-2:] == ["Game#1 Timems 190000 180000", "OK"]


def test_a_bot_playing_black_wins_when_white_never_moves() -> None:
    lobby = Lobby(bots={"botty"}, bot_first_move_seconds=300.0)
    lobby.login("alice")
    lobby.login("botty")
    lobby.send("botty", "Seek 5 900 0 B 0 21 1 0 0 ")
    assert "Seek new 1 botty 5 900 0 B 0 21 1 0 0 0 0 0 1" in lobby.seen("alice")
    lobby.send("alice", "Accept 1", now=10.0)
    assert lobby.seen("alice")[-1] == "Game Start 1 alice vs botty white 5 900 0 0 21 1 0 0 0 0 1"
    assert lobby.core.next_deadline() <= 310.0
    lobby.tick(309.0)
    assert lobby.core.games  # the clocks do not run before the first ply, this rule does
    lobby.tick(310.0)
    assert "Game#1 Over 0-1" in lobby.seen("alice")
    # once white has moved, the rule is off
    lobby.send("botty", "Seek 5 900 0 B 0 21 1 0 0 ")
    lobby.send("alice", "Accept 2", now=400.0)
    lobby.send("alice", "Game#2 P A1", now=401.0)
    lobby.tick(800.0)
    assert lobby.core.games[2].result is None
