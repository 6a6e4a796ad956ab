"""Sending over SMTP: one connection kept for a batch, failures sorted by what they mean.

Temporary (retry with `next_attempt_delay`): no connection, a dropped one, a 4xx reply.
Throttled: the provider's sending limit (`smtp_replies` says which answers are). Blocked: the
login or the TLS it needs was refused, which a person fixes in the settings without the message
being at fault. Permanent: a 5xx reply to a recipient (that address bounced), or to the message
as a whole (sending the same bytes again would be refused again).
"""

from __future__ import annotations

import logging
import smtplib
import time
from dataclasses import dataclass, field

from pbem.mail.config import SmtpConfig
from pbem.mail.errors import MailError
from pbem.mail.smtp_replies import needs_person, sorted_by_reply, text_of, whole_message_refused
from pbem.mail.smtp_session import open_smtp
from pbem.mail.transport import SendResult

log = logging.getLogger(__name__)

NOOP_OK = 250
# A connection used this recently is trusted without a NOOP: sending a batch then costs no extra
# round trip per message. If the server dropped it meanwhile, the send is tried once more anew.
TRUSTED_IDLE_SECONDS = 10.0


@dataclass
class SmtpSender:
    """A `Sender` over SMTP, SMTPS or STARTTLS; logs in when the URL carries credentials."""

    config: SmtpConfig
    timeout: float = 30.0
    local_hostname: str | None = None
    _smtp: smtplib.SMTP | None = field(default=None, init=False)
    _last_used: float = field(default=0.0, init=False)

    def send(self, raw: bytes, to: list[str], sender: str) -> SendResult:
        if not to:
            raise ValueError("a message needs at least one recipient")
        wire = crlf_lines(raw)
        trusted = self._smtp is not None and self._recently_used()
        try:
            try:
                refused = self._connection().sendmail(sender, to, wire)
            except smtplib.SMTPServerDisconnected:
                if not trusted:
                    raise
                self._discard()
                refused = self._connection().sendmail(sender, to, wire)
            self._last_used = time.monotonic()
        except smtplib.SMTPRecipientsRefused as error:
            return sorted_by_reply(to, error.recipients)
        except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as error:
            return whole_message_refused(to, error.smtp_code, error.smtp_error)
        except MailError as error:  # pbem's own refusals to log in: no TLS, an OAuth2 token
            self._discard()
            log.warning("sending via %s needs a person: %s", self.config.address, error)
            return SendResult(blocked=f"{self.config.address}: {error}")
        except OSError as error:  # includes every other smtplib error: the session failed
            self._discard()
            log.warning("sending to %s via %s failed: %s", to, self.config.address, error)
            if needs_person(error):
                return SendResult(blocked=f"{self.config.address}: {_reason(error)}")
            if isinstance(error, smtplib.SMTPResponseException):
                code, text = error.smtp_code, text_of(error.smtp_error)
            else:
                code, text = 0, str(error) or type(error).__name__
            return whole_message_refused(to, code, text, where=f"{self.config.address}: ")
        return sorted_by_reply(to, refused)

    def close(self) -> None:
        if self._smtp is None:
            return
        try:
            self._smtp.quit()
        except OSError:
            self._smtp.close()
        self._smtp = None

    def _connection(self) -> smtplib.SMTP:
        """The open connection if it still answers, else a new one (servers drop idle ones)."""
        if self._smtp is not None and self._recently_used():
            return self._smtp
        if self._smtp is not None:
            try:
                alive = self._smtp.noop()[0] == NOOP_OK
            except OSError:
                alive = False
            if alive:
                return self._smtp
            self._discard()
        self._smtp = self._open()
        return self._smtp

    def _recently_used(self) -> bool:
        return time.monotonic() - self._last_used < TRUSTED_IDLE_SECONDS

    def _open(self) -> smtplib.SMTP:
        return open_smtp(self.config, self.timeout, self.local_hostname)

    def _discard(self) -> None:
        if self._smtp is not None:
            self._smtp.close()
            self._smtp = None


def crlf_lines(raw: bytes) -> bytes:
    """`raw` with every line ending CRLF, as the wire wants (smtplib sends bytes as they are).

    Two C-level replaces, not a regular expression: on a 31 KB letter of 600 lines that is about
    a tenth of the time (a `re.sub` builds a match object per line).
    """
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def _reason(error: OSError) -> str:
    if isinstance(error, smtplib.SMTPResponseException):
        return f"{error.smtp_code} {text_of(error.smtp_error)}"
    return str(error) or type(error).__name__
