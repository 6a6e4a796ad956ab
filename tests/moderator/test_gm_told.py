"""Issue 11: each override names players as players do (email, name or seat number), refuses what
would mix up seats, is recorded with its reason and told to the players it concerns, by name, in
the words of their status emails, with a fresh status where their board or hand changed."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import pytest
from sqlmodel import Session

from pbem.moderator import gm
from pbem.moderator import undo as undoing
from pbem.moderator.desk import Desk
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.orders.format import order_text
from pbem.orders.incoming import parse_message, read_email
from pbem.store import last_history, session_scope
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table


@dataclass(frozen=True)
class Sent:
    to: str
    kind: str
    subject: str
    text: str


def sent_since(game: Table, count: int) -> list[Sent]:
    letters = []
    for row in game.outbox()[count:]:
        message = parse_message(row.raw)
        body = message.get_body(("plain",))
        text = body.get_content() if body is not None else ""  # type: ignore[attr-defined]
        letters.append(Sent(row.to_address, row.kind, str(message["Subject"]), text))
    return letters


def run(game: Table, command, *args):
    with session_scope(game.engine) as session:
        return command(Desk(session, SETTINGS), game.id, *args)


class Named(Table):
    """A game whose players have names: Ann, Bo (and Cy)."""

    def __init__(self, engine, game: str, players: list[tuple[str, str]], **options) -> None:
        self.engine = engine
        specs = tuple(PlayerSpec(address, name) for address, name in players)
        with session_scope(engine) as session:
            request = GameRequest(game=game, players=specs, seed=11, **options)
            self.id = start_game(Desk(session, SETTINGS), request).id


@pytest.fixture
def sm(db_engine) -> Named:
    return Named(db_engine, "showmanager", [(ANN, "Ann"), (BO, "Bo")], first_player=ANN)


@pytest.fixture
def bt(db_engine) -> Named:
    return Named(db_engine, "bigtime", [(ANN, "Ann"), (BO, "Bo"), (CY, "Cy")])


def assert_no_address_of_another(letters: list[Sent]) -> None:
    for letter in letters:
        others = {ANN, BO, CY, "bo2@example.org"} - {letter.to}
        assert not any(address in letter.text for address in others), letter


@pytest.mark.parametrize("who", ["Bo", "bo", "2", BO, "BO@EXAMPLE.ORG"])
def test_a_player_is_named_by_email_name_or_seat_number(sm, who):
    change = run(sm, gm.set_money, who, 5, "compensation")
    assert [p.money for p in sm.game().engine.view(sm.game().state, None).players][1] == 5
    assert change.summary == "money of Bo set to 5" and change.why == "compensation"


def test_set_money_tells_the_player_the_amount_with_a_fresh_status(sm):
    count = len(sm.outbox())
    change = run(sm, gm.set_money, "Bo", 5, "compensation")
    letters = sent_since(sm, count)
    assert {(s.to, s.kind) for s in letters} == {(ANN, "status"), (BO, "status")}
    to_bo = next(s for s in letters if s.to == BO)
    assert "set your money to 5" in to_bo.text and "compensation" in to_bo.text
    assert "changed your money" not in to_bo.text  # told once, with the amount
    to_ann = next(s for s in letters if s.to == ANN)
    assert "changed Bo's money" in to_ann.text and "set your money" not in to_ann.text
    assert "Player 2" not in to_ann.text
    assert set(change.told) == {ANN, BO}
    assert_no_address_of_another(letters)


def test_deadline_is_told_with_a_status_showing_the_new_deadline(sm):
    count = len(sm.outbox())
    run(sm, gm.deadline, 48.0, "skip", "holiday season")
    letters = sent_since(sm, count)
    assert {s.to for s in letters} == {ANN, BO} and {s.kind for s in letters} == {"status"}
    at = sm.game().row.deadline_at.strftime("%Y-%m-%d %H:%M UTC")
    for letter in letters:
        assert "deadline to 48 hours" in letter.text and "holiday season" in letter.text
        assert at in letter.text and "miss their turn" in letter.text
        # Every status says it beside the time, not only the email that set it.
        assert f"Deadline: {at}; then whoever has not answered misses the turn." in " ".join(
            letter.text.split()
        )


def test_a_deadline_and_a_resend_are_not_told_again_in_the_next_status(sm):
    # Found in play-testing: the next status listed every earlier deadline beside the new one.
    run(sm, gm.deadline, 24.0, None, None)
    run(sm, gm.deadline, 48.0, None, None)
    run(sm, gm.resend, "Ann", "lost in the spam folder")
    count = len(sm.outbox())
    assert sm.mail(ANN, "HIRE 0").status == "accepted"
    for letter in sent_since(sm, count):
        assert "deadline to" not in letter.text and "status again" not in letter.text


@pytest.mark.parametrize("hours", [-5.0, 0.0, float("nan"), float("inf"), 1e20])
def test_a_deadline_that_is_not_a_number_of_hours_is_refused(sm, hours):
    with pytest.raises(gm.GmError):
        run(sm, gm.deadline, hours, None, None)
    assert sm.game().row.deadline_hours is None


def test_resend_records_and_tells_the_reason(sm):
    count = len(sm.outbox())
    run(sm, gm.resend, "1", "lost in the spam folder")
    letters = sent_since(sm, count)
    assert [(s.to, s.kind) for s in letters] == [(ANN, "status")]
    assert "lost in the spam folder" in letters[0].text
    assert letters[0].subject.startswith(f"[{sm.id}] Your status again")  # nothing changed
    with Session(sm.engine) as session:
        entry = last_history(session, sm.id, 1)[-1]
    assert (entry.summary, entry.why) == ("status resent to Ann", "lost in the spam folder")


def test_a_status_resent_to_one_player_tells_what_happened_since_they_last_wrote(sm):
    # Found in play-testing: Bo's resent status had the board, but not Ann's hire nor her talk,
    # which the status he lost had told.
    assert sm.mail(ANN, "HIRE 0").status == "accepted"
    assert sm.mail(BO, "HIRE 0").status == "accepted"
    assert sm.mail(ANN, "SAY Good luck, Bo\nREFRESH\nHIRE 1").status == "accepted"
    count = len(sm.outbox())
    run(sm, gm.resend, "Bo", "lost in the spam folder")
    [letter] = sent_since(sm, count)
    told = " ".join(letter.text.split())
    assert letter.to == BO and "The game master sent you the status again" in told
    assert "Ann refreshed the agency" in told and "Ann hired #" in told
    assert "Ann says: Good luck, Bo" in told
    assert told.count("Ann hired #") == 1  # not Ann's first hire, told before Bo last wrote
    assert "You hired" not in told


def test_undo_says_where_the_game_went_back_to_in_the_players_words(bt):
    for seat, address in enumerate((ANN, BO, CY)):
        loaded = bt.game()
        orders = order_text(loaded.engine.default_actions(loaded.state, seat))
        assert bt.mail(address, orders).status != "rejected"
    assert bt.game().state.phase == 2
    count = len(bt.outbox())
    run(bt, undoing.undo, None, "Cy's email was garbled")
    letters = sent_since(bt, count)
    assert {s.to for s in letters} == {ANN, BO, CY}
    for letter in letters:
        assert letter.kind == "status"
        assert "moved the game back to round 1, phase 1" in letter.text
        assert "history entry" not in letter.text and "Cy's email was garbled" in letter.text


def test_undo_tells_the_player_whose_turn_it_is_back_at_your_turn(sm):
    # Found in play-testing: Bo read "moved the game back to Bo's turn".
    assert sm.mail(ANN, "HIRE 0").status == "accepted"
    count = len(sm.outbox())
    run(sm, undoing.undo, None, "misclick")
    told = {s.to: " ".join(s.text.split()) for s in sent_since(sm, count)}
    assert "The game master moved the game back to your turn." in told[ANN]
    assert "The game master moved the game back to Ann's turn." in told[BO]


def test_history_marks_what_an_undo_took_back(sm):
    assert sm.mail(ANN, "HIRE 0").status == "accepted"
    run(sm, undoing.undo, None, "misclick")
    count = len(sm.outbox())
    assert sm.mail(BO, "HISTORY").status == "accepted"
    [reply] = sent_since(sm, count)
    text = re.sub(r"\n {18}(?=\S)", " ", reply.text)  # an entry's wrapped lines joined again
    lines = text[text.index("History (") :].splitlines()
    [hired] = [line for line in lines if "  Ann hired" in line]
    assert hired.endswith("[undone]")
    assert not any(line.endswith("[undone]") for line in lines if "moved the game back" in line)


def test_replace_takes_back_the_sealed_order_of_the_seats_old_holder(bt):
    # Found in play-testing: Ann's bid stayed on file and was revealed as Gus's.
    assert bt.mail(ANN, "BID 3 3 2").status == "accepted"
    assert 0 not in bt.game().engine.awaiting(bt.game().state)
    change = run(bt, gm.replace, "Ann", "gus@example.org:Gus", None)
    assert change.summary.endswith("passed to Gus; the order on file taken back")
    assert 0 in bt.game().engine.awaiting(bt.game().state)
    [welcome] = [s for s in sent_since(bt, 0) if s.to == "gus@example.org"]
    assert "Sealed bid: none on file" in welcome.text
    told = " ".join(welcome.text.split())  # long lines are wrapped: read as words
    assert "The order Ann had on file was taken back: the seat's orders for this" in told
    # The others learn why the phase waits again (play-testing: they were not told).
    for other in (BO, CY):
        notice = [s for s in sent_since(bt, 0) if s.to == other][-1].text
        assert "gave Ann's seat to Gus. The order Ann had on file was taken back: the phase" in (
            " ".join(notice.split())
        )
        assert "waits for Gus's." in notice


def test_what_a_seats_earlier_holder_did_is_told_by_their_name_after_a_replace(bt):
    # Found in play-testing: the next status said "Bea is back" for Bo's BACK, sent before the
    # game master gave Bea his seat, and Bea read it as "You are back".
    bea = "bea@example.org"
    assert bt.mail(BO, "AWAY 5 days").status == "accepted"
    assert bt.mail(BO, "BACK").status == "accepted"
    count = len(bt.outbox())
    run(bt, gm.replace, "Bo", f"{bea}:Bea", None)
    # Told at once: the others' statuses and Bea's welcome tell what came before the takeover.
    statuses = sent_since(bt, count)
    for player in (ANN, CY, bea):
        news = " ".join(next(s for s in statuses if s.to == player).text.split())
        assert "Bo is back: Bo plays their own turns again." in news, news
        assert "Bea is back" not in news and "You are back" not in news
        took_over = "gave Bo's seat" if player != bea else "You take over the seat of Bo"
        assert news.index("Bo is back") < news.index(took_over), news
    assert_no_address_of_another(statuses)
    # And once: not again in the next status.
    count = len(bt.outbox())
    for player in (ANN, CY, bea):
        assert bt.mail(player, "BID 0").status == "accepted"
    for letter in sent_since(bt, count):
        assert "is back" not in letter.text and "Bo's seat" not in letter.text


def latest_entry(game: Table) -> int:
    with Session(game.engine) as session:
        return last_history(session, game.id, 1)[-1].seq


def test_a_finished_game_takes_no_override_but_a_resend(sm):
    # Found in play-testing: `gm deadline` and `gm replace` on a finished game mailed everyone.
    for _ in range(500):
        if not sm.play_default_turn():
            break
    count, entry = len(sm.outbox()), latest_entry(sm)
    for command, *args in (
        (gm.order, "Ann", "HIRE 0"),
        (gm.set_money, "Ann", 5),
        (gm.set_value, "Ann", "Wolf", 5),
        (gm.replace, "Bo", "bo2@example.org:Bobby"),
        (gm.remove, "Bo"),
        (gm.back, "Ann"),
        (gm.pause,),
        (gm.deadline, 5.0, None),
    ):
        with pytest.raises(gm.GmError, match=f"^{sm.id} is over: its final result stands"):
            run(sm, command, *args, None)
    with pytest.raises(gm.GmError, match=f"^{sm.id} is over: .*`pbem gm undo` to an entry"):
        run(sm, gm.pause, None, True)  # resume
    assert (len(sm.outbox()), latest_entry(sm)) == (count, entry)
    # The final result again, to a player who lost it, still makes sense.
    run(sm, gm.resend, "Ann", "lost it")
    [again] = sent_since(sm, count)
    assert again.to == ANN and again.subject.endswith("Your status again · Final result")


def test_replace_takes_a_name_and_tells_everyone_by_name(bt):
    old_secret = bt.secret(BO)
    count = len(bt.outbox())
    change = run(bt, gm.replace, "Bo", "bo2@example.org:Bobby", "Bo moved abroad")
    seat = bt.game().seat(1)
    assert (seat.address, seat.name, seat.kind) == ("bo2@example.org", "Bobby", "human")
    assert seat.secret != old_secret
    letters = sent_since(bt, count)
    assert {s.to for s in letters} == {ANN, CY, BO, "bo2@example.org"}
    for other in (s for s in letters if s.to in (ANN, CY)):
        assert "gave Bo's seat to Bobby" in other.text and "Bo moved abroad" in other.text
    old = next(s for s in letters if s.to == BO)
    assert "no longer" in old.subject and "Bo moved abroad" in old.text
    # Found in play-testing: the subject ended "· Round 1 · Phase 1", no news to one who left.
    assert old.subject == f"[{bt.id}] You no longer play in this game"
    welcome = next(s for s in letters if s.to == "bo2@example.org")
    assert welcome.kind == "status" and "Welcome" in welcome.subject
    assert seat.secret in welcome.text and "take over the seat of Bo" in welcome.text
    assert_no_address_of_another(letters)
    assert change.summary == "seat 2 (Bo) passed to Bobby"


TALK_RULE = "Talk with SAY is public: every player reads it"


@pytest.mark.parametrize("press", ["all", "none"])
def test_the_newcomers_welcome_names_the_players_and_how_to_talk_as_at_the_start(db_engine, press):
    # Found in play-testing: the welcome of a player who took over a seat named nobody and
    # did not say how to talk to the others, which the start's welcome says.
    bt = Named(db_engine, "bigtime", [(ANN, "Ann"), (BO, "Bo"), (CY, "Cy")], press=press)
    [start] = [s for s in sent_since(bt, 0) if s.to == ANN]
    # A bullet's wrapped lines joined again: the sentences as they are told.
    start = replace(start, text=re.sub(r"\n {4}(?=\S)", " ", start.text))
    count = len(bt.outbox())
    run(bt, gm.replace, "Bo", "bo2@example.org:Bobby", None)
    [welcome] = [s for s in sent_since(bt, count) if s.to == "bo2@example.org"]
    welcome = replace(welcome, text=re.sub(r"\n {4}(?=\S)", " ", welcome.text))
    assert "Players: Ann, Bobby (you), Cy." in welcome.text
    assert "Reply to this email to send your orders; HELP lists them." in welcome.text
    assert (TALK_RULE in welcome.text) == (press != "none") == (TALK_RULE in start.text)
    if press != "none":  # the start's very words, not a copy that may drift from them
        rule = next(line for line in start.text.splitlines() if TALK_RULE in line)
        assert rule.split(TALK_RULE)[1] in welcome.text
    assert_no_address_of_another([welcome])


@pytest.mark.parametrize("last", ["newcomer", "others"])
def test_the_newcomer_is_told_the_takeover_once_not_again_in_the_next_status(bt, last):
    # Found in play-testing: the status after the welcome told the newcomer again "You take
    # over the seat of Bo ... (at the end of this email)".
    run(bt, gm.replace, "Bo", "bo2@example.org:Bobby", None)
    players = [ANN, CY, "bo2@example.org"]
    if last == "others":  # the newcomer's reply does not resolve the phase: a status follows
        players = players[::-1]
    count = len(bt.outbox())
    for player in players:
        assert bt.mail(player, "BID 0").status == "accepted"
    letters = sent_since(bt, count)
    news = next(s for s in reversed(letters) if s.to == "bo2@example.org")
    assert "Round 1 · Phase 2" in news.subject and "take over the seat" not in news.text
    for other in (ANN, CY):  # the others were told it at once (with the board), not again
        told = next(s for s in reversed(letters) if s.to == other).text
        assert "gave Bo's seat to Bobby" not in told
    # Nor is it lost: the newcomer's HISTORY tells it.
    count = len(bt.outbox())
    assert bt.mail("bo2@example.org", "HISTORY").status == "accepted"
    assert "You take over the seat of Bo" in sent_since(bt, count)[0].text


def test_the_newcomer_is_not_told_the_earlier_holders_absence_as_if_it_went_on(db_engine):
    # Found in play-testing: Bo went away, the game master gave the seat to a newcomer who kept
    # Bo's name, and the newcomer's next status said "Bo is away until ...; the moderator plays
    # the default orders for Bo meanwhile": their own seat, to their eyes.
    bt = Named(db_engine, "bigtime", [(ANN, "Ann"), (BO, "Bo"), (CY, "Cy")], deadline_hours=48)
    assert bt.mail(BO, "AWAY 3 days").status == "accepted"
    count = len(bt.outbox())
    run(bt, gm.replace, "Bo", "bo2@example.org", None)
    welcome = sent_since(bt, count)  # the news is told at once, the newcomer's in the welcome
    for player in (ANN, CY, "bo2@example.org"):
        assert bt.mail(player, "BID 0").status == "accepted"
    letters = sent_since(bt, count)
    for news in (s for s in letters if s.to == "bo2@example.org"):
        assert "is away" not in news.text, news.text
    assert "Round 1 · Phase 2" in news.subject
    for other in (ANN, CY):  # the others read both, in order: it started, and it ended
        told = " ".join(next(s for s in welcome if s.to == other).text.split())
        away, ended = told.find("Bo is away until"), told.find("Bo's absence (until")
        assert 0 <= away < ended, told


def test_a_sealed_order_the_game_master_entered_is_in_the_summary_not_in_others_history(bt):
    # The summary keeps the lines, so `pbem history` and the transcript have them (play-testing:
    # "orders for Bo" alone did not replay); the players' HISTORY tells its events only.
    change = run(bt, gm.order, "Bo", "BID 3 3 2\nAM A2 A1", "Bo phoned")
    assert change.summary == "orders for Bo: BID 3 3 2 / AM A2 A1"
    count = len(bt.outbox())
    assert bt.mail(ANN, "HISTORY").status == "accepted"
    told = sent_since(bt, count)[0].text
    assert "The game master entered orders for Bo. (why: Bo phoned)" in told
    assert "BID 3 3 2" not in told and "A2 A1" not in told


def test_a_status_sent_again_to_one_player_leaves_no_line_in_the_others_history(bt):
    # Found in play-testing: Cy's HISTORY read "The game master: changed the game (why: Bo lost
    # the email)" for a status sent again to Bo, which changed nothing.
    run(bt, gm.resend, "Bo", "Bo lost the email")
    for reader, line in ((BO, "The game master sent you the status again."), (CY, None)):
        count = len(bt.outbox())
        assert bt.mail(reader, "HISTORY").status == "accepted"
        # Long lines are wrapped: read as words.
        told = " ".join(sent_since(bt, count)[0].text.split())
        assert "changed the game" not in told
        assert ("Bo lost the email" in told) == (line is not None)
        assert line is None or line in told


def test_replace_refuses_an_address_already_seated_and_changes_nothing(bt):
    with pytest.raises(gm.GmError, match="already plays seat 1"):
        run(bt, gm.replace, "Bo", "ANN@example.org", None)
    assert bt.game().seat(1).address == BO


def test_replace_fixing_a_mistake_names_the_seat_not_the_address(bt):
    change = run(bt, gm.replace, "Bo", "bo2@example.org", None)
    # Found in play-testing: "seat 2 (Bo) passed to Bo" read as if nothing had happened.
    assert change.summary == "seat 2 (Bo) passed to a new player, who keeps the name Bo"
    run(bt, gm.replace, "2", "bo3@example.org:Bo", "typo")
    assert [s.address for s in bt.game().seats] == [ANN, "bo3@example.org", CY]


def test_remove_tells_everyone_by_name_and_a_computer_seat_cannot_be_removed(bt):
    count = len(bt.outbox())
    run(bt, gm.remove, "Bo", "left the hobby")
    letters = sent_since(bt, count)
    told = [s for s in letters if s.to in (ANN, CY)]
    assert {s.to for s in told} == {ANN, CY}
    assert all("removed Bo from the game" in s.text for s in told)
    assert any(s.to == BO and "no longer" in s.subject for s in letters)
    assert_no_address_of_another(letters)
    with pytest.raises(gm.GmError, match="already played by the computer"):
        run(bt, gm.remove, "2", None)
    assert bt.game().seat(1).name == "Bo (computer)"


def test_pause_and_resume_are_told_with_the_reason(sm):
    count = len(sm.outbox())
    run(sm, gm.pause, "server move")
    letters = sent_since(sm, count)
    assert {(s.to, s.kind) for s in letters} == {(ANN, "gm"), (BO, "gm")}
    assert all("paused the game" in s.text and "server move" in s.text for s in letters)
    # Resumed, each player gets one email, not a notice and then a status that tells it again.
    count = len(sm.outbox())
    run(sm, gm.pause, "moved", True)
    letters = sent_since(sm, count)
    assert sorted((s.to, s.kind) for s in letters) == [(ANN, "status"), (BO, "status")]
    assert all("resumed the game" in s.text for s in letters)
    assert all("The game master's reason: moved" in s.text for s in letters)


WATCHER = "fan@example.net"


def test_watchers_are_told_of_a_pause_as_of_its_end(sm):
    # Found in play-testing: the watchers read "Game resumed" of a pause they were never told.
    sm.mail(WATCHER, f"WATCH {sm.id}", to=SETTINGS.address, subject="watch")
    for resume in (False, True):
        count = len(sm.outbox())
        run(sm, gm.pause, "holidays", resume)
        [told] = [s for s in sent_since(sm, count) if s.to == WATCHER]
        assert ("resumed the game" if resume else "paused the game") in told.text
        assert told.subject.startswith(
            f"[{sm.id}] Game resumed · " if resume else f"[{sm.id}] Game paused"
        )


def _subjects(game: Table, count: int) -> list[str]:
    return [read_email(row.raw).subject for row in game.outbox()[count:]]


def test_a_paused_game_says_so_in_its_subjects_and_refusals(sm, bt):
    count = len(sm.outbox())
    run(sm, gm.pause, "server move")
    assert set(_subjects(sm, count)) == {f"[{sm.id}] Game paused"}
    count = len(sm.outbox())
    sm.mail(ANN, "HIRE 0")
    assert _subjects(sm, count) == [f"[{sm.id}] Not carried out · Game paused"]
    assert "paused until the game master resumes it" in sent_since(sm, count)[0].text
    count = len(sm.outbox())
    run(sm, gm.pause, "moved", True)
    assert f"[{sm.id}] Game resumed · Your turn" in _subjects(sm, count)
    # A Big Time! subject keeps its phase, by which an answer is judged stale.
    count = len(bt.outbox())
    run(bt, gm.pause, None)
    assert set(_subjects(bt, count)) == {f"[{bt.id}] Game paused · Round 1 · Phase 1"}


def test_a_seat_the_computer_plays_can_be_given_to_a_person(bt):
    run(bt, gm.remove, "Bo", None)
    computer = bt.game().seat(1).address
    assert any(r.to_address == computer and r.status == "pending" for r in bt.outbox())
    count = len(bt.outbox())
    run(bt, gm.replace, "2", "dee@example.org:Dee", "a new player joined")
    seat = bt.game().seat(1)
    assert (seat.address, seat.name, seat.kind, seat.bot_name) == (
        "dee@example.org",
        "Dee",
        "human",
        None,
    )
    letters = sent_since(bt, count)
    assert {s.to for s in letters} == {ANN, CY, "dee@example.org"}  # no mail to the computer
    assert all("gave Bo's seat to Dee" in s.text for s in letters if s.to != seat.address)
    # What the computer player had not read yet is never sent to its unroutable address.
    assert all(r.status != "pending" for r in bt.outbox() if r.to_address == computer)


def test_a_transcript_gm_entry_takes_the_same_words(sm):
    from pbem.cli.gm_entries import GmEntryError, run_gm_entry

    with session_scope(sm.engine) as session:
        run_gm_entry(Desk(session, SETTINGS), sm.id, "set-money Bo 5 --why 'a fix'")
        run_gm_entry(Desk(session, SETTINGS), sm.id, "deadline 12 --policy skip")
    row = sm.game().row
    assert (row.deadline_hours, row.policy) == (12.0, "skip")
    for bad in ("deadline -- -5", "deadline", "deadline soon", "remove Zed"):
        with pytest.raises(GmEntryError), session_scope(sm.engine) as session:
            run_gm_entry(Desk(session, SETTINGS), sm.id, bad)
