"""The checks of `tei check`: each sends what a GUI sends and judges what comes back
(see docs/check.md), returning what it saw or raising CheckFailed; `CHECKS` lists them in
the order they run."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio

from rules.game import OptionSpec
from rules.registry import game_class
from tei.check.probe import CheckFailed, Probe, is_bestmove, played_out, second_seat_game
from tei.driver import Engine
from tei.game_rules import v1_komi_spec
from tei.protocol import OptionDecl, ProtocolError, ReadyOk, parse_engine_line
from tei.transcript import FROM_ENGINE, TO_ENGINE

Check = Callable[[Probe], Awaitable[str]]


async def check_id_name(p: Probe) -> str:
    if not p.engine.id_name:
        raise CheckFailed("no 'id name' line before teiok")
    return f"id name {p.engine.id_name}"


async def check_id_author(p: Probe) -> str:
    if not p.engine.id_author:
        raise CheckFailed("no 'id author' line before teiok")
    return f"id author {p.engine.id_author}"


async def check_options(p: Probe) -> str:
    problems: list[str] = []
    for line in p.engine.handshake_lines:
        if line.split()[:1] == ["option"]:
            try:
                parse_engine_line(line)
            except ProtocolError as exc:
                problems.append(str(exc))
    for decl in p.engine.options.values():
        problem = _declaration_problem(p.engine, decl)
        if problem:
            problems.append(problem)
    if problems:
        raise CheckFailed("; ".join(problems))
    return f"{len(p.engine.options)} option(s) declared, all well-formed"


def _declaration_problem(engine: Engine, decl: OptionDecl) -> str:
    kind = decl.type.lower()
    if kind not in ("check", "spin", "combo", "button", "string"):
        return f"option {decl.name!r}: unknown type {decl.type!r}"
    if kind == "combo" and not decl.vars:
        return f"option {decl.name!r}: combo without var values"
    if kind == "spin" and (decl.min is None or decl.max is None):
        return f"option {decl.name!r}: spin without min and max"
    if decl.default is not None and kind != "button":
        why = engine.option_refusal(decl.name, decl.default)
        if why is not None:
            return f"default not allowed by the declaration: {why}"
    return ""


async def check_game_declared(p: Probe) -> str:
    games = p.engine.games
    if p.game not in games:
        raise CheckFailed(
            f"the engine plays {', '.join(sorted(games))} (option Game), not {p.game}"
        )
    if p.engine.option("Game") is None:
        return "no Game option: a legacy Tak engine"
    return f"Game lists {', '.join(sorted(games))}"


async def check_isready(p: Probe) -> str:
    await p.sync()
    return "readyok"


async def check_setoption(p: Probe) -> str:
    names = []
    for decl in p.engine.options.values():
        if decl.type.lower() == "button" or decl.default is None or decl.name.lower() == "game":
            continue
        await p.send(f"setoption name {decl.name} value {decl.default}".rstrip())
        names.append(decl.name)
    await p.sync()
    done = f"set {', '.join(names)} to their defaults; readyok"
    return done if names else "no options with defaults to set"


async def check_new_game(p: Probe) -> str:
    await p.prepare()
    return "new game accepted, readyok"


async def check_go_clock(p: Probe) -> str:
    await p.ready()
    game = p.fresh_game()
    move, _ = await p.search(game, "go wtime 2000 btime 2000 winc 100 binc 100", p.timeout)
    return f"start position: bestmove {move}"


async def check_go_movetime(p: Probe) -> str:
    await p.ready()
    game = played_out(p.fresh_game(), 2)
    start = trio.current_time()
    move, _ = await p.search(game, "go movetime 300", 0.3 + max(1.0, p.timeout))
    taken = trio.current_time() - start
    if taken > 1.3:
        raise CheckFailed(f"bestmove {move} after {taken:.2f} s, movetime was 0.3 s")
    return f"bestmove {move} after {taken:.2f} s"


async def _bounded(p: Probe, go: str) -> str:
    """A search two plies in that `go` itself bounds (depth, nodes)."""
    await p.ready()
    move, _ = await p.search(played_out(p.fresh_game(), 2), go, p.timeout)
    return f"bestmove {move}"


async def check_go_depth(p: Probe) -> str:
    return await _bounded(p, "go depth 2")


async def check_go_nodes(p: Probe) -> str:
    return await _bounded(p, "go nodes 1000")


async def _until_stop(p: Probe, go: str) -> str:
    await p.ready()
    game = played_out(p.fresh_game(), 2)
    await p.send(p.engine.position_message(game).to_line())
    await p.send(go)
    early = [line for line, _ in await p.quiet(0.3) if is_bestmove(line)]
    if early:
        p.dirty = True
        raise CheckFailed(f"{early[0]!r} before stop: '{go}' must search until stop")
    await p.send("stop")
    lines = await p.collect(lambda line, _: is_bestmove(line), "bestmove after stop", p.timeout)
    p.note_pvs(game, lines)
    move = p.check_bestmove(game, lines[-1][0])
    await p.sync("readyok (and no second bestmove) after stop")
    return f"searched until stop, then exactly one bestmove {move}"


async def check_go_infinite(p: Probe) -> str:
    return await _until_stop(p, "go infinite")


async def check_go_bare(p: Probe) -> str:
    return await _until_stop(p, "go")


async def check_isready_during_search(p: Probe) -> str:
    await p.ready()
    game = played_out(p.fresh_game(), 2)
    mark = p.transcript.count
    await p.send(p.engine.position_message(game).to_line())
    await p.send("go infinite")
    lines = await p.quiet(0.1)
    await p.send("isready")
    lines += await p.collect(
        lambda _, m: isinstance(m, ReadyOk), "readyok during search", p.timeout
    )
    early = [line for line, _ in lines if is_bestmove(line)]
    if early:
        p.dirty = True
        raise CheckFailed(f"{early[0]!r} before stop: the search ended when isready came")
    await p.send("stop")
    try:
        lines += await p.collect(
            lambda line, _: is_bestmove(line), "bestmove after stop", p.timeout
        )
    except CheckFailed:
        _no_bestmove_before_stop(p, mark)
        raise
    _no_bestmove_before_stop(p, mark)
    p.note_pvs(game, lines)
    p.check_bestmove(game, lines[-1][0])
    await p.sync("readyok (and no second bestmove) after stop")
    return "readyok while searching, search went on until stop"


def _no_bestmove_before_stop(p: Probe, mark: int) -> None:
    """CheckFailed naming a `bestmove` that arrived (since `mark`) before `stop` was sent."""
    for entry in p.transcript.since(mark):
        if entry.direction == TO_ENGINE and entry.line.strip() == "stop":
            return
        if entry.direction == FROM_ENGINE and is_bestmove(entry.line):
            p.dirty = True
            raise CheckFailed(f"{entry.line!r} before stop: 'go infinite' must search until stop")


async def check_stop_when_idle(p: Probe) -> str:
    await p.ready()
    await p.send("stop")
    await p.sync("readyok (and no bestmove) after stop when idle")
    return "ignored"


async def check_position_string(p: Probe) -> str:
    await p.ready()
    base = played_out(p.fresh_game(), 3, seed=3)
    game = type(base).from_position_string(base.position_string(), dict(p.rules))
    played_out(game, 2, seed=5)
    move, _ = await p.search(game, "go movetime 200", 0.2 + p.timeout)
    sent = p.engine.position_message(game).to_line()
    return f"{sent!r}: bestmove {move}"


async def check_second_seat(p: Probe) -> str:
    await p.ready()
    game = second_seat_game(p.fresh_game())
    move, _ = await p.search(game, "go wtime 3000 btime 2000 winc 0 binc 0", p.timeout)
    return f"seat {game.turn + 1} to act after {game.ply} plies: bestmove {move}"


async def check_first_reply(p: Probe) -> str:
    await p.ready()
    game = played_out(p.fresh_game(), 1, seed=13)
    move, _ = await p.search(game, "go movetime 200", 0.2 + p.timeout)
    first = game.history_text()[0]
    return f"after {first}: bestmove {move}"


async def check_komi(p: Probe) -> str:
    spec = v1_komi_spec(game_class(p.game))
    if spec is None or spec.tei is None:
        return f"not applicable to {p.game}"
    value = _komi_value(p, spec)
    if value is None:
        return f"no {spec.tei} option and no TEI v1 komi list: plays half-komi 0 only"
    rules = {**p.rules, spec.name: str(value)}
    await p.prepare(rules)
    move, _ = await p.search(p.fresh_game(rules), "go movetime 200", 0.2 + p.timeout)
    p.prepared = False  # the next check starts from the chosen rules again
    return f"half-komi {value}: bestmove {move}"


def _komi_value(p: Probe, spec: OptionSpec) -> int | None:
    wanted = p.rules.get(spec.name)
    if wanted not in (None, "0"):
        return int(wanted) if wanted is not None else None
    sizes = p.engine.sizes
    if sizes is not None:
        return next((k for k in sizes.halfkomis if k != 0), None)
    decl = p.engine.option(spec.tei or "")
    if decl is None:
        return None
    if decl.type.lower() == "combo":
        return next((int(v) for v in decl.vars if v.lstrip("-").isdigit() and v != "0"), None)
    low, high = decl.min if decl.min is not None else 0, decl.max if decl.max is not None else 4
    return 4 if low <= 4 <= high else (high if high != 0 else None)


async def check_quit(p: Probe) -> str:
    await p.send("quit")
    code = await p.engine.wait_exit(p.timeout)
    p.dirty = True
    if code is None:
        raise CheckFailed(f"still running {p.timeout:.3g} s after quit")
    return f"exited with code {code}"


async def check_quit_during_search(p: Probe) -> str:
    await p.ready()
    game = played_out(p.fresh_game(), 2)
    await p.send(p.engine.position_message(game).to_line())
    await p.send("go infinite")
    await p.quiet(0.1)
    return await check_quit(p)


#: (name, check) in the order they run
CHECKS: tuple[tuple[str, Check], ...] = (
    ("id name", check_id_name),
    ("id author", check_id_author),
    ("option declarations", check_options),
    ("game declared", check_game_declared),
    ("isready", check_isready),
    ("setoption", check_setoption),
    ("new game", check_new_game),
    ("go wtime btime winc binc", check_go_clock),
    ("go movetime", check_go_movetime),
    ("go depth", check_go_depth),
    ("go nodes", check_go_nodes),
    ("go infinite + stop", check_go_infinite),
    ("bare go + stop", check_go_bare),
    ("isready during search", check_isready_during_search),
    ("stop when idle", check_stop_when_idle),
    ("position string with moves", check_position_string),
    ("second seat to act", check_second_seat),
    ("reply to the first move", check_first_reply),
    ("komi", check_komi),
    ("quit", check_quit),
    ("quit during search", check_quit_during_search),
)

#: checks without which the others cannot run
FATAL = frozenset({"isready"})
