"""Whole games by mail as players write it: each answers the newest email the moderator sent
them, replying as mail clients do, and the game ends with no email refused.

Real Dovecot and SMTP servers on 127.0.0.1 and the daemon's own cycle; each player keeps what
the SMTP server delivered to them, and every email is checked as its reader would read it.
"""

from __future__ import annotations

from pbem.daemon import Daemon
from pbem.games.rng import Rng
from pbem.orders.quotes import ORDERS_ABOVE_MARK
from tests.journeys.journey import Journey
from tests.journeys.mail_client import Player
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer


def people(count: int, pasting: int | None = None) -> list[Player]:
    names = ("Ann", "Bo", "Cy", "Di")[:count]
    return [
        Player(f"{name.lower()}@example.org", name, seat, pastes=seat == pasting)
        for seat, name in enumerate(names)
    ]


def play_to_the_end(journey: Journey, seed: int) -> None:
    journey.play(Rng.from_seed(seed))
    statuses = journey.inbound_statuses()
    assert statuses and all(status == "accepted: ok" for status in statuses), statuses
    journey.check_final_emails()


def test_a_big_time_game_ends_when_everyone_answers_the_newest_email(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    players = people(3)
    journey = Journey.start(daemon, dovecot, smtp_server, "bigtime", players, seed=11)
    play_to_the_end(journey, seed=11)
    # Twelve phases, each answered once by each player: nobody had to write twice.
    assert len(journey.inbound_statuses()) == 12 * 3
    # The player whose email resolved a phase got one email for it, newest: reply and status.
    replies_with_a_new_phase = [
        mail
        for player in players
        for mail in player.inbox
        if "Your orders were carried out" in mail.text and mail.asks_for_orders
    ]
    assert replies_with_a_new_phase


def test_a_show_manager_game_ends_when_everyone_answers_the_newest_email(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    journey = Journey.start(daemon, dovecot, smtp_server, "showmanager", people(2), seed=5)
    play_to_the_end(journey, seed=5)


def test_a_status_pasted_under_the_orders_with_no_quote_header_is_not_read(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    players = people(2, pasting=1)
    journey = Journey.start(daemon, dovecot, smtp_server, "bigtime", players, seed=23)
    play_to_the_end(journey, seed=23)
    # Bo's emails held the whole email answered, its example orders too, under the orders, with
    # no quote header and no `>`; only the orders above the mark line were read.
    pasted = journey.written_by(players[1])
    assert len(pasted) == 12
    for text in pasted:
        orders, mark, under = text.partition(ORDERS_ABOVE_MARK)
        assert mark and "\n>" not in text and " wrote:" not in text
        assert "It is your move" in under and "BID" in under
        assert "BID" in orders or "HEADLINER" in orders


def test_answering_an_old_email_is_refused_and_answering_the_refusal_works(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    ann, bo = players = people(2)
    journey = Journey.start(daemon, dovecot, smtp_server, "bigtime", players, seed=3)
    journey.deliver(daemon.cycle().outbox.sent)
    welcome = ann.newest
    assert welcome is not None
    for player in players:
        dovecot.append(player.write(player.inbox[-1], "BID 0"))
    journey.deliver(daemon.cycle().outbox.sent)
    # Ann answers her welcome again, for phase 1, which has resolved: refused as stale...
    dovecot.append(ann.write(welcome, "BID 0"))
    journey.deliver(daemon.cycle().outbox.sent)
    refusal = ann.newest
    assert refusal is not None and "already been resolved" in refusal.text
    assert refusal.subject == f"[{journey.game_id}] Not carried out · Round 1 · Phase 2"
    assert "The Big Time!, round 1 of 4, phase 2" in refusal.text and refusal.asks_for_orders
    # ... and answering the refusal is taken: no loop.
    dovecot.append(ann.write(refusal, "BID 0"))
    journey.deliver(daemon.cycle().outbox.sent)
    stale, answered = journey.inbound_statuses()[-2:]
    assert stale.startswith("rejected: this email answers round 1, phase 1")
    assert answered == "accepted: ok"
    assert bo.newest is not None and bo.newest.asks_for_orders


def test_an_away_player_is_played_for_and_everyone_reads_so_until_they_are_back(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    ann, bo = players = people(2)
    journey = Journey.start(daemon, dovecot, smtp_server, "showmanager", players, seed=5)
    journey.deliver(daemon.cycle().outbox.sent)
    welcome = ann.newest
    assert welcome is not None and welcome.asks_for_orders
    # Ann, on her first turn, goes away: her turn is played for her at once.
    dovecot.append(ann.write(welcome, "AWAY 5 days\n\nOff to the mountains, Ann"))
    journey.deliver(daemon.cycle().outbox.sent)
    reply = ann.newest
    assert reply is not None and not reply.asks_for_orders
    assert "You are away until" in reply.text
    assert "You are away: the moderator played the default orders for you:" in reply.text
    # Bo plays on; each of Ann's turns is played with his, and each of his emails says so.
    rng = Rng.from_seed(5)
    for _ in range(3):
        answer = bo.reply(daemon.engine, journey.game_id, rng)
        assert answer is not None
        dovecot.append(answer)
        journey.deliver(daemon.cycle().outbox.sent)
        newest = bo.newest
        assert newest is not None and newest.asks_for_orders
        assert "Ann is away: the moderator played the default orders for Ann:" in newest.text
        assert "Ann is away until" in newest.text and "Ann is away until" in newest.html
        assert ann.newest is not None and not ann.newest.asks_for_orders
    told_bo = " ".join(" ".join(mail.text for mail in bo.inbox).split())  # wrapped: as words
    assert "Ann is away until" in told_bo and "the moderator plays the default orders for Ann" in (
        told_bo
    )
    # Ann is back: her turns are hers again, and the game is played to its end.
    assert ann.newest is not None
    dovecot.append(ann.write(ann.newest, "BACK"))
    journey.deliver(daemon.cycle().outbox.sent)
    assert ann.newest is not None and "You are back" in ann.newest.text
    assert "away until" not in ann.newest.text
    play_to_the_end(journey, seed=5)
    assert "Ann is back" in "\n".join(mail.text for mail in bo.inbox)
    game = journey.game()
    assert game.seat(0).away_until is None and game.seat(0).away_days == 0
