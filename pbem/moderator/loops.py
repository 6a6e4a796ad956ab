"""No mail loops: recognise mail written by a machine, which never gets a reply."""

from __future__ import annotations

from email.message import Message

from pbem.moderator.addresses import bare
from pbem.orders.headers import first_header, header_values

_MACHINE_LOCALS = ("mailer-daemon", "postmaster")
_BULK_PRECEDENCE = ("bulk", "junk", "list", "auto_reply")
# Vacation programs and Exchange rules that predate (or ignore) RFC 3834's Auto-Submitted mark
# their mail with one of these; any value but "no" means a machine wrote it.
_AUTO_REPLY_HEADERS = (
    "Auto-Submitted",
    "X-Autoreply",
    "X-Autorespond",
    "X-Autoresponder",
    "X-MS-Exchange-Inbox-Rules-Loop",
)


def machine_reason(message: Message, moderator: str) -> str | None:
    """Why `message` looks machine-written (so it must not be answered), or None for a person.

    Headers are read through `first_header`, which never raises: a hostile header must not turn
    a bounce into mail that is answered, nor lose the email.
    """
    for name in _AUTO_REPLY_HEADERS:
        value = (first_header(message, name) or "").strip().lower()
        if value and value != "no":
            return f"{name}: {value}"
    precedence = (first_header(message, "Precedence") or "").strip().lower()
    if precedence in _BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    if header_values(message, "List-Id"):
        return "List-Id header (mailing list)"
    if any(bare(path) == "" for path in header_values(message, "Return-Path")):
        return "empty Return-Path (a bounce)"
    if message.get_content_type() == "multipart/report":
        return "delivery status report"
    sender = bare(first_header(message, "From") or "")
    local = sender.partition("@")[0]
    if local in _MACHINE_LOCALS:
        return f"sent by {local}"
    own_local, _, own_domain = moderator.lower().partition("@")
    sender_domain = sender.partition("@")[2]
    if sender_domain == own_domain and local.partition("+")[0] == own_local:
        return "sent by the moderator itself"
    return None
