"""Adjudication rules: parsing and printing, and verdicts on scripted score sequences."""

from __future__ import annotations

import argparse
import math
import pickle
from pathlib import Path

import pytest

from adapters.referee.adjudication import (
    AdjudicationError,
    AdjudicationRules,
    Adjudicator,
    DrawRule,
    GameJudge,
    ResignRule,
    TinueRule,
    Verdict,
    centiflats,
)
from adapters.referee.config import build_config
from adapters.referee.engines import MatchError
from adapters.referee.game_loop import GameSettings
from rules.tak.game import TakGame
from tei.cli.match import configure, merged_settings
from tei.cli.match_options import settings_of

NONE = (None, None, None)


def cp(value: int) -> tuple[str, int, None]:
    return ("cp", value, None)


def judge(notes: list[tuple[str, str]] | None = None, **settings: object) -> GameJudge:
    rules = AdjudicationRules.from_settings(settings, "tak", 2)
    log = (lambda name, text: notes.append((name, text))) if notes is not None else None
    return Adjudicator(rules, log).new_game(["A", "B"])


VERDICTS: list[Verdict] = []


def feed(j: GameJudge, scores: list[tuple[str | None, int | None, str | None]]) -> list[int]:
    """Play placements (a fixed walk) with the scores given, seats alternating from
    white; the plies (1-based) at which a verdict came (kept in VERDICTS)."""
    game = TakGame.new({"size": "6"})
    squares = [f"{f}{r}" for r in range(1, 7) for f in "abcdef"]
    found = []
    VERDICTS.clear()
    for ply, score in enumerate(scores):
        seat = game.turn
        game.play_text(squares[ply])
        verdict = j.after_move(game, seat, score)
        if verdict is not None:
            found.append(ply + 1)
            VERDICTS.append(verdict)
    return found


def test_rules_parse_and_print_themselves() -> None:
    rule = ResignRule.parse(["movecount=3", "score=600", "twosided=true"])
    assert rule == ResignRule(3, 600, True) and str(rule) == "movecount=3 score=600 twosided=true"
    assert ResignRule.parse(str(rule).split()) == rule
    assert str(ResignRule(2, 400)) == "movecount=2 score=400"
    draw = DrawRule.parse(["movenumber=40", "movecount=8", "score=10"])
    assert DrawRule.parse(str(draw).split()) == draw
    assert TinueRule.parse([]) == TinueRule(5) and str(TinueRule.parse(["plies=3"])) == "plies=3"
    rules = AdjudicationRules.from_settings(
        {"resign": {"movecount": 3, "score": 600, "twosided": True}, "tinue_adjudication": True},
        "tak",
        2,
    )
    assert rules.resign == rule and rules.tinue == TinueRule(5) and rules.draw is None
    again = AdjudicationRules.from_settings(rules.to_settings(), "tak", 2)
    assert again == rules and again.active and not AdjudicationRules().active
    plain = AdjudicationRules.from_settings({"tinue_adjudication": ""}, "tak", 2)
    assert plain.tinue == TinueRule()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"resign": "movecount=3"}, r"--resign: give score=N"),
        ({"resign": "movecount=x score=5"}, r"movecount='x' is not a whole number"),
        ({"resign": "movecount=0 score=5"}, r"movecount='0' must be at least 1"),
        ({"resign": "count=3 score=5"}, r"bad setting 'count=3'"),
        ({"resign": "movecount=3 score=5 twosided=maybe"}, r"'maybe' is not true or false"),
        ({"draw": "movenumber=3 score=5"}, r"--draw: give movecount=N"),
        ({"tinue_adjudication": "depth=3"}, r"--tinue-adjudication: bad setting 'depth=3'"),
        ({"tinue_adjudication": 7}, r"not words or an object"),
    ],
)
def test_bad_settings_name_the_rule_and_word(settings: dict[str, object], message: str) -> None:
    with pytest.raises(AdjudicationError, match=message):
        AdjudicationRules.from_settings(settings, "tak", 2)


def test_tinue_is_for_tak_only_and_score_rules_for_two_seats() -> None:
    with pytest.raises(AdjudicationError, match="for Tak only, not trike"):
        AdjudicationRules.from_settings({"tinue_adjudication": "plies=3"}, "trike", 2)
    with pytest.raises(AdjudicationError, match="need two seats"):
        AdjudicationRules.from_settings({"draw": "movenumber=1 movecount=1 score=1"}, "traxit", 3)
    engines = [{"bot": "random"}, {"bot": "random"}]
    with pytest.raises(MatchError, match="for Tak only"):
        build_config({"game": "trike", "engines": engines, "tinue_adjudication": ""})
    config = build_config({"engines": engines, "resign": "movecount=2 score=300"})
    assert config.adjudication.resign == ResignRule(2, 300)


def test_scores_in_centiflats() -> None:
    assert centiflats("cp", -35, None) == -35.0
    assert centiflats("cp", 35, "lowerbound") == 35.0
    assert centiflats("solved", 7, "win") == math.inf
    assert centiflats("solved", 4, "loss") == -math.inf
    assert centiflats("solved", None, "draw") == 0.0
    assert centiflats("mate", 3, None) == math.inf and centiflats("mate", -2, None) == -math.inf
    assert centiflats("solved", 3, "maybe") is None and centiflats(*NONE) is None


def test_resign_after_movecount_own_moves_at_or_below_minus_score() -> None:
    # white's engine: -600, -700, then +0 breaks the run, then three bad ones
    white = [cp(-600), cp(-700), cp(0), cp(-600), cp(-601), cp(-900)]
    black = [cp(0)] * 6
    scores = [s for pair in zip(white, black, strict=True) for s in pair]
    assert feed(judge(resign="movecount=3 score=600"), scores)[0] == 11
    verdict = VERDICTS[0]
    assert verdict.outcome.winners == (1,) and verdict.outcome.code == "0-1"
    assert verdict.outcome.reason == "resign" and "white's engine" in verdict.comment


def test_a_proven_loss_counts_beyond_any_score_and_a_missing_score_breaks_the_run() -> None:
    scores = [cp(0), ("solved", 5, "loss"), cp(0), NONE, cp(0), ("mate", -2, None)]
    scores += [cp(0), ("solved", 1, "loss")]
    assert feed(judge(resign="movecount=2 score=100000"), scores)[0] == 8
    assert VERDICTS[0].outcome.code == "1-0"


def test_twosided_needs_the_opponent_to_agree() -> None:
    white = [cp(-800)] * 4
    black_agrees = [cp(50), cp(800), cp(800), cp(800)]
    black_unsure = [cp(800), cp(100), cp(800), cp(100)]
    rule = "movecount=2 score=500 twosided=true"
    agree = [s for pair in zip(white, black_agrees, strict=True) for s in pair]
    assert feed(judge(resign=rule), agree)[0] == 6
    unsure = [s for pair in zip(white, black_unsure, strict=True) for s in pair]
    assert feed(judge(resign=rule), unsure) == []
    assert feed(judge(resign="movecount=2 score=500"), unsure)[0] == 3


def test_an_engine_without_scores_is_never_resigned_and_that_is_logged_once() -> None:
    notes: list[tuple[str, str]] = []
    adjudicator_judge = judge(notes, resign="movecount=1 score=1")
    assert feed(adjudicator_judge, [NONE, cp(0)] * 6) == []
    assert notes == [("A", "reports no scores: the resign rule will never resign it")]
    again = adjudicator_judge.adjudicator.new_game(["A", "B"])
    feed(again, [NONE, cp(0)])
    assert len(notes) == 1  # once per engine and match


def test_draw_after_movenumber_when_both_are_level_for_movecount_moves() -> None:
    level = [cp(5), cp(-5)] * 8
    found = feed(judge(draw="movenumber=3 movecount=2 score=10"), level)
    assert found[0] == 6  # 3 full moves played, both level on their last 2
    assert VERDICTS[0].outcome.code == "1/2-1/2"
    assert VERDICTS[0].outcome.winners == (0, 1)  # a draw: half a point each
    spiky = [cp(5), cp(-5), cp(50), cp(-5)] * 4
    assert feed(judge(draw="movenumber=1 movecount=2 score=10"), spiky) == []
    solved_draw = [("solved", 4, "draw")] * 4
    assert feed(judge(draw="movenumber=1 movecount=2 score=0"), solved_draw)[0] == 4


def test_tinue_verdict_gives_the_line_and_needs_a_game_going_on() -> None:
    game = TakGame.from_tps("2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x5 2 5")
    j = judge(tinue_adjudication="plies=3")
    game.play_text("a4")  # black moves; white to move has the fork d2
    verdict = j.after_move(game, 1, NONE)
    assert verdict is not None and verdict.outcome.winners == (0,)
    assert verdict.outcome.code == "R-0" and verdict.outcome.reason == "tinue"
    assert verdict.line[0] == "d2" and "white forces a road: d2 " in verdict.comment
    replay = game.copy()
    replay.play_all(list(verdict.line))
    assert replay.result is not None and replay.result.winners == (0,)
    game.play_all(list(verdict.line))
    assert j.after_move(game, 0, NONE) is None  # the rules ended it: no verdict


def test_a_config_file_gives_the_rules_and_the_command_line_overrides(tmp_path: Path) -> None:
    config = tmp_path / "match.toml"
    config.write_text(
        'engine = ["bot=random", "bot=random"]\n'
        'resign = "movecount=3 score=600 twosided=true"\n'
        'draw = ["movenumber=40", "movecount=8", "score=10"]\n'
        "tinue-adjudication = []\n"
    )
    parser = argparse.ArgumentParser()
    configure(parser)
    args = parser.parse_args(["--config", str(config), "--resign", "movecount=2", "score=300"])
    rules = build_config(settings_of(merged_settings(args))).adjudication
    assert rules == AdjudicationRules(ResignRule(2, 300), DrawRule(40, 8, 10), TinueRule(5))
    args = parser.parse_args(["--config", str(config)])
    rules = build_config(settings_of(merged_settings(args))).adjudication
    assert rules.resign == ResignRule(3, 600, True)


def test_the_adjudicator_travels_to_cluster_workers_without_its_log() -> None:
    notes: list[tuple[str, str]] = []
    rules = AdjudicationRules(ResignRule(2, 300), None, TinueRule(3))
    adjudicator = Adjudicator(rules, lambda name, text: notes.append((name, text)))
    settings = GameSettings(game="tak", rules={"size": "5"}, adjudicator=adjudicator)
    copied = pickle.loads(pickle.dumps(settings))
    assert copied.adjudicator is not None and copied.adjudicator.rules == rules
    assert copied.adjudicator.log is None
    feed(copied.adjudicator.new_game(["A", "B"]), [NONE, cp(0)])
    assert notes == []
