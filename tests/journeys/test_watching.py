"""A watcher follows whole games through the real mail path: WATCH to the moderator's bare
address through Dovecot, then the public status each turn or phase and the final result from
the SMTP server, and nothing private (each letter is checked as it comes: `check_watcher_letter`).
"""

from __future__ import annotations

from collections import Counter

from sqlmodel import Session, select

from pbem.daemon import Daemon
from pbem.games.rng import Rng
from pbem.store import OutboxRow
from tests.journeys.conftest import MODERATOR
from tests.journeys.journey import Journey
from tests.journeys.mail_client import Watcher
from tests.journeys.test_journeys import people
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer


def watched_to_the_end(
    daemon: Daemon, dovecot: DovecotServer, smtp: SmtpServer, game: str, players: int, seed: int
) -> tuple[Journey, Watcher]:
    journey = Journey.start(daemon, dovecot, smtp, game, people(players), seed=seed)
    watcher = Watcher("wat@example.net")
    journey.watchers.append(watcher)
    dovecot.append(watcher.ask(MODERATOR, f"WATCH {journey.game_id}"))
    journey.play(Rng.from_seed(seed))
    statuses = journey.inbound_statuses()
    assert statuses[0] == f"accepted: watch {journey.game_id}"
    assert all(status == "accepted: ok" for status in statuses[1:]), statuses
    journey.check_final_emails()
    assert "You are now watching" in watcher.inbox[0].text
    final = watcher.inbox[-1]
    assert final.subject == f"[{journey.game_id}] Final result"
    assert final.text.count("Final standings") == 1
    return journey, watcher


def test_a_watcher_gets_every_phase_of_a_big_time_game_and_nothing_private(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    journey, watcher = watched_to_the_end(daemon, dovecot, smtp_server, "bigtime", 3, seed=11)
    phases = [f"Round {r} · Phase {p}" for r in range(1, 5) for p in range(1, 4)]
    # The welcome shows phase 1; then one letter as each phase resolves.
    subjects = [mail.subject.removeprefix(f"[{journey.game_id}] ") for mail in watcher.inbox]
    assert subjects == [f"Watching · {phases[0]}", *phases[1:], "Final result"]
    for mail in watcher.inbox[1:-1]:
        assert "Bids revealed in the last phase" in mail.text or "Phase 1" in mail.subject
        assert "face down" in mail.text or "Phase 1" not in mail.subject


def test_a_watcher_gets_every_turn_of_a_show_manager_game_and_nothing_private(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    journey, watcher = watched_to_the_end(daemon, dovecot, smtp_server, "showmanager", 2, seed=5)
    game = journey.game()
    # A letter each time the game moved on: as many as the status emails the players got past
    # their welcomes (of two players, the one who did not move gets one), and the welcome.
    with Session(daemon.engine) as session:
        kinds = Counter(row.kind for row in session.exec(select(OutboxRow)).all())
    assert len(watcher.inbox) == 1 + kinds["watch"] == 1 + kinds["status"] - len(game.seats)
    for mail in watcher.inbox[:-1]:
        money = [line for line in mail.text.splitlines() if line.rstrip().endswith("hidden")]
        assert len(money) == len(game.seats), mail.text  # every player's money column
