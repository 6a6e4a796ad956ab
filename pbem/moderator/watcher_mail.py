"""A watcher's own email to the moderator: never orders (a watcher holds no seat), answered with
what a watcher can do, the game's public status and, for HISTORY, its history as everyone may
read it (`seats.history_lines` for no seat).

Apart from `watchers.py`, which `play.py` imports to send watchers their statuses: the history
comes from `seats.py`, which imports `play.py`.
"""

from __future__ import annotations

from pbem.moderator.addresses import bare, game_in_subject
from pbem.moderator.desk import Desk
from pbem.moderator.letters import watch_letter
from pbem.moderator.loaded import load_game
from pbem.moderator.seats import history_lines
from pbem.orders.incoming import IncomingEmail
from pbem.orders.requests import request_line
from pbem.store import watchers_of
from pbem.store.tables import InboundStatus

# The outbox kind of these answers: they count with the answers to strangers, a few an hour.
KIND = "stranger"


def watched_game(desk: Desk, email: IncomingEmail) -> str | None:
    """The game the email is about when its sender watches it: the game in its subject (a reply
    to a watcher's letter), else the word after HISTORY or STATUS (`HISTORY bt-1`); else None."""
    assert email.sender is not None
    named = game_in_subject(email.subject)
    asked = request_line(email.text, ("HISTORY", "STATUS"))
    if named is None and asked is not None and asked.rest:
        named = asked.rest.split()[0].strip("[]").lower()
    if named is None or bare(email.sender) not in watchers_of(desk.session, named):
        return None
    return named


def answer_watcher(
    desk: Desk, email: IncomingEmail, game_id: str
) -> tuple[InboundStatus, str, str | None]:
    """What a watcher can do, the public status and, when the email asks for it, the history.
    The inbound outcome: accepted when the email asked for what it was sent (HISTORY, STATUS),
    else rejected: nothing else a watcher writes is done."""
    assert email.sender is not None
    game = load_game(desk.session, game_id)
    asked = request_line(email.text, ("HISTORY", "STATUS"))
    wants_history = request_line(email.text, ("HISTORY",)) is not None
    moderator = desk.settings.address
    then = (
        "What happened so far, as everyone may read it, is below"
        if wants_history
        else f"For what happened so far, write HISTORY {game_id} to {moderator}"
    )
    lines = [
        f"This is the play-by-email moderator. You watch game {game_id}: you get its public "
        "status each time it moves on, and the final result. A watcher has no seat, so "
        "nothing you write is read as orders or passed on to the players.",
        f"{then}; to stop watching, write UNWATCH {game_id} to {moderator}.",
    ]
    letter = watch_letter(
        game,
        bare(email.sender),
        desk.settings,
        (),
        "History" if wants_history else None,
        lines,
        email.message_id,
        kind=KIND,
        history=history_lines(desk, game, None) if wants_history else None,
    )
    desk.postman.post(letter, game_id)
    if asked is None:
        return "rejected", "a watcher's email is not orders", game_id
    return "accepted", f"{'history' if wants_history else 'status'} sent to a watcher", game_id
