"""Addresses no mail can reach: RFC 2606 keeps the `.invalid` top-level domain from ever being
routed. The computer players sit at `bots.invalid`, so the mail written to them is handed to
them inside pbem and never leaves the machine; the outbox, the Maildir transport and the sending
budget all tell such mail apart by this one rule."""

UNREACHABLE_SUFFIX = ".invalid"


def unreachable(address: str) -> bool:
    """Whether no mail server could ever deliver to `address`."""
    return address.rpartition("@")[2].lower().endswith(UNREACHABLE_SUFFIX)
