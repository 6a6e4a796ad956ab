"""A wrong CA is refused where it matters: by the daemon's transports, built from its settings as
`pbem run` builds them, and by `pbem config check`, which connects with the same functions."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app
from pbem.daemon import mail_settings
from pbem.mail.factory import open_intake, open_sender
from pbem.mail.transport import MemoryState
from pbem.settings import Settings
from tests.mail.recording import RecordingStore
from tests.support.certs import SelfSignedCa
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer, running_smtpd

runner = CliRunner()
CREDENTIALS = {"gm": "s3cret"}


def tls_environment(
    tmp_path: Path, dovecot: DovecotServer, smtp: SmtpServer, ca_file: Path
) -> dict[str, str]:
    return {
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/pbem.sqlite3",
        "PBEM_ADDRESS": "pbem@example.org",
        "PBEM_IMAP_URL": dovecot.tls_url(),
        "PBEM_SMTP_URL": f"smtp://gm:s3cret@{smtp.host}:{smtp.port}?starttls=1",
        "PBEM_CA_FILE": str(ca_file),
    }


def test_the_daemons_transports_refuse_the_wrong_ca(
    tls_dovecot: DovecotServer, test_ca: SelfSignedCa, wrong_ca: Path, tmp_path: Path
) -> None:
    with running_smtpd(CREDENTIALS, tls=test_ca) as smtp:
        for ca_file, trusted in ((test_ca.ca_file, True), (wrong_ca, False)):
            env = tls_environment(tmp_path, tls_dovecot, smtp, ca_file)
            settings = Settings(
                imap_url=env["PBEM_IMAP_URL"],
                smtp_url=env["PBEM_SMTP_URL"],
                mail_files=(("PBEM_CA_FILE", str(ca_file)),),
            )
            transports = mail_settings(settings)
            recorder = RecordingStore()
            intake = open_intake(transports, recorder.store, recorder.on_poison, MemoryState())
            sender = open_sender(transports)
            try:
                if trusted:
                    assert intake.poll().error is None
                else:
                    report = intake.poll()  # a person must fix it: reported, not raised
                    assert report.needs_person and "does not verify" in (report.error or "")
                sent = sender.send(b"Subject: hi\n\nhello\n", ["alice@example.org"], "pbem@x.org")
            finally:
                intake.close()
                sender.close()
            assert sent.ok is trusted
            if not trusted:
                assert "CERTIFICATE_VERIFY_FAILED" in (sent.blocked or "")
                assert "PBEM_CA_FILE" in (sent.blocked or "")
        assert len(smtp.received()) == 1


def test_config_check_verifies_certificates(
    tls_dovecot: DovecotServer, test_ca: SelfSignedCa, wrong_ca: Path, tmp_path: Path
) -> None:
    with running_smtpd(CREDENTIALS, tls=test_ca) as smtp:
        good = runner.invoke(
            app,
            ["config", "check"],
            env=tls_environment(tmp_path, tls_dovecot, smtp, test_ca.ca_file),
        )
        assert good.exit_code == 0, good.output
        assert "OK  IMAP" in good.output and "OK  SMTP" in good.output

        bad = runner.invoke(
            app, ["config", "check"], env=tls_environment(tmp_path, tls_dovecot, smtp, wrong_ca)
        )
    assert bad.exit_code == 1
    imap_line, smtp_line = (
        next(line for line in bad.output.splitlines() if line.startswith(f"FIX {what}"))
        for what in ("IMAP", "SMTP")
    )
    assert "does not verify" in imap_line and "PBEM_CA_FILE" in imap_line
    assert "CERTIFICATE_VERIFY_FAILED" in smtp_line and "PBEM_CA_FILE" in smtp_line
