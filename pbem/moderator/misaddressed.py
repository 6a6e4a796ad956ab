"""Requests written to a seat's reply address that belong at another of the moderator's
addresses: LEAVE (a sign-up's join address) and ARCHIVE (the bare address).

A seat's email holds orders. One that holds none but such a request is told where it goes and
what does it here, as a misspelt order is told what it meant, instead of "Your email held no
orders" and the whole HELP (play-testing: `LEAVE please` to a seat's address got HELP, while
the same LEAVE to the join address was told to reply RESIGN). ARCHIVE of a finished game is
answered with the archive itself (`archive_mail.archive_for_seat`).
"""

from __future__ import annotations

from pbem.moderator.loaded import LoadedGame
from pbem.orders.incoming import IncomingEmail
from pbem.orders.requests import request_line

# The requests a seat's address does not take, each told where it goes.
MISADDRESSED = ("LEAVE", "ARCHIVE")


def misaddressed(game: LoadedGame, email: IncomingEmail, moderator: str) -> list[str]:
    """What an email with no orders to `game`'s seat is told of the request it made instead,
    if it made one; else nothing."""
    request = request_line(email.text, MISADDRESSED)
    if request is None:
        return []
    over = game.row.status == "finished"
    if request.word == "LEAVE":
        if over:
            return [
                f"LEAVE is for a sign-up, before its game starts; {game.id} is over, so there is "
                "no seat to leave."
            ]
        return [
            f"LEAVE is for a sign-up, before its game starts. To leave {game.id}, which is under "
            "way, reply to this email with RESIGN alone on its line: a computer player takes "
            "your seat."
        ]
    return [
        f"ARCHIVE is not an order: the archive of {game.id} is ready once the game is over. "
        f"Then write ARCHIVE {game.id} to {moderator}, and its page comes back attached."
    ]
