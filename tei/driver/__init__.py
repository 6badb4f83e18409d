"""Start and control any TEI engine process from trio.

    async with open_engine(["tiltak"], transcript=Transcript(sys.stderr)) as engine:
        game = new_game("tak", {"size": "6", "halfkomi": "4"})
        result = await engine.play(game, Limits(wtime=60000, btime=60000),
                                   rules={"size": "6", "halfkomi": "4"},
                                   deadline=trio.current_time() + 61)
        game.play(result.action)

The protocol state lives in a sans-IO `EngineConnection` (`tei.driver.connection`); the
process and its pumps in `tei.driver.process`. Importing this package imports trio; the
engine host never does (bots have their own `Limits` and `Info`, in `bots.limits`).
See docs/driver.md.
"""

from __future__ import annotations

from tei.driver.analysis import Analysis as Analysis
from tei.driver.connection import EngineConnection as EngineConnection
from tei.driver.engine import Engine as Engine
from tei.driver.engine_options import declared_refusal as declared_refusal
from tei.driver.errors import EngineError as EngineError
from tei.driver.errors import EngineOptionError as EngineOptionError
from tei.driver.errors import EngineProtocolError as EngineProtocolError
from tei.driver.errors import EngineStalled as EngineStalled
from tei.driver.errors import EngineTerminated as EngineTerminated
from tei.driver.errors import EngineTimeout as EngineTimeout
from tei.driver.errors import IllegalMove as IllegalMove
from tei.driver.errors import MalformedMove as MalformedMove
from tei.driver.launch import open_engine as open_engine
from tei.driver.launch import tei_command as tei_command
from tei.driver.limits import Limits as Limits
from tei.driver.play_result import PlayResult as PlayResult
from tei.driver.simple import SimpleAnalysis as SimpleAnalysis
from tei.driver.simple import SimpleEngine as SimpleEngine
from tei.errors import TeiError as TeiError
from tei.protocol_messages import MAX_COUNT as MAX_COUNT
from tei.protocol_messages import MAX_TIME_MS as MAX_TIME_MS
from tei.transcript import Transcript as Transcript
