"""A player leaves a game by mail through the real mail path: RESIGN in a reply through Dovecot,
the answer from the SMTP server, and the game played to its end by the others and the computer
player that took the seat. The person who left never gets the seat's new password or reply
address, and mail from them no longer orders for it (found in play-testing: the answer to
RESIGN carried the computer player's password, and the person went on ordering with it).
"""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from pbem.daemon import Daemon
from pbem.games.rng import Rng
from tests.journeys.conftest import MODERATOR
from tests.journeys.journey import Journey
from tests.journeys.mail_client import Player
from tests.journeys.test_journeys import people
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer


def answer_with_no_reply_address(person: Player, body: str) -> bytes:
    """What a mail client sends on reply to an email with no Reply-To: to its From."""
    answered = person.inbox[-1]
    message = EmailMessage()
    message["From"] = f"{person.name} <{person.address}>"
    message["To"] = MODERATOR
    message["Subject"] = f"Re: {answered.subject}"
    message["Message-ID"] = make_msgid(domain="players.test")
    message["In-Reply-To"] = answered.message_id
    message.set_content(f"{body}\n\n> {answered.text.splitlines()[0]}\n")
    return message.as_bytes()


def test_a_player_who_resigns_by_mail_can_no_longer_order_and_the_game_ends(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    ann, bo, cy = people(3)
    journey = Journey.start(daemon, dovecot, smtp_server, "bigtime", [ann, bo, cy], seed=21)
    journey.deliver(daemon.cycle().outbox.sent)  # the welcome

    # Cy answers his welcome: he is leaving. From now on his mail is a former player's.
    journey.players.remove(cy)
    journey.former.append(cy)
    dovecot.append(cy.write(cy.inbox[-1], "Sorry, no time any more.\nRESIGN\n\nCy"))
    journey.deliver(daemon.cycle().outbox.sent)  # each letter to Cy checked: check_former_letter

    left = cy.inbox[-1]
    assert left.subject == f"[{journey.game_id}] You left the game · Round 1 · Phase 1"
    assert "no longer counts as orders" in left.text and "You left the game" in left.text
    seat = journey.game().seat(cy.seat)
    assert (seat.kind, seat.name) == ("bot", "Cy (computer)")

    # Ann and Bo were told at once, each in a status.
    for other in (ann, bo):
        assert (
            other.inbox[-1].subject == f"[{journey.game_id}] Cy left the game · Round 1 · Phase 1"
        )

    # He answers that email anyway, as a mail client does with no Reply-To: to the From.
    state = journey.game().row.state
    dovecot.append(answer_with_no_reply_address(cy, "BID 0"))
    journey.deliver(daemon.cycle().outbox.sent)
    assert journey.inbound_statuses()[-1] == "rejected: no password"
    assert "nothing was done" in cy.inbox[-1].text
    assert journey.game().row.state == state

    # Ann, Bo and the computer player in Cy's seat play the game to its end.
    journey.play(Rng.from_seed(21))
    journey.check_final_emails()
    finished = journey.game()
    assert sorted(s.seat for s in finished.engine.outcome(finished.state).standings) == [0, 1, 2]
    # Cy heard nothing more of the game but its end: his welcome, the answer to RESIGN, the
    # refusal (under the game's subject, not his echoed), and the final result as a watcher's.
    assert [mail.subject for mail in cy.inbox] == [
        f"[{journey.game_id}] Welcome · Round 1 · Phase 1",
        left.subject,
        f"[{journey.game_id}] You no longer play in this game",
        f"[{journey.game_id}] Final result",
    ]
    assert "Final standings:" in cy.inbox[-1].text
