"""Table talk, message in and outbox out: SAY to everyone, SAY TO one player, whispers seen in
public press, no talk at all, the daily limit, and talk never read as orders."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from sqlmodel import Session, col, select

from pbem.moderator import gm
from pbem.moderator import undo as undoing
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.moderator.seats import history_lines
from pbem.moderator.talk import TALK_PER_DAY
from pbem.store import HistoryRow, OutboxRow, session_scope
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table
from tests.support.letters import letter_text


def _game(table: Callable[..., Table], press: str = "all") -> Table:
    # Big Time! takes orders from everyone at once, so talk and orders mix freely.
    return table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=3, press=press)


def _new_mail(game: Table, since: int) -> dict[str, list[OutboxRow]]:
    mail: dict[str, list[OutboxRow]] = {}
    for row in game.outbox()[since:]:
        mail.setdefault(row.to_address, []).append(row)
    return mail


def _texts(rows: list[OutboxRow]) -> str:
    return "\n".join(letter_text(row.raw) for row in rows)


def _history(game: Table, address: str) -> str:
    with Session(game.engine) as session:
        loaded = game.game()
        seat = next(s.position for s in loaded.seats if s.address == address)
        lines = history_lines(Desk(session, SETTINGS), loaded, seat).lines
    return "\n".join(f"{line.actor}: {line.summary}" for line in lines)


def test_say_goes_to_every_other_player_under_the_senders_name(table):
    game = _game(table)
    before = len(game.outbox())
    result = game.mail(ANN, "SAY Good luck, all!")
    assert (result.status, result.reason) == ("accepted", "ok")
    mail = _new_mail(game, before)
    assert sorted(mail) == [ANN, BO, CY]
    (reply,) = mail[ANN]
    assert reply.kind == "reply"
    assert "You said to everyone: Good luck, all!" in letter_text(reply.raw)
    assert "no orders" not in letter_text(reply.raw)
    assert "Your talk was passed on." in letter_text(reply.raw)
    for other in (BO, CY):
        (talk,) = mail[other]
        assert talk.kind == "talk"
        text = letter_text(talk.raw)
        assert "Ann says: Good luck, all!" in text
        assert ANN not in text and game.secret(ANN) not in text
        assert f"[{game.id}] Table talk" in talk.raw.decode()
    assert "Ann says: Good luck, all!" in _history(game, BO)
    assert "You said to everyone: Good luck, all!" in _history(game, ANN)
    assert game.mail(BO, "HISTORY").status == "accepted"
    told = letter_text(game.outbox()[-1].raw)
    assert "Ann says: Good luck, all!" in told and "Ann: Ann says" not in told


def test_help_and_the_welcome_say_that_talk_to_everyone_is_public(table):
    game = _game(table)
    welcome = letter_text(game.outbox()[0].raw)
    said = " ".join(welcome.split())
    assert "Talk with SAY is public: every player reads it, and so does anyone watching" in said
    assert "SAY TO and a player's name is private, for that player alone" in said
    game.mail(ANN, "HELP")
    help_text = " ".join(letter_text(game.outbox()[-1].raw).split())
    assert "SAY is public: every player reads it, and so does anyone watching the game" in help_text
    assert "is private, for that player alone" in help_text
    assert "to every other player" not in help_text
    # No talk in the game: the welcome says nothing of it.
    quiet = _game(table, press="none")
    welcomes = [row for row in quiet.outbox() if row.game_id == quiet.id]
    assert "Welcome" in letter_text(welcomes[0].raw)
    assert "Talk with SAY" not in letter_text(welcomes[0].raw)


def test_say_to_one_player_is_told_to_that_player_only(table):
    game = _game(table)
    before, cy_history = len(game.outbox()), _history(game, CY)
    assert game.mail(ANN, "say to bo: meet me in Cologne").status == "accepted"
    mail = _new_mail(game, before)
    assert sorted(mail) == [ANN, BO]  # Cy is sent nothing, not even that it happened
    assert "You said to Bo only: meet me in Cologne" in _texts(mail[ANN])
    assert "Ann says to you only: meet me in Cologne" in _texts(mail[BO])
    assert "Cologne" in _history(game, BO)
    assert _history(game, CY) == cy_history


def test_a_history_email_shows_no_trace_of_talk_its_reader_was_not_told(table):
    game = _game(table)

    def cy_reads_history() -> str:
        assert game.mail(CY, "HISTORY").status == "accepted"
        text = letter_text(game.outbox()[-1].raw)
        return text[text.index("History (") : text.index("Game ", text.index("History ("))]

    before = cy_reads_history().splitlines()
    assert game.mail(ANN, "say to bo: meet me in Cologne").status == "accepted"
    assert game.mail(ANN, "SAY Good luck, all!").status == "accepted"
    # Only the talk Cy was told is new: no entry numbers, whose gap would show that something
    # was said between, and when.
    new = [line for line in cy_reads_history().splitlines() if line not in before]
    assert len(new) == 2 and new[0].startswith("History (from the start, ")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d  Ann says: Good luck, all!", new[1])


def test_a_seats_new_holder_reads_nothing_private_of_the_one_before(table):
    game = _game(table)
    assert game.mail(ANN, "say to bo: team up against Cy?").status == "accepted"
    assert game.mail(BO, "SAY TO Ann: deal\nBID 3").status == "accepted"
    dee = "dee@example.org"
    with session_scope(game.engine) as session:
        gm.replace(Desk(session, SETTINGS), game.id, BO, f"{dee}:Dee", "Bo moved abroad")
    history = _history(game, dee)
    assert "team up" not in history and "deal" not in history
    assert "You: BID 3" not in history and "bid 3 ($3)" not in history  # Bo's sealed order
    assert "You take over the seat of Bo" in history  # from there on, the seat's history is Dee's
    # Who said what is told by who held the seat then, not by who holds it now.
    ann = _history(game, ANN)
    assert "You said to Bo only: team up" in ann and "Bo says to you only: deal" in ann
    assert "Dee says" not in ann and "to Dee only" not in ann
    before = len(game.outbox())
    for player in (ANN, CY, dee):
        assert game.mail(player, "BID 0", subject=game.latest_subject(player)).status == "accepted"
    to_dee = _texts(_new_mail(game, before)[dee])
    assert "Second Talent Buy" in to_dee  # the phase resolved: Dee was sent its news
    assert "team up" not in to_dee and "deal" not in to_dee
    # Ann was told it when it was said; told again now it would read as Dee's.
    assert "Dee says" not in _texts(_new_mail(game, before)[ANN])


def test_public_press_tells_the_others_only_that_someone_whispered(table):
    game = _game(table, press="public")
    before = len(game.outbox())
    assert game.mail(ANN, "SAY TO 2 the bids are low").status == "accepted"
    mail = _new_mail(game, before)
    assert sorted(mail) == [ANN, BO, CY]
    assert "Ann says to you only: the bids are low" in _texts(mail[BO])
    told = _texts(mail[CY])
    assert "Ann whispered to Bo." in told and "bids" not in told
    assert "Ann whispered to Bo." in _history(game, CY)
    assert "bids" not in _history(game, CY)


def test_no_press_refuses_talk_politely_and_relays_nothing(table):
    game = _game(table, press="none")
    before = len(game.outbox())
    result = game.mail(ANN, "SAY hello")
    assert result.status == "rejected"
    assert "talk is off in this game" in result.reason
    mail = _new_mail(game, before)
    assert sorted(mail) == [ANN]
    assert "talk is off in this game" in _texts(mail[ANN])


def test_a_block_from_say_to_end_is_one_message_never_orders(table):
    game = _game(table)
    state = game.game().row.state
    before = len(game.outbox())
    body = "SAY TO Cy\nShall we both\nBID 1 1 1\nthis round?\nEND\n"
    assert game.mail(BO, body).status == "accepted"
    assert game.game().row.state == state  # the BID inside the talk is not an order
    told = _texts(_new_mail(game, before)[CY])
    assert "Bo says to you only: Shall we both" in told
    assert "Bo says to you only: Shall we both / BID 1 1 1 / this round?" in told


def test_talk_with_orders_is_relayed_with_them_and_not_when_they_are_refused(table):
    game = _game(table)
    before = len(game.outbox())
    result = game.mail(ANN, "BID 3 3 3 3 3\nSAY I bid big")
    assert (result.status, result.reason[:20]) == ("rejected", 'line 1 "BID 3 3 3 3 ')
    assert sorted(_new_mail(game, before)) == [ANN]  # nothing relayed
    with Session(game.engine) as session:
        talk = session.exec(select(HistoryRow).where(col(HistoryRow.kind) == "talk")).all()
    assert talk == []
    before = len(game.outbox())
    assert game.mail(ANN, "BID 0\nSAY I bid nothing").status == "accepted"
    assert "Ann says: I bid nothing" in _texts(_new_mail(game, before)[BO])


def test_a_refused_email_says_its_talk_was_not_passed_on_and_quotes_the_block(table):
    # Play-testing: the refusal read "> say" alone for a block, and nothing said the talk had
    # not gone either.
    game = table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=7, first_player=CY)
    before = len(game.outbox())
    body = "say\nThanks Ann!\nBo, hire 0 is a trap ;)\nend\nsay to 1 cheers\nhier 0"
    assert game.mail(CY, body).status == "rejected"
    (reply,) = _new_mail(game, before)[CY]
    text = letter_text(reply.raw)
    assert "Your talk was not passed on either: send it again with your corrections." in text
    read = text.split("Read:\n", 1)[1]
    quoted = "  > say\n  > Thanks Ann!\n  > Bo, hire 0 is a trap ;)\n  > end\n  > say to 1 cheers\n"
    assert read.startswith(quoted)
    assert sorted(_new_mail(game, before)) == [CY]  # nothing relayed
    # A refused email without talk says nothing of talk.
    assert game.mail(CY, "hier 0").status == "rejected"
    assert "talk" not in letter_text(game.outbox()[-1].raw).split("Problems:")[0]


def test_talk_in_the_email_that_ends_the_phase_goes_out_in_the_status(table):
    game = _game(table)
    game.mail(BO, "SAY sent before the status")
    game.mail(ANN, "BID 0")
    game.mail(BO, "BID 0")
    before = len(game.outbox())
    assert game.mail(CY, "BID 0\nSAY on to phase two").status == "accepted"
    mail = _new_mail(game, before)
    for other in (ANN, BO):
        kinds = [row.kind for row in mail[other]]
        assert "talk" not in kinds, kinds
        (status,) = [row for row in mail[other] if row.kind == "status"]
        text = letter_text(status.raw)
        assert "Table talk:" in text and "Cy says: on to phase two" in text
        assert ("Bo says: sent before the status" in text) == (other == ANN)
        assert "Table talk</p>" in status.raw.decode()  # the HTML part has it too


def test_unknown_names_and_computer_players_are_refused_with_the_players_names(table):
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=3)
    result = game.mail(ANN, "SAY TO Zed hello")
    assert result.status == "rejected"
    assert (
        "no player called 'Zed'" in result.reason
        and "(players you can talk to: Bo)" in result.reason
    )
    assert game.mail(ANN, "SAY TO ann hello").status == "rejected"


def test_an_ambiguous_name_is_refused_with_the_seat_numbers_that_name_each_player(table):
    # Found in play-testing: the refusal listed the players, but not how to name one of them.
    game = table("bigtime", [f"{ANN}:Ann Smith", f"{BO}:Ann Lee", f"{CY}:Cy"], seed=3)
    result = game.mail(CY, "SAY TO Ann hello")
    assert result.status == "rejected"
    assert (
        "more than one player called 'Ann' to talk to: write SAY TO 1 (Ann Smith) or "
        "SAY TO 2 (Ann Lee) (players you can talk to: Ann Smith, Ann Lee)"
    ) in result.reason
    # The sender is not offered as a choice.
    assert "write SAY TO 2 (Ann Lee) (players you" in game.mail(ANN, "SAY TO ann hi").reason
    before = len(game.outbox())
    assert game.mail(CY, "SAY TO 2 hello").status == "accepted"
    assert sorted(_new_mail(game, before)) == [BO, CY]


def test_an_email_is_told_every_problem_at_once_lines_rules_talk_and_absence(table):
    """A player fixes their email once, not once per kind of problem."""
    game = _game(table)
    unread = game.mail(ANN, "BID 3\nAM Z9\nSAY TO Zed hi\nAWAY 900 days")
    assert unread.status == "rejected"
    assert [problem.split(":")[0] for problem in unread.reason.split("; ")] == [
        'line 2 "AM Z9"',
        'line 4 "AWAY 900 days"',
        'line 3 "SAY TO Zed hi"',
    ]
    refused = game.mail(ANN, "BID 3 3 3 3 3\nSAY TO Zed hi")
    assert refused.status == "rejected"
    assert refused.reason.startswith('line 1 "BID 3 3 3 3 3": ')
    assert refused.reason.endswith(
        "no player called 'Zed' to talk to (players you can talk to: Bo, Cy)"
    )
    assert game.mail(ANN, "BID 3\nSAY TO Bo hi").status == "accepted"


def test_talk_is_limited_per_day_and_the_refusal_says_when_the_next_may_go(table):
    game = _game(table)
    body = "\n".join(f"SAY message {n}" for n in range(TALK_PER_DAY))
    assert game.mail(ANN, body).status == "accepted"
    before = len(game.outbox())
    result = game.mail(ANN, "SAY one more")
    assert result.status == "rejected"
    assert f"at most {TALK_PER_DAY} may be sent a day" in result.reason
    assert "the next may be sent from 20" in result.reason and "UTC" in result.reason
    assert sorted(_new_mail(game, before)) == [ANN]
    assert game.mail(BO, "SAY my own limit is untouched").status == "accepted"


def test_the_game_masters_undo_passes_over_talk_to_the_last_change(table):
    game = table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo"], seed=11, first_player=ANN)
    start = game.game().row.state
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    assert game.mail(BO, "SAY nice hire").status == "accepted"  # not Bo's turn: talk still goes
    with session_scope(game.engine) as session:
        undoing.undo(Desk(session, SETTINGS), game.id, None, "misclick")
    restored, started = json.loads(game.game().row.state), json.loads(start)
    # The undone hire showed the deck's top card: the deck is shuffled again (test_gm.py).
    for state in (restored, started):
        state["deck"].sort()
        del state["rng"]
    assert restored == started


def test_computer_players_are_sent_no_talk_and_talk_to_them_is_refused(table):
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], bots=("Robby",), seed=3)
    before = len(game.outbox())
    assert game.mail(ANN, "SAY hello").status == "accepted"
    assert sorted(_new_mail(game, before)) == [ANN, BO]
    result = game.mail(ANN, "SAY TO robby hello")
    assert result.status == "rejected"
    assert "Robby (computer) is a computer player and does not read talk" in result.reason


def test_say_to_finds_a_computer_player_stored_with_the_older_bot_label(table):
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], bots=("Robby",), seed=3)
    with session_scope(game.engine) as session:
        seat = load_game(session, game.id).seat(2)
        seat.name = "Robby (bot)"  # as `--bot` named the seat in games started before
        session.add(seat)
    for to in ("Robby", "robby", "3"):
        result = game.mail(ANN, f"SAY TO {to} hello")
        assert result.status == "rejected", to
        assert "Robby (bot) is a computer player" in result.reason, (to, result.reason)


def test_say_to_a_table_of_computer_players_only_is_refused_not_said_to_nobody(table):
    game = table("bigtime", [f"{ANN}:Ann"], bots=("Robby", "Marvin"), seed=3)
    result = game.mail(ANN, "SAY hello robots")
    assert result.status == "rejected"
    assert "the other players are all computer players, and they do not read talk" in (
        result.reason
    )
