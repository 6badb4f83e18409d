"""The front door and the shared interfaces."""

from __future__ import annotations

import subprocess
import sys
import threading

import attrs
import pytest

from bots import Limits
from rules.game import GameError, Outcome
from rules.registry import game_class
from tei import protocol as p
from tei.cli import SUBCOMMANDS
from tei.host.timing import budget_ms, limits_of


@pytest.mark.process
def test_help_lists_every_subcommand() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tei", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for name in SUBCOMMANDS:
        assert name in out


def test_unknown_game_is_named() -> None:
    with pytest.raises(GameError, match="chess"):
        game_class("chess")


def test_outcome_points_share_a_draw() -> None:
    draw = Outcome(winners=(0, 1), code="1/2-1/2", reason="flats")
    win = Outcome(winners=(1,), code="0-R", reason="road")
    assert draw.is_draw and draw.points(0) == 0.5 and draw.points(1) == 0.5
    assert not win.is_draw and win.points(0) == 0.0 and win.points(1) == 1.0


def test_limits_clock_and_the_hosts_budget() -> None:
    limits = Limits(wtime=10_000, btime=5_000, winc=100, binc=200)
    assert limits.clock(0) == (10_000, 100)
    assert limits.clock(1) == (5_000, 200)
    go = p.Go(wtime=10_000, btime=5_000, winc=100, binc=200)
    budget = budget_ms(limits, 1)
    assert budget is not None and 0 < budget <= 2_500
    assert limits_of(go, 1) == attrs.evolve(limits, cap_ms=budget)
    assert budget_ms(Limits(infinite=True), 0) is None
    assert budget_ms(Limits(movetime=1000), 0) == 950


def test_seeded_bots_repeat_their_choices() -> None:
    from bots.registry import make_bot
    from rules.registry import new_game

    def choices(seed: str) -> list[str]:
        bot = make_bot("trike", "random", {"Seed": seed})
        game = new_game("trike", {"size": "7"})
        played = []
        for _ in range(6):
            action = bot.think(game, Limits(), threading.Event(), lambda info: None)
            played.append(game.format_action(action))
            game.play(action)
        return played

    assert choices("7") == choices("7")
    assert len({tuple(choices(str(seed))) for seed in range(1, 6)}) > 1
