"""No mail loops: recognise mail written by a machine, which never gets a reply."""

from __future__ import annotations

from email.message import Message

from pbem.moderator.addresses import bare

_MACHINE_LOCALS = ("mailer-daemon", "postmaster")
_BULK_PRECEDENCE = ("bulk", "junk", "list")


def machine_reason(message: Message, moderator: str) -> str | None:
    """Why `message` looks machine-written (so it must not be answered), or None for a person."""
    auto = (message.get("Auto-Submitted") or "").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = (message.get("Precedence") or "").strip().lower()
    if precedence in _BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    if message.get("List-Id") is not None:
        return "List-Id header (mailing list)"
    if message.get("Return-Path") is not None and bare(str(message["Return-Path"])) == "":
        return "empty Return-Path (a bounce)"
    if (message.get_content_type() or "") == "multipart/report":
        return "delivery status report"
    sender = bare(str(message.get("From") or ""))
    local = sender.partition("@")[0]
    if local in _MACHINE_LOCALS:
        return f"sent by {local}"
    own_local, _, own_domain = moderator.lower().partition("@")
    sender_domain = sender.partition("@")[2]
    if sender_domain == own_domain and local.partition("+")[0] == own_local:
        return "sent by the moderator itself"
    return None
