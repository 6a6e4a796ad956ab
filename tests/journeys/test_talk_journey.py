"""Table talk by real mail (Dovecot in, SMTP out, the daemon's cycle): three players talk to
everyone and to one another in each press setting, and no address and no private talk reaches
anyone it should not (every email is also checked by `Journey.check_letter`)."""

from __future__ import annotations

import pytest

from pbem.daemon import Daemon
from tests.journeys.journey import Journey
from tests.journeys.test_journeys import people
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer


@pytest.mark.parametrize("press", ["all", "public", "none"])
def test_three_players_talk_by_mail_and_private_talk_stays_private(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer, press: str
) -> None:
    ann, bo, cy = players = people(3)
    journey = Journey.start(daemon, dovecot, smtp_server, "bigtime", players, seed=7, press=press)
    journey.deliver(daemon.cycle().outbox.sent)
    journey.answer(
        [
            (ann, "BID 0\nSAY Good luck, everyone!"),
            (bo, "SAY TO Cy: only you may read bluefinch"),
            (cy, "SAY TO 1\nAnn, between us:\nthe word is redheron\nEND"),
        ],
    )
    statuses = journey.inbound_statuses()
    mail = {player.name: player.all_mail for player in players}
    if press == "none":
        assert all(s.startswith("rejected: talk is off in this game") for s in statuses), statuses
        for player in players:
            assert "talk is off in this game" in player.inbox[-1].text
        assert "Good luck" not in mail["Bo"] + mail["Cy"]
        assert (
            "bluefinch" not in mail["Ann"] + mail["Cy"]
            and "redheron" not in mail["Ann"] + mail["Bo"]
        )
        return
    assert statuses == ["accepted: ok"] * 3, statuses
    assert "Ann says: Good luck, everyone!" in mail["Bo"] and "Ann says: Good luck" in mail["Cy"]
    assert "Bo says to you only: only you may read bluefinch" in mail["Cy"]
    assert "Cy says to you only: Ann, between us:" in mail["Ann"] and "redheron" in mail["Ann"]
    assert "bluefinch" not in mail["Ann"] and "redheron" not in mail["Bo"]
    whispers = ("Bo whispered to Cy.", "Cy whispered to Ann.")
    assert (whispers[0] in mail["Ann"] and whispers[1] in mail["Bo"]) == (press == "public")
    talk_mail = [m for m in bo.inbox if " Table talk " in f" {m.subject} "]
    assert talk_mail and talk_mail[0].subject.startswith(f"[{journey.game_id}] Table talk")
    # HISTORY tells each the talk they may read, and nothing of the others' private talk.
    journey.answer([(player, "HISTORY") for player in players])
    history = {player.name: player.inbox[-1].text for player in players}
    assert "redheron" in history["Ann"] and "bluefinch" not in history["Ann"]
    assert "bluefinch" in history["Bo"] and "redheron" not in history["Bo"]
    assert "bluefinch" in history["Cy"] and "redheron" in history["Cy"]
    assert ("Bo whispered to Cy." in history["Ann"]) == (press == "public")
    for said in history.values():
        assert "Good luck, everyone!" in said
