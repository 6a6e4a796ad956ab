"""Which SMTP answers mean retry, wait for the provider's limit, give up, or stop sending."""

from __future__ import annotations

import smtplib
import ssl

import pytest

from pbem.mail.smtp_replies import Refusal, classify, needs_person


@pytest.mark.parametrize(
    ("code", "text", "meaning"),
    [
        (0, "Connection refused", Refusal.TEMPORARY),
        (450, "4.2.1 Mailbox busy, try later", Refusal.TEMPORARY),
        (451, "4.3.0 Local error in processing", Refusal.TEMPORARY),
        (421, "4.7.0 Try again later, closing connection (unusual rate)", Refusal.THROTTLED),
        (452, "4.5.3 Too many recipients", Refusal.THROTTLED),
        (550, "5.4.5 Daily user sending limit exceeded", Refusal.THROTTLED),
        (550, "5.4.5 Daily sending quota exceeded", Refusal.THROTTLED),
        (554, "5.7.0 Sending rate limit exceeded", Refusal.THROTTLED),
        (550, "5.7.1 Message rejected: sending quota reached", Refusal.THROTTLED),
        (550, "4.4.2 Temporarily over the limit", Refusal.THROTTLED),
        (550, "4.2.0 Try again", Refusal.TEMPORARY),
        (550, "5.1.1 No such user", Refusal.PERMANENT),
        (552, "5.2.2 Mailbox full", Refusal.PERMANENT),
        (550, "5.7.1 Message refused as spam", Refusal.PERMANENT),
        (554, "Transaction failed: over the limit, no enhanced code", Refusal.PERMANENT),
        (535, "5.7.8 Authentication credentials invalid", Refusal.BLOCKED),
        (530, "5.7.0 Authentication required", Refusal.BLOCKED),
        (550, "5.7.8 Username and Password not accepted", Refusal.BLOCKED),
    ],
)
def test_each_answer_means_what_the_provider_meant(code: int, text: str, meaning: Refusal) -> None:
    assert classify(code, text) is meaning


def test_a_word_only_containing_rate_is_no_limit() -> None:
    assert classify(550, "5.7.1 Delivery not authorized, message refused (separate policy)") is (
        Refusal.PERMANENT
    )


@pytest.mark.parametrize(
    ("error", "person"),
    [
        (smtplib.SMTPAuthenticationError(535, b"5.7.8 bad"), True),
        (smtplib.SMTPNotSupportedError("STARTTLS extension not supported by server."), True),
        (ssl.SSLCertVerificationError("certificate verify failed"), True),
        (ssl.SSLError("wrong version number"), True),
        (ssl.SSLEOFError("EOF occurred in violation of protocol"), False),
        (smtplib.SMTPServerDisconnected("Connection unexpectedly closed"), False),
        (ConnectionRefusedError(111, "Connection refused"), False),
        (smtplib.SMTPHeloError(530, b"5.7.0 Must issue a STARTTLS command first"), True),
        (smtplib.SMTPConnectError(421, b"4.7.0 Too many connections"), False),
    ],
)
def test_only_login_and_tls_failures_need_a_person(error: OSError, person: bool) -> None:
    assert needs_person(error) is person
