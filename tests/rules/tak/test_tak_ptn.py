"""PTN game files: reading what is found in the wild, writing, replaying."""

from __future__ import annotations

import pytest

from rules.game import GameError, IllegalAction, NotationError
from rules.tak.game import TakGame
from rules.tak.ptn import PtnGame, parse_many

PLAYTAK_EXPORT = """[Site "PlayTak.com"]
[Event "Online Play"]
[Date "2024.05.01"]
[Time "12:00:00"]
[Player1 "alice"]
[Rating1 "1500"]
[Player2 "bob"]
[Rating2 "1400"]
[Clock "10:0 +20"]
[Result "R-0"]
[Size "5"]
[Komi "2"]
[Flats "21"]
[Caps "1"]

1. a1 e5
2. e4 {opening} d5'
3. e3 c5!
4. e2 b5?
5. e1 R-0
"""


def test_reads_a_playtak_export() -> None:
    record = PtnGame.parse(PLAYTAK_EXPORT)
    assert record.tag("player1") == "alice" and record.tag("Komi") == "2"
    assert record.moves == ["a1", "e5", "e4", "d5", "e3", "c5", "e2", "b5", "e1"]
    assert record.plies[2].comments == ["opening"]
    assert record.result == "R-0"
    game = record.replay()
    assert game.half_komi == 4 and game.size == 5
    assert game.result is not None and game.result.code == "R-0"


def test_tolerates_missing_numbers_result_and_glued_numbers() -> None:
    record = PtnGame.parse('[Size "4"]\na1 d4 1.b2 c3 {x} 3... c2 ')
    assert record.moves == ["a1", "d4", "b2", "c3", "c2"]
    assert record.result is None
    assert record.replay().ply == 5
    tagged = PtnGame.parse('\ufeff[Size "3"]\r\n[Result "0-R"]\r\n1. a1 c3\r\n')
    assert tagged.result == "0-R" and tagged.moves == ["a1", "c3"]


def test_explicit_forms_and_crush_marks() -> None:
    record = PtnGame.parse('[Size "5"]\n1. a1 e5 2. Ce1 Sd1 3. 1e1<1 *')
    assert record.moves == ["a1", "e5", "Ce1", "Sd1", "e1<"]
    assert record.result is None
    game = record.replay()
    assert game.history_text()[-1] == "e1<*"
    assert game.position_string() == "x4,1/x5/x5/x5/2,x2,21C,x 2 3"


def test_several_games_in_one_file() -> None:
    text = PLAYTAK_EXPORT + '\n[Size "3"]\n1. a1 c3 2. b1 1/2-1/2\n\n[Size "4"]\n1. a1 d4\n'
    games = parse_many(text)
    assert [g.tag("Size") for g in games] == ["5", "3", "4"]
    assert games[1].result == "1/2-1/2" and games[2].result is None
    assert [len(g.plies) for g in games] == [9, 3, 2]


def test_tps_tag_and_black_to_move() -> None:
    tps = "x4,1/x5/x5/x5/2,x2,21C,x 2 3"
    record = PtnGame(tags={"Size": "5", "TPS": tps})
    record.add_move("a2")
    record.add_move("e4", comment="+0.35/12 1.23s")
    text = record.text()
    assert "3... a2\n4. e4 {+0.35/12 1.23s}" in text
    again = PtnGame.parse(text)
    assert again.moves == ["a2", "e4"] and again.plies[1].comments == ["+0.35/12 1.23s"]
    game = again.replay()
    assert game.start_position == tps and game.ply == 2


def test_writes_tags_in_order_and_round_trips() -> None:
    game = TakGame.new({"size": "6", "halfkomi": "5"})
    game.play_all(["a1", "f6", "Cc3", "d4", "c3+", "Sd3"])
    record = PtnGame.from_game(game, {"Player2": "bob", "Player1": "alice", "Event": "Test"})
    record.set_tag("site", "local")
    record.set_tag("Site", "here")
    record.comment(0, "book")
    record.comment(-1, "+0.10/3 0.01s")
    text = record.text()
    lines = text.splitlines()
    names = [line[1 : line.index(" ")] for line in lines if line.startswith("[")]
    assert names == ["Site", "Event", "Player1", "Player2", "Size", "Komi", "Flats", "Caps"]
    assert '[Komi "2.5"]' in text
    assert "1. a1 {book} f6" in lines
    assert "3. c3+ Sd3 {+0.10/3 0.01s}" in lines
    again = PtnGame.parse(text)
    assert again.tags == record.tags
    replayed = again.replay()
    assert replayed.position_string() == game.position_string()
    assert replayed.half_komi == 5


def test_finished_game_writes_its_result() -> None:
    game = TakGame.from_position_string("x3/1,1,x/2,2,x 1 5")
    game.play_text("c2")
    record = PtnGame.from_game(game)
    assert record.result == "R-0" and record.tag("Result") == "R-0"
    assert record.text().rstrip().endswith("R-0")
    assert record.text().count("5. c2") == 1


def test_escaped_tag_values() -> None:
    record = PtnGame(tags={"Event": 'the "big" one \\ 2'})
    assert PtnGame.parse(record.text()).tag("Event") == 'the "big" one \\ 2'


@pytest.mark.parametrize(
    ("stage", "text", "error", "named"),
    [
        # what does not parse
        ("parse", "", NotationError, "no PTN game"),
        ("parse", '[Size "5"]\n1. a1 zz9', NotationError, "zz9"),
        ("parse", '[Size "5"]\n1. a1 ]', NotationError, "stray"),
        ("parse", '[Size "5"]\n1. a1 {no end', NotationError, "stray '{'"),
        ("parse", "[Size 5]\n1. a1", NotationError, "stray '\\['"),
        # what parses but does not replay
        ("replay", '[Size "5"]\n1. a1 a1', IllegalAction, "ply 2 \\(a1\\)"),
        ("replay", '[Size "5"]\n1. Sa1', IllegalAction, "ply 1"),
        ("replay", '[Size "9"]\n1. a1', GameError, "size='9'"),
        ("replay", '[TPS "x5/x5 1 1"]\n1. a1', NotationError, "rows"),
    ],
)
def test_parse_and_replay_errors_are_named(
    stage: str, text: str, error: type[GameError], named: str
) -> None:
    if stage == "parse":
        with pytest.raises(error, match=named):
            PtnGame.parse(text)
    else:
        record = PtnGame.parse(text)
        with pytest.raises(error, match=named):
            record.replay()


@pytest.mark.parametrize("komi", ["x", "0.3", "inf", "nan"])
def test_a_komi_tag_that_is_no_komi_parses_but_does_not_replay(komi: str) -> None:
    record = PtnGame.parse(f'[Size "5"]\n[Komi "{komi}"]\n1. a1')
    with pytest.raises(NotationError, match="Komi"):
        record.replay()


def test_add_marks_writes_tak_and_tinue_marks() -> None:
    from rules.game import GameError

    fork = '[Size "5"]\n[TPS "2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x5 1 6"]\n\n6. d2 a1\n'
    record = PtnGame.parse(fork)
    record.add_marks()
    assert record.moves == ["d2''", "a1"] and "6. d2'' a1" in record.text()
    again = PtnGame.parse(record.text())
    assert again.moves == ["d2", "a1"]  # marks are read back as annotations
    again.add_marks()
    assert again.moves == ["d2''", "a1"]
    cover = "2,x4/x2,1,x2/x2,1,x2/x2,11,x,2/x4,2C 1 6"
    single = PtnGame.parse(f'[Size "5"]\n[TPS "{cover}"]\n\n6. c5 Sc1')
    single.add_marks()
    assert single.moves == ["c5'", "Sc1"]
    broken = PtnGame.parse('[Size "5"]\n\n1. a1 a1\n')
    with pytest.raises(GameError, match="ply 2"):
        broken.add_marks()
    assert broken.moves == ["a1", "a1"]
