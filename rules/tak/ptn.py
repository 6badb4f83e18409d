"""PTN game files: tags, numbered moves, comments and results, read and written.

`PtnGame.parse(text)` reads one game, `parse_many(text)` every game of a file. Reading is
tolerant: move numbers may be missing or wrong, annotations (``'``, ``!?``...) are
dropped, the result may be missing. `text()` writes tags in a conventional order and one
move pair per line; `replay()` turns the record into a `TakGame` (honouring the TPS tag).
"""

from __future__ import annotations

import math
import re

import attrs

from rules.game import RECORD_TAG_ORDER, GameError, NotationError
from rules.tak.game import TakGame, komi_text
from rules.tak.move import ANNOTATION_RE, Move

RESULTS = ("R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0", "*")


_TOKEN_RE = re.compile(
    r"""\[\s*(?P<tag>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]
      | \{(?P<comment>[^}]*)\}
      | (?P<number>\d+\.(?:\.\.)?)
      | (?P<word>[^\s\[\]{}]+)
      | (?P<bad>[\[\]{}])""",
    re.VERBOSE,
)
_KINDS = ("tag", "comment", "number", "word", "bad")
_RESULT_ALIASES = {"1/2": "1/2-1/2", "½-½": "1/2-1/2"}


@attrs.define
class PtnPly:
    """One ply of a record: the move's text and the comments written after it."""

    move: str
    comments: list[str] = attrs.Factory(list)


@attrs.define
class PtnGame:
    """One game record: tags, plies (with comments) and the result token."""

    tags: dict[str, str] = attrs.Factory(dict)
    plies: list[PtnPly] = attrs.Factory(list)
    result: str | None = None
    #: comments written before the first move
    comments: list[str] = attrs.Factory(list)

    # ---- reading -----------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> PtnGame:
        """The first game of a PTN text; raises NotationError if there is none."""
        games = parse_many(text)
        if not games:
            raise NotationError("no PTN game in the text")
        return games[0]

    # ---- editing -----------------------------------------------------------------------
    def tag(self, name: str, default: str | None = None) -> str | None:
        """A tag's value, matching the name case-insensitively."""
        for key, value in self.tags.items():
            if key.lower() == name.lower():
                return value
        return default

    def set_tag(self, name: str, value: object) -> None:
        for key in list(self.tags):
            if key.lower() == name.lower() and key != name:
                del self.tags[key]
        self.tags[name] = str(value)

    def add_move(self, move: str | Move, comment: str | None = None) -> None:
        """Append a ply (and optionally its comment, e.g. ``+0.35/12 1.23s``)."""
        ply = PtnPly(move.ptn() if isinstance(move, Move) else move)
        if comment is not None:
            ply.comments.append(comment)
        self.plies.append(ply)

    def comment(self, index: int, text: str) -> None:
        """Attach a comment to ply `index` (0-based; negative counts from the end)."""
        self.plies[index].comments.append(text)

    @property
    def moves(self) -> list[str]:
        return [ply.move for ply in self.plies]

    @classmethod
    def from_game(cls, game: TakGame, tags: dict[str, str] | None = None) -> PtnGame:
        """A record of a game: Size/Komi/Flats/Caps/TPS tags, moves, result if over."""
        record = cls()
        opts = game.options
        record.set_tag("Size", opts.size)
        if opts.half_komi:
            record.set_tag("Komi", komi_text(opts.half_komi))
        record.set_tag("Flats", opts.stones)
        record.set_tag("Caps", opts.caps)
        if game.start_position is not None:
            record.set_tag("TPS", game.start_position)
        for key, value in (tags or {}).items():
            record.set_tag(key, value)
        for move in game.history:
            record.add_move(move)
        if game.result is not None:
            record.result = game.result.code
            record.set_tag("Result", game.result.code)
        return record

    # ---- writing -----------------------------------------------------------------------
    def text(self) -> str:
        lines = []
        order = {name.lower(): i for i, name in enumerate(RECORD_TAG_ORDER)}
        tags = sorted(self.tags.items(), key=lambda kv: order.get(kv[0].lower(), len(order)))
        for name, value in tags:
            escaped = value.replace("\\", "\\\\").replace('"', '\\"')
            lines.append(f'[{name} "{escaped}"]')
        lines.append("")
        lines.extend("{" + _clean(c) + "}" for c in self.comments)
        number, black_first = _first_move(self.tag("TPS"))
        line: list[str] = []
        side = 1 if black_first else 0
        for ply in self.plies:
            if side == 0:
                line = [f"{number}."]
            elif not line:
                line = [f"{number}..."]
            line.append(ply.move)
            line.extend("{" + _clean(c) + "}" for c in ply.comments)
            if side == 1:
                lines.append(" ".join(line))
                line = []
                number += 1
            side ^= 1
        if line:
            lines.append(" ".join(line))
        result = self.result or self.tag("Result")
        if result and result != "*":
            lines.append(result)
        return "\n".join(lines) + "\n"

    # ---- replaying ---------------------------------------------------------------------
    def options(self) -> dict[str, str]:
        """The rules options the tags give (size, halfkomi, flats, caps)."""
        opts: dict[str, str] = {}
        for tag, key in (("Size", "size"), ("Flats", "flats"), ("Caps", "caps")):
            value = self.tag(tag)
            if value:
                opts[key] = value
        komi = self.tag("Komi")
        if komi:
            try:
                half = float(komi) * 2
            except ValueError:
                raise NotationError(f"bad Komi tag {komi!r}") from None
            if not math.isfinite(half) or half != int(half) or half < 0:
                raise NotationError(f"bad Komi tag {komi!r}: need a multiple of 0.5, >= 0")
            opts["halfkomi"] = str(int(half))
        return opts

    def replay(self) -> TakGame:
        """Play the record out; raises GameError naming the first bad ply."""
        game = self._start()
        for index in range(len(self.plies)):
            self._play(game, index)
        return game

    def add_marks(self) -> None:
        """Write the tak (`'`) and tinue (`''`) marks on the moves that made one, as
        `rules.tak.tinue.mark` judges them on the replayed game (marks already written
        are replaced). Raises GameError naming the first bad ply; then no move changes."""
        from rules.tak.tinue import mark

        game = self._start()
        marked = []
        for index, ply in enumerate(self.plies):
            self._play(game, index)
            marked.append(ANNOTATION_RE.sub("", ply.move) + mark(game))
        for ply, text in zip(self.plies, marked, strict=True):
            ply.move = text

    def _start(self) -> TakGame:
        opts = self.options()
        tps = self.tag("TPS")
        return TakGame.from_position_string(tps, opts) if tps else TakGame.new(opts)

    def _play(self, game: TakGame, index: int) -> None:
        ply = self.plies[index]
        try:
            game.play_text(ply.move)
        except GameError as exc:
            raise type(exc)(f"ply {index + 1} ({ply.move}): {exc}") from None


def parse_many(text: str) -> list[PtnGame]:
    """Every game of a PTN text (a new game starts at a tag after moves or a result)."""
    games: list[PtnGame] = []
    game: PtnGame | None = None
    body = False  # moves or a result seen in the current game
    for m in _TOKEN_RE.finditer(text.replace("\ufeff", "")):
        kind = next(name for name in _KINDS if m[name] is not None)
        if kind == "tag":
            if game is None or body:
                game = PtnGame()
                games.append(game)
                body = False
            game.tags[m["tag"]] = re.sub(r"\\(.)", r"\1", m["value"])
            continue
        if game is None:
            game = PtnGame()
            games.append(game)
        if kind == "comment":
            target = game.plies[-1].comments if game.plies else game.comments
            target.append(m["comment"].strip())
        elif kind == "number":
            body = True
        elif kind == "bad":
            raise NotationError(f"stray {m.group()!r} at offset {m.start()} of the PTN text")
        else:
            word = m["word"]
            word = _RESULT_ALIASES.get(word, word)
            if word in RESULTS:
                game.result = None if word in ("*", "0-0") else word
                body = True
                continue
            # tolerate a number glued to its move ("1.a1")
            number = re.match(r"\d+\.(?:\.\.)?", word)
            if number:
                word = word[number.end() :]
            if word == "--":
                continue
            game.plies.append(PtnPly(Move.from_ptn(word).ptn()))
            body = True
    for g in games:
        if g.result is None:
            tagged = g.tag("Result")
            if tagged and tagged not in ("*", "0-0", ""):
                g.result = _RESULT_ALIASES.get(tagged, tagged)
    return games


def _clean(comment: str) -> str:
    return comment.replace("}", ")")


def _first_move(tps: str | None) -> tuple[int, bool]:
    """Move number and whether black moves first, from a TPS tag."""
    if not tps:
        return 1, False
    words = tps.split()
    if len(words) == 3 and words[2].isdigit():
        return int(words[2]), words[1] == "2"
    return 1, False
