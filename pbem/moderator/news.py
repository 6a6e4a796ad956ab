"""What the players have not yet been told in a status email to everyone.

Every history entry keeps its events. When the game moves on and every seat is sent a status,
the status tells the events of all entries since the last such status, so a public action is
told to everyone whichever email it came in (a Show Manager loan or refresh sent alone, before
the hire that ends the turn). The last entry told is kept in the mail state.
"""

from __future__ import annotations

from pbem.games.base import Event
from pbem.games.event_codec import decode_events
from pbem.moderator import events as _moderator_events  # noqa: F401 - registers their kinds
from pbem.moderator.desk import Desk
from pbem.moderator.events import StatusResent
from pbem.moderator.loaded import LoadedGame
from pbem.store import get_mail_state, history_since, set_mail_state


def untold_events(desk: Desk, game: LoadedGame) -> list[Event]:
    """The events of every entry since the last status to everyone; they count as told now."""
    key = f"told:{game.id}"
    told = get_mail_state(desk.session, key)
    entries = history_since(desk.session, game.id, int(told) if told else 0)
    if not entries:
        return []
    set_mail_state(desk.session, key, str(entries[-1].seq))
    events = [event for entry in entries if entry.events for event in decode_events(entry.events)]
    # A resend is told in the status it resends, to whom it went: it is no news afterwards.
    return [event for event in events if not isinstance(event, StatusResent)]
