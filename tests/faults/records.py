"""What the crash test checks afterwards: the database's rows and the mail the SMTP server got."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from email import policy
from email.parser import BytesHeaderParser

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from pbem.store import GameRow, HistoryRow, InboundRow, OutboxRow
from tests.support.smtpd import ReceivedMail


@dataclass(frozen=True)
class Records:
    inbound: list[InboundRow]
    history: list[HistoryRow]
    outbox: list[OutboxRow]

    def order_history_per_game(self) -> Counter[str]:
        return Counter(entry.game_id for entry in self.history if entry.kind == "order")

    def history_per_inbound(self) -> Counter[int | None]:
        return Counter(entry.inbound_id for entry in self.history if entry.kind == "order")


def read_records(engine: Engine) -> Records:
    with Session(engine) as session:
        return Records(
            inbound=list(session.exec(select(InboundRow).order_by(col(InboundRow.id))).all()),
            history=list(session.exec(select(HistoryRow).order_by(col(HistoryRow.id))).all()),
            outbox=list(session.exec(select(OutboxRow).order_by(col(OutboxRow.id))).all()),
        )


def nothing_to_send(engine: Engine) -> bool:
    with Session(engine) as session:
        pending = session.exec(select(OutboxRow).where(col(OutboxRow.status) == "pending")).first()
        return pending is None


def quiet(engine: Engine) -> bool:
    """Every game over and nothing left to send."""
    with Session(engine) as session:
        running = session.exec(select(GameRow).where(col(GameRow.status) != "finished")).first()
    return running is None and nothing_to_send(engine)


@dataclass(frozen=True)
class Delivery:
    """One message as the SMTP server received it, with the headers that say what it is."""

    message_id: str
    recipients: tuple[str, ...]
    auto_submitted: str
    in_reply_to: str
    subject: str
    raw: bytes

    @property
    def identity(self) -> tuple[tuple[str, ...], str, str]:
        """What one email is about: a reply answers one email, a status mail one game moment."""
        about = self.in_reply_to if self.auto_submitted == "auto-replied" else self.subject
        return self.recipients, self.auto_submitted, about


def message_id_of(raw: bytes) -> str:
    return str(BytesHeaderParser(policy=policy.default).parsebytes(raw)["Message-ID"])


def deliveries(received: list[ReceivedMail]) -> list[Delivery]:
    found = []
    for mail in received:
        headers = BytesHeaderParser(policy=policy.default).parsebytes(mail.raw)
        found.append(
            Delivery(
                message_id=str(headers["Message-ID"]),
                recipients=mail.recipients,
                auto_submitted=str(headers.get("Auto-Submitted", "")),
                in_reply_to=str(headers.get("In-Reply-To", "")),
                subject=str(headers.get("Subject", "")),
                raw=mail.raw,
            )
        )
    return found


def repeated_message_ids(sent: list[Delivery]) -> dict[str, int]:
    """Message-ID -> copies received, for those received more than once."""
    counts = Counter(delivery.message_id for delivery in sent)
    return {message_id: count for message_id, count in counts.items() if count > 1}


def emails_written_twice(sent: list[Delivery]) -> dict[tuple[tuple[str, ...], str, str], set[str]]:
    """Identity -> Message-IDs, where one email was composed more than once (its event handled
    twice), as opposed to one composed email being delivered twice."""
    ids: dict[tuple[tuple[str, ...], str, str], set[str]] = {}
    for delivery in sent:
        ids.setdefault(delivery.identity, set()).add(delivery.message_id)
    return {identity: found for identity, found in ids.items() if len(found) > 1}
