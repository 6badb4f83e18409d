"""The option table of a game as docs/rules.md shows it, built from its option specs."""

from __future__ import annotations

from rules.game import OptionSpec
from rules.registry import game_class


def told(spec: OptionSpec) -> str:
    if spec.tei is None:
        return "no"
    if spec.newgame:
        return f"`teinewgame` ({spec.tei})"
    return f"`{spec.tei}`" + (", always" if spec.always else "")


def option_table(game: str) -> str:
    """A markdown table: option, values, default, how engines are told, meaning."""
    rows = [
        "| option | values | default | engines are told | meaning |",
        "|---|---|---|---|---|",
    ]
    for spec in game_class(game).option_specs():
        default = f"`{spec.default}`" if spec.default != "" else "see meaning"
        values = spec.values_text()
        rows.append(f"| `{spec.name}` | {values} | {default} | {told(spec)} | {spec.help} |")
    return "\n".join(rows)
