"""A tiny SVG writer shared by the board pictures (pure: elements in, text out).

Every picture names its parts with `class` words (``piece flat white``, ``last``, ...) so
a page can style them and a test can count them.
"""

from __future__ import annotations

from html import escape

#: the fonts of every label
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def quoteattr(text: str) -> str:
    return f'"{escape(text, quote=True)}"'


def _number(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class Svg:
    """Elements appended in drawing order; `text()` returns the whole document."""

    def __init__(self, width: float, height: float, *, title: str = "") -> None:
        self.width = width
        self.height = height
        self.parts: list[str] = []
        if title:
            self.parts.append(f"<title>{escape(title)}</title>")

    def add(self, tag: str, /, content: str | None = None, **attrs: object) -> None:
        """One element; attribute names use `_` for `-` (`stroke_width`), `cls` for class."""
        words = []
        for key, value in attrs.items():
            if value is None:
                continue
            name = "class" if key == "cls" else key.rstrip("_").replace("_", "-")
            shown = _number(value) if isinstance(value, float) else str(value)
            words.append(f"{name}={quoteattr(shown)}")
        head = " ".join([tag, *words])
        if content is None:
            self.parts.append(f"<{head}/>")
        else:
            self.parts.append(f"<{head}>{escape(content)}</{tag}>")

    def label(self, x: float, y: float, text: str, size: float, **attrs: object) -> None:
        """Centred text (baseline adjusted so `y` is the middle)."""
        attrs.setdefault("text_anchor", "middle")
        attrs.setdefault("fill", "#333")
        self.add(
            "text",
            text,
            x=float(x),
            y=float(y + size * 0.35),
            font_size=float(size),
            font_family=FONT,
            **attrs,
        )

    def open_group(self, **attrs: object) -> None:
        words = " ".join(
            f"{'class' if k == 'cls' else k.replace('_', '-')}={quoteattr(str(v))}"
            for k, v in attrs.items()
        )
        self.parts.append(f"<g {words}>" if words else "<g>")

    def close_group(self) -> None:
        self.parts.append("</g>")

    def text(self) -> str:
        w, h = _number(self.width), _number(self.height)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"'
            f' viewBox="0 0 {w} {h}">'
        )
        return "\n".join([head, *self.parts, "</svg>"]) + "\n"
