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
from pbem.orders.format import order_text
from pbem.store import session_scope
from tests.journeys.journey import Journey, shows_address
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
    journey.deliver(daemon.cycle().outbox.sent)  # Dee's welcome, the others' statuses, Bo's goodbye
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


def _orders_until_the_phase_resolves(journey: Journey, seed: int) -> None:
    """Every player answers their newest email (Re: subject, In-Reply-To, to its Reply-To) with
    their orders for the phase, cycle after cycle, until the phase the game is in has changed."""
    rng = Rng.from_seed(seed)
    before = (journey.game().state.round, journey.game().state.phase)
    answered: set[str] = set()
    for _ in range(6):
        game = journey.game()
        if (game.state.round, game.state.phase) != before:
            return
        awaited = game.engine.awaiting(game.state)
        for player in journey.players:
            newest = player.newest
            assert newest is not None
            if player.seat not in awaited or newest.message_id in answered:
                continue
            answered.add(newest.message_id)
            orders = order_text(game.engine.bot_actions(game.state, player.seat, rng))
            journey.dovecot.append(player.write(newest, orders))
        journey.deliver(journey.daemon.cycle().outbox.sent)
    game = journey.game()
    assert (game.state.round, game.state.phase) != before, "the phase did not resolve"


def test_an_away_players_seat_given_to_a_newcomer_ends_the_absence_and_the_newcomer_is_welcomed(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    """Bo writes AWAY, then the game master gives his seat to Dee (`gm replace`): the summary
    says the absence ended; Dee's welcome names the players, says how to order and to talk and
    that Dee is not away; Ann and Cy read the takeover and that Bo's absence ended with it, at
    once, in a status; once all three have ordered by reply, nobody's next status tells the
    takeover again, nor Dee's Bo's absence as if it went on; and nobody reads another person's
    address."""
    ann, bo, cy = people(3)
    journey = Journey.start(daemon, dovecot, smtp_server, "bigtime", [ann, bo, cy], seed=7)
    journey.deliver(daemon.cycle().outbox.sent)  # the welcome
    journey.answer([(bo, "AWAY 5 days\n\nOff to the mountains, Bo")])
    until = journey.game().seat(bo.seat).away_until
    assert until is not None and bo.newest is not None
    assert f"You are away until {until.day} {until:%b %Y}" in bo.newest.text
    in_words = f"{until.day} {until:%b %Y}"  # "4 Dec 2026", as the players read a day

    dee = Player("dee@example.org", "Dee", bo.seat)
    with session_scope(daemon.engine) as session:
        change = gm.replace(
            Desk(session, daemon.settings), journey.game_id, "Bo", f"{dee.address}:Dee", None
        )
    assert f"; Bo's absence (until {until.isoformat()}) ended" in change.summary
    journey.players[bo.seat] = dee
    journey.former.append(bo)
    journey.deliver(daemon.cycle().outbox.sent)  # Dee's welcome, the others' statuses, Bo's goodbye
    assert journey.game().seat(dee.seat).away_until is None
    ended = f"Bo's absence (until {in_words}) ended with it"

    # Dee's welcome: the takeover, the absence over and not Dee's, the players by name, how to
    # order and how to talk, as the start's welcome tells them.
    welcome = dee.newest
    assert welcome is not None and len(dee.inbox) == 1 and welcome.asks_for_orders
    words = " ".join(welcome.text.split())  # as read, whatever the lines' wrapping
    assert "You take over the seat of Bo" in words
    assert f"{ended}: you are not away." in words
    assert "Players: Ann, Dee (you), Cy." in words
    assert "Reply to this email to send your orders; HELP lists them." in words
    assert "Talk with SAY is public: every player reads it" in words
    assert "SAY TO and a player's name is private, for that player alone." in words
    for part in (welcome.text, welcome.html):
        assert "Dee (you)" in part and "you are not away" in part
        assert "is away" not in part and "You are away" not in part
    # Ann and Cy: a status telling the takeover and the absence it ended, not Dee's words.
    for other in (ann, cy):
        notice = other.newest
        assert notice is not None and notice.asks_for_orders
        assert notice.subject == f"[{journey.game_id}] Bo's seat given to Dee · Round 1 · Phase 1"
        told = " ".join(notice.text.split())
        assert f"The game master gave Bo's seat to Dee. {ended}." in told
        assert "you are not away" not in told
    welcomes = {ann.address: len(ann.inbox), cy.address: len(cy.inbox)}

    _orders_until_the_phase_resolves(journey, seed=7)
    statuses = journey.inbound_statuses()
    assert all(status == "accepted: ok" for status in statuses), statuses

    # Dee's next status tells the phase's news, but neither the takeover again nor Bo's absence
    # (which the takeover ended) as if it went on.
    after = dee.inbox[1:]
    assert after
    status = next(m for m in after if m.subject.endswith("Round 1 · Phase 2"))
    assert status.asks_for_orders and "the bids are revealed" in status.text
    for mail in after:
        for part in (mail.text, mail.html):
            assert "take over the seat" not in part and "You take over" not in part
            assert "is away" not in part and "Bo is away until" not in part
            assert "plays the default orders for Bo" not in part and ended not in part
    # The others read both at once (above), and not again in their next status.
    for other in (ann, cy):
        news = "\n".join(m.text for m in other.inbox[welcomes[other.address] :])
        assert "Bo's seat to Dee" not in news and ended not in " ".join(news.split())
        assert other.newest is not None and other.newest.subject.endswith("Round 1 · Phase 2")

    # Nobody ever read another person's address, in the text, the HTML or the headers.
    everyone = (ann, bo, cy, dee)
    for reader in everyone:
        assert reader.inbox
        for mail in reader.inbox:
            for person in everyone:
                if person is reader:
                    continue
                for part in (mail.text, mail.html, mail.headers):
                    assert not shows_address(part, person.address), (
                        f"{person.address} reached {reader.address}: {mail.subject}"
                    )
