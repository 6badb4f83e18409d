"""Each TEI rule is decided once and read the same by driver, host, checker and bots:
option values (`OptionDecl.parse`), clamping (`GoLimits.clamped`) and which clock a seat
reads (`rules.game.clock_side`)."""

from __future__ import annotations

import pytest

from bots.limits import Limits as BotLimits
from rules.game import clock_side
from tei import protocol as p
from tei.driver.connection import build_go
from tei.driver.engine_options import OptionRefused, normalize_value
from tei.driver.limits import Limits
from tei.errors import OptionValueError
from tei.host.declared_options import HostOption
from tei.seat import seat_limits

DECLS = [
    p.OptionDecl("Hash", "spin", "16", 1, 64),
    p.OptionDecl("Low", "spin", "3", min=1),
    p.OptionDecl("Ponder", "check", "false"),
    p.OptionDecl("Style", "combo", "Solid", vars=("Solid", "Wild")),
    p.OptionDecl("Fixed", "combo", "only"),  # no vars: its default is the one value
    p.OptionDecl("Book", "string", "<empty>"),
]
VALUES = ["16", " 64 ", "0", "65", "-2", "x", "yes", "OFF", "wild", "ONLY", "maybe", ""]


@pytest.mark.parametrize("decl", DECLS, ids=lambda d: d.name)
@pytest.mark.parametrize("value", VALUES)
def test_driver_and_host_read_an_option_value_alike(decl: p.OptionDecl, value: str) -> None:
    try:
        expected: str | None = decl.parse(value)
    except OptionValueError as exc:
        with pytest.raises(OptionRefused) as refused:
            normalize_value(decl, value)
        assert refused.value.why == exc.why
        with pytest.raises(OptionValueError) as host:
            HostOption(decl).check(value)
        assert str(host.value) == str(exc) == f"option {decl.name!r} {exc.why}"
        assert repr(value) in str(exc)  # the message quotes the bad value
        return
    assert normalize_value(decl, value) == expected
    assert HostOption(decl).check(value) == expected


def test_option_messages_say_what_the_option_takes() -> None:
    hash_, low, ponder, style, fixed, _ = DECLS
    cases = [
        (hash_, "65", "option 'Hash' takes 1..64, not '65'"),
        (low, "0", "option 'Low' takes 1.., not '0'"),
        (ponder, "maybe", "option 'Ponder' takes true or false, not 'maybe'"),
        (style, "calm", "option 'Style' takes one of Solid, Wild, not 'calm'"),
        (fixed, "other", "option 'Fixed' takes one of only, not 'other'"),
        (hash_, None, "option 'Hash' needs a value"),
    ]
    for decl, value, message in cases:
        with pytest.raises(OptionValueError) as exc:
            decl.parse(value)
        assert str(exc.value) == message
    assert fixed.parse("ONLY") == "only"
    assert p.OptionDecl("Clear", "button").parse(None) is None


@pytest.mark.parametrize("seat", range(4))
def test_every_layer_reads_the_same_clock_for_a_seat(seat: int) -> None:
    side = clock_side(seat)
    assert side == ("w" if seat % 2 == 0 else "b")
    go = p.Go(wtime=1000, btime=2000, winc=10, binc=20)
    own = (1000, 10) if side == "w" else (2000, 20)
    assert go.clock(seat) == own
    assert BotLimits(wtime=1000, btime=2000, winc=10, binc=20).clock(seat) == own
    # the referee's seat puts a seat's own clock where that seat reads it
    limits = seat_limits(seat, (5000, 50), (7000, 70))
    assert limits.clock(seat) == (5000, 50)
    assert limits.clock(seat + 1) == (7000, 70)
    # with more than two seats the driver sends the acting seat's clock in both slots
    sent, _ = build_go(Limits(wtime=1000, btime=2000, winc=10, binc=20), seat, 4)
    assert (sent.wtime, sent.btime, sent.winc, sent.binc) == (own[0], own[0], own[1], own[1])


def test_driver_and_host_clamp_alike() -> None:
    limits = Limits(wtime=-5, btime=10**20, depth=0, nodes=-1, movestogo=0, movetime=5)
    sent, notes = build_go(limits, 0, 2)
    hosted, host_notes = p.Go(**limits.limit_values()).clamped()
    assert (
        sent
        == hosted
        == p.Go(wtime=0, btime=p.MAX_TIME_MS, depth=1, nodes=1, movestogo=1, movetime=5)
    )
    assert notes == host_notes
    assert notes[0] == "wtime -5 clamped to 0"
