"""`pbem demo`, `pbem run --once` and `pbem config check` through the command line."""

from __future__ import annotations

import mailbox
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.settings import Settings
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer

runner = CliRunner()


def cli_env(settings: Settings) -> dict[str, str]:
    return {
        "PBEM_DATABASE_URL": settings.database_url,
        "PBEM_ADDRESS": settings.address,
        "PBEM_IMAP_URL": settings.imap_url or "",
        "PBEM_SMTP_URL": settings.smtp_url or "",
    }


@pytest.mark.parametrize(("game", "players"), [("showmanager", 3), ("bigtime", 3)])
def test_demo_plays_a_game_to_the_end_and_files_every_email(
    game: str, players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAILDIR", raising=False)
    result = runner.invoke(app, ["demo", "--game", game, "--players", str(players), "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert "Winner: " in result.output or "No single winner." in result.output
    # What decides the winner: Big Time! posterity (money is replenished at the last clean-up,
    # the same for everyone), Show Manager points and then money.
    standings = [line for line in result.output.splitlines() if re.match(r"\d+\. ", line)]
    assert len(standings) == players, result.output
    if game == "bigtime":
        assert all(": posterity " in line and "money" not in line for line in standings)
    else:
        assert all(" points, money $" in line for line in standings)
    sent = mailbox.Maildir(tmp_path / "pbem-mail" / "sent", create=False)
    assert f"{len(sent)} emails sent" in result.output
    final = [m for m in sent if "Final result" in str(m["Subject"])]
    assert len(final) == players
    assert (tmp_path / "pbem-demo.sqlite3").exists()


def test_run_once_sends_the_queued_mail(
    server_settings: Settings, smtp_server: SmtpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = cli_env(server_settings)
    started = runner.invoke(
        app,
        [
            "start",
            "--game",
            "bigtime",
            "--player",
            "ann@example.org",
            "--player",
            "bo@example.org",
            "--player",
            "cy@example.org",
        ],
        env=env,
    )
    assert started.exit_code == 0, started.output
    result = runner.invoke(app, ["run", "--once"], env=env)
    assert result.exit_code == 0, result.output
    assert "received 0" in result.output
    recipients = {r for mail in smtp_server.wait_for(3) for r in mail.recipients}
    assert recipients == {"ann@example.org", "bo@example.org", "cy@example.org"}


def test_config_check_says_what_works_and_what_to_fix(
    server_settings: Settings, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    env = cli_env(server_settings)
    good = runner.invoke(app, ["config", "check"], env=env)
    assert good.exit_code == 0, good.output
    assert "OK  IMAP" in good.output and "OK  SMTP" in good.output

    smtp_server.stop()
    wrong_password = dovecot.imap_url().replace("@127", "x@127")
    bad = runner.invoke(app, ["config", "check"], env={**env, "PBEM_IMAP_URL": wrong_password})
    assert bad.exit_code == 1
    assert "FIX IMAP" in bad.output and "PBEM_IMAP_URL" in bad.output
    assert "FIX SMTP" in bad.output and "PBEM_SMTP_URL" in bad.output


def test_show_prints_the_gm_view_without_what_an_email_says_to_a_player(tmp_path: Path) -> None:
    env = {"PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/pbem.sqlite3", "PBEM_MAILDIR": ""}
    players = ["--player", "ann@example.org:Ann", "--player", "bo@example.org:Bo"]
    started = runner.invoke(app, ["start", "--game", "showmanager", *players], env=env)
    assert started.exit_code == 0, started.output
    shown = runner.invoke(app, ["show", "sm-1"], env=env)
    assert shown.exit_code == 0, shown.output
    assert "Show Manager (standard game). Turn:" in shown.output
    for email_only in ("Reply to this email", "write your orders above", "password"):
        assert email_only not in shown.output
