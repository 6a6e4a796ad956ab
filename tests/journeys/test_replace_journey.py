"""A seat changes hands in the middle of a Big Time! game, through the real mail path: Ann and
Bo whisper, Bo files a sealed bid, and the game master gives Bo's seat to Dee. Dee never reads
what only Bo was told (the whispers, his bid), in any email or in HISTORY; Ann's HISTORY still
says Bo wrote what Bo wrote; Bo's bid is not played for Dee; and the game ends (found in
play-testing: Dee's next status showed Bo's whispers, HISTORY told them as Dee's, and Bo's
sealed bid was revealed as Dee's).
"""

from __future__ import annotations

from pbem.daemon import Daemon
from pbem.games.rng import Rng
from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.store import session_scope
from tests.journeys.journey import Journey
from tests.journeys.mail_client import Player
from tests.journeys.test_journeys import people
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer


def test_a_seats_new_holder_reads_nothing_of_the_old_holders_and_the_game_ends(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    ann, bo, cy = people(3)
    journey = Journey.start(daemon, dovecot, smtp_server, "bigtime", [ann, bo, cy], seed=5)
    journey.deliver(daemon.cycle().outbox.sent)  # the welcome
    journey.answer(
        [
            (ann, "SAY TO Bo: my word is redheron"),
            (bo, "BID 3 2\nSAY TO Ann: and mine is bluefinch"),
            (cy, "BID 1"),  # Cy's order is in: the game then waits on Ann and Bo's seat
        ],
    )
    assert "Bo says to you only: and mine is bluefinch" in ann.all_mail

    dee = Player("dee@example.org", "Dee", bo.seat)
    with session_scope(daemon.engine) as session:
        change = gm.replace(
            Desk(session, daemon.settings),
            journey.game_id,
            "Bo",
            f"{dee.address}:Dee",
            "Bo moved abroad",
        )
    assert change.summary.endswith("passed to Dee; the order on file taken back")
    journey.players[bo.seat] = dee
    journey.former.append(bo)
    journey.deliver(daemon.cycle().outbox.sent)  # Dee's welcome, the others' notices, Bo's farewell
    assert "Sealed bid: none on file" in dee.inbox[-1].text  # Bo's bid was his, not Dee's

    journey.answer([(dee, "HISTORY")])
    assert "You take over the seat of Bo" in dee.inbox[-1].text
    journey.answer([(ann, "HISTORY")])
    assert "You said to Bo only: my word is redheron" in ann.inbox[-1].text
    assert "Bo says to you only: and mine is bluefinch" in ann.inbox[-1].text

    journey.play(Rng.from_seed(5))
    journey.check_final_emails()
    for secret in ("redheron", "bluefinch", "bid 3 2 ($5)"):
        assert secret not in dee.all_mail, secret
    assert "Dee says" not in ann.all_mail and "to Dee only" not in ann.all_mail
