"""Text lines out of a byte stream, with a bound on their length (sans-IO), and short quotes.

`LineSplitter` turns bytes into lines in linear time whatever the line lengths: a line
longer than the limit is reported once as a `LongLine` (its first bytes) and the rest of
it, up to the next newline, is dropped without being kept. `quote` gives the start of a
text for an error message, so a huge bad input is never echoed back whole. `printable`
escapes the control characters of foreign text (a server's, an engine's) before it
reaches a terminal, a log or a record; `SafeFormatter` does it for every log line.
`message_lines` splits one message (a websocket frame) into at most a set number of
lines, its empty lines skipped unseen.
"""

from __future__ import annotations

import logging
import re

import attrs

#: longest TEI line kept (the host's input, an engine's output, the web socket's lines);
#: the rest of a longer line is dropped
MAX_LINE = 1 << 16
#: characters of a bad input quoted in an error message
QUOTE_CHARS = 60
#: lines read from one message (empty ones not counted); the rest of it is dropped
MAX_MESSAGE_LINES = 256
_TEXT = re.compile(r"[^\r\n]+")


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """`repr` of `text`, or of its first `limit` characters with the full length noted."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def _escape(char: str) -> str:
    code = ord(char)
    if char.isprintable():
        return char
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """`text` with every character Python does not call printable written as an escape
    like `repr` writes it (an ESC is `\\x1b`, a NUL `\\x00`, a newline `\\x0a`, a
    right-to-left override `\\u202e`), so foreign text cannot move the cursor, retitle
    or clear a terminal, reorder what it shows, or start a line of its own."""
    if text.isprintable():
        return text
    return "".join(_escape(char) for char in text)


class SafeFormatter(logging.Formatter):
    """A log formatter whose lines carry no control character: each line of a formatted
    record (the message, a traceback) goes through `printable`; the record's own line
    breaks stay."""

    def format(self, record: logging.LogRecord) -> str:
        return "\n".join(printable(line) for line in super().format(record).split("\n"))


@attrs.frozen
class LongLine:
    """A line longer than `limit` bytes: `prefix` is its start; the rest was dropped."""

    prefix: str
    limit: int

    def describe(self) -> str:
        """What an error message says about the line."""
        return f"line longer than {self.limit} bytes ignored: {self.prefix[:QUOTE_CHARS]!r}..."


def bound(line: str, limit: int = MAX_LINE) -> str | LongLine:
    """`line` itself, or a `LongLine` when its UTF-8 form is longer than `limit` bytes."""
    if len(line) * 4 <= limit or len(line.encode("utf-8")) <= limit:
        return line
    return LongLine(line[:limit], limit)


@attrs.frozen
class MessageLines:
    """The lines of one message: at most `limit`, and whether more were dropped."""

    lines: tuple[str, ...]
    dropped: bool = False
    limit: int = MAX_MESSAGE_LINES

    def describe(self) -> str:
        """What an error message says about the dropped rest."""
        return f"a message of more than {self.limit} lines: the rest of it ignored"


def message_lines(text: str, limit: int = MAX_MESSAGE_LINES) -> MessageLines:
    """The non-blank lines of `text` (`\\n`, `\\r\\n` or `\\r` end a line), at most `limit`.

    Empty lines are skipped by the scanner and cost no Python step; a line of blanks counts
    towards `limit` but is not passed on. The work is linear and stops at line `limit`."""
    lines: list[str] = []
    for seen, match in enumerate(_TEXT.finditer(text)):
        if seen == limit:
            return MessageLines(tuple(lines), True, limit)
        line = match.group()
        if not line.isspace():
            lines.append(line)
    return MessageLines(tuple(lines), False, limit)


class LineSplitter:
    """Bytes in, text lines out (sans-IO). `\\r\\n` and `\\n` end lines; bytes that are not
    `encoding` (UTF-8 for TEI, ISO-8859-1 for playtak) are replaced; a line longer than
    `max_line` bytes is cut and the rest of it dropped."""

    def __init__(self, max_line: int = MAX_LINE, encoding: str = "utf-8") -> None:
        self.max_line = max_line
        self.encoding = encoding
        self._buffer = bytearray()
        self._skipping = False

    def feed_marked(self, data: bytes | bytearray) -> list[str | LongLine]:
        """The lines completed by `data`; a cut line comes as a `LongLine`, once."""
        out: list[str | LongLine] = []
        start = 0
        size = len(data)
        while start < size:
            index = data.find(b"\n", start)
            end = size if index < 0 else index
            if self._skipping:
                pass  # the rest of a cut line: dropped unseen
            elif len(self._buffer) + end - start > self.max_line:
                room = self.max_line - len(self._buffer)
                self._buffer += data[start : start + room]
                out.append(LongLine(self._decode(bytes(self._buffer)), self.max_line))
                self._buffer.clear()
                self._skipping = True
            else:
                self._buffer += data[start:end]
            if index < 0:
                break
            if not self._skipping:
                out.append(self._decode(bytes(self._buffer)))
            self._buffer.clear()
            self._skipping = False
            start = index + 1
        return out

    def feed(self, data: bytes | bytearray) -> list[str]:
        """The lines completed by `data`, a cut line as its first `max_line` bytes."""
        return [x if isinstance(x, str) else x.prefix for x in self.feed_marked(data)]

    def flush(self) -> list[str]:
        """The last, unterminated line at end of stream (if any)."""
        rest, self._buffer = bytes(self._buffer), bytearray()
        skipping, self._skipping = self._skipping, False
        if rest and not skipping:
            return [self._decode(rest)]
        return []

    def _decode(self, raw: bytes) -> str:
        return raw.decode(self.encoding, errors="replace").rstrip("\r")
