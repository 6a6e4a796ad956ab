"""A person plays a whole game by mail against computer players seated as `--bot NAME` (the
default level, strong) and `--bot NAME:sensible`, through real Dovecot and SMTP servers, with
the computer players given a small share of each daemon cycle.

What the person reads: every email checked as in the other journeys, the computer players named
as such and never by address, the game's end; and the computer players never kept the person's
mail waiting for a cycle of their own.
"""

from __future__ import annotations

import pytest

from pbem.daemon import Daemon
from pbem.games.levels import DEFAULT_LEVEL
from pbem.games.rng import Rng
from tests.journeys.journey import Journey, shows_address
from tests.journeys.mail_client import Player
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer


@pytest.mark.parametrize(("game", "seed"), [("bigtime", 21), ("showmanager", 4)])
def test_a_person_plays_to_the_end_against_computer_players_of_the_default_level(
    daemon: Daemon, dovecot: DovecotServer, smtp_server: SmtpServer, game: str, seed: int
) -> None:
    ann = Player("ann@example.org", "Ann", 0)
    journey = Journey.start(
        daemon, dovecot, smtp_server, game, [ann], seed, bots=("Robby", "Sue:sensible")
    )
    journey.bot_seconds = 0.2
    journey.play(Rng.from_seed(seed))

    statuses = journey.inbound_statuses()
    assert statuses and all(status == "accepted: ok" for status in statuses), statuses
    journey.check_final_emails()
    loaded = journey.game()
    robby, sue = loaded.seats[1], loaded.seats[2]
    assert (robby.bot_level, sue.bot_level) == (DEFAULT_LEVEL, "sensible") == ("strong", "sensible")
    final = ann.newest
    assert final is not None
    for seat in (robby, sue):
        assert seat.bot_name is not None and seat.bot_name in final.text  # named in the standings
        for mail in ann.inbox:
            for part in (mail.text, mail.html, mail.headers):
                assert not shows_address(part, seat.address), f"{seat.address} reached Ann"
    # Ann wrote every move of her seat; the computer players answered theirs in-process.
    assert len(journey.written_by(ann)) == len(ann.answered) > 0
