"""`pbem run --once` exits 1 when a mail server failed (cron and scripts see it), 0 otherwise."""

from __future__ import annotations

from dataclasses import replace

from typer.testing import CliRunner

from pbem.cli import app
from pbem.settings import Settings
from tests.daemon.test_daemon_mail import PLAYERS
from tests.daemon.test_demo_and_cli import cli_env
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer

runner = CliRunner()


def start_game(env: dict[str, str]) -> None:
    players = [arg for player in PLAYERS for arg in ("--player", player)]
    assert runner.invoke(app, ["start", "--game", "bigtime", *players], env=env).exit_code == 0


def test_run_once_with_both_servers_up_exits_0(
    server_settings: Settings, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    result = runner.invoke(app, ["run", "--once"], env=cli_env(server_settings))
    assert result.exit_code == 0 and "Error" not in result.stderr


def test_run_once_exits_1_when_the_imap_server_cannot_be_reached(
    server_settings: Settings, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    dovecot.stop()
    result = runner.invoke(app, ["run", "--once"], env=cli_env(server_settings))
    assert result.exit_code == 1
    assert "Error: intake: cannot reach imap://" in result.stderr


def test_run_once_exits_1_when_the_imap_login_is_refused(
    server_settings: Settings, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    wrong = f"imap://moderator:wrong@{dovecot.host}:{dovecot.port}/INBOX?insecure=1"
    env = cli_env(replace(server_settings, imap_url=wrong))
    result = runner.invoke(app, ["run", "--once"], env=env)
    assert result.exit_code == 1 and "refused the login" in result.stderr


def test_run_once_exits_1_when_the_smtp_server_cannot_be_reached(
    server_settings: Settings, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    env = cli_env(server_settings)
    start_game(env)
    smtp_server.stop()
    result = runner.invoke(app, ["run", "--once"], env=env)
    assert result.exit_code == 1 and "Error: sending: 0 smtp://" in result.stderr
    assert "deferred 1" in result.stdout
