"""`ARCHIVE <game>` mailed to the moderator's bare address: a finished game's public page comes
back as an attachment; before the end, a word that the game is still being played, or that it
has not started (still open for sign-up).

Anyone may ask, as anyone may read the page (it holds only what the game's observers could see),
so the sender needs no seat; like every answer to a stranger, a few an hour per sender at most.
A player who asks at their seat's address once the game is over gets the archive too
(`archive_for_seat`): the game takes no more orders, so there is nothing else to answer.
"""

from __future__ import annotations

import dataclasses

from pbem.archive.page import NotArchivable, NotStarted, archive_page, finished_game, unknown_game
from pbem.moderator.addresses import seat_key_in
from pbem.moderator.compose import Attachment
from pbem.moderator.desk import Desk
from pbem.moderator.letters import notice_letter
from pbem.moderator.loaded import LoadedGame
from pbem.orders.incoming import IncomingEmail
from pbem.orders.requests import request_line
from pbem.store import get_game, seat_by_address, watchers_of
from pbem.store.tables import InboundStatus

ARCHIVE_REPLIES_PER_HOUR = 3


def archive_request(moderator: str, email: IncomingEmail) -> str | None:
    """The game an email to the bare address asks the archive of ("" when it names none), or
    None when no line (greetings aside) asks for it or it was sent to a seat's plus-address."""
    if seat_key_in(moderator, list(email.recipients)) is not None:
        return None
    request = request_line(email.text, ("ARCHIVE",))
    if request is None:
        return None
    return request.rest.split(maxsplit=1)[0].strip("[]<>").lower() if request.rest else ""


def archive_for_seat(
    desk: Desk, game: LoadedGame, email: IncomingEmail
) -> tuple[InboundStatus, str, str | None] | None:
    """An email to a seat's address of a finished game, holding no orders, that asks for
    ARCHIVE: answered as at the bare address (the game it names, else the seat's own), since
    the game takes no more orders (play-testing: it got "Not carried out" and the whole HELP).
    None for any other email: before the end, ARCHIVE to a seat's address is no order."""
    request = request_line(email.text, ("ARCHIVE",))
    if request is None or game.row.status != "finished":
        return None
    named = request.rest.split(maxsplit=1)[0].strip("[]<>").lower() if request.rest else ""
    # The seat's password says the sender plays in the game, whatever address they wrote from.
    return answer_archive(desk, email, named or game.id, player=(named or game.id) == game.id)


def answer_archive(
    desk: Desk, email: IncomingEmail, game_id: str, *, player: bool = False
) -> tuple[InboundStatus, str, str | None]:
    """Send the archive page of `game_id` to the sender, or say why not; the inbound outcome.
    `player`: the sender is known to play in the game (their seat's password said so)."""
    sender = email.sender
    assert sender is not None
    if not game_id:
        lines = ["Write ARCHIVE and the game, e.g. ARCHIVE sm-12."]
        _reply(desk, email, "Which game's archive?", lines, None)
        return "rejected", "ARCHIVE names no game", None
    row = get_game(desk.session, game_id)
    # A private game is its players' alone: anyone else is answered as for an unknown game, as
    # WATCH answers them, so the answer tells nobody that it exists or how far it is.
    hidden = (
        row is not None
        and row.private
        and not player
        and seat_by_address(desk.session, game_id, sender) is None
    )
    try:
        if hidden:
            raise NotArchivable(unknown_game(game_id))
        game = finished_game(desk.session, game_id)
    except NotStarted as exc:
        # A private sign-up is answered as an unknown game, as WATCH answers it.
        told = unknown_game(game_id) if exc.private else str(exc)
        lines = [f"Sorry: {told}."]
        if not exc.private:
            lines.append(
                f"Its archive is ready once the game is over. To play in it, write LIST to "
                f"{desk.settings.address}: the answer says how to join."
            )
        _reply(desk, email, f"No archive of {game_id}", lines, None)
        return "rejected", told, None
    except NotArchivable as exc:
        lines = [f"Sorry: {exc}."]
        if (
            row is not None
            and row.status != "finished"
            and not row.private
            and sender not in watchers_of(desk.session, game_id)
        ):
            lines.append(
                f"To follow it meanwhile, write WATCH {game_id} to {desk.settings.address}."
            )
        _reply(desk, email, f"No archive of {game_id}", lines, None)
        return "rejected", str(exc), None
    page = Attachment(
        f"{game.id}.html", archive_page(desk.session, game).encode(), "text", "html", "utf-8"
    )
    lines = [
        f"The archive of {game.kind.title} game {game.id} is attached: open {game.id}.html in a "
        "web browser. It shows the final standings, then the game turn by turn with the board "
        "after each, as everyone could see it.",
    ]
    _reply(desk, email, f"The archive of {game.id}", lines, page, game.id)
    return "accepted", "archive sent", game.id


def _reply(
    desk: Desk,
    email: IncomingEmail,
    words: str,
    lines: list[str],
    page: Attachment | None,
    game_id: str | None = None,
) -> None:
    assert email.sender is not None
    if desk.answers_this_hour(email.sender, ["archive"]) >= ARCHIVE_REPLIES_PER_HOUR:
        return
    letter = notice_letter(
        to=email.sender,
        game=None,
        seat=None,
        settings=desk.settings,
        words=words,
        kind="archive",
        lines=lines,
        in_reply_to=email.message_id,
    )
    if page is not None:
        letter = dataclasses.replace(letter, attachments=(page,))
    desk.postman.post(letter, game_id)
