"""The seek filter and choice rule, and the resign/draw/undo/chat settings (pure)."""

from __future__ import annotations

import attrs
import pytest

from adapters.playtak.game_policy import ChatTemplate, PolicyError, ScorePolicy
from adapters.playtak.seek_filter import Range, SeekFilter, SeekFilterError
from adapters.playtak.seeks import SeekInfo
from adapters.playtak.terms import GameTerms
from adapters.referee.adjudication import DrawRule, ResignRule

SEEK = SeekInfo(3, "alice", GameTerms(5, 300, 10, 4, 21, 1), "W", bot=False)


@pytest.mark.parametrize(
    ("options", "changed", "reason"),
    [
        ({"sizes": "6,7"}, {}, "size 5"),
        ({"time": "60:180"}, {}, "base time 300 s is not 60:180"),
        ({"time": "600:"}, {}, "base time 300 s is not 600:"),
        ({"inc": ":5"}, {}, "increment 10 s is not 0:5"),
        ({"komi": "0"}, {}, "komi 4"),
        ({"colors": "W,A"}, {}, "we would be black"),
        ({"colors": "W"}, {"color": "A"}, "we would be random"),
        ({"rated": "unrated"}, {}, "rated"),
        ({"rated": "rated"}, {"terms": GameTerms(5, 300, 10, 4, unrated=True)}, "unrated"),
        ({"tournament": "yes"}, {}, "not a tournament game"),
        (
            {"tournament": "no"},
            {"terms": GameTerms(5, 300, 10, 4, tournament=True)},
            "a tournament game",
        ),
        ({"opponents": "bots"}, {}, "alice is not a bot"),
        ({"opponents": "humans"}, {"bot": True}, "alice is a bot"),
        ({"opponents": "humans"}, {"bot": None}, "the server does not say if a bot"),
        ({"allow": "bobby,carol"}, {}, "alice is not allowed"),
        ({"block": "ALICE"}, {}, "alice is blocked"),
        ({}, {"opponent": "carol"}, "it is for carol"),
        ({}, {"name": "Me123"}, "it is our own"),
    ],
)
def test_each_filter_names_why_a_seek_is_refused(
    options: dict[str, str], changed: dict[str, object], reason: str
) -> None:
    seek = attrs.evolve(SEEK, **changed)
    refusing = SeekFilter.parse(**options)  # type: ignore[arg-type]
    assert refusing.refusal(seek, "me123") == reason
    assert not refusing.accepts(seek, "me123")
    assert SeekFilter().accepts(attrs.evolve(seek, name="alice", opponent=""), "me123")


def test_a_seek_inside_every_filter_is_accepted() -> None:
    inside = SeekFilter.parse(
        sizes="5 6",
        time="180:600",
        inc="5:10",
        komi="0,4",
        colors="b",
        rated="rated",
        tournament="no",
        opponents="humans",
        allow="Alice",
        block="bobby",
    )
    assert inside.refusal(SEEK, "me123") is None
    assert inside.accepts(attrs.evolve(SEEK, opponent="ME123"), "me123")  # addressed to us


def test_the_choice_rule_addressed_then_closest_time_then_oldest() -> None:
    prefer = SeekFilter(prefer=(300, 10))  # 300 + 40 x 10 = 700 s
    old_far = attrs.evolve(SEEK, no=1, terms=GameTerms(5, 60, 0, 4))  # 60 s: 640 away
    near = attrs.evolve(SEEK, no=5, terms=GameTerms(5, 600, 3, 4))  # 720 s: 20 away
    near_older = attrs.evolve(SEEK, no=4, terms=GameTerms(5, 680, 1, 4))  # 720 s: 20 away, older
    addressed = attrs.evolve(SEEK, no=9, terms=GameTerms(5, 60, 0, 4), opponent="Me123")
    assert prefer.best([old_far, near, near_older], "me123") == near_older
    assert prefer.best([old_far, near, addressed], "me123") == addressed
    assert SeekFilter().best([near, old_far, near_older]) == old_far  # no preference: oldest
    assert SeekFilter().best([]) is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"sizes": "5,9"}, "--accept-size '5,9': '9' is not a number 3..8"),
        ({"time": "5:x"}, "--accept-time '5:x': give MIN:MAX"),
        ({"inc": "10:5"}, "--accept-inc '10:5': not a range"),
        ({"komi": "-1"}, "--accept-komi '-1'"),
        ({"colors": "W,X"}, "--accept-color 'W,X': 'X' is not W, B or A"),
        ({"rated": "maybe"}, "--accept-rated 'maybe': one of any, rated, unrated"),
        ({"allow": "al"}, "--allow: 'al' is not a player name"),
        ({"block": "bobby, x!"}, "--block: 'x!' is not a player name"),
    ],
)
def test_bad_filters_are_refused_by_name(options: dict[str, str], message: str) -> None:
    with pytest.raises(SeekFilterError) as caught:
        SeekFilter.parse(**options)  # type: ignore[arg-type]
    assert message in str(caught.value)


def test_ranges() -> None:
    assert Range.parse("7", "--x") == Range(7, 7)
    assert 7 in Range.parse(":7", "--x") and 8 not in Range.parse(":7", "--x")
    assert str(Range.parse("60:", "--x")) == "60:"


def test_the_score_rules_are_the_referees() -> None:
    policy = ScorePolicy.parse("movecount=3 score=500", "movenumber=10 movecount=4 score=20")
    assert policy.resign == ResignRule(3, 500)
    assert policy.draw == DrawRule(10, 4, 20)
    assert not policy.accept_undo and ScorePolicy.parse(undo="accept").accept_undo
    for words, message in [
        (("movecount=3",), "--resign: give score=N"),
        (("movecount=3 score=5 twosided=true",), "twosided needs the opponent"),
        ((None, "movenumber=x"), "--draw: movenumber='x' is not a whole number"),
        ((None, None, False, "sometimes"), "--undo 'sometimes': one of refuse, accept"),
    ]:
        with pytest.raises(PolicyError) as caught:
            ScorePolicy.parse(*words)  # type: ignore[arg-type]
        assert message in str(caught.value)


def test_resign_after_n_losing_scores_in_a_row_and_never_without_scores() -> None:
    watch = ScorePolicy(resign=ResignRule(3, 500)).watch()
    losing = ("cp", -600, None)
    assert [watch.after_our_move(losing, ply) for ply in (1, 3)] == [None, None]
    assert watch.after_our_move((None, None, None), 5) is None  # no score: the run ends
    assert [watch.after_our_move(losing, ply) for ply in (7, 9)] == [None, None]
    assert watch.after_our_move(("solved", 4, "loss"), 11) == "resign"
    silent = ScorePolicy(resign=ResignRule(1, 0)).watch()
    assert all(silent.after_our_move((None, None, None), ply) is None for ply in range(60))
    assert not silent.scored


def test_draws_offered_withdrawn_and_accepted_by_the_rule() -> None:
    watch = ScorePolicy(draw=DrawRule(2, 2, 30)).watch()
    level = ("cp", 10, None)
    assert watch.after_our_move(level, 1) is None
    assert watch.after_our_move(level, 3) is None  # two moves level, but move 1 only
    assert not watch.takes_draw(3)
    assert watch.after_our_move(level, 5) == "offer draw"
    assert watch.takes_draw(5)
    assert watch.after_our_move(level, 7) == "offer draw"  # with every move while it holds
    assert watch.after_our_move(("cp", 90, None), 9) == "withdraw draw"
    assert not watch.takes_draw(9)
    assert ScorePolicy(accept_draws=True).watch().takes_draw(0)


def test_chat_templates_take_me_and_opponent_only() -> None:
    template = ChatTemplate.parse("gl {opponent}, {me} here {{!}}", "--greeting")
    assert template.fill("Bot1", "alice") == "gl alice, Bot1 here {!}"
    assert len(ChatTemplate.parse("x" * 300, "--goodbye").fill("a", "b")) == 256
    for text, message in [
        ("hi {name}", "unknown placeholder {name}; use {me} and {opponent}"),
        ("hi {me!r}", "{me!r} has a conversion or format"),
        ("hi {opponent:>9}", "{opponent:>9} has a conversion or format; the placeholders"),
        ("hi {", "Single '{'"),
        ("two\nlines", "one line of printable text"),
        ("", "one line of printable text"),
    ]:
        with pytest.raises(PolicyError) as caught:
            ChatTemplate.parse(text, "--greeting")
        assert message in str(caught.value) and "--greeting" in str(caught.value)
