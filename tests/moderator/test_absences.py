"""Absences (AWAY, BACK): the moderator plays for an away player, or their deadlines wait; the
cap on days away; the absence ending by BACK, by its day, or by the game master."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from pbem.daemon.deadlines import run_deadlines
from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import InboundResult, handle_inbound
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.orders.format import order_text
from pbem.store import last_history, session_scope
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table
from tests.support.letters import letter_text

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


class Clocked(Table):
    """A game whose moderator reads a clock the test moves."""

    def __init__(self, engine: Engine, game: str, players: list[str], **options: object) -> None:
        self.engine, self.now = engine, START
        # Named players, as the letters name them.
        named = tuple(PlayerSpec(p, p.split("@")[0].title()) for p in players)
        request = GameRequest(game=game, players=named, **options)  # type: ignore[arg-type]
        with session_scope(engine) as session:
            self.id = start_game(self.desk(session), request).id

    def desk(self, session: Session) -> Desk:
        return Desk(session, SETTINGS, lambda: self.now)

    def send(self, raw: bytes) -> InboundResult:
        with session_scope(self.engine) as session:
            return handle_inbound(self.desk(session), raw, "test")

    def deadlines(self) -> int:
        return run_deadlines(self.engine, SETTINGS, lambda: self.now, None)

    def default_orders(self, address: str) -> str:
        """What the engine would play for the player, as an email's orders."""
        game = self.game()
        seat = next(s.position for s in game.seats if s.address == address)
        return order_text(game.engine.default_actions(game.state, seat))

    def letters(self, address: str, since: int = 0) -> list[str]:
        return [letter_text(r.raw) for r in self.outbox()[since:] if r.to_address == address]

    def history(self) -> list[tuple[str, str, str]]:
        with Session(self.engine) as session:
            rows = last_history(session, self.id, 100)
        return [(row.actor, row.kind, row.summary) for row in rows]


@pytest.fixture
def clocked(db_engine: Engine):
    def make(game: str, players: list[str], **options: object) -> Clocked:
        return Clocked(db_engine, game, players, **options)

    return make


def _awaited(game: LoadedGame) -> list[str]:
    return [game.seat(seat).address for seat in game.engine.awaiting(game.state)]


def test_an_away_players_turns_are_played_at_once_and_everyone_reads_so(clocked):
    sm = clocked("showmanager", [ANN, BO, CY], seed=7, first_player=ANN)
    sent = len(sm.outbox())
    assert sm.mail(ANN, "AWAY 12 Dec").status == "accepted"
    game = sm.game()
    assert game.seat(0).away_until == date(2026, 12, 12) and game.seat(0).away_days == 11
    assert _awaited(game) == [BO]  # Ann's turn was played for her at once
    reply = sm.letters(ANN, sent)[-1]
    assert "You are away until 12 Dec 2026; the moderator plays the default orders" in reply
    assert "You are away: the moderator played the default orders for you" in reply
    told_bo = " ".join(sm.letters(BO, sent)[-1].split())  # long lines are wrapped: read as words
    assert "Ann is away until 12 Dec 2026; the moderator plays the default orders for Ann" in (
        told_bo
    )
    assert "Ann is away: the moderator played the default orders for Ann:" in told_bo
    assert "Ann is away until 12 Dec 2026." in told_bo  # the status's list of absences
    # Bo and Cy play; when Ann's turn comes again, it is played with Cy's.
    for player in (BO, CY):
        assert sm.mail(player, sm.default_orders(player)).status == "accepted"
    assert _awaited(sm.game()) == [BO]
    played = [entry for entry in sm.history() if entry[0] == "away"]
    assert [kind for _, kind, _ in played] == ["system", "system"]


def test_an_away_player_may_still_send_orders_and_back_ends_the_absence(clocked):
    sm = clocked("showmanager", [ANN, BO], seed=7, first_player=BO)
    assert sm.mail(ANN, "AWAY 3 days").status == "accepted"
    # Ann's own orders, sent before her turn, wait for it and are played rather than the default.
    assert sm.mail(ANN, "HIRE 0").status == "queued"
    assert sm.mail(BO, sm.default_orders(BO)).status == "accepted"
    assert (ANN, "order", "HIRE 0") in sm.history()
    assert not [entry for entry in sm.history() if entry[0] == "away"]
    sm.now += timedelta(days=1)
    sent = len(sm.outbox())
    assert sm.mail(ANN, "Back").status == "accepted"
    game = sm.game()
    assert game.seat(0).away_until is None and game.seat(0).away_days == 1  # 2 days given back
    assert "You are back: you play your own turns again." in sm.letters(ANN, sent)[-1]
    assert sm.mail(BO, sm.default_orders(BO)).status == "accepted"
    assert _awaited(sm.game()) == [ANN]  # no longer played for her


def test_the_replys_headline_tells_the_absence_beside_the_talk_and_the_orders(clocked):
    # Play-testing: AWAY with SAY was headed "Your talk was passed on.", the absence told only
    # further down.
    bt = clocked("bigtime", [ANN, BO], seed=3)
    assert bt.mail(BO, "away 5 days\nsay off to the seaside...").status == "accepted"
    headline = "You are away until 6 Dec 2026; your talk was passed on."
    assert headline in bt.letters(BO)[-1]
    bt.now += timedelta(days=1)
    assert bt.mail(BO, "BID 0\nBACK").status == "accepted"
    assert "Your orders were carried out; you are back." in bt.letters(BO)[-1]


def test_big_time_plays_for_the_away_player_once_the_others_have_bid(clocked):
    bt = clocked("bigtime", [ANN, BO, CY], seed=3)
    assert bt.mail(CY, "AWAY 2026-12-05").status == "accepted"
    phase = bt.game().state.phase_key
    assert bt.mail(ANN, bt.default_orders(ANN)).status == "accepted"
    assert bt.game().state.phase_key == phase  # Bo has not bid: Cy's bid waits too
    sent = len(bt.outbox())
    assert bt.mail(BO, bt.default_orders(BO)).status == "accepted"
    assert bt.game().state.phase_key != phase
    assert "Cy is away: the moderator played the default orders for Cy" in bt.letters(ANN, sent)[0]


def test_nobody_is_played_for_while_every_person_is_away(clocked):
    sm = clocked("showmanager", [ANN, BO], seed=7, first_player=BO)
    assert sm.mail(ANN, "AWAY 5 days").status == "accepted"
    assert sm.mail(BO, "AWAY 5 days").status == "accepted"
    assert _awaited(sm.game()) == [BO]
    with session_scope(sm.engine) as session:
        gm.back(sm.desk(session), sm.id, ANN, "Ann wrote to me")
    assert _awaited(sm.game()) == [ANN]  # Bo, still away, was played for once Ann was back


def test_an_absence_past_the_cap_is_refused_saying_how_many_days_are_left(clocked):
    sm = clocked("showmanager", [ANN, BO], seed=7, first_player=BO, max_away_days=10)
    assert sm.mail(ANN, "AWAY 4 days").status == "accepted"
    before = sm.game().row.state
    result = sm.mail(ANN, "AWAY 12 Dec")
    assert result.status == "rejected"
    assert "this game allows 10 days away in all and you have 10 left" in result.reason
    assert "AWAY 10 days at most" in sm.letters(ANN)[-1]
    sm.now += timedelta(days=4)  # the absence is over: 4 of the 10 days taken
    assert sm.deadlines() == 0
    assert sm.game().seat(0).away_until is None
    assert "you have 6 left" in sm.mail(ANN, "AWAY 7 days").reason
    assert sm.game().row.state == before and sm.game().seat(0).away_until is None


def test_a_date_without_a_year_read_in_another_year_says_which(clocked):
    # Found in play-testing: AWAY 1 Dec sent on 3 Dec was refused as 363 days, and the player
    # did not see that 1 Dec meant next year's.
    sm = clocked("showmanager", [ANN, BO], seed=7, first_player=BO, max_away_days=40)
    sm.now = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    result = sm.mail(ANN, "AWAY 1 Dec")
    assert result.status == "rejected"
    assert result.reason == (
        "1 Dec without a year is the next 1 Dec, 1 Dec 2027 (today is 3 Dec 2026): away until "
        "then is 363 days, but this game allows 40 days away in all and you have 40 left: give "
        "an earlier day (AWAY 40 days at most)"
    )
    assert sm.mail(ANN, "AWAY 2 Jan").status == "accepted"
    told = " ".join(sm.letters(ANN)[-1].split())
    assert "2 Jan without a year is the next 2 Jan, 2 Jan 2027 (today is 3 Dec 2026)." in told
    assert "You are away until 2 Jan 2027" in told
    assert "without a year" not in " ".join(sm.letters(BO))  # the sender's reply alone
    # A date of this year, or one with its year written, needs no word on the year.
    for away in ("AWAY 20 Dec", "AWAY 3 Jan 2027", "AWAY 31 days"):
        assert sm.mail(ANN, away).status == "accepted"
        assert "without a year" not in sm.letters(ANN)[-1], away


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("AWAY soon", "'soon' is not a date or a number of days"),
        ("AWAY 2026-11-30", "30 Nov 2026 is not after today (1 Dec 2026)"),
        ("AWAY 31 Feb", "day 31 of month 2 is not a date"),
    ],
)
def test_a_bad_away_changes_nothing_and_names_the_forms(clocked, text, why):
    sm = clocked("showmanager", [ANN, BO], seed=7, first_player=ANN)
    result = sm.mail(ANN, f"{text}\nHIRE 0")
    assert result.status == "rejected" and why in result.reason
    assert sm.game().seat(0).away_until is None and _awaited(sm.game()) == [ANN]
    if "Accepted" in result.reason:
        assert "AWAY <date> | AWAY <n> days" in result.reason


def test_the_absence_ends_by_itself_on_its_day(clocked):
    sm = clocked("showmanager", [ANN, BO], seed=7, first_player=BO)
    assert sm.mail(ANN, "AWAY 2 days").status == "accepted"
    sm.now += timedelta(days=1)
    sm.deadlines()
    assert sm.game().seat(0).away_until == date(2026, 12, 3)
    sm.now += timedelta(days=1)
    sent = len(sm.outbox())
    sm.deadlines()
    assert sm.game().seat(0).away_until is None and sm.game().seat(0).away_days == 2
    assert "Your absence is over: you play your own turns again." in sm.letters(ANN, sent)[0]
    assert ("away", "system", "Ann back (over)") in sm.history()
    assert sm.mail(BO, sm.default_orders(BO)).status == "accepted"
    assert _awaited(sm.game()) == [ANN]


def _waiting_for_cy_away(clocked) -> Clocked:
    """A Big Time! game under `wait` whose phase waits for Cy alone, away for 3 days."""
    bt = clocked(
        "bigtime", [ANN, BO, CY], seed=3, deadline_hours=24, policy="default", away_mode="wait"
    )
    assert bt.mail(CY, "AWAY 3 days").status == "accepted"
    for player in (ANN, BO):
        assert bt.mail(player, bt.default_orders(player)).status == "accepted"
    return bt


def test_wait_mode_holds_the_deadline_until_the_away_player_is_back(clocked):
    bt = _waiting_for_cy_away(clocked)
    phase = bt.game().state.phase_key
    assert _awaited(bt.game()) == [CY]  # not played for under wait
    bt.now += timedelta(hours=30)
    assert bt.deadlines() == 0 and bt.game().state.phase_key == phase  # held for Cy
    bt.now = START + timedelta(days=3, hours=1)  # Cy's absence is over: the deadline runs again
    assert bt.deadlines() == 0 and bt.game().state.phase_key == phase
    assert bt.game().row.deadline_at == bt.now + timedelta(hours=24)
    bt.now += timedelta(hours=25)
    assert bt.deadlines() == 1 and bt.game().state.phase_key != phase


def test_a_deadline_held_for_an_away_player_is_told_as_held_not_as_a_time(clocked):
    # Found in play-testing: the status showed the deadline's time and "then the moderator plays
    # the default orders", while under `wait` nothing would happen then.
    bt = _waiting_for_cy_away(clocked)
    assert bt.mail(BO, "STATUS").status == "accepted"
    assert bt.mail(CY, "STATUS").status == "accepted"
    bo, cy = bt.letters(BO)[-1], bt.letters(CY)[-1]
    assert "Deadline: none while Cy is away; it starts again when Cy is back." in bo
    assert "Deadline: none while you are away; it starts again when you are back." in cy
    assert "plays the default orders for whoever" not in bo + cy
    assert bt.mail(CY, "BACK").status == "accepted"
    assert "Deadline: 2026-12-02 12:00 UTC; then the moderator plays" in bt.letters(CY)[-1]


def test_everyone_is_told_when_an_absence_holds_the_deadline_and_when_it_starts_again(clocked):
    # Found in play-testing: under `wait`, the others' statuses kept a deadline that was held,
    # and then said it was held after it had started again.
    bt = clocked(
        "bigtime", [ANN, BO, CY], seed=3, deadline_hours=24, policy="default", away_mode="wait"
    )
    sent = len(bt.outbox())
    assert bt.mail(CY, "AWAY 3 days").status == "accepted"
    for player in (ANN, BO):
        [status] = bt.letters(player, sent)
        assert "Cy is away until 4 Dec 2026; the deadlines wait for Cy meanwhile." in status
        assert "Deadline: none while Cy is away; it starts again when Cy is back." in status
    sent = len(bt.outbox())
    bt.now = START + timedelta(days=3, hours=1)  # Cy's absence is over
    assert bt.deadlines() == 0
    for player in (ANN, BO, CY):
        [status] = bt.letters(player, sent)
        assert "absence is over: the deadlines no longer wait for" in status
        assert "Deadline: 2026-12-05 13:00 UTC; then the moderator plays" in status


def test_help_tells_the_games_own_absence_rule(clocked):
    # Found in play-testing: HELP said default orders are played, in a game that waits.
    waits = clocked("bigtime", [ANN, BO], seed=3, away_mode="wait", max_away_days=5)
    assert waits.mail(ANN, "HELP").status == "accepted"
    told = " ".join(waits.letters(ANN)[-1].split())
    assert "Absences: while you are away, your deadlines wait until you are back; at most 5" in told
    plays = clocked("bigtime", [ANN, BO], seed=3)
    assert plays.mail(ANN, "HELP").status == "accepted"
    assert "the moderator plays the default orders for you" in " ".join(
        plays.letters(ANN)[-1].split()
    )


def test_the_game_master_ends_an_absence_and_everyone_is_told(clocked):
    sm = clocked("showmanager", [ANN, BO], seed=7, first_player=BO)
    assert sm.mail(ANN, "AWAY 12 Dec").status == "accepted"
    sent = len(sm.outbox())
    with session_scope(sm.engine) as session:
        change = gm.back(sm.desk(session), sm.id, "Ann", "she is home early")
    assert change.verb == "back" and set(change.told) == {ANN, BO}
    assert change.summary == "Ann back (gm)" and change.why == "she is home early"
    assert "The game master ended your absence" in sm.letters(ANN, sent)[0]
    assert "-- Agency --" in sm.letters(ANN, sent)[0]  # a status: the board, and any deadline
    assert "The game master ended Ann's absence" in sm.letters(BO, sent)[0]
    with session_scope(sm.engine) as session, pytest.raises(gm.GmError, match="not away"):
        gm.back(sm.desk(session), sm.id, "Ann", None)


def test_away_mode_and_cap_are_checked_at_start(clocked):
    from pbem.moderator.start import StartError

    with pytest.raises(StartError, match="--away 'later' is not one of default, wait"):
        clocked("showmanager", [ANN, BO], away_mode="later")
    with pytest.raises(StartError, match="--max-away-days -1"):
        clocked("showmanager", [ANN, BO], max_away_days=-1)


def test_the_game_masters_status_lists_the_absences(clocked):
    sm = clocked("showmanager", [ANN, BO], seed=7, first_player=BO)
    assert sm.mail(ANN, "AWAY 12 Dec").status == "accepted"
    with Session(sm.engine) as session:
        game = load_game(session, sm.id)
        from pbem.moderator.letters import status_context

        assert status_context(game, None)["away"] == [(0, "12 Dec 2026")]


def test_a_seat_that_passes_to_someone_else_keeps_no_absence(clocked):
    sm = clocked("showmanager", [ANN, BO, CY], seed=7, first_player=CY)
    for player in (ANN, BO):
        assert sm.mail(player, "AWAY 4 days").status == "accepted"
    assert sm.mail(ANN, "RESIGN").status == "accepted"  # a computer player plays its own turns
    with session_scope(sm.engine) as session:
        gm.replace(sm.desk(session), sm.id, BO, "di@example.org:Di", None)
    seats = sm.game().seats
    assert [(s.away_until, s.away_days) for s in seats[:2]] == [(None, 0), (None, 0)]


def test_replacing_an_away_player_ends_the_absence_and_says_so(clocked):
    # Found in play-testing: `gm replace` of an away player ended the absence without a word:
    # not in the game master's output, the history or the others' notice; under `wait` the
    # deadline held for the absence had passed, so the newcomer was played for at once.
    bt = _waiting_for_cy_away(clocked)
    bt.now += timedelta(hours=30)
    assert bt.deadlines() == 0  # held for Cy
    sent, di = len(bt.outbox()), "di@example.org"
    with session_scope(bt.engine) as session:
        change = gm.replace(bt.desk(session), bt.id, "Cy", f"{di}:Di", None)
    assert change.summary == "seat 3 (Cy) passed to Di; Cy's absence (until 2026-12-04) ended"
    assert bt.history()[-1] == ("gm", "gm", change.summary)
    seat = bt.game().seat(2)
    assert (seat.away_until, seat.away_days) == (None, 0)  # the absence was Cy's, not Di's
    for player in (ANN, BO):
        told = " ".join(bt.letters(player, sent)[0].split())
        assert "gave Cy's seat to Di. Cy's absence (until 4 Dec 2026) ended with it." in told
    welcome = " ".join(bt.letters(di, sent)[0].split())
    assert "Cy's absence (until 4 Dec 2026) ended with it: you are not away." in welcome
    assert "Di is away" not in welcome and "You are away" not in welcome
    # The deadline held for Cy starts again for Di, as when an absence ends.
    assert bt.game().row.deadline_at == bt.now + timedelta(hours=24)
    assert bt.deadlines() == 0 and _awaited(bt.game()) == [di]


def test_removing_an_away_player_ends_the_absence_and_says_so(clocked):
    # Found in play-testing: `gm remove` of an away player ended the absence without a word,
    # as `gm replace` did.
    bt = clocked(
        "bigtime", [ANN, BO, CY], seed=3, deadline_hours=24, policy="default", away_mode="wait"
    )
    assert bt.mail(CY, "AWAY 3 days").status == "accepted"
    sent = len(bt.outbox())
    with session_scope(bt.engine) as session:
        change = gm.remove(bt.desk(session), bt.id, "Cy", None)
    assert change.summary == (
        "Cy was removed by the game master; a computer player takes the seat; "
        "Cy's absence (until 2026-12-04) ended"
    )
    assert bt.history()[-1] == ("gm", "gm", change.summary)
    seat = bt.game().seat(2)
    assert (seat.away_until, seat.away_days) == (None, 0)
    for player in (ANN, BO):
        told = " ".join(bt.letters(player, sent)[0].split())
        assert (
            "removed Cy from the game; a computer player takes over the seat. "
            "Cy's absence (until 4 Dec 2026) ended with it." in told
        ), told
        assert "Cy is away" not in told


def test_resigning_while_away_ends_the_absence_and_says_so(clocked):
    # Found in play-testing: RESIGN of an away player ended the absence without a word.
    bt = clocked("bigtime", [ANN, BO, CY], seed=3)
    assert bt.mail(CY, "AWAY 3 days").status == "accepted"
    sent = len(bt.outbox())
    assert bt.mail(CY, "RESIGN").status == "accepted"
    summary = "Cy resigned; a computer player takes the seat; Cy's absence (until 2026-12-04) ended"
    assert bt.history()[-1] == (CY, "order", summary)
    answer = " ".join(bt.letters(CY, sent)[0].split())
    assert "Your absence (until 4 Dec 2026) ended with it." in answer, answer
    assert "Cy is away" not in answer
    seat = bt.game().seat(2)
    assert (seat.away_until, seat.away_days) == (None, 0)
    # The others read it in their HISTORY.
    for player in (ANN, BO):
        sent = len(bt.outbox())
        assert bt.mail(player, "HISTORY").status == "accepted"
        told = " ".join(bt.letters(player, sent)[-1].split())
        assert (
            "Cy left the game; a computer player takes over the seat. "
            "Cy's absence (until 4 Dec 2026) ended with it." in told
        ), told
