"""Secrets outside the URLs (password files, systemd credentials), passwords with characters a
URL reserves, and the URL options for TLS and OAuth2."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

from pbem.daemon import mail_settings
from pbem.mail.config import MailSettings, parse_imap_url, parse_smtp_url
from pbem.mail.errors import MailConfigError
from pbem.mail.imap import ImapIntake
from pbem.mail.oauth import SaslMechanism
from pbem.mail.tls import TlsMode
from pbem.mail.transport import MemoryState
from pbem.settings import load_settings
from tests.mail.recording import RecordingStore, player_email
from tests.support.dovecot import running_dovecot, skip_without_dovecot

AWKWARD_PASSWORD = "p#w?%d/x y:@"
IMAP = "imap://moderator@mail.example.org/INBOX"


def test_the_imap_password_may_come_from_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "imap-password"
    secret.write_text(AWKWARD_PASSWORD + "\n")
    settings = MailSettings.from_env(
        {"PBEM_IMAP_URL": IMAP, "PBEM_IMAP_PASSWORD_FILE": str(secret)}
    )
    assert settings.imap is not None and settings.imap.password == AWKWARD_PASSWORD


def test_systemd_credentials_give_both_passwords(tmp_path: Path) -> None:
    """LoadCredential=pbem-imap-password:... puts the file in $CREDENTIALS_DIRECTORY."""
    (tmp_path / "pbem-imap-password").write_text("imap-secret\r\n")
    (tmp_path / "pbem-smtp-password").write_text("smtp-secret")
    settings = MailSettings.from_env(
        {
            "PBEM_IMAP_URL": IMAP,
            "PBEM_SMTP_URL": "smtps://gm@relay.example.org",
            "CREDENTIALS_DIRECTORY": str(tmp_path),
        }
    )
    assert settings.imap is not None and settings.imap.password == "imap-secret"
    assert settings.smtp is not None and settings.smtp.password == "smtp-secret"


def test_a_file_wins_over_nothing_but_not_over_a_url_password(tmp_path: Path) -> None:
    secret = tmp_path / "smtp-password"
    secret.write_text("from-file")
    env = {"PBEM_SMTP_URL": "smtps://gm:in-url@relay", "PBEM_SMTP_PASSWORD_FILE": str(secret)}
    with pytest.raises(MailConfigError, match=r"PBEM_SMTP_PASSWORD_FILE .*keep one"):
        MailSettings.from_env(env)


def test_a_credentials_directory_without_the_file_changes_nothing(tmp_path: Path) -> None:
    settings = MailSettings.from_env(
        {"PBEM_IMAP_URL": "imaps://u:p@host/INBOX", "CREDENTIALS_DIRECTORY": str(tmp_path)}
    )
    assert settings.imap is not None and settings.imap.password == "p"


@pytest.mark.parametrize(
    ("content", "hint"), [(None, "cannot read the password"), ("\n", "is empty")]
)
def test_an_unusable_password_file_is_named(tmp_path: Path, content: str | None, hint: str) -> None:
    secret = tmp_path / "imap-password"
    if content is not None:
        secret.write_text(content)
    with pytest.raises(MailConfigError, match=hint) as raised:
        MailSettings.from_env({"PBEM_IMAP_URL": IMAP, "PBEM_IMAP_PASSWORD_FILE": str(secret)})
    assert str(secret) in str(raised.value)


def test_a_password_file_without_an_smtp_user_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "smtp-password"
    secret.write_text("s3cret")
    with pytest.raises(MailConfigError, match="names no user"):
        MailSettings.from_env(
            {"PBEM_SMTP_URL": "smtps://relay", "PBEM_SMTP_PASSWORD_FILE": str(secret)}
        )


def test_a_missing_ca_file_is_refused() -> None:
    with pytest.raises(MailConfigError, match="PBEM_CA_FILE"):
        MailSettings.from_env({"PBEM_IMAP_URL": IMAP, "PBEM_CA_FILE": "/nonexistent/ca.pem"})


def test_every_reserved_character_survives_percent_encoding() -> None:
    url = f"imaps://moderator:{quote(AWKWARD_PASSWORD, safe='')}@mail.example.org/INBOX"
    assert parse_imap_url(url).password == AWKWARD_PASSWORD


@pytest.mark.parametrize(
    ("password", "hint"),
    [
        ("p#w", r"contains '#'.*%23"),
        ("p?w", r"contains '\?'.*%3F"),
        ("p/w", r"contains '/'.*%2F"),
        ("p%w", r"'%' that starts no %XX escape.*%25"),
        ("p[w", r"cannot be read.*%5B"),
    ],
)
def test_a_reserved_character_left_in_a_password_is_named(password: str, hint: str) -> None:
    with pytest.raises(MailConfigError, match=hint):
        parse_imap_url(f"imaps://moderator:{password}@mail.example.org/INBOX")
    with pytest.raises(MailConfigError, match=hint):
        parse_smtp_url(f"smtps://gm:{password}@relay.example.org")


def test_an_at_sign_in_the_folder_is_not_taken_for_the_login() -> None:
    config = parse_imap_url("imaps://u:p@host/pbem@games")
    assert (config.user, config.password, config.folder) == ("u", "p", "pbem@games")


@pytest.mark.parametrize(
    ("url", "mode", "insecure"),
    [
        ("imaps://u:p@host", TlsMode.IMPLICIT, False),
        ("imap://u:p@host", TlsMode.WHEN_OFFERED, False),
        ("imap://u:p@host?starttls=1", TlsMode.STARTTLS, False),
        ("imap://u:p@host?starttls=0&insecure=1", TlsMode.NEVER, True),
        ("imap://u:p@host?insecure=1", TlsMode.WHEN_OFFERED, True),
    ],
)
def test_imap_tls_options(url: str, mode: TlsMode, insecure: bool) -> None:
    security = parse_imap_url(url).security
    assert (security.mode, security.insecure) == (mode, insecure)


@pytest.mark.parametrize(
    ("url", "hint"),
    [
        ("imaps://u:p@host?insecure=1", "asks for TLS"),
        ("imap://u:p@host?starttls=1&insecure=1", "asks for TLS"),
        ("imaps://u:p@host?starttls=1", "already TLS"),
        ("imap://u@host?auth=kerberos", "xoauth2 or oauthbearer"),
        ("imap://u:p@host?auth=xoauth2", "takes no password"),
        ("imap://u:p@host?starttls=0", "clear text"),
    ],
)
def test_contradictory_options_are_refused(url: str, hint: str) -> None:
    with pytest.raises(MailConfigError, match=hint):
        parse_imap_url(url)


def test_a_relay_without_a_login_may_skip_starttls() -> None:
    """A local relay with a certificate no CA signed; nothing secret is sent to it."""
    assert parse_smtp_url("smtp://localhost?starttls=0").security.mode is TlsMode.NEVER
    with pytest.raises(MailConfigError, match="clear text"):
        parse_smtp_url("smtp://gm:pw@localhost?starttls=0")


def test_oauth_urls_name_the_mechanism_and_the_token_file(tmp_path: Path) -> None:
    token_file = tmp_path / "token.json"
    settings = MailSettings.from_env(
        {
            "PBEM_IMAP_URL": "imaps://gm%40example.org@imap.example.org/INBOX?auth=xoauth2",
            "PBEM_SMTP_URL": "smtp://gm%40example.org@smtp.example.org:587?auth=OAUTHBEARER",
            "PBEM_OAUTH_FILE": str(token_file),
        }
    )
    assert settings.imap is not None and settings.smtp is not None
    assert settings.imap.oauth is not None and settings.smtp.oauth is not None
    assert settings.imap.oauth.mechanism is SaslMechanism.XOAUTH2
    assert settings.smtp.oauth.mechanism is SaslMechanism.OAUTHBEARER
    assert settings.imap.oauth.token_file == settings.smtp.oauth.token_file == token_file
    assert settings.imap.password is None and settings.smtp.user == "gm@example.org"


def test_an_awkward_password_logs_in_from_the_url_and_from_a_file(tmp_path: Path) -> None:
    skip_without_dovecot()
    with running_dovecot({"moderator": AWKWARD_PASSWORD}) as dovecot:
        secret = tmp_path / "password"
        secret.write_text(AWKWARD_PASSWORD + "\n")
        address = f"{dovecot.host}:{dovecot.port}/INBOX?insecure=1"
        ways = (
            {"PBEM_IMAP_URL": dovecot.imap_url()},
            {
                "PBEM_IMAP_URL": f"imap://moderator@{address}",
                "PBEM_IMAP_PASSWORD_FILE": str(secret),
            },
        )
        for number, env in enumerate(ways, start=1):
            dovecot.append(player_email(number))
            config = MailSettings.from_env(env).imap
            assert config is not None
            intake = ImapIntake(config, RecordingStore().handover(), MemoryState())
            try:
                assert intake.poll().stored == 1
            finally:
                intake.close()


def test_the_daemon_reads_the_files_from_pbem_toml_and_credentials_from_systemd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("PBEM_IMAP_URL", "PBEM_SMTP_URL", "PBEM_CA_FILE", "PBEM_OAUTH_FILE"):
        monkeypatch.delenv(variable, raising=False)
    (tmp_path / "ca.pem").write_text("not read until a connection is made")
    (tmp_path / "pbem-smtp-password").write_text("smtp-secret\n")
    monkeypatch.setenv("CREDENTIALS_DIRECTORY", str(tmp_path))
    config_file = tmp_path / "pbem.toml"
    config_file.write_text(
        f'PBEM_IMAP_URL = "imaps://gm@imap.example.org/INBOX?auth=xoauth2"\n'
        f'PBEM_SMTP_URL = "smtps://gm@smtp.example.org"\n'
        f'PBEM_CA_FILE = "{tmp_path / "ca.pem"}"\n'
        f'PBEM_OAUTH_FILE = "{tmp_path / "token.json"}"\n'
    )

    mail = mail_settings(load_settings(config_file))

    assert mail.imap is not None and mail.smtp is not None and mail.imap.oauth is not None
    assert mail.imap.oauth.token_file == tmp_path / "token.json"
    assert mail.smtp.password == "smtp-secret"
    assert mail.imap.ca_file == mail.smtp.ca_file == tmp_path / "ca.pem"


def test_a_password_file_and_a_systemd_credential_together_are_refused(tmp_path: Path) -> None:
    (tmp_path / "pbem-imap-password").write_text("one")
    (tmp_path / "password").write_text("other")
    env = {
        "PBEM_IMAP_URL": IMAP,
        "PBEM_IMAP_PASSWORD_FILE": str(tmp_path / "password"),
        "CREDENTIALS_DIRECTORY": str(tmp_path),
    }
    with pytest.raises(MailConfigError, match=r"PBEM_IMAP_PASSWORD_FILE .* and in the systemd"):
        MailSettings.from_env(env)
