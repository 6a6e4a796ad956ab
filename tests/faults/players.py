"""Players of The Big Time! who answer every status email once, with the do-nothing order.

Each order replies to the status email it answers, as a mail client would: to its Reply-To (the
seat's plus-address), with its subject, so the moderator knows which phase the order is for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser

from pbem.moderator.addresses import bare, game_in_subject

_ROUND_PHASE = re.compile(r"Round (\d+) · Phase (\d+)")
ORDER_DOMAIN = "players.test"


@dataclass(frozen=True)
class PhaseCall:
    """A status email that asks `player` for an order in `game_id`, round `round`, `phase`."""

    player: str
    game_id: str
    round: int
    phase: int
    subject: str
    reply_to: str
    message_id: str

    @property
    def order_text(self) -> str:
        return "HEADLINER" if self.phase == 3 else "BID 0"

    @property
    def order_message_id(self) -> str:
        """Fixed by what it answers, so the same order email is never written twice."""
        mailbox = self.player.replace("@", ".")
        return f"<{self.game_id}.{mailbox}.r{self.round}p{self.phase}@{ORDER_DOMAIN}>"


def phase_call(raw: bytes) -> PhaseCall | None:
    """What `raw` asks for, when it is an email of the moderator naming a phase to be played."""
    headers = BytesHeaderParser(policy=policy.default).parsebytes(raw)
    subject = str(headers.get("Subject", ""))
    match = _ROUND_PHASE.search(subject)
    game_id = game_in_subject(subject)
    # A status or a reply: the reply to the email that resolved a phase carries the next one.
    if headers.get("Auto-Submitted") is None or match is None or game_id is None:
        return None
    return PhaseCall(
        player=bare(str(headers["To"])),
        game_id=game_id,
        round=int(match[1]),
        phase=int(match[2]),
        subject=subject,
        reply_to=str(headers["Reply-To"]),
        message_id=str(headers["Message-ID"]),
    )


def order_email(call: PhaseCall) -> bytes:
    message = EmailMessage()
    message["From"] = call.player
    message["To"] = call.reply_to
    message["Subject"] = f"Re: {call.subject}"
    message["Message-ID"] = call.order_message_id
    message["In-Reply-To"] = call.message_id
    message.set_content(call.order_text)
    return message.as_bytes()


class Players:
    """Answers each phase once per player, however many copies of its status email arrive."""

    def __init__(self) -> None:
        self.sent: dict[str, PhaseCall] = {}
        """The orders written, by Message-ID."""

    def answer(self, raw: bytes) -> bytes | None:
        call = phase_call(raw)
        if call is None or call.order_message_id in self.sent:
            return None
        self.sent[call.order_message_id] = call
        return order_email(call)

    def orders_per_game(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for call in self.sent.values():
            counts[call.game_id] = counts.get(call.game_id, 0) + 1
        return counts
