"""Sign-up by email, message in and outbox out: JOIN, LEAVE, LIST, a full game, the start when
full or at the start date, and the game master's start and close."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from pbem.daemon.signups import run_signup_starts
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import InboundResult, handle_inbound
from pbem.moderator.loaded import load_game
from pbem.moderator.signup import SignupRequest, open_signup
from pbem.moderator.signup_start import SignupError, gm_close, gm_start
from pbem.orders.incoming import read_email
from pbem.settings import Settings
from pbem.store import HistoryRow, OutboxRow, SignupRow, session_scope
from tests.support.letters import letter_text

SETTINGS = Settings(address="pbem@example.org", gm_address="gm@example.org")
GM = "gm@example.org"
PEOPLE = [f"{name}@example.org" for name in ("ann", "bo", "cy", "di", "ed")]
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


class SignupDesk:
    """A moderator with one game open for sign-up, and ways to mail it and read what it sent."""

    def __init__(self, engine: Engine, **options: object) -> None:
        self.engine = engine
        self.now = NOW
        with session_scope(engine) as session:
            request = SignupRequest(game="bigtime", **options)  # type: ignore[arg-type]
            self.id = open_signup(Desk(session, SETTINGS, self.clock), request).id
        self.join_address = f"pbem+join-{self.id}@example.org"

    def clock(self) -> datetime:
        return self.now

    def mail(self, sender: str, body: str, to: str | None = None) -> InboundResult:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = to or self.join_address
        message["Subject"] = "sign-up"
        message["Message-ID"] = make_msgid(domain="test.invalid")
        message.set_content(body)
        with session_scope(self.engine) as session:
            return handle_inbound(Desk(session, SETTINGS, self.clock), message.as_bytes(), "test")

    def outbox(self) -> list[OutboxRow]:
        with Session(self.engine) as session:
            return list(session.exec(select(OutboxRow).order_by(col(OutboxRow.id))).all())

    def last_to(self, address: str) -> str:
        return letter_text([r for r in self.outbox() if r.to_address == address][-1].raw)

    def signup(self) -> SignupRow:
        with Session(self.engine) as session:
            row = session.get(SignupRow, self.id)
            assert row is not None
            return row

    def gm(self, act: Callable[[Desk], object]) -> object:
        with session_scope(self.engine) as session:
            return act(Desk(session, SETTINGS, self.clock))


@pytest.fixture
def open_game(db_engine: Engine) -> Callable[..., SignupDesk]:
    return lambda **options: SignupDesk(db_engine, **options)


def test_join_takes_a_seat_and_the_welcome_tells_rules_help_and_what_comes_next(open_game):
    game = open_game(seats="3-4", deadline_hours=48)
    result = game.mail("Ann <ann@example.org>", "JOIN Ann")
    assert (result.status, result.reason) == ("accepted", "joined")
    welcome = [r for r in game.outbox() if r.to_address == PEOPLE[0]]
    assert len(welcome) == 1 and welcome[0].kind == "signup"
    assert read_email(welcome[0].raw).reply_to == game.join_address
    text = letter_text(welcome[0].raw)
    assert f"You have a seat in {game.id}" in text and "as Ann." in text
    assert "The Big Time! in short" in text
    assert "starts as soon as all 4 seats are taken" in text and "LEAVE" in text
    assert "JOIN" in text and "BID" in text  # the sign-up orders and the game's HELP
    assert "JOIN Ann" not in game.last_to(GM)
    assert "ann@example.org joined as Ann" in game.last_to(GM)


def test_a_player_without_a_name_is_player_n_and_no_address_reaches_another_player(open_game):
    game = open_game(seats="4")
    game.mail(PEOPLE[0], "join")
    game.mail(PEOPLE[1], "JOIN Bo")
    text = game.last_to(PEOPLE[1])
    assert "Signed up so far (2 of 4): Player 1, Bo (you)." in text
    assert PEOPLE[0] not in text


def test_leave_gives_the_seat_back_and_the_gm_is_told(open_game):
    game = open_game(seats="4")
    game.mail(PEOPLE[0], "JOIN Ann")
    game.mail(PEOPLE[1], "JOIN Bo")
    result = game.mail(PEOPLE[0], "LEAVE please")
    assert (result.status, result.reason) == ("accepted", "left")
    assert "You gave back your seat" in game.last_to(PEOPLE[0])
    assert "ann@example.org (Ann) left" in game.last_to(GM)
    assert "1 of 4 seats is taken" in game.last_to(GM)  # one seat: "is", not "are"
    again = game.mail(PEOPLE[0], "LEAVE")
    assert (again.status, again.reason) == ("rejected", "not signed up")


def test_a_second_join_from_the_same_address_is_answered_not_seated(open_game):
    game = open_game(seats="4")
    game.mail(PEOPLE[0], "JOIN Ann")
    result = game.mail("ANN@example.org", "JOIN Annie")
    assert (result.status, result.reason) == ("rejected", "already signed up")
    answer = game.last_to("ANN@example.org")
    assert "You have a seat in" in answer and "already, as Ann:" in answer


def test_a_name_taken_or_not_a_name_is_refused(open_game):
    game = open_game(seats="4")
    game.mail(PEOPLE[0], "JOIN Ann Smith")
    for name in ("ann-smith", "Player 3", "x@y.org", "A" * 41):
        result = game.mail(PEOPLE[1], f"JOIN {name}")
        assert result.status == "rejected", name
        assert "No seat taken" in game.last_to(PEOPLE[1])
    assert game.mail(PEOPLE[1], "JOIN Bo").status == "accepted"


def test_a_name_say_to_could_not_tell_from_a_taken_one_is_refused_naming_it(open_game):
    # Found in play-testing: "Ann" joined beside "Ann Smith", and then SAY TO Ann named both.
    game = open_game(seats="4")
    game.mail(PEOPLE[0], "JOIN Ann Smith")
    for name in ("Ann", "ann lee", "ANN Smith-Jones"):
        result = game.mail(PEOPLE[1], f"JOIN {name}")
        assert result.status == "rejected", name
        said = " ".join(game.last_to(PEOPLE[1]).split())
        assert f"No seat taken: the name {name} reads like Ann Smith, who signed up already" in said
        assert "SAY TO Ann would not tell you apart" in said
        assert "JOIN again with another name, whose first word is not Ann." in said
    assert "Signed up so far" not in game.last_to(PEOPLE[1])
    assert game.mail(PEOPLE[1], "JOIN Annie").status == "accepted"
    assert game.mail(PEOPLE[2], "JOIN Smith").status == "accepted"  # SAY TO Smith names one


def test_the_game_starts_when_full_with_the_normal_welcome_and_a_fifth_is_told_it_is_full(
    open_game,
):
    game = open_game(seats="4", deadline_hours=24)
    for index, address in enumerate(PEOPLE[:3]):
        assert game.mail(address, f"JOIN P{index}").reason == "joined"
    result = game.mail(PEOPLE[3], "JOIN Di")
    assert result.status == "accepted" and result.game_id == game.id
    with Session(game.engine) as session:
        loaded = load_game(session, game.id)
        assert [seat.address for seat in loaded.seats] == PEOPLE[:4]
    status = [r for r in game.outbox() if r.kind == "status"]
    assert sorted(r.to_address for r in status) == sorted(PEOPLE[:4])
    for row in status:
        secret = next(s.secret for s in loaded.seats if s.address == row.to_address)
        assert read_email(row.raw).reply_to == f"pbem+{game.id}.{secret}@example.org"
    assert game.signup().status == "started"
    late = game.mail(PEOPLE[4], "JOIN Ed")
    assert (late.status, late.reason) == ("rejected", "sign-up started")
    for word in ("LEAVE", "JOIN"):
        seated = game.mail(PEOPLE[1].upper(), word)
        assert (seated.status, seated.reason) == ("rejected", "sign-up started")
        assert f"You play in {game.id}, which has started" in game.last_to(PEOPLE[1].upper())
        assert "reply RESIGN to it" in game.last_to(PEOPLE[1].upper())
    late_answer = " ".join(game.last_to(PEOPLE[4]).split())
    assert f"Sorry, {game.id} is full: the game has started. To follow it without playing, " in (
        late_answer
    )
    assert f"write WATCH {game.id} to pbem@example.org. Write LIST to pbem@example.org" in (
        late_answer
    )
    started = " ".join(game.last_to(GM).split())
    assert f"{game.id} started when its last seat was taken (all 4) with P0, P1, P2, Di." in started


@pytest.mark.parametrize("private", [False, True])
def test_a_join_after_a_start_with_seats_free_is_told_it_started_not_that_it_is_full(
    open_game, private
):
    # Play-testing: 3 of 3-4 seats taken at the start date, and a late JOIN was told "full".
    game = open_game(seats="3-4", start_at=NOW + timedelta(days=2), private=private)
    for address in PEOPLE[:3]:
        game.mail(address, "JOIN")
    assert _at_the_date(game) == 1
    late = game.mail(PEOPLE[3], "JOIN Di")
    assert (late.status, late.reason) == ("rejected", "sign-up started")
    answer = " ".join(game.last_to(PEOPLE[3]).split())
    assert (
        f"Sorry, {game.id} has already started, with 3 of its 3-4 seats taken: it takes no "
        "more players." in answer
    )
    assert "full" not in answer and "Write LIST to pbem@example.org" in answer
    # A private game takes no watchers (WATCH is answered as for no game): not offered there.
    watch = f"To follow it without playing, write WATCH {game.id} to pbem@example.org."
    assert (watch in answer) is not private


def test_the_game_starts_with_the_table_the_sign_up_was_opened_with(open_game):
    game = open_game(seats="3", press="none", private=True, away_mode="wait", max_away_days=3)
    for index, address in enumerate(PEOPLE[:3]):
        game.mail(address, f"JOIN P{index}")
    with Session(game.engine) as session:
        row = load_game(session, game.id).row
    assert (row.press, row.private, row.away_mode, row.max_away_days) == ("none", True, "wait", 3)


def test_a_full_game_waiting_for_its_date_refuses_a_fifth_politely(open_game):
    game = open_game(seats="4", start_at=NOW + timedelta(days=2))
    for address in PEOPLE[:4]:
        assert game.mail(address, "JOIN").status == "accepted"
    result = game.mail(PEOPLE[4], "JOIN Ed")
    assert (result.status, result.reason) == ("rejected", "the game is full")
    assert f"Sorry, {game.id} is full: all 4 seats are taken" in game.last_to(PEOPLE[4])
    assert game.signup().status == "open"


def test_list_to_the_bare_address_shows_the_open_games_and_their_join_addresses(open_game):
    game = open_game(seats="3-4", deadline_hours=72)
    game.mail(PEOPLE[0], "JOIN Annabel")
    result = game.mail("zed@example.org", "LIST", to="pbem@example.org")
    assert (result.status, result.reason) == ("accepted", "list")
    text = game.last_to("zed@example.org")
    assert f"{game.id}: The Big Time! (standard), 1 of 3-4 seats taken" in text
    assert "72 hours a turn or phase" in text and "starts when full" in text
    assert game.join_address in text
    assert PEOPLE[0] not in text and "Annabel" not in text


def test_list_tells_the_fewest_players_a_game_starts_with_at_its_date(open_game):
    # Play-testing: the JOIN welcome said "at least 3", LIST only "with the players signed up".
    game = open_game(seats="3-4", start_at=NOW + timedelta(days=2))
    filled = open_game(seats="3-4", start_at=NOW + timedelta(days=2), fill_with_bots=True)
    game.mail("zed@example.org", "LIST", to="pbem@example.org")
    text = " ".join(game.last_to("zed@example.org").split())
    assert f"{game.id}: The Big Time! (standard), 0 of 3-4 seats taken" in text
    assert "starts 2026-12-03 12:00 UTC with the players signed up (at least 3)." in text
    assert f"{filled.id}: The Big Time! (standard), 0 of 3-4 seats taken" in text
    assert "with the players signed up (computer players filling up to 3)." in text


def test_a_greeting_before_join_or_list_is_chatter(open_game):
    game = open_game(seats="4")
    result = game.mail(PEOPLE[0], "Hi there!\n\nJOIN Ann\n\nthanks, Ann")
    assert (result.status, result.reason) == ("accepted", "joined")
    assert "as Ann." in game.last_to(PEOPLE[0])
    listed = game.mail("zed@example.org", "Hello,\nlist please", to="pbem@example.org")
    assert (listed.status, listed.reason) == ("accepted", "list")


def test_join_to_the_bare_address_is_told_where_join_goes_with_the_open_games(open_game):
    game = open_game()
    result = game.mail("zed@example.org", "JOIN Zed", to="pbem@example.org")
    assert (result.status, result.reason) == ("rejected", "JOIN to the bare address")
    text = game.last_to("zed@example.org")
    assert "No seat taken: JOIN goes to the join address of a game" in text
    assert game.join_address in text
    assert not [row for row in game.outbox() if row.to_address == GM]  # nobody joined


def test_other_mail_to_the_bare_address_is_not_sign_up(open_game):
    game = open_game()
    result = game.mail("zed@example.org", "Hello, what is this?", to="pbem@example.org")
    assert result.status == "rejected" and result.reason == "names no game"
    answer = game.last_to("zed@example.org")
    assert "write LIST to pbem@example.org" in answer
    assert "WATCH and the game (WATCH bt-3)" in answer and "ARCHIVE and the game" in answer


def test_not_a_sign_up_order_is_answered_with_the_sign_up_orders(open_game):
    game = open_game()
    result = game.mail(PEOPLE[0], "Hello, can I play?")
    assert (result.status, result.reason) == ("rejected", "no sign-up order")
    assert "JOIN Ann Smith" in game.last_to(PEOPLE[0])


def test_orders_before_the_start_tell_the_player_their_seat_and_where_orders_go(open_game):
    game = open_game(seats="3-4")
    game.mail(PEOPLE[0], "JOIN Ann")
    result = game.mail(PEOPLE[0], "BID 3\nAM A1 A2")
    assert (result.status, result.reason) == ("rejected", "no sign-up order")
    text = " ".join(game.last_to(PEOPLE[0]).split())
    assert '"BID 3" is not a sign-up order.' in text
    assert f"You have a seat in {game.id}, as Ann, but the game has not started" in text
    assert "starts as soon as all 4 seats are taken" in text
    assert "Then you get your first status email: reply to it with your orders." in text
    # Someone without a seat is not told they have one.
    game.mail(PEOPLE[1], "BID 3")
    assert "You have a seat" not in game.last_to(PEOPLE[1])


def test_a_misspelt_sign_up_word_is_named_as_a_typo(open_game):
    # Found in play-testing: "Jion Bob" was only "not a sign-up order", where a misspelt game
    # order is asked "did you mean ...?".
    game = open_game(seats="3-4")
    assert game.mail(PEOPLE[1], "Jion Bob").status == "rejected"
    assert '"Jion Bob" is not a sign-up order: did you mean JOIN?' in game.last_to(PEOPLE[1])
    game.mail(PEOPLE[2], "Hello, can I play?")
    assert '"Hello, can I play?" is not a sign-up order.' in game.last_to(PEOPLE[2])


def test_answers_to_a_sender_are_rate_limited_but_joins_still_count(open_game):
    game = open_game(seats="4")
    for _ in range(10):
        game.mail(PEOPLE[0], "HELP")
    assert len([r for r in game.outbox() if r.to_address == PEOPLE[0]]) == 6
    # A seat taken is told all the same (found in play-testing: a JOIN went unanswered).
    assert game.mail(PEOPLE[0], "JOIN Ann").status == "accepted"
    assert "You have a seat in" in game.last_to(PEOPLE[0])


def test_machine_mail_to_a_join_address_is_ignored(open_game):
    game = open_game()
    message = EmailMessage()
    message["From"] = PEOPLE[0]
    message["To"] = game.join_address
    message["Subject"] = "Out of office"
    message["Auto-Submitted"] = "auto-replied"
    message.set_content("JOIN")
    with session_scope(game.engine) as session:
        result = handle_inbound(Desk(session, SETTINGS), message.as_bytes(), "test")
    assert result.status == "ignored" and game.outbox() == []


def test_gm_start_starts_early_and_is_in_the_history(open_game):
    game = open_game(seats="3-4")
    for address in PEOPLE[:3]:
        game.mail(address, "JOIN")
    change = game.gm(lambda desk: gm_start(desk, game.id, "holiday"))
    assert change.told == tuple(PEOPLE[:3])  # type: ignore[attr-defined]
    with Session(game.engine) as session:
        entries = session.exec(select(HistoryRow).where(col(HistoryRow.game_id) == game.id)).all()
    assert [entry.kind for entry in entries] == ["gm", "gm"]
    assert entries[1].why == "holiday" and "started from the sign-up" in entries[1].summary
    started = " ".join(game.last_to(GM).split())
    assert f"{game.id} started by the game master (pbem gm start) with Player 1," in started


def test_gm_start_with_too_few_needs_computer_players(open_game):
    game = open_game(seats="3-4")
    game.mail(PEOPLE[0], "JOIN Ann")
    with pytest.raises(SignupError, match="--fill-with-bots"):
        game.gm(lambda desk: gm_start(desk, game.id, None))
    game.gm(lambda desk: gm_start(desk, game.id, None, fill=True))
    with Session(game.engine) as session:
        loaded = load_game(session, game.id)
    assert [seat.kind for seat in loaded.seats] == ["human", "bot", "bot"]
    assert loaded.names[0] == "Ann"


def test_gm_close_tells_the_players_signed_up_and_ends_the_sign_up(open_game):
    game = open_game(seats="4")
    game.mail(PEOPLE[0], "JOIN Ann")
    game.mail(PEOPLE[1], "JOIN Bo")
    change = game.gm(lambda desk: gm_close(desk, game.id, "not enough interest"))
    assert change.told == tuple(PEOPLE[:2])  # type: ignore[attr-defined]
    closing = game.last_to(PEOPLE[1])
    assert "closed the sign-up" in closing and "not enough interest" in closing
    assert (game.signup().status, game.signup().why) == ("closed", "not enough interest")
    late = game.mail(PEOPLE[2], "JOIN Cy")
    assert late.status == "rejected" and "was closed" in game.last_to(PEOPLE[2])
    with pytest.raises(SignupError, match="not open for sign-up"):
        game.gm(lambda desk: gm_close(desk, game.id, None))


def _at_the_date(game: SignupDesk) -> int:
    game.now = NOW + timedelta(days=3)
    return run_signup_starts(game.engine, SETTINGS, game.clock)


def test_at_the_start_date_the_game_starts_with_the_seats_taken(open_game):
    game = open_game(seats="3-4", start_at=NOW + timedelta(days=2))
    for address in PEOPLE[:3]:
        game.mail(address, "JOIN")
    assert run_signup_starts(game.engine, SETTINGS, game.clock) == 0  # not yet
    assert _at_the_date(game) == 1
    with Session(game.engine) as session:
        assert len(load_game(session, game.id).seats) == 3
    assert game.signup().ended_by == "date"
    # Play-testing: the notice read "bt-1 started (date) with ...", the code left unexplained.
    started = " ".join(game.last_to(GM).split())
    assert (
        f"{game.id} started at its start date, 2026-12-03 12:00 UTC, with Player 1, Player 2, "
        "Player 3." in started
    )


def test_at_the_start_date_too_few_tells_the_gm_once_and_stays_open(open_game):
    game = open_game(seats="3-4", start_at=NOW + timedelta(days=2))
    game.mail(PEOPLE[0], "JOIN")
    told = len([r for r in game.outbox() if r.to_address == GM])
    assert _at_the_date(game) == 0
    assert _at_the_date(game) == 0
    notices = [r for r in game.outbox() if r.to_address == GM][told:]
    assert len(notices) == 1 and "too few players" in read_email(notices[0].raw).subject
    assert game.signup().status == "open"
    game.mail(PEOPLE[1], "JOIN")
    game.mail(PEOPLE[2], "JOIN")
    assert _at_the_date(game) == 1  # the date has passed: it starts once there are enough


def test_at_the_start_date_computer_players_fill_up_to_the_fewest(open_game):
    game = open_game(seats="3-4", start_at=NOW + timedelta(days=2), fill_with_bots=True)
    game.mail(PEOPLE[0], "JOIN Robby")
    assert _at_the_date(game) == 1
    with Session(game.engine) as session:
        loaded = load_game(session, game.id)
    assert [seat.kind for seat in loaded.seats] == ["human", "bot", "bot"]
    assert loaded.names[1] != "Robby" and "Robby" not in loaded.names[1:]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seats": "2-9"}, "--seats '2-9'"),
        ({"seats": "four"}, "--seats 'four'"),
        ({"variant": "deluxe"}, "no variant 'deluxe'"),
        ({"policy": "later"}, "policy 'later'"),
        ({"deadline_hours": -1}, "deadline -1"),
        ({"start_at": NOW - timedelta(hours=1)}, "has passed"),
        ({"press": "loud"}, "press 'loud'"),
        ({"away_mode": "never"}, "--away 'never'"),
        ({"max_away_days": 400}, "--max-away-days 400"),
    ],
)
def test_a_sign_up_that_cannot_be_opened_says_why(db_engine, options, message):
    with session_scope(db_engine) as session, pytest.raises(SignupError, match=message):
        open_signup(Desk(session, SETTINGS, lambda: NOW), SignupRequest("bigtime", **options))
