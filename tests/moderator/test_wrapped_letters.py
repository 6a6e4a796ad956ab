"""Play-testing: plain-text lines of 300-630 characters under "What happened" and "Problems",
and "The game master entered orders for Bo:" followed by bullets that read as unrelated items.
Long lines are wrapped at 78 columns under their bullet, no wrapped line beginning with an order
word (a letter pasted under a reply must never be read as orders); what the moderator played for
a seat is listed under it, in the text, the HTML, HISTORY, the game master's notices and the
archive."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlmodel import Session

from pbem.archive.page import archive_page
from pbem.daemon.deadlines import run_deadlines
from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.moderator.wrapping import hanging, order_words
from pbem.orders import grammar_for, parse_orders
from pbem.orders.commands import COMMANDS
from pbem.orders.incoming import parse_message
from pbem.store import OutboxRow, session_scope, utc_now
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table

NEEDS_A_BID = re.compile(
    r"^Round 1, phase 1 needs a BID line; you hold [0-9 ]+ \(\$[0-9]+\)\. \(legal now: BID any "
    r"of your money cards, e\.g\. BID 3 2 1, or BID 0\)$"
)
PLAYED_FOR_BO = (
    "The deadline passed without Bo's orders; the moderator played the default orders for Bo:"
)


def _part(row: OutboxRow, kind: str) -> str:
    body = parse_message(row.raw).get_body((kind,))
    assert body is not None
    return str(body.get_content())  # type: ignore[attr-defined]


def _section(text: str, heading: str) -> list[str]:
    """The lines under `heading` up to the blank line that ends its list."""
    lines = text.splitlines()
    start = lines.index(heading) + 1
    end = lines.index("", start)
    return lines[start:end]


def _items(lines: list[str]) -> list[tuple[int, str]]:
    """A wrapped list read back: (depth, text) per bullet, each wrapped line joined to it."""
    items: list[tuple[int, str]] = []
    for line in lines:
        bullet = re.match(r"^( *)- ", line)
        if bullet is not None:
            items.append((len(bullet[1]) // 2, line[bullet.end() :]))
        else:
            depth, said = items[-1]
            # A wrapped line hangs under the text of its bullet, two columns past the dash.
            assert line.startswith(" " * (2 * depth + 2)) and line[2 * depth + 2] != " ", line
            items[-1] = (depth, f"{said} {line.strip()}")
    return items


def _escaped(text: str) -> str:
    return text.replace("'", "&#39;")


def _two_players(table: Callable[..., Table]) -> Table:
    return table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=3, deadline_hours=24, policy="default")


def _bo_misses_the_deadline(game: Table) -> datetime:
    """Ann bids, Bo does not: at the deadline the moderator plays Bo's default orders, which
    reveal the bids and resolve the phase. When it passed."""
    assert game.mail(ANN, "BID 3 2").status == "accepted"
    later = utc_now() + timedelta(hours=25)
    assert run_deadlines(game.engine, SETTINGS, lambda: later, None) == 1
    return later


def _read_as_orders(line: str) -> bool:
    """Whether a line pasted into an email would be read as orders (or nearly) of either game."""
    return any(parse_orders(line, grammar_for(g)).has_orders for g in ("bigtime", "showmanager"))


def test_a_long_problem_is_wrapped_under_its_bullet_with_every_word_whole(table):
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=1)
    refused = game.mail(BO, "AM A1 A2 A3 A4")
    assert refused.status == "rejected" and NEEDS_A_BID.search(refused.reason)
    text = _part(game.outbox()[-1], "plain")
    problems = _section(text, "Problems:")
    assert len(problems) > 1 and all(len(line) <= 78 for line in problems)
    assert _items(problems) == [(1, refused.reason)]


def test_a_long_event_is_wrapped_under_its_bullet_with_every_word_whole(table):
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=1)
    welcome = _part(game.outbox()[0], "plain")
    happened = _section(welcome, "What happened:")
    assert len(happened) > 1 and all(len(line) <= 78 for line in happened)
    [(depth, said)] = _items(happened)
    assert depth == 1
    assert said.startswith("Welcome to The Big Time! game bt-1! Players: Ann (you), Bo, Cy.")
    assert said.endswith("SAY TO and a player's name is private, for that player alone.")
    assert said == " ".join(said.split())  # words joined by one space, none broken


def test_no_wrapped_line_begins_with_an_order_word():
    # Each order word right where a naive wrap breaks the line: past 76 columns of text.
    for word in ("BID", "am", "PM:", "Hire#57", "status?", "- HOOK", "\u200bStage"):
        text = f"{'x' * 63} the next {word} 3 2 1, and more words after it to wrap"
        naive = textwrap.wrap(text, 78, initial_indent="  - ", subsequent_indent="    ")
        assert any(_read_as_orders(line) for line in naive[1:]), word
        wrapped = hanging(text, "  - ").splitlines()
        assert len(wrapped) > 1 and wrapped[0].startswith("  - ")
        for line in wrapped[1:]:
            assert line.startswith("    ") and not _read_as_orders(line), line
        assert " ".join(" ".join(wrapped).split()) == f"- {text}"


def test_a_line_that_fits_is_left_as_it_is():
    text = "x" * 74
    assert hanging(text, "  - ") == f"  - {text}"
    # A word longer than a line is never broken: an address, a link stays whole.
    link = "https://example.org/" + "a" * 80
    assert hanging(f"See {link} for the rules", "  - ").splitlines() == [
        "  - See",
        f"    {link}",
        "    for the rules",
    ]


def test_the_order_words_are_the_parsers_own():
    words = order_words()
    for game in ("bigtime", "showmanager"):
        assert {form.word for form in grammar_for(game).forms} <= words
    assert {form.word for form in COMMANDS} <= words
    assert {"JOIN", "LEAVE", "LIST", "WATCH", "UNWATCH", "ARCHIVE", "END"} <= words


def test_what_the_moderator_played_for_a_seat_is_listed_under_it_in_text_and_html(table):
    game = _two_players(table)
    _bo_misses_the_deadline(game)
    status = next(r for r in reversed(game.outbox()) if r.to_address == ANN)
    items = _items(_section(_part(status, "plain"), "What happened:"))
    heading = items.index((1, PLAYED_FOR_BO))
    under = items[heading + 1 :]
    assert under[0] == (2, "Round 1, phase 1: the bids are revealed: you 3 2 ($5); Bo nothing.")
    assert all(depth == 2 for depth, _ in under[: len(under) - 1])
    html = _part(status, "html")
    nested = re.search(r"<li>The deadline passed [^<]*:<ul[^>]*>(.*?)</ul></li>", html, re.DOTALL)
    assert nested is not None and "the bids are revealed: you 3 2 ($5)" in nested[1]


def test_history_lists_what_the_moderator_played_for_a_seat_under_it(table):
    game = _two_players(table)
    _bo_misses_the_deadline(game)
    assert game.mail(ANN, "HISTORY").status == "accepted"
    text = _part(game.outbox()[-1], "plain")
    lines = text.splitlines()
    entry = next(i for i, line in enumerate(lines) if "The deadline passed" in line)
    # The entry's line is the heading, wrapped under the text after its date; its events
    # are listed under it.
    date = re.match(r"^\d{4}-\d\d-\d\d \d\d:\d\d  ", lines[entry])
    assert date is not None
    under = next(i for i in range(entry, len(lines)) if lines[i].startswith("    - "))
    wrapped = lines[entry + 1 : under]
    assert wrapped and all(line.startswith(" " * date.end()) for line in wrapped)
    said = " ".join([lines[entry][date.end() :], *(line.strip() for line in wrapped)])
    assert said == f"The moderator: {PLAYED_FOR_BO} (why: deadline passed (default))"
    assert lines[under] == (
        "    - Round 1, phase 1: the bids are revealed: you 3 2 ($5); Bo nothing."
    )
    html = _part(game.outbox()[-1], "html")
    row = rf"<td>{_escaped(PLAYED_FOR_BO)} <i>\(why: [^<]*\)</i><ul[^>]*><li>Round 1, phase 1: "
    assert re.search(row, html)


def test_a_game_masters_notice_lists_the_orders_events_under_them(db_engine):
    game = Table(db_engine, "bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=3)
    assert game.mail(ANN, "BID 3 2").status == "accepted"
    count = len(game.outbox())
    with session_scope(game.engine) as session:
        gm.order(Desk(session, SETTINGS), game.id, "Bo", "BID 0", "Bo phoned")
    notice = next(r for r in game.outbox()[count:] if r.to_address == ANN and r.kind == "gm")
    lines = _part(notice, "plain").splitlines()
    heading = lines.index("The game master entered orders for Bo:")
    assert lines[heading + 1] == (
        "  - Round 1, phase 1: the bids are revealed: you 3 2 ($5); Bo nothing."
    )
    html = _part(notice, "html")
    assert re.search(r"entered orders for Bo:</p>\s*<ul[^>]*>\s*<li>Round 1, phase 1", html)


def test_the_archive_lists_what_the_moderator_played_for_a_seat_under_it(table):
    game = _two_players(table)
    later = _bo_misses_the_deadline(game)
    while not game.game().engine.is_over(game.game().state):  # nobody writes again
        later += timedelta(hours=25)
        run_deadlines(game.engine, SETTINGS, lambda at=later: at, None)
    with Session(game.engine) as session:
        page = archive_page(session, load_game(session, game.id))
    played = _escaped(PLAYED_FOR_BO)
    assert re.search(
        rf'<span class="line">{played}</span><ul class="under"><li>Round 1, phase 1: the bids '
        r"are revealed: Ann 3 2 \(\$5\); Bo nothing\.</li>",
        page,
    )
