"""Sign-up by mail through a real Dovecot inbox and SMTP server: five people ask to join a game
of four, one leaves and comes back, the fifth is told the game is full, and the game starts when
full and is played on by everyone answering their newest email."""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import make_msgid

from sqlmodel import Session

from pbem.daemon import Daemon
from pbem.games.rng import Rng
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.moderator.signup import SignupRequest, open_signup
from pbem.store import session_scope
from tests.journeys.journey import Journey, shows_address
from tests.journeys.mail_client import Player, Received
from tests.journeys.test_journeys import people
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer

MODERATOR = "pbem@example.org"
_JOIN_ADDRESS = re.compile(r"Join: (\S+@example\.org)")


class SignUp:
    """The mail before the game: each person writes to the moderator and reads its answers."""

    def __init__(self, daemon: Daemon, dovecot: DovecotServer, smtp: SmtpServer) -> None:
        self.daemon, self.dovecot, self.smtp = daemon, dovecot, smtp
        self.everyone: dict[str, Player] = {}
        self.taken = 0

    def write(self, player: Player, to: str, body: str) -> None:
        """A new email (not a reply), as a person writes to an address they were given."""
        self.everyone[player.address] = player
        message = EmailMessage()
        message["From"] = f"{player.name} <{player.address}>"
        message["To"] = to
        message["Subject"] = "Sign-up"
        message["Message-ID"] = make_msgid(domain="players.test")
        message.set_content(body)
        self.dovecot.append(message.as_bytes())

    def reply(self, player: Player, body: str) -> None:
        newest = player.newest
        assert newest is not None
        self.dovecot.append(player.write(newest, body))

    def cycle(self) -> None:
        """One daemon cycle; what it sent handed to its readers, none showing another's address."""
        sent = self.daemon.cycle().outbox.sent
        received = self.smtp.wait_for(self.taken + sent)
        for mail in received[self.taken :]:
            (to,) = mail.recipients
            player = self.everyone[to]
            player.receive(mail)
            # A reply address whose random password ends in "ed" ends in Ed's address: whole
            # addresses only (CI once failed on `pbem+bt-1.pvzed@example.org`).
            seen = player.inbox[-1].text + player.inbox[-1].headers
            for other in self.everyone:
                assert other == to or not shows_address(seen, other), (other, to)
        self.taken = len(received)


def newest(player: Player) -> Received:
    assert player.newest is not None
    return player.newest


def test_five_sign_up_for_four_seats_and_the_game_starts_when_full_and_plays_on(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    with session_scope(daemon.engine) as session:
        request = SignupRequest("bigtime", seats="4", deadline_hours=72)
        game_id = open_signup(Desk(session, daemon.settings), request).id
    ann, bo, cy, di = people(4)
    ed = Player("ed@example.org", "Ed", 4)
    signup = SignUp(daemon, dovecot, smtp_server)

    # Ed asks the moderator's own address what is open and learns the join address from it.
    signup.write(ed, MODERATOR, "LIST")
    signup.cycle()
    listed = _JOIN_ADDRESS.findall(newest(ed).text)
    assert listed == [f"pbem+join-{game_id}@example.org"]
    join = listed[0]

    for player in (ann, bo, cy):
        signup.write(player, join, f"JOIN {player.name}")
    signup.cycle()
    assert "as Cy." in newest(cy).text and newest(cy).reply_to == join
    signup.reply(cy, "LEAVE")  # by answering her welcome
    signup.cycle()
    assert "You gave back your seat" in newest(cy).text
    signup.write(di, join, "JOIN Di")
    signup.cycle()
    signup.reply(cy, "JOIN Cy")  # the fourth seat: the game starts
    signup.write(ed, join, "JOIN Ed")  # the fifth
    signup.cycle()
    assert f"Sorry, {game_id} is full" in newest(ed).text

    with Session(daemon.engine) as session:
        game = load_game(session, game_id)
    seated = {seat.address: seat.position for seat in game.seats}
    assert list(seated) == [ann.address, bo.address, di.address, cy.address]
    players = [ann, bo, di, cy]
    for player in players:
        player.seat = seated[player.address]
        welcome = newest(player)
        assert welcome.subject == f"[{game_id}] Welcome · Round 1 · Phase 1"
        assert f"+{game_id}.{game.seat(player.seat).secret}@" in welcome.reply_to
    assert "starts now" in cy.inbox[-2].text

    # Everyone answers their newest email until the first round is over.
    journey = Journey(daemon, dovecot, smtp_server, players, game_id, taken=signup.taken)
    rng = Rng.from_seed(9)
    for _ in range(12):
        for player in players:
            answer = player.reply(daemon.engine, game_id, rng)
            if answer is not None:
                dovecot.append(answer)
        journey.deliver(daemon.cycle().outbox.sent)
        if journey.game().state.round > 1:
            break
    assert journey.game().state.round == 2
    played = [status for status in journey.inbound_statuses() if status == "accepted: ok"]
    assert len(played) >= 3 * 4  # a round: three phases, four players each
