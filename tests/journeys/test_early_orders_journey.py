"""Early orders that cannot be carried out when their turn comes, and a status the game master
resends, through the real mail path (Show Manager, Dovecot and SMTP).

Found in play-testing: the player whose early orders failed got two emails at the same moment, a
notice without the board and then the status saying it was their turn, which said nothing of the
failure; and a status resent to a player who lost theirs told none of the moves and talk it had.
"""

from __future__ import annotations

from pbem.daemon import Daemon
from pbem.games.rng import Rng
from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.store import session_scope
from tests.journeys.journey import Journey
from tests.journeys.test_journeys import people
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer


def _words(text: str) -> str:
    """The text with its line breaks and indents as single spaces: a sentence wraps anywhere."""
    return " ".join(text.split())


def test_a_failed_early_order_is_told_in_the_status_of_the_turn_and_a_resend_recaps(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    ann, bo, cy = people(3)
    journey = Journey.start(daemon, dovecot, smtp_server, "showmanager", [ann, bo, cy], seed=7)
    journey.deliver(daemon.cycle().outbox.sent)  # the welcome: Ann's turn
    # Bo writes before his turn: a loan on a production he does not have when the turn comes.
    journey.answer([(bo, "LOAN WOLF 3")])
    assert "wait for your turn" in _words(bo.newest.text if bo.newest else "")

    before = len(bo.inbox)
    journey.answer([(ann, "SAY Good luck, all\nHIRE 0")])
    [status] = bo.inbox[before:]  # one email: the status saying it is Bo's turn
    told = _words(status.text)
    assert status.asks_for_orders and "Your turn" in status.subject
    assert "Your turn came, but the orders you sent earlier for it could not be" in told
    assert "LOAN WOLF 3:" in told and "the turn waits for your new orders" in told
    assert "LOAN WOLF" not in ann.all_mail and "LOAN WOLF" not in cy.all_mail

    # Bo says his status was lost: the one resent to him tells what it told.
    before = len(bo.inbox)
    with session_scope(daemon.engine) as session:
        gm.resend(Desk(session, daemon.settings), journey.game_id, "Bo", "lost in spam")
    journey.deliver(daemon.cycle().outbox.sent)
    [resent] = bo.inbox[before:]
    recap = _words(resent.text)
    assert "Your status again" in resent.subject and "lost in spam" in recap
    assert "Ann hired #" in recap and "Ann says: Good luck, all" in recap
    assert "could not be carried out" in recap  # his own news, since he last wrote

    journey.play(Rng.from_seed(7))
    journey.check_final_emails()
