"""OAuth2: pbem renews its access token itself from a local token endpoint (the refresh grant),
then logs in to Dovecot (oauth2 passdb, token introspection at the same local server) and to an
SMTP server with XOAUTH2 and with OAUTHBEARER, over TLS."""

from __future__ import annotations

import re
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.mail.config import MailSettings
from pbem.mail.imap import ImapIntake
from pbem.mail.oauth import RENEW_MARGIN, OAuthError, OAuthGrant, TokenFile
from pbem.mail.smtp import SmtpSender
from pbem.mail.transport import MemoryState, SendResult
from tests.mail.recording import RecordingStore, player_email
from tests.support.certs import SelfSignedCa
from tests.support.dovecot import DovecotServer, running_dovecot, skip_without_dovecot
from tests.support.oauth_server import OAuthServer, running_oauth_server
from tests.support.smtpd import OAuthRecordingHandler, SmtpServer, running_smtpd

MECHANISMS = ["xoauth2", "oauthbearer"]
runner = CliRunner()


@pytest.fixture
def oauth_server() -> Iterator[OAuthServer]:
    with running_oauth_server() as server:
        yield server


def saved_grant(
    path: Path, server: OAuthServer, user: str = "moderator", **changes: object
) -> TokenFile:
    """A token file as `pbem auth login` leaves it, its access token already expired."""
    grant = OAuthGrant(
        provider="test",
        user=user,
        client_id=server.client_id,
        token_endpoint=server.token_url,
        refresh_token=server.issue_refresh_token(user),
        access_token="expired-long-ago",
        expires_at=time.time() - 60,
    )
    token_file = TokenFile(path)
    token_file.save(OAuthGrant(**{**grant.__dict__, **changes}))
    return token_file


def test_an_expired_token_is_renewed_once_and_saved(
    tmp_path: Path, oauth_server: OAuthServer
) -> None:
    token_file = saved_grant(tmp_path / "token.json", oauth_server)

    token = token_file.access_token()

    assert oauth_server.user_of(token) == "moderator"
    [request] = oauth_server.record.refresh_requests
    assert (request["grant_type"], request["client_id"]) == ("refresh_token", "pbem-test")
    assert token_file.load().access_token == token
    assert stat.S_IMODE(token_file.path.stat().st_mode) == 0o600
    assert token_file.access_token() == token  # still good: no second request
    assert len(oauth_server.record.refresh_requests) == 1


def test_a_token_is_renewed_before_it_expires(tmp_path: Path, oauth_server: OAuthServer) -> None:
    now = [time.time()]
    path = tmp_path / "token.json"
    saved_grant(path, oauth_server, access_token="fresh", expires_at=now[0] + RENEW_MARGIN + 60)
    token_file = TokenFile(path, clock=lambda: now[0])
    assert token_file.access_token() == "fresh"
    now[0] += 61  # less than RENEW_MARGIN left: renewed although not yet expired
    assert token_file.access_token() != "fresh"
    assert len(oauth_server.record.refresh_requests) == 1


def test_a_rotated_refresh_token_is_kept(tmp_path: Path) -> None:
    with running_oauth_server(rotate=True) as server:
        token_file = saved_grant(tmp_path / "token.json", server)
        first = token_file.load().refresh_token
        token_file.renew()
        second = token_file.load().refresh_token
        token_file.renew()  # works only with the new refresh token: the old one is void
    assert first != second and len(server.record.refresh_requests) == 2


def test_a_refused_refresh_token_says_to_log_in_again(
    tmp_path: Path, oauth_server: OAuthServer
) -> None:
    token_file = saved_grant(tmp_path / "token.json", oauth_server, refresh_token="revoked")
    with pytest.raises(OAuthError, match=r"400 invalid_grant.*pbem auth login"):
        token_file.access_token()


def test_a_token_file_others_can_read_is_refused(tmp_path: Path, oauth_server: OAuthServer) -> None:
    token_file = saved_grant(tmp_path / "token.json", oauth_server)
    token_file.path.chmod(0o644)
    with pytest.raises(OAuthError, match="chmod 600"):
        token_file.access_token()


def test_a_token_endpoint_must_be_https(tmp_path: Path, oauth_server: OAuthServer) -> None:
    token_file = saved_grant(
        tmp_path / "token.json", oauth_server, token_endpoint="http://example.org/token"
    )
    with pytest.raises(OAuthError, match="must be an https"):
        token_file.access_token()


@pytest.fixture
def oauth_dovecot(oauth_server: OAuthServer, test_ca: SelfSignedCa) -> Iterator[DovecotServer]:
    skip_without_dovecot()
    with running_dovecot(tls=test_ca, oauth_introspection_url=oauth_server.introspection_url) as d:
        yield d


def oauth_settings(url_variable: str, url: str, token_path: Path, ca: Path) -> MailSettings:
    return MailSettings.from_env(
        {url_variable: url, "PBEM_OAUTH_FILE": str(token_path), "PBEM_CA_FILE": str(ca)}
    )


def oauth_intake(dovecot: DovecotServer, mechanism: str, token_path: Path, ca: Path) -> ImapIntake:
    url = f"imaps://moderator@127.0.0.1:{dovecot.tls_port}/INBOX?auth={mechanism}"
    config = oauth_settings("PBEM_IMAP_URL", url, token_path, ca).imap
    assert config is not None and config.password is None
    return ImapIntake(config, RecordingStore().handover(), MemoryState())


def send_with_oauth(server: SmtpServer, mechanism: str, token_path: Path, ca: Path) -> SendResult:
    url = f"smtp://gm%40example.org@{server.host}:{server.port}?auth={mechanism}"
    config = oauth_settings("PBEM_SMTP_URL", url, token_path, ca).smtp
    assert config is not None
    sender = SmtpSender(config, timeout=5.0)
    try:
        return sender.send(b"Subject: hi\n\nhello\n", ["alice@example.org"], "gm@example.org")
    finally:
        sender.close()


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_the_intake_logs_in_to_dovecot_with_a_token_it_renewed_itself(
    mechanism: str,
    oauth_dovecot: DovecotServer,
    oauth_server: OAuthServer,
    test_ca: SelfSignedCa,
    tmp_path: Path,
) -> None:
    token_file = saved_grant(tmp_path / "token.json", oauth_server)
    oauth_dovecot.append(player_email(1))
    intake = oauth_intake(oauth_dovecot, mechanism, token_file.path, test_ca.ca_file)
    try:
        assert intake.poll().stored == 1
    finally:
        intake.close()
    renewed = token_file.load().access_token
    assert len(oauth_server.record.refresh_requests) == 1
    assert oauth_server.record.introspections[-1] == renewed  # Dovecot asked about that token
    assert f"method={mechanism.upper()}, rip=127.0.0.1" in oauth_dovecot.log_text()


def test_dovecot_refuses_a_token_its_issuer_no_longer_knows(
    oauth_dovecot: DovecotServer, test_ca: SelfSignedCa, tmp_path: Path, oauth_server: OAuthServer
) -> None:
    """The file says the token is good for an hour, but the issuer says it is not active."""
    token_file = saved_grant(
        tmp_path / "token.json", oauth_server, access_token="unknown", expires_at=time.time() + 3600
    )
    intake = oauth_intake(oauth_dovecot, "xoauth2", token_file.path, test_ca.ca_file)
    report = intake.poll()  # a person must fix it: reported, not raised
    assert report.needs_person and re.search(r"refused the login.*OAuth2 token", report.error or "")


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_the_sender_logs_in_with_a_token_it_renewed_itself(
    mechanism: str, oauth_server: OAuthServer, test_ca: SelfSignedCa, tmp_path: Path
) -> None:
    token_file = saved_grant(tmp_path / "token.json", oauth_server, user="gm@example.org")
    with running_smtpd(tls=test_ca, bearer_check=oauth_server.user_of) as server:
        result = send_with_oauth(server, mechanism, token_file.path, test_ca.ca_file)
        assert result.ok, result
        assert isinstance(server.handler, OAuthRecordingHandler)
        assert server.handler.mechanisms_used == [mechanism.upper()]
    assert len(oauth_server.record.refresh_requests) == 1


def test_the_sender_reports_a_refused_refresh_token(
    oauth_server: OAuthServer, test_ca: SelfSignedCa, tmp_path: Path
) -> None:
    token_file = saved_grant(tmp_path / "token.json", oauth_server, refresh_token="revoked")
    with running_smtpd(tls=test_ca, bearer_check=oauth_server.user_of) as server:
        result = send_with_oauth(server, "xoauth2", token_file.path, test_ca.ca_file)
        assert server.received() == []
    assert "pbem auth login" in (result.blocked or "")


def test_auth_status_and_refresh_commands(tmp_path: Path, oauth_server: OAuthServer) -> None:
    token_file = saved_grant(tmp_path / "token.json", oauth_server)
    (tmp_path / "none.toml").write_text("", encoding="utf-8")  # no settings from a file
    env = {"PBEM_OAUTH_FILE": str(token_file.path), "PBEM_CONFIG": str(tmp_path / "none.toml")}

    status = runner.invoke(app, ["auth", "status"], env=env)
    refreshed = runner.invoke(app, ["auth", "refresh"], env=env)

    assert status.exit_code == 0 and "test login of moderator" in status.output
    assert refreshed.exit_code == 0 and "access token good until" in refreshed.output
    renewed = token_file.load()
    assert renewed.access_token is not None and renewed.access_token not in refreshed.output
    assert renewed.refresh_token not in status.output + refreshed.output


def test_auth_commands_say_what_is_wrong(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["auth", "status", "--file", str(tmp_path / "none.json")])
    assert missing.exit_code == 1 and "pbem auth login" in missing.output
    unknown = runner.invoke(
        app, ["auth", "login", "--provider", "yahoo", "--user", "u", "--client-id", "c"]
    )
    assert unknown.exit_code == 2 and "google, microsoft" in unknown.output
