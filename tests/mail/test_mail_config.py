"""PBEM_IMAP_URL / PBEM_SMTP_URL / PBEM_MAILDIR parsing."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.config import (
    DEFAULT_MAILDIR,
    ImapConfig,
    MailSettings,
    SmtpConfig,
    parse_imap_url,
    parse_smtp_url,
)
from pbem.mail.errors import MailConfigError


def test_imap_url_gives_host_port_login_and_folder() -> None:
    config = parse_imap_url("imap://moderator:secret@mail.example.org:1143/Orders")
    assert config == ImapConfig("mail.example.org", 1143, "moderator", "secret", "Orders", False)


def test_imap_user_password_and_folder_are_percent_decoded() -> None:
    config = parse_imap_url("imaps://gm%40example.org:p%40ss%3Aw%2Frd@mail:993/pbem%20orders")
    assert (config.user, config.password, config.folder) == (
        "gm@example.org",
        "p@ss:w/rd",
        "pbem orders",
    )


@pytest.mark.parametrize(
    ("url", "port", "tls"),
    [("imap://u:p@host", 143, False), ("imaps://u:p@host", 993, True)],
)
def test_imap_default_port_follows_the_scheme(url: str, port: int, tls: bool) -> None:
    config = parse_imap_url(url)
    assert (config.port, config.tls, config.folder) == (port, tls, "INBOX")


def test_imap_password_stays_out_of_repr_and_address() -> None:
    config = parse_imap_url("imap://moderator:hunter2@host/INBOX")
    assert "hunter2" not in repr(config)
    assert config.address == "imap://moderator@host:143/INBOX"


@pytest.mark.parametrize(
    ("url", "hint"),
    [
        ("pop3://u:p@host", "imap://"),
        ("imap://host/INBOX", "login"),
        ("imap://user@host/INBOX", "login"),
        ("imap://u:p@host:notaport/INBOX", "port"),
        ("imap://u:p@host:0/INBOX", "port"),
        ("imap://u:p@:143/INBOX", "host"),
        ("imap://u:p@host/INBOX?tls=1", "imaps://"),
    ],
)
def test_bad_imap_url_is_refused_with_a_hint(url: str, hint: str) -> None:
    with pytest.raises(MailConfigError, match=hint):
        parse_imap_url(url)


def test_smtp_url_without_login() -> None:
    assert parse_smtp_url("smtp://relay:2525") == SmtpConfig("relay", 2525)


def test_smtp_url_with_login_and_starttls() -> None:
    config = parse_smtp_url("smtp://gm%40example.org:s%20cret@relay:587?starttls=1")
    assert config == SmtpConfig("relay", 587, "gm@example.org", "s cret", False, True)


@pytest.mark.parametrize(("url", "port"), [("smtp://relay", 25), ("smtps://relay", 465)])
def test_smtp_default_port_follows_the_scheme(url: str, port: int) -> None:
    assert parse_smtp_url(url).port == port


@pytest.mark.parametrize(
    ("url", "hint"),
    [
        ("http://relay", "smtp://"),
        ("smtps://relay?starttls=1", "already TLS"),
        ("smtp://relay?starttls=maybe", "1 or 0"),
        ("smtp://relay?tls=1", "unknown option"),
        ("smtp://user@relay", "both"),
        ("smtp://relay/path", "no path"),
    ],
)
def test_bad_smtp_url_is_refused_with_a_hint(url: str, hint: str) -> None:
    with pytest.raises(MailConfigError, match=hint):
        parse_smtp_url(url)


def test_settings_without_urls_use_the_local_maildir() -> None:
    settings = MailSettings.from_env({})
    assert (settings.imap, settings.smtp, settings.maildir) == (None, None, DEFAULT_MAILDIR)


def test_settings_read_every_variable() -> None:
    settings = MailSettings.from_env(
        {
            "PBEM_IMAP_URL": "imap://u:p@host/INBOX",
            "PBEM_SMTP_URL": "smtp://relay:25",
            "PBEM_MAILDIR": "/var/pbem/mail",
        }
    )
    assert settings.imap is not None and settings.imap.host == "host"
    assert settings.smtp is not None and settings.smtp.host == "relay"
    assert settings.maildir == Path("/var/pbem/mail")
