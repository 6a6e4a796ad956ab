"""Reading bounces: which recipient addresses a delivery status notification says failed.

Only standard DSNs (RFC 3464: multipart/report; report-type=delivery-status) are read; free-text
bounces from old servers yield nothing, as does any mail that is not a DSN.
"""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass
from email.message import Message

DELIVERY_STATUS = "message/delivery-status"
ORIGINAL_PARTS = ("message/rfc822", "text/rfc822-headers")


@dataclass(frozen=True)
class Bounce:
    """One recipient the reporting server could not deliver to."""

    recipient: str
    status: str
    """The RFC 3463 code, e.g. "5.1.1"."""
    action: str
    diagnostic: str | None = None
    original_message_id: str | None = None
    """The Message-ID of the mail that bounced, when the report quotes it."""


def parse_dsn(raw: bytes) -> list[Bounce]:
    """The failed recipients a DSN reports (Action: failed, or a 5.x.x status); [] otherwise."""
    message = email.message_from_bytes(raw, policy=email.policy.compat32)
    if message.get_content_type() != "multipart/report":
        return []
    if str(message.get_param("report-type", "")).lower() != "delivery-status":
        return []
    parts = _subparts(message)
    status = next((part for part in parts if part.get_content_type() == DELIVERY_STATUS), None)
    if status is None:
        return []
    original_id = _original_message_id(parts)
    # The first block is about the message as a whole; each later one is about one recipient.
    recipients = _subparts(status)[1:]
    bounces = [_bounce(fields, original_id) for fields in recipients]
    return [bounce for bounce in bounces if bounce is not None]


def _bounce(fields: Message, original_id: str | None) -> Bounce | None:
    recipient = _address(fields.get("Final-Recipient") or fields.get("Original-Recipient"))
    action = str(fields.get("Action", "")).strip().lower()
    status = str(fields.get("Status", "")).strip().split(" ")[0]
    if not recipient or not (action == "failed" or status.startswith("5.")):
        return None
    diagnostic = fields.get("Diagnostic-Code")
    return Bounce(
        recipient=recipient,
        status=status,
        action=action,
        diagnostic=_unfolded(diagnostic) if diagnostic else None,
        original_message_id=original_id,
    )


def _address(field: str | None) -> str:
    """ "rfc822; <alice@example.org>" -> "alice@example.org"."""
    if not field:
        return ""
    _, _, address = str(field).rpartition(";")
    return address.strip().strip("<>").strip()


def _original_message_id(parts: list[Message]) -> str | None:
    for part in parts:
        if part.get_content_type() not in ORIGINAL_PARTS:
            continue
        quoted = _subparts(part)
        headers = (
            quoted[0] if quoted else email.message_from_string(str(part.get_payload()).lstrip())
        )
        message_id = headers.get("Message-ID")
        if message_id:
            return _unfolded(message_id)
    return None


def _subparts(message: Message) -> list[Message]:
    """The parts of a multipart, the quoted message of a message/*, the blocks of a DSN."""
    payload = message.get_payload()
    if not isinstance(payload, list):
        return []
    return [part for part in payload if isinstance(part, Message)]


def _unfolded(value: str) -> str:
    return " ".join(str(value).split())
