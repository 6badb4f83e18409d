"""The analysed file: the input text with a mark and a comment inserted after each move,
everything else (tags, move texts, results, other comments, spacing) kept as it was."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

#: the marks a move may already carry; such a move keeps its own
_OWN_MARKS = ("!", "?")


@attrs.frozen
class Note:
    """What is written after one move word: a mark (may be "") and a comment."""

    mark: str
    comment: str


def annotate(text: str, notes: Mapping[tuple[int, int], Note]) -> str:
    """`text` with each note inserted at its move word (`notes` by the word's offsets):
    `c3` -> `c3? {eval ...}`. A word that already carries `!` or `?` keeps its own mark."""
    out: list[str] = []
    done = 0
    for (start, end), note in sorted(notes.items()):
        word = text[start:end]
        out.append(text[done:end])
        if note.mark and not any(mark in word for mark in _OWN_MARKS):
            out.append(note.mark)
        if note.comment:
            out.append(" {" + clean(note.comment) + "}")
        done = end
    out.append(text[done:])
    return "".join(out)


def clean(comment: str) -> str:
    """A comment's text that cannot end the comment early nor break the line."""
    return comment.replace("}", ")").replace("{", "(").replace("\n", " ")


def spans_notes(
    spans: Sequence[tuple[int, int]], notes: Sequence[Note | None]
) -> dict[tuple[int, int], Note]:
    """Notes keyed by the spans of their moves (None: nothing written)."""
    return {span: note for span, note in zip(spans, notes, strict=False) if note is not None}
