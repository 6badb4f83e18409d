"""Which `Game Start` lines can be ours (sans-IO): a hostile or broken server may send a
colour that is neither, a game of other players, a game begun before our login that it
never resumes, a second start of the running game with other terms, or negative clocks.
"""

from __future__ import annotations

from adapters.playtak import protocol as p

#: the colours a start may give us
COLOURS = ("white", "black")


def not_ours(start: p.GameStart, name: str, running: p.GameStart | None) -> str | None:
    """Why `start` cannot be a game of ours (`name`, our login; `running`: the start of
    the game we are in), or None when it can."""
    if start.color not in COLOURS:
        return f"it gives us the colour {start.color!r}"
    seated = start.white if start.color == "white" else start.black
    if name and seated.lower() != name.lower():
        return f"it seats {seated} as {start.color}, and we are {name}"
    terms = start.terms
    numbers = (start.time, start.inc, terms.komi, terms.flats, terms.caps)
    if any(n is not None and n < 0 for n in (*numbers, terms.trigger, terms.amount)):
        return "it has a negative clock, komi or piece count"
    if running is None:
        return None
    if running.game_id != start.game_id:
        return f"we are in game {running.game_id}"
    if _fixed(start) != _fixed(running):
        return (
            f"game {running.game_id} runs as {_fixed(running)}: a start with other terms "
            "is not its replay"
        )
    return None


def _fixed(start: p.GameStart) -> str:
    """What a replay of a game keeps: players, our colour, size, komi and reserves."""
    flats, caps = start.pieces
    return (
        f"{start.white} vs {start.black}, we are {start.color}, {start.size}x{start.size}, "
        f"komi {start.komi}, {flats} flats {caps} caps"
    )
