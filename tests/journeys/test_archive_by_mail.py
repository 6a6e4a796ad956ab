"""`ARCHIVE <game>` through the real mail path: a stranger mails the moderator's bare address in
Dovecot, the daemon answers over SMTP. While the game runs, a polite word; once it is over, the
public page attached, with the standings and without an address, the seed or a hidden card."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

from pbem.daemon import Daemon
from pbem.games.rng import Rng
from tests.journeys.conftest import MODERATOR
from tests.journeys.journey import Journey
from tests.journeys.test_journeys import people
from tests.support.dovecot import DovecotServer
from tests.support.letters import letter_text
from tests.support.smtpd import SmtpServer

READER = "reader@example.net"
SEED = 11


def ask_for_the_archive(journey: Journey) -> EmailMessage:
    """Mail ARCHIVE to the bare address, cycle the daemon, and return its answer to the reader;
    the players get whatever else it sent, as in a game."""
    message = EmailMessage()
    message["From"] = f"A Reader <{READER}>"
    message["To"] = MODERATOR
    message["Subject"] = "the archive, please"
    message["Message-ID"] = make_msgid(domain="readers.test")
    message.set_content(f"ARCHIVE {journey.game_id}\n\nThanks!\n")
    journey.dovecot.append(message.as_bytes())
    sent = journey.daemon.cycle().outbox.sent
    received = journey.smtp.wait_for(journey.taken + sent)[journey.taken :]
    journey.taken += len(received)
    by_address = {player.address: player for player in journey.players}
    answers = []
    for mail in received:
        if mail.recipients == (READER,):
            answers.append(mail)
        else:
            by_address[mail.recipients[0]].receive(mail)
    [answer] = answers
    parsed = message_from_bytes(answer.raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_archive_by_mail_before_and_after_the_end(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    players = people(3)
    journey = Journey.start(daemon, dovecot, smtp_server, "bigtime", players, seed=SEED)

    early = ask_for_the_archive(journey)
    assert list(early.iter_attachments()) == []
    assert "is still being played" in letter_text(early.as_bytes())

    journey.play(Rng.from_seed(SEED))
    journey.check_final_emails()

    answer = ask_for_the_archive(journey)
    [attached] = list(answer.iter_attachments())
    assert attached.get_content_type() == "text/html"
    assert attached.get_filename() == f"{journey.game_id}.html"
    page = attached.get_content()
    game = journey.game()
    outcome = game.engine.outcome(game.state)
    assert outcome.winner is not None
    assert f"<b>{game.name_of(outcome.winner)}</b> won." in page
    for standing in outcome.standings:
        row = f'<td>{game.name_of(standing.seat)}</td><td class="num">{standing.score}</td>'
        assert row in page
    # Nothing hidden: no address (the seats' or the moderator's), password or seed, no hand and
    # no Headliner still face down.
    lowered = page.lower()
    for seat in game.seats:
        assert seat.address not in lowered and f">{seat.secret}<" not in page
    assert MODERATOR not in lowered and READER not in lowered
    assert "seed" not in lowered and "Money cards" not in page
    for card in game.state.headliner_deck:
        assert game.state.data.acts[card].name not in page
