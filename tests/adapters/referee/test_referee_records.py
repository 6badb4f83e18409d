"""The referee's files: opening books, game records and the state file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adapters.referee.openings import (
    OpeningError,
    load_book,
    move_tokens,
    parse_position_book,
    parse_records,
    read_records,
)
from adapters.referee.records import (
    GameRecord,
    MoveNote,
    OrderedWriter,
    cut_fragment,
    end_with_blank_line,
    labelled_notes,
    read_details,
    scan_records,
    score_comment,
)
from adapters.referee.state import FinishedGame, StateWriter, read_state

#: the tags PTN Ninja knows (its Tag.js); any other tag is dropped with an error
PTN_NINJA_TAGS = {
    *("Caps", "Caps1", "Caps2", "Flats", "Flats1", "Flats2", "Clock", "Date", "Event"),
    *("Komi", "Opening", "Player1", "Player2", "PlayTakID", "Points", "Rating1", "Rating2"),
    *("Result", "Round", "Site", "Size", "Time", "TPS"),
}


def test_a_tak_record_uses_only_ptn_ninja_tags_and_keeps_the_rest_in_a_comment() -> None:
    tags = (("Site", "local"), ("Round", "12"), ("Player1", "a"), ("Player2", "b"))
    tags += (("Size", "3"), ("Result", "R-0"))
    details = (("round", "2"), ("pair", "6"), ("termination", "normal"))
    details += (("book", 'my "book".ptn:7'),)
    moves = tuple(MoveNote(m, "0.01s") for m in ("a1", "c3", "b1", "c2", "c1"))
    text = GameRecord("tak", tags, moves, "R-0", details=details).render()
    (record,) = read_records(text)
    assert set(record.tags) <= PTN_NINJA_TAGS
    assert re.fullmatch(r"\d+", record.tags["Round"])  # PTN Ninja: "Invalid round" else
    assert read_details(record.comments[0]) == dict(details)
    body = text.split("\n\n", 1)[1]
    assert body.startswith('{round:"2" pair:"6" termination:"normal" book:"my \\"book\\".ptn:7"}')
    assert record.moves == ("a1", "c3", "b1", "c2", "c1")


def test_an_old_record_with_round_and_termination_tags_still_reads_as_a_book() -> None:
    old = (
        '[Site "local"]\n[Round "1.1"]\n[Player1 "a"]\n[Player2 "b"]\n[Size "3"]\n'
        '[Book "b.ptn:1"]\n[Result "R-0"]\n[Termination "normal"]\n\n'
        "1. a1 {0.01s} c3 {0.01s}\n2. b1 c2\n3. c1 R-0\n"
    )
    (opening,) = parse_records(old, "old.ptn")
    assert opening.moves == ("a1", "c3", "b1", "c2", "c1")
    assert read_records(old)[0].tags["Round"] == "1.1"


# ---- books -------------------------------------------------------------------------------


def test_move_tokens_skip_numbers_comments_and_results() -> None:
    assert move_tokens("1. a1 {x} e5 2. c3' R-0") == ("a1", "e5", "c3")
    assert move_tokens("R: T08 G: c1-f2 {X 4-3}") == ("T08", "c1-f2")


def test_books_in_every_format(tmp_path: Path) -> None:
    moves = tmp_path / "book.txt"
    moves.write_text("# comment\na1 e5\n\n1. b2 d4\n")
    assert [o.moves for o in load_book([moves])] == [("a1", "e5"), ("b2", "d4")]
    tps = tmp_path / "tps.txt"
    tps.write_text("x5/x5/x5/x5/x5 1 1\nx5/x5/x5/x5/1,x4 2 1 moves e5\n")
    book = load_book([tps])
    assert book[0].position == "x5/x5/x5/x5/x5 1 1" and book[1].moves == ("e5",)
    ptn = tmp_path / "games.ptn"
    ptn.write_text(
        '[Size "5"]\n[TPS "x5/x5/x5/x5/x5 2 1"]\n\n1... a1 2. e5 b1 0-1\n\n'
        '[Size "5"]\n\n1. a1 e5 R-0\n'
    )
    book = load_book([ptn])
    assert [(o.position, o.moves) for o in book] == [
        ("x5/x5/x5/x5/x5 2 1", ("a1", "e5", "b1")),
        (None, ("a1", "e5")),
    ]
    assert book[1].source.endswith(":6")
    with pytest.raises(OpeningError, match="nothing"):
        load_book([tmp_path / "nothing.txt"])
    with pytest.raises(OpeningError, match="no position"):
        parse_position_book(["tps moves a1"], "x")
    assert parse_records("", "empty") == []


# ---- records -----------------------------------------------------------------------------


def test_tak_record_text() -> None:
    record = GameRecord(
        "tak",
        (("Player1", "A"), ("Site", "here"), ("Result", "R-0"), ("Custom", 'a "q"')),
        (MoveNote("a1", "+0.35/12 0.12s"), MoveNote("e5"), MoveNote("c3")),
        "R-0",
    )
    text = record.render()
    assert text.startswith('[Site "here"]\n[Player1 "A"]\n[Result "R-0"]\n[Custom "a \\"q\\""]')
    assert "1. a1 {+0.35/12 0.12s} e5\n2. c3\nR-0\n" in text
    black = GameRecord(
        "tak", (("TPS", "x3/x3/x3 2 4"),), (MoveNote("a1"), MoveNote("e5")), "0-1", "x3/x3/x3 2 4"
    )
    assert "4... a1\n5. e5\n0-1" in black.render()


def test_action_records() -> None:
    trike = GameRecord("trike", (), (MoveNote("d2"), MoveNote("swap")), "X 4-3").render()
    assert "d2 swap\n{X 4-3}" in trike
    traxit = GameRecord(
        "traxit", (), (MoveNote("T08", None, 0), MoveNote("c1-f2", "1.00s", 1)), "x", (), ("R", "G")
    ).render()
    assert "R: T08\nG: c1-f2 {1.00s}\n{x}" in traxit


@pytest.mark.parametrize("options", [{"players": "2"}, {"players": "4", "teams": "true"}])
def test_traxit_record_groups_each_turn_and_reads_back(options: dict[str, str]) -> None:
    import random
    import re

    from rules.registry import new_game
    from rules.traxit.game import TraxitGame

    game = new_game("traxit", options)
    assert isinstance(game, TraxitGame)
    rng = random.Random(7)
    notes = []
    while game.result is None:
        seat = game.turn
        action = rng.choice(game.legal())
        notes.append(MoveNote(game.format_action(action), "0.01s", seat))
        game.play(action)
    labelled = labelled_notes(game, notes)
    assert [n.text for n in labelled] == [n.text for n in notes]
    names = tuple(game.seat_name(s) for s in range(game.players))
    tags = (("Position", game.start_position or ""),) if game.start_position else ()
    text = GameRecord("traxit", tags, tuple(labelled), "end", None, names, "normal: done").render()
    body = [ln for ln in text.splitlines() if ln and not ln.startswith("[")]
    placements = [ln for ln in body if "@" in ln]
    assert len(placements) == 2 * game.players
    assert all(re.fullmatch(r"[RGBY]: @[a-h][1-8] \{0\.01s\}", ln) for ln in placements)
    turns = [ln for ln in body if re.match(r"\d\.\d ", ln)]
    assert len(turns) == 16 * game.players  # 4 sets of 4 rounds, one line per turn
    turn = r"\d\.\d [RGBY]: T(0[1-9]|1[0-6]) \{0\.01s\} !?[a-h][1-8]-[a-h][1-8] \{0\.01s\}"
    assert all(re.fullmatch(turn, ln) for ln in turns)
    # the owner of the turn is the one who moved (or was relocated)
    assert turns[0].startswith(f"1.1 {names[0]}: ") and turns[1].startswith(f"1.1 {names[1]}: ")
    sets = [ln for ln in body if ln.startswith("{set ")]
    assert len(sets) == 4 and sets[0].startswith("{set 1: ")
    final = " ".join(f"{n} {v}" for n, v in zip(names, game.state.scores, strict=True))
    assert sets[-1].startswith("{set 4: " + final)
    assert ("; teams " in sets[-1]) == ("teams" in options)
    assert body[-2:] == ["{normal: done}", "{end}"]
    # the record reads back as an opening with every action, in order
    (opening,) = parse_records(text, "t")
    assert list(opening.moves) == [n.text for n in notes]


def test_records_of_position_starts_read_back_from_the_position_tag() -> None:
    start = "TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00"
    text = GameRecord(
        "traxit", (("Position", start),), (MoveNote("c1-f2", None, 0),), "*", start, ("R", "G")
    ).render()
    (opening,) = parse_records(text)
    assert opening.position == start and opening.moves == ("c1-f2",)
    assert opening.start("traxit", {}).position_string().split()[3] == "G:choose"


def test_score_comments() -> None:
    assert score_comment("cp", 35, None, 12, 0.123) == "+0.35/12 0.12s"
    assert score_comment("solved", 5, "win", None, 1) == "+W5 1.00s"
    assert score_comment(None, None, None, None, 0.5) == "0.50s"
    assert score_comment(None, None, None, 3, 0.5) == "0.50s"


def test_ordered_writer_keeps_schedule_order(tmp_path: Path) -> None:
    path = tmp_path / "out.ptn"
    writer = OrderedWriter(path, [0, 1, 2, 3])
    assert writer.add(1, "one\n") == []
    assert writer.add(0, "zero\n") == [0, 1]
    assert path.read_text() == "zero\none\n"
    assert writer.add(3, "three\n") == []
    assert writer.close() == [3]  # the gap (2) is skipped, nothing is lost
    assert path.read_text() == "zero\none\nthree\n"


# ---- state -------------------------------------------------------------------------------


def test_state_round_trip_and_torn_lines(tmp_path: Path) -> None:
    path = tmp_path / "m.state"
    timing = ((0, 9, 90.5, 20.0, 9, 4.5), (1, 8, 80.0, 12.5, 0, 0.0))
    game = FinishedGame(
        2, (1, 0), (0,), 1, "R-0", "normal", "road", 17, '[Size "5"]\n', "x", 1, timing
    )
    writer = StateWriter(path, "r1", {"games": 4})
    writer.game(game)
    writer.written(2)
    writer.close()
    with open(path, "a") as f:
        f.write('{"kind": "game", "ind')  # interrupted write
    state = read_state(path)
    assert state.settings == {"games": 4}
    assert state.games == {2: game} and state.written == {2}
    again = StateWriter(path, "r1")
    again.written(5)
    again.close()
    assert read_state(path).written == {2, 5}
    assert json.loads(path.read_text().splitlines()[0])["kind"] == "match"
    lines = path.read_text().splitlines()
    assert [json.loads(lines[i])["run"] for i in (0, 1, 2, -1)] == ["r1"] * 4


def test_a_state_line_of_another_run_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "m.state"
    StateWriter(path, "r1", {"games": 4}).close()
    other = StateWriter(path, "r2")
    other.written(0)
    other.close()
    with pytest.raises(ValueError, match=r"m\.state:2: a line of another match \(run 'r2'"):
        read_state(path)


def test_a_version_1_state_file_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "old.state"
    path.write_text('{"kind": "match", "version": 1, "settings": {}}\n')
    with pytest.raises(ValueError, match=r"old\.state: a version 1 state file"):
        read_state(path)


# ---- a records file read back on resume ----------------------------------------------------

PTN_A = '[Site "local"]\n[Round "1"]\n[Result "R-0"]\n\n{round:"1"}\n1. a1 b1\n2. c1 R-0\n\n'
TRIKE_B = '[Round "2"]\n[Result "X 4-3"]\n\nc2 swap d2 {+0.1/2 0.1s}\n{X 4-3}\n\n'


@pytest.mark.parametrize(
    ("text", "complete", "fragment"),
    [
        (PTN_A + TRIKE_B, [1, 9], None),
        (PTN_A + TRIKE_B[:20], [1], 9),  # cut in the tags
        (PTN_A + "[Si", [1], 9),  # cut in the first tag line
        (PTN_A + TRIKE_B[:-9], [1], 9),  # cut before the result
        (PTN_A[:-1] + TRIKE_B, [1, 8], None),  # no blank line before the next record
        (PTN_A.replace("c1 R-0", "c1") + TRIKE_B, [9], None),  # no result: left alone
        (PTN_A[:-2], [1], None),  # the result written, its newlines not
        ("junk\n" + PTN_A, [2], None),
    ],
)
def test_scan_records_finds_complete_records_and_a_fragment_at_the_end_only(
    text: str, complete: list[int], fragment: int | None
) -> None:
    scan = scan_records(text.encode())
    assert [r.line for r in scan.records] == complete
    assert (scan.fragment_line or None) == fragment
    if fragment is not None:
        assert scan.fragment == len("".join(text.splitlines(True)[: fragment - 1]).encode())
    assert all(read_records(r.text) for r in scan.records)


def test_scan_records_starts_at_an_offset_and_counts_lines_from_the_file_start() -> None:
    data = (TRIKE_B + PTN_A + "[Site").encode()
    scan = scan_records(data, start=len(TRIKE_B))
    assert [(r.line, r.text) for r in scan.records] == [(7, PTN_A)]
    assert (scan.fragment, scan.fragment_line) == (len(TRIKE_B + PTN_A), 15)


def test_cut_fragment_keeps_the_bytes_in_a_side_file(tmp_path: Path) -> None:
    path = tmp_path / "g.ptn"
    path.write_bytes(PTN_A.encode() + b'[Site "lo\xc3')  # torn inside a character
    first = cut_fragment(path, len(PTN_A))
    assert path.read_text() == PTN_A
    assert first.read_bytes() == b'[Site "lo\xc3'
    assert first.name.startswith("g.ptn.cut-")
    path.write_text(PTN_A + "[Si")
    second = cut_fragment(path, len(PTN_A))  # the same second: a name of its own
    assert second != first and second.read_text() == "[Si" and path.read_text() == PTN_A


def test_bad_state_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("[]\n")
    with pytest.raises(ValueError, match=r"x\.json"):
        read_state(path)


@pytest.mark.parametrize("cut", [0, 1, 2])
def test_a_record_file_is_ended_with_a_blank_line(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "g.ptn"
    path.write_text(PTN_A[: len(PTN_A) - cut])
    end_with_blank_line(path)
    assert path.read_text() == PTN_A
