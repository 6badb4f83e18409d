"""`tei playtak --live`: the bridge's games on the live page, through the local server."""

from __future__ import annotations

import pytest
import trio

from adapters.playtak.live_view import BridgeWatch
from adapters.playtak.server.listeners import LocalServer
from adapters.playtak.server.lobby import ServerSettings
from adapters.stream.bus import EventBus
from adapters.stream.events import EngineInfo, GameOver, GameStarted, MovePlayed
from adapters.stream.live_state import LiveState
from adapters.web.live import serve_live
from rules.tak.ptn import PtnGame
from tei.cli import main
from tests.support.live import get, watch
from tests.support.playtak.bridges import SEARCH_BOT, make_bridge

pytestmark = pytest.mark.process


async def test_the_bots_game_is_shown_move_by_move_and_listed_when_over(
    nursery: trio.Nursery,
) -> None:
    server = LocalServer(ServerSettings(seed=3))
    await nursery.start(server.serve)
    address = f"tcp://127.0.0.1:{server.tcp_port}"
    bus = EventBus(LiveState(title="playtak"))
    heard: list[object] = []
    bus.listen(heard.append)
    ours = make_bridge(
        address, SEARCH_BOT, user="alice", seek="4 30 1 A", engine_options={"MaxDepth": "2"}
    )
    ours.watch = BridgeWatch(bus.publish, "local", 1)
    other = make_bridge(address, user="bobby", accept_from="alice")
    url = await nursery.start(serve_live, bus, "127.0.0.1", 0)
    async with watch(url) as watcher:
        kind, first = await watcher.message()
        assert kind == "snapshot" and first["games"] == {}
        with trio.fail_after(90):
            async with trio.open_nursery() as games:
                games.start_soon(ours.run)
                games.start_soon(other.run)
        seen_moves = 0
        while True:
            kind, data = await watcher.message()
            for view in (data.get("games") or {}).values():
                if view is not None:
                    seen_moves = max(seen_moves, len(view["moves"]))
            if data.get("finished"):
                break
    [(game_id, result, _)] = ours.finished
    served = {g.no: g for g in server.core.finished}[game_id]
    starts = [e for e in heard if isinstance(e, GameStarted)]
    assert starts[0].players == (served.white, served.black)
    assert "we play" in starts[0].title
    moves = [e for e in heard if isinstance(e, MovePlayed)]
    assert len(moves) == len(served.moves) and seen_moves == len(served.moves)
    assert {m.seat for m in moves} == {0, 1}
    infos = [e for e in heard if isinstance(e, EngineInfo)]
    assert infos and all(i.depth is not None for i in infos)  # the search bot's reports
    [over] = [e for e in heard if isinstance(e, GameOver)]
    assert over.result == result
    record = PtnGame.parse(over.record)
    assert record.tag("PlayTakID") == str(game_id) and len(record.moves) == len(served.moves)
    snap = bus.state.snapshot()
    assert snap["standings"]["rows"][0]["name"] == "alice"
    assert snap["standings"]["rows"][0]["games"] == 1 and snap["standings"]["done"] == 1
    status, _, body = await get(f"{url}games/{game_id}.ptn")
    assert status == 200 and body.decode() == over.record
    bus.close()


def test_tei_playtak_refuses_a_public_live_address(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["playtak", "--seek", "5 180 10", "--live", "0.0.0.0:0"])
    assert code == 2
    assert "--live-public" in capsys.readouterr().err
