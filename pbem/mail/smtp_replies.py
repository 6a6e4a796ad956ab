"""What an SMTP server's refusal means for the mail: try again later, wait for the provider's
sending limit, give up, or stop sending until a person fixes the login.

Providers answer their sending limits in many ways: `421 4.7.0 ... unusual rate`, `452 4.5.3 Too
many recipients`, `550 5.4.5 Daily user sending limit exceeded` (Gmail), `554 5.7.0 ... rate
limit` (Microsoft 365). The enhanced status code (RFC 3463) after the reply code says more than
the reply code does: a 5xx reply with a 4.x.x code, 5.4.5 or a 5.7.x code naming a limit is the
sender being held back, not the message or the recipient being refused, so the mail waits.
"""

from __future__ import annotations

import re
import smtplib
from collections.abc import Iterable, Mapping
from enum import Enum

from pbem.mail.errors import tls_misconfigured
from pbem.mail.transport import RecipientFailure, SendResult

ENHANCED_CODE = re.compile(r"^\s*([245])\.(\d{1,3})\.(\d{1,3})\b")
LIMIT_WORDS = re.compile(r"limit|quota|\brate\b|too many", re.IGNORECASE)
# RFC 4954: authentication required, mechanism too weak, credentials invalid, encryption needed.
LOGIN_CODES = frozenset({530, 534, 535, 538})
LOGIN_ENHANCED = frozenset({"5.7.8", "5.7.9", "5.7.11"})
CONGESTION = "5.4.5"


class Refusal(Enum):
    TEMPORARY = "temporary"
    """No answer, or a 4xx: this message again later, with the usual backoff."""
    THROTTLED = "throttled"
    """The provider's rate or quota limit: send nothing for a while, then this message again."""
    PERMANENT = "permanent"
    """Refused for good: the same bytes to the same address would be refused again."""
    BLOCKED = "blocked"
    """The login (or the TLS it needs) was refused: stop sending until a person fixes it."""


def classify(code: int, text: str) -> Refusal:
    """What the reply `code` with its `text` (enhanced code first, as servers send it) means."""
    if code == 0:
        return Refusal.TEMPORARY
    enhanced = ENHANCED_CODE.match(text)
    status = ".".join(enhanced.groups()) if enhanced else ""
    if code in LOGIN_CODES or status in LOGIN_ENHANCED:
        return Refusal.BLOCKED
    transient = 400 <= code < 500 or status.startswith("4.")
    names_a_limit = LIMIT_WORDS.search(text) is not None
    if status == CONGESTION or (names_a_limit and (transient or status.startswith("5.7."))):
        return Refusal.THROTTLED
    if transient or not 500 <= code < 600:
        return Refusal.TEMPORARY
    return Refusal.PERMANENT


def needs_person(error: OSError) -> bool:
    """A failure of the session that retrying cannot cure: a refused login, a certificate not
    trusted, TLS where the server speaks none, STARTTLS or AUTH the server does not offer."""
    if isinstance(error, smtplib.SMTPAuthenticationError | smtplib.SMTPNotSupportedError):
        return True
    if isinstance(error, smtplib.SMTPResponseException):
        return classify(error.smtp_code, text_of(error.smtp_error)) is Refusal.BLOCKED
    return tls_misconfigured(error)


def sorted_by_reply(to: Iterable[str], refused: Mapping[str, tuple[int, bytes]]) -> SendResult:
    """The result of a send in which the server refused the recipients in `refused`."""
    addresses = list(to)
    failures = [
        RecipientFailure(address, code, text_of(message))
        for address, (code, message) in refused.items()
    ]
    delivered = tuple(address for address in addresses if address not in refused)
    return _sorted(failures, delivered)


def whole_message_refused(
    to: Iterable[str], code: int, message: bytes | str, where: str = ""
) -> SendResult:
    """The result of a send refused for every recipient at once (MAIL FROM, DATA, the session);
    `where` (the server) goes before the reason."""
    text = text_of(message)
    kind = classify(code, text)
    failures = [RecipientFailure(address, code, f"{where}{text}") for address in to]
    return _sorted(failures, (), {failure: kind for failure in failures})


def _sorted(
    failures: list[RecipientFailure],
    delivered: tuple[str, ...],
    kinds: dict[RecipientFailure, Refusal] | None = None,
) -> SendResult:
    kinds = kinds or {failure: classify(failure.code, failure.reason) for failure in failures}
    blocked = [f for f in failures if kinds[f] is Refusal.BLOCKED]
    return SendResult(
        delivered=delivered,
        temporary=tuple(f for f in failures if kinds[f] is Refusal.TEMPORARY),
        permanent=tuple(f for f in failures if kinds[f] is Refusal.PERMANENT),
        throttled=tuple(f for f in failures if kinds[f] is Refusal.THROTTLED),
        blocked=f"{blocked[0].code} {blocked[0].reason}" if blocked else None,
    )


def text_of(message: bytes | str) -> str:
    return message.decode(errors="replace") if isinstance(message, bytes) else message
