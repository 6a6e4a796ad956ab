"""The HELP text, written from the same grammar tables the parser reads."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

from pbem.orders.games import grammar_for
from pbem.orders.grammar import Grammar, OrderForm
from pbem.orders.quotes import ORDERS_ABOVE_MARK

_WIDTH = 76


def help_text(
    game: str,
    variant: str = "standard",
    data_file: Path | None = None,
    codes: Mapping[str, str] | None = None,
    table: Sequence[str] = (),
) -> str:
    """Every order of `game` with examples, the commands, and the names the game knows; then
    the rules of this game's table (`table`, a paragraph each: how absences go)."""
    return render_help(grammar_for(game, variant, data_file, codes), table)


def render_help(grammar: Grammar, table: Sequence[str] = ()) -> str:
    lines = [
        *_paragraph(
            f"Orders for {grammar.title}: one order a line, in any case, words separated by "
            "spaces or commas. A line is an order when it starts with an order word; other "
            'lines ("Here are my orders:", greetings, # comments) are ignored and listed in '
            "the reply. A misspelt order word followed by what its order takes (Hrie 2) is an "
            "error, so nothing is done that you did not mean."
        ),
        "",
        *_paragraph(f'Nothing at or below the line "{ORDERS_ABOVE_MARK}" is read.'),
        "",
        *_forms(grammar.orders),
        "",
        *_wrapped(grammar.notes),
    ]
    for what, names in grammar.names:
        lines += ["", f"{what}:", *textwrap.indent(names, "  ").splitlines()]
    lines += ["", "Commands, any time:", "", *_forms(grammar.commands), *_chatter(grammar)]
    for rule in table:
        lines += ["", *_paragraph(rule)]
    return "\n".join(_wrap_long(line) for line in lines) + "\n"


def _chatter(grammar: Grammar) -> list[str]:
    chatty = [form.word for form in grammar.commands if form.chatter]
    if not chatty:
        return []
    which = " and ".join((", ".join(chatty[:-1]), chatty[-1])) if len(chatty) > 1 else chatty[0]
    return [
        "",
        *_paragraph(
            f"{which} may be followed by other words on their line ({chatty[0]} me, "
            f"{chatty[-1]} again); "
            "the others take only what is shown."
        ),
    ]


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


def _paragraph(text: str) -> list[str]:
    return textwrap.wrap(text, _WIDTH, break_long_words=False, break_on_hyphens=False)


def _wrapped(notes: tuple[str, ...]) -> list[str]:
    return [f"- {note}" for note in notes]


def _wrap_long(line: str) -> str:
    if len(line) <= _WIDTH:
        return line
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    return textwrap.fill(
        line, _WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
