"""Watchers: addresses that follow a game's public status (WATCH to the moderator's bare address,
or `pbem gm watch`), until UNWATCH.

A watcher holds no seat and no password: its mail is never read as orders. It is sent letters of
its own, one address each, from the game's public view and the events everyone may know
(`watch_letter`); its address is never shown to the players or to other watchers, and never enters
the game's history. A private game (`pbem start --private`) takes none, and a request for it is
answered as one for a game that does not exist, so a request tells nothing of which games exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.base import Event
from pbem.moderator.addresses import bare, game_in_subject, is_moderators, seat_key_in
from pbem.moderator.desk import Desk
from pbem.moderator.letters import notice_letter, reply_subject, watch_letter
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.orders.incoming import IncomingEmail
from pbem.orders.watching import WatchRequest, watch_request
from pbem.store import (
    GameNotFound,
    SignupRow,
    add_watcher,
    get_game,
    remove_watcher,
    watchers_of,
)
from pbem.store.tables import InboundStatus

# Answers to WATCH and UNWATCH go to whatever address the From header claims: at most this many
# an hour to one address, so a forged sender cannot turn the moderator on someone.
ANSWERS_PER_HOUR = 3
ANSWER = "watching"  # the outbox kind of those answers; a watcher's statuses are "watch"


class WatchError(ValueError):
    """A watch or unwatch that cannot be done; the message is for the game master, `told` for
    the sender of an email, and says nothing of whether the game exists."""

    def __init__(self, message: str, told: str) -> None:
        super().__init__(message)
        self.told = told


@dataclass(frozen=True)
class Watching:
    """What a watch or unwatch did: `changed` is False when it was so already."""

    game: str
    address: str
    changed: bool
    watchers: int  # how many watch the game now


def tell_watchers(
    desk: Desk, game: LoadedGame, events: Sequence[Event], headline: str | None = None
) -> None:
    """The public status to each watcher, one letter each, after the game moved on; `headline`
    heads its subject as the players' ("Game resumed")."""
    for address in watchers_of(desk.session, game.id):
        letter = watch_letter(game, address, desk.settings, events, headline)
        desk.postman.post(letter, game.id)


def watch(
    desk: Desk,
    game_id: str,
    address: str,
    in_reply_to: str | None = None,
    tell: bool = True,
    by_gm: bool = False,
) -> Watching:
    """Make `address` watch the game and welcome it (`tell`) with the public status. `by_gm`:
    the game master made it a watcher (`pbem gm watch`), which the welcome says, since the
    address asked for nothing; one already watching is then not written to again."""
    address = address.lower()
    row = get_game(desk.session, game_id)
    if row is None:
        _not_started(desk, game_id)
        raise GameNotFound(f"no game {game_id!r}")
    if row.private:
        raise WatchError(f"{game_id} is private: it takes no watchers", _not_open(game_id))
    if row.status == "finished":
        raise WatchError(f"{game_id} is over: there is nothing more to watch", _not_open(game_id))
    game = load_game(desk.session, game_id)
    if address in {seat.address.lower() for seat in game.seats}:
        raise WatchError(
            f"{address} plays in {game_id}",
            f"You play in game {game_id}: your own status emails already show all a watcher "
            "would see, and more. Nothing was changed.",
        )
    if is_moderators(desk.settings.address, address):
        raise WatchError(
            f"{address} is the moderator's own address: its mail would come back to its inbox",
            "The moderator does not watch its own games. Nothing was changed.",
        )
    changed = add_watcher(desk.session, game_id, address)
    title = f"{game.kind.title} game {game_id}"
    if not changed:
        first = f"You were already watching {title}; nothing changed."
    elif by_gm:
        first = f"The game master made you a watcher of {title}."
    else:
        first = f"You are now watching {title}."
    lines = [
        first,
        "You will get the public status of the game each time it moves on, and the final "
        "result: the board and what every player did in the open, never a player's hand or "
        "anything else a player keeps hidden. Your address is shown to nobody.",
    ]
    if tell and (changed or not by_gm):
        letter = watch_letter(
            game, address, desk.settings, (), "Watching", lines, in_reply_to, kind=ANSWER
        )
        desk.postman.post(letter, game_id)
    return Watching(game_id, address, changed, len(watchers_of(desk.session, game_id)))


def unwatch(
    desk: Desk, game_id: str, address: str, in_reply_to: str | None = None, tell: bool = True
) -> Watching:
    """Stop `address` watching the game, and tell it so (`tell`)."""
    address = address.lower()
    if get_game(desk.session, game_id) is None or not remove_watcher(
        desk.session, game_id, address
    ):
        raise WatchError(
            f"{address} does not watch {game_id}",
            f"You are not watching a game {game_id}, so nothing was changed.",
        )
    game = load_game(desk.session, game_id)
    if not tell:
        return Watching(game_id, address, True, len(watchers_of(desk.session, game_id)))
    letter = notice_letter(
        to=address,
        game=game,
        seat=None,
        settings=desk.settings,
        words="Watching ended",
        lines=[
            f"You no longer watch game {game_id}: no more of its emails will come to you.",
            # A finished game takes no watchers: no word of watching it again.
            *(
                []
                if game.engine.is_over(game.state)
                else [
                    f"To watch it again, send an email to {desk.settings.address} with the "
                    f"line WATCH {game_id}."
                ]
            ),
        ],
        kind=ANSWER,
        in_reply_to=in_reply_to,
    )
    desk.postman.post(letter, game_id)
    return Watching(game_id, address, True, len(watchers_of(desk.session, game_id)))


def watch_request_in(moderator: str, email: IncomingEmail) -> WatchRequest | None:
    """The WATCH or UNWATCH an email to the `moderator`'s bare address asks for (mail to a
    seat's plus-address speaks for the seat: it is orders). A request naming no game on its line
    names the game in its subject, if any."""
    if seat_key_in(moderator, list(email.recipients)) is not None:
        return None
    request = watch_request(email.text)
    if request is None or request.game_id is not None:
        return request
    return WatchRequest(request.verb, game_in_subject(email.subject), request.line)


def answer_request(
    desk: Desk, email: IncomingEmail, request: WatchRequest
) -> tuple[InboundStatus, str, str | None]:
    """Carry out one emailed WATCH or UNWATCH and answer it (unless the sender has had its
    hourly share of answers): the inbound status, the reason and the game."""
    assert email.sender is not None
    sender = bare(email.sender)
    quiet = desk.answers_this_hour(sender, [ANSWER]) >= ANSWERS_PER_HOUR
    verb = request.verb.lower()
    try:
        if request.game_id is None:
            raise WatchError(
                "names no game",
                f"Your {request.verb} names no game: write the game after it, on its own line, "
                f"e.g. {request.verb} sm-12.",
            )
        act = watch if request.verb == "WATCH" else unwatch
        done = act(desk, request.game_id, sender, email.message_id, tell=not quiet)
    except (WatchError, GameNotFound) as refusal:
        told = refusal.told if isinstance(refusal, WatchError) else _not_open(request.game_id or "")
        if not quiet:
            _refuse(desk, email, sender, told)
        return "rejected", f"{verb} {request.game_id or ''}: {refusal}".strip(), None
    return "accepted", f"{verb} {done.game}", done.game


def _refuse(desk: Desk, email: IncomingEmail, sender: str, told: str) -> None:
    subject = reply_subject(email.subject) if email.subject else "Your email to the moderator"
    desk.postman.post(
        notice_letter(
            to=sender,
            game=None,
            seat=None,
            settings=desk.settings,
            words=subject,
            lines=[f"This is the play-by-email moderator. {told}"],
            kind=ANSWER,
            in_reply_to=email.message_id,
        ),
        None,
    )


def _not_started(desk: Desk, game_id: str) -> None:
    """Refuse a watch of a game still open for sign-up: it has no status to send yet, and a
    watcher is kept with the game, which does not exist until it starts. A private one is
    refused as if unknown, as it will be once it starts."""
    signup = desk.session.get(SignupRow, game_id)
    if signup is None or signup.status != "open" or signup.private:
        return
    raise WatchError(
        f"{game_id} is open for sign-up and has not started: watchers can be added once it starts",
        f"Game {game_id} has not started yet: it is still open for sign-up. Nothing was "
        f"changed. Send WATCH {game_id} again once it starts, and you will get its public "
        f"status from then on. To play in it instead, write LIST to {desk.settings.address}: "
        "the answer says how to join.",
    )


def _not_open(game_id: str) -> str:
    return (
        f"There is no game {game_id} open to watchers: none of that name is running, or its "
        "players keep it private. Nothing was changed. The game master can tell you which "
        "games may be watched."
    )
