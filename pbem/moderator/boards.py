"""A game's HTML board for one reader, its public tables rendered once for all readers.

When a phase resolves, every seat is sent the same board (the status letters, and the reply to
the seat whose email resolved it). Only the reader's own name, marked YOU, and the private box
(the reader's hand) differ, and the HTML board is the largest part of a letter's rendering. So
the public tables are rendered once, with a placeholder for each player's name, and each
reader's copy fills the names in and adds the private box, through the same macros the board
template uses (`templates/<game>/reader.html.j2`): byte for byte the whole board rendered for
that reader (tests/moderator/test_golden_letters.py). The parts of a board that stay the same
over a phase's orders (the acts on offer, the chart, the playbills) are remembered apart
(`render.part`), for the boards of the next orders.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from itertools import chain
from typing import Any

from markupsafe import Markup

from pbem.moderator.render import environment

# Games whose HTML board depends on the reader only through `reader.html.j2`'s macros (its `who`
# and `private_box`). Show Manager's also shades the reader's chips on the map, inside the
# public tables, so its board is rendered whole for each reader.
SHARED_BOARDS = frozenset({"bigtime"})
# Public boards kept: a resolution's readers ask for the same one within a few letters.
KEPT_BOARDS = 8


def board_html(
    game: str, view: Any, names: list[str], viewer: int | None, ordering: bool = False
) -> Markup:
    """The HTML board of `game` as `viewer` (a seat, or None) reads `view`; `ordering`: the
    reader writes orders, so the board says how to name what they order."""
    if game not in SHARED_BOARDS:
        template = environment().get_template(f"{game}/board.html.j2")
        return Markup(template.render(view=view, names=names, viewer=viewer, ordering=ordering))
    reader = environment().get_template(f"{game}/reader.html.j2").module
    who = [reader.who(names, seat, viewer) for seat in range(len(names))]  # type: ignore[attr-defined]
    texts, seats = _public_board(game, replace(view, private=()), len(names), ordering)
    # Each text, then the name after it; joined, not added: `str + Markup` would escape the str.
    named = [*(who[seat] for seat in seats), ""]
    html = "".join(chain.from_iterable(zip(texts, named, strict=True)))
    # Markup first: `str + Markup` would escape the str.
    return Markup(html) + reader.private_box(view, names, viewer)  # type: ignore[attr-defined]


@lru_cache(maxsize=KEPT_BOARDS)
def _public_board(
    game: str, public: Any, seats: int, ordering: bool
) -> tuple[list[str], list[int]]:
    """The board of `public` (a view without its private part), cut where the names go: the
    texts between, and the seat whose name goes after each text but the last.

    Keyed by the view's value, not by the game or the phase: equal views give equal boards."""
    names = [_placeholder(seat) for seat in range(seats)]
    template = environment().get_template(f"{game}/board.html.j2")
    rendered = template.render(view=public, names=names, viewer=None, ordering=ordering)
    pieces = _PLACEHOLDER.split(rendered)
    return pieces[0::2], [int(seat) for seat in pieces[1::2]]


# A placeholder, its seat's number kept when the board is split at it.
_PLACEHOLDER = re.compile(r"<\?seat (\d+)\?>")


def _placeholder(seat: int) -> Markup:
    """Where seat `seat`'s name goes. Markup, so it is written as it is; what a player wrote is
    escaped in the board, so no `<?` there can be mistaken for one."""
    return Markup(f"<?seat {seat}?>")
