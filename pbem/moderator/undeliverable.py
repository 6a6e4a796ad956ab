"""Mail to a player that could not be delivered: a bounce (DSN) in the inbox, or a permanent
refusal by the SMTP server. The game's history records it and the game master is told."""

from __future__ import annotations

import logging

from sqlmodel import col, select

from pbem.games.event_codec import encode_events
from pbem.mail.bounces import parse_dsn
from pbem.moderator.desk import Desk
from pbem.moderator.events import MailBounced
from pbem.moderator.letters import notice_letter
from pbem.store import OutboxRow, append_history, get_game, seat_by_address

log = logging.getLogger("pbem.moderator")


def record_undeliverable(desk: Desk, address: str, reason: str, game_id: str | None) -> None:
    game = get_game(desk.session, game_id) if game_id else None
    summary = f"mail to {address} could not be delivered: {reason}"
    log.warning("%s%s", summary, f" ({game_id})" if game_id else "")
    if game is not None:
        # The players are told whose mail bounced, by name: never the address or the reason,
        # which may hold it.
        seat = seat_by_address(desk.session, game.id, address)
        append_history(
            desk.session,
            game.id,
            actor="mail",
            kind="system",
            summary=summary,
            state_after=game.state,
            events=encode_events([MailBounced(seat.position)] if seat else []),
        )
    if desk.settings.gm_address and address.lower() != desk.settings.gm_address.lower():
        letter = notice_letter(
            to=desk.settings.gm_address,
            game=None,
            seat=None,
            settings=desk.settings,
            words=f"Undeliverable mail{f' in {game_id}' if game_id else ''}",
            lines=[
                summary[0].upper() + summary[1:] + ".",
                "Check the address with the player; `pbem gm replace` gives the seat a new one.",
            ],
            kind="gm",
        )
        desk.postman.post(letter, game_id)


def record_bounces(desk: Desk, raw: bytes) -> list[str]:
    """Record every failed recipient a DSN reports; the addresses, for the inbound row's reason."""
    bounced = []
    for bounce in parse_dsn(raw):
        game_id = None
        if bounce.original_message_id:
            game_id = desk.session.exec(
                select(OutboxRow.game_id).where(
                    col(OutboxRow.message_id) == bounce.original_message_id
                )
            ).first()
        reason = " ".join(filter(None, [bounce.status, bounce.diagnostic]))
        record_undeliverable(desk, bounce.recipient, reason, game_id)
        bounced.append(bounce.recipient)
    return bounced
