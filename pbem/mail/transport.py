"""What the daemon sees of any transport: an `Intake` for incoming mail, a `Sender` for outgoing.

Both the IMAP/SMTP pair and the local Maildir implement these, so the daemon treats them alike.

Delivery guarantee of an intake: at least once. A message is acknowledged (marked seen and moved
out of the way) only after `store` returned True, so a crash or a dropped connection between the
commit and the acknowledgement hands the same message over again, with the same `source`. The
store must therefore treat a `source` (or a Message-ID) it has already committed as done and
return True without applying it twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from pbem.mail.timing import Interrupted, never

StoreMessage = Callable[[bytes, str], bool]
"""store(raw, source) -> True once the message's effect is durably committed."""

ReportPoison = Callable[[bytes, str, str], None]
"""on_poison(raw, source, error): a message that failed too often was set aside."""


class KeyValueState(Protocol):
    """A small durable store for transport bookkeeping (e.g. the IMAP folder's UIDVALIDITY)."""

    def get(self, key: str) -> str | None: ...

    def set(self, key: str, value: str) -> None: ...


@dataclass
class MemoryState:
    """`KeyValueState` kept in memory: for tests and one-off runs."""

    values: dict[str, str] = field(default_factory=dict)

    def get(self, key: str) -> str | None:
        return self.values.get(key)

    def set(self, key: str, value: str) -> None:
        self.values[key] = value


@dataclass
class PollReport:
    """What one pass over the incoming mail did."""

    stored: int = 0
    retry_later: int = 0
    poisoned: int = 0
    error: str | None = None
    """A connection problem that cut the pass short; the intake reconnects by itself."""
    needs_person: bool = False
    """The error is one only a person can cure (a refused login, a TLS failure, a missing
    folder): the intake tries again after a minute, doubling to an hour, and says so here."""
    retry_in: float | None = None
    """Seconds until the intake next tries to connect, while it is not connected."""
    failures: int = 0
    """Connection attempts that failed in a row, while it is not connected."""


class Intake(Protocol):
    """Incoming mail. `poll` hands new mail to the store callback and acknowledges what it kept."""

    def poll(self) -> PollReport: ...

    def wait_for_mail(self, timeout: float, interrupted: Interrupted = never) -> bool:
        """Blocks until new mail may be there (True) or `timeout` seconds pass (False), asking
        `interrupted` every second or so (False as soon as it says True).

        Call `poll` afterwards either way: failed messages become due again with time.
        """
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class RecipientFailure:
    """Why one recipient did not get the message; `code` is the SMTP reply code, 0 if none."""

    address: str
    code: int
    reason: str


@dataclass(frozen=True)
class SendResult:
    """Per recipient: delivered, to retry later (`temporary`), or refused for good (`permanent`)."""

    delivered: tuple[str, ...] = ()
    temporary: tuple[RecipientFailure, ...] = ()
    permanent: tuple[RecipientFailure, ...] = ()
    throttled: tuple[RecipientFailure, ...] = ()
    """Refused for the provider's sending limit (rate or quota): not the message's fault; send
    nothing more for a while, then this message again."""
    blocked: str | None = None
    """The session failed in a way only a person can cure (login refused, TLS failure): nothing
    was sent, and nothing will be until the settings change."""

    @property
    def ok(self) -> bool:
        return not (self.temporary or self.permanent or self.throttled or self.blocked)


class Sender(Protocol):
    """Outgoing mail. One `send` per message; the connection may be kept for the next one."""

    def send(self, raw: bytes, to: list[str], sender: str) -> SendResult: ...

    def close(self) -> None: ...
