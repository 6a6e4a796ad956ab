"""Jinja rendering of every email, each as plain text and HTML from `templates/`.

Templates receive only what a player may see (a view from the engine's view function, and texts
already filtered for that player); HTML templates autoescape, so names and subjects a player chose
cannot inject markup.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from pbem.orders.quotes import ORDERS_ABOVE_MARK

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@cache
def environment() -> Environment:
    env = Environment(
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
    return env


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
