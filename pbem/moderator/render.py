"""Jinja rendering of every email, each as plain text and HTML from `templates/`.

Templates receive only what a player may see (a view from the engine's view function, and texts
already filtered for that player); HTML templates autoescape, so names and subjects a player chose
cannot inject markup.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from pbem.moderator.wrapping import hanging
from pbem.orders.quotes import ORDERS_ABOVE_MARK

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
# Parts kept (`part`): ~20 a game and phase, for the games whose orders come in together (50
# games in bench.throughput's waves: 1,024 kept half of them); ~2.6 KB each, ~11 MB in all.
KEPT_PARTS = 4096


class _Environment(Environment):
    """Jinja's environment, each template's globals one dict rather than a ChainMap over the
    environment's: every render copies them into its context, and every `{% import %}` compares
    their keys, which over a ChainMap goes through Python code key by key (about a tenth of a
    board's rendering). The environment's globals are all set before the first template loads
    and never change (`environment`), so a copy holds the same."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


@cache
def environment() -> Environment:
    env = _Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(enabled_extensions=("html.j2",), default=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # The templates ship with the package and never change under a running daemon: no
        # stat() of every template and include on each render to see whether it did.
        auto_reload=False,
    )
    env.globals["part"] = part
    # Long plain-text lines, wrapped at 78 columns with no line beginning with an order word.
    env.filters["hanging"] = hanging
    return env


def compile_templates() -> None:
    """Compile every template now, not when a letter first needs it: a daemon does this as it
    starts, so the first player to write after a start is not kept waiting while the templates
    of a reply, a resolution and the board are compiled (0.28 s for all 39, once a process)."""
    env = environment()
    for name in env.list_templates(extensions=["j2"]):
        env.get_template(name)


def part(name: str, /, **context: Any) -> str:
    """Template `name` rendered with `context` alone, remembered by that context's value.

    For the parts of a board that stay the same over many letters (the acts on offer, the chart,
    a playbill: they change when a phase resolves, while every order on file and every reader
    asks for the board again). The part sees nothing but `context`, so equal values render
    equal text. A list (the names) is remembered with the type of each item: a name that reads
    like a placeholder (`Markup`, written as it is) is a `str` (escaped), though equal to it."""
    items = tuple(
        (key, list, tuple((type(item), item) for item in value))
        if isinstance(value, list)
        else (key, type(value), value)
        for key, value in context.items()
    )
    return _part(name, items)


@lru_cache(maxsize=KEPT_PARTS)
def _part(name: str, items: tuple[tuple[str, type, Any], ...]) -> str:
    context = {
        key: [item for _, item in value] if kind is list else value for key, kind, value in items
    }
    text = environment().get_template(name).render(context)
    # What an HTML part writes is escaped already: the board takes it as it is.
    return Markup(text) if name.endswith(".html.j2") else text


def render(name: str, **context: Any) -> tuple[str, str]:
    """The text and HTML renderings of template pair `name` (`name.txt.j2`, `name.html.j2`).

    The HTML layout starts with the mark line and ends with the footer (None: no footer).
    """
    env = environment()
    context = {"mark": ORDERS_ABOVE_MARK, "footer": None, **context}
    text = env.get_template(f"{name}.txt.j2").render(**context)
    html = env.get_template(f"{name}.html.j2").render(**context)
    return text, html


def render_text(name: str, **context: Any) -> str:
    """The plain text of template `name.txt.j2` alone (a part every letter's text ends with)."""
    return environment().get_template(f"{name}.txt.j2").render(**context)
