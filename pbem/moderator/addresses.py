"""The moderator's plus-addresses: `pbem+sm-12.k7q2m@host` names a game and a seat's secret;
`pbem+join-bt-3@host` is the address to sign up for the open game bt-3."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.utils import getaddresses, parseaddr
from functools import lru_cache

_TAG = re.compile(r"^(?P<game>[a-z]{2}-\d+)\.(?P<secret>[a-z0-9]+)$")
_JOIN_TAG = re.compile(r"^join-(?P<game>[a-z]{2}-\d+)$")
BOT_DOMAIN = "bots.invalid"  # RFC 2606: never routable, so no mail to a bot can leave the machine
SUBJECT_TAG = re.compile(r"\[(?P<game>[a-z]{2}-\d+)\]", re.IGNORECASE)


@dataclass(frozen=True)
class SeatKey:
    game_id: str
    secret: str


def reply_address(moderator: str, game_id: str, secret: str) -> str:
    local, _, domain = moderator.partition("@")
    return f"{local}+{game_id}.{secret}@{domain}"


def join_address(moderator: str, game_id: str) -> str:
    """Where to send JOIN (and LEAVE) for the open game `game_id`."""
    local, _, domain = moderator.partition("@")
    return f"{local}+join-{game_id}@{domain}"


def bare(address: str) -> str:
    """The address part of a header value, lower-cased: 'Ann <Ann@X.org>' -> 'ann@x.org'."""
    return parseaddr(address)[1].strip().lower()


def is_moderators(moderator: str, address: str) -> bool:
    """Whether `address` is the moderator's own, bare or with a plus-tag: mail to it would come
    back to the moderator's inbox."""
    local, _, domain = moderator.lower().partition("@")
    their_local, _, their_domain = address.lower().partition("@")
    return their_domain == domain and their_local.partition("+")[0] == local


def seat_key_in(moderator: str, recipients: list[str]) -> SeatKey | None:
    """The first recipient that is one of the moderator's plus-addresses, read as a SeatKey."""
    for tag in _plus_tags(moderator, recipients):
        match = _TAG.match(tag)
        if match:
            return SeatKey(match["game"], match["secret"])
    return None


def join_game_in(moderator: str, recipients: list[str]) -> str | None:
    """The game of the first recipient that is one of the moderator's join addresses."""
    for tag in _plus_tags(moderator, recipients):
        match = _JOIN_TAG.match(tag)
        if match:
            return match["game"]
    return None


def to_bare_address(moderator: str, recipients: list[str]) -> bool:
    """Whether the moderator's own address, with no plus-tag, is among the recipients."""
    return moderator.lower() in (address.lower() for address in _addresses(tuple(recipients)))


def _plus_tags(moderator: str, recipients: list[str]) -> list[str]:
    """The tags of the recipients that are the moderator's plus-addresses, in order."""
    local, _, domain = moderator.lower().partition("@")
    tags = []
    for address in _addresses(tuple(recipients)):
        mine_local, _, mine_domain = address.lower().partition("@")
        head, plus, tag = mine_local.partition("+")
        if plus and head == local and mine_domain == domain:
            tags.append(tag)
    return tags


@lru_cache(maxsize=64)
def _addresses(recipients: tuple[str, ...]) -> tuple[str, ...]:
    """The address parts of `recipients`, as `getaddresses` reads them. Kept for the next call:
    each email's recipients are read four or five times (sign-up, archive, watch, seat), and
    the stdlib's careful parse costs about 0.2 ms each time."""
    return tuple(address for _name, address in getaddresses(recipients))


def game_in_subject(subject: str) -> str | None:
    match = SUBJECT_TAG.search(subject or "")
    return match["game"].lower() if match else None


def bot_address(name: str) -> str:
    """The address of a seat a computer player holds; its mail is answered in-process."""
    local = "".join(c for c in name.lower() if c.isalnum() or c in "-_.") or "bot"
    return f"{local}@{BOT_DOMAIN}"
