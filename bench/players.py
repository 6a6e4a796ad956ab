"""Big Time! games for the benchmarks, and players who answer their latest email naming a phase
(a status, or the reply to the email that resolved a phase, which carries the next one).

Every order is the smallest legal one for the phase that email names: `HEADLINER` (the
default pick) in phase 3, `BID 0` otherwise. It is sent to the seat's plus-address (the
email's Reply-To) with `Re: ` and that email's subject, as a mail client would.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import Engine

from pbem.moderator.desk import Desk
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import Settings
from pbem.store import session_scope

PLAYERS = 3
ROUND_PHASE = re.compile(r"Round (\d+) · Phase (\d+)")


@dataclass(frozen=True)
class Status:
    """What a player needs from a status email to answer it."""

    subject: str
    reply_to: str
    message_id: str
    round: int
    phase: int


def player_address(game_number: int, seat: int) -> str:
    return f"p{seat}.g{game_number}@example.org"


def start_games(
    engine: Engine, settings: Settings, count: int, first_number: int = 0, batch: int = 100
) -> list[list[str]]:
    """Starts `count` three-player games, `batch` per transaction; each game's player addresses."""
    games: list[list[str]] = []
    for start in range(first_number, first_number + count, batch):
        with session_scope(engine) as session:
            for number in range(start, min(start + batch, first_number + count)):
                players = [player_address(number, seat) for seat in range(PLAYERS)]
                request = GameRequest(
                    game="bigtime",
                    players=tuple(PlayerSpec(address) for address in players),
                    seed=number,
                )
                start_game(Desk(session, settings), request)
                games.append(players)
    return games


def latest_statuses(raws: Iterable[bytes]) -> dict[str, Status]:
    """Each recipient's newest email naming a round and phase, by address: the latest phase, the
    last to arrive among those naming it. Emails sent by two daemons (or a daemon and its
    sending process) at once may arrive out of order: a player answers the newest phase, not
    an older email that happened to arrive last."""
    latest: dict[str, Status] = {}
    for raw in raws:
        message = message_from_bytes(raw, policy=policy.default)
        subject = str(message["Subject"] or "")
        match = ROUND_PHASE.search(subject)
        # A status or a reply: the reply to the email that resolved a phase carries the next.
        if match is None:
            continue
        address = str(message["To"]).lower()
        status = Status(
            subject=subject,
            reply_to=str(message["Reply-To"]),
            message_id=str(message["Message-ID"]),
            round=int(match[1]),
            phase=int(match[2]),
        )
        known = latest.get(address)
        if known is None or (status.round, status.phase) >= (known.round, known.phase):
            latest[address] = status
    return latest


def order_email(address: str, status: Status) -> bytes:
    message = EmailMessage()
    message["From"] = address
    message["To"] = status.reply_to
    message["Subject"] = f"Re: {status.subject}"
    message["Message-ID"] = make_msgid(domain="players.invalid")
    message["In-Reply-To"] = status.message_id
    message.set_content("HEADLINER\n" if status.phase == 3 else "BID 0\n")
    return message.as_bytes()


def waves(games: Sequence[Sequence[str]], orders: int) -> list[list[str]]:
    """Who sends the `orders` emails, wave by wave: in a wave every seat of every game answers
    the phase its latest status email names, so a wave needs the statuses the last one caused.
    """
    everyone = [address for players in games for address in players]
    full, rest = divmod(orders, len(everyone))
    partial = [players[seat] for seat in range(PLAYERS) for players in games][:rest]
    return [list(everyone) for _ in range(full)] + ([partial] if partial else [])


def wave_emails(wave: Sequence[str], raws: Iterable[bytes]) -> list[bytes]:
    """The wave's order emails, each answering its sender's latest status among `raws`."""
    statuses = latest_statuses(raws)
    return [order_email(address, statuses[address]) for address in wave]
