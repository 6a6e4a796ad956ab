"""The HELP text, written from the same grammar tables the parser reads."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path

from pbem.orders.games import grammar_for
from pbem.orders.grammar import Grammar, OrderForm

_WIDTH = 76


def help_text(
    game: str,
    variant: str = "standard",
    data_file: Path | None = None,
    codes: Mapping[str, str] | None = None,
) -> str:
    """Every order of `game` with examples, the commands, and the names the game knows."""
    return render_help(grammar_for(game, variant, data_file, codes))


def render_help(grammar: Grammar) -> str:
    lines = [
        f"Orders for {grammar.title}: one order a line, in any case, words separated",
        "by spaces or commas. Other lines (greetings, # comments) are ignored.",
        "",
        *_forms(grammar.orders),
        "",
        *_wrapped(grammar.notes),
    ]
    for what, names in grammar.names:
        lines += ["", f"{what}:", *textwrap.indent(names, "  ").splitlines()]
    lines += ["", "Commands, any time:", "", *_forms(grammar.commands)]
    return "\n".join(_wrap_long(line) for line in lines) + "\n"


def _forms(forms: tuple[OrderForm, ...]) -> list[str]:
    lines: list[str] = []
    for form in forms:
        lines += [f"  {shape}" for shape in form.forms]
        lines.append(f"      {form.meaning}")
        examples = [example for example in form.examples if example not in form.forms]
        lines += [
            f"      {'e.g.' if index == 0 else '    '} {example}"
            for index, example in enumerate(examples)
        ]
    return lines


def _wrapped(notes: tuple[str, ...]) -> list[str]:
    return [f"- {note}" for note in notes]


def _wrap_long(line: str) -> str:
    if len(line) <= _WIDTH:
        return line
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    return textwrap.fill(
        line, _WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
