"""Message in, outbox out: one email, one transaction, the right replies."""

from __future__ import annotations

import re
from collections.abc import Callable
from email import message_from_bytes, policy

from sqlmodel import Session, col, select

from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.orders.incoming import read_email
from pbem.store import QueuedOrderRow, last_history, session_scope
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table
from tests.moderator.test_archive_mail import finish
from tests.support.letters import letter_text


def _sm(table: Callable[..., Table]) -> Table:
    return table("showmanager", [ANN, BO], seed=7, first_player=ANN)


def test_start_sends_each_player_a_welcome_with_a_reply_address_carrying_the_secret(table):
    game = _sm(table)
    welcome = [r for r in game.outbox() if r.kind == "status"]
    assert sorted(r.to_address for r in welcome) == [ANN, BO]
    first = read_email(welcome[0].raw)
    assert first.subject == f"[{game.id}] Welcome · Your turn"
    assert first.reply_to == f"pbem+{game.id}.{game.secret(welcome[0].to_address)}@example.org"


def test_same_message_twice_has_no_second_effect(table):
    game = _sm(table)
    raw = game.email(ANN, "HIRE 0")
    assert game.send(raw).status == "accepted"
    sent = len(game.outbox())
    state = game.game().row.state
    assert game.send(raw).status == "duplicate"
    assert len(game.outbox()) == sent
    assert game.game().row.state == state


def test_one_bad_line_rejects_the_whole_email(table):
    game = _sm(table)
    before = game.game().row.state
    result = game.mail(ANN, "REFRESH\nHIRE 0\nHIRE 1")
    assert result.status == "rejected"
    assert game.game().row.state == before
    reply = letter_text(game.outbox()[-1].raw)
    assert "not carried out" in reply or "nothing in the game changed" in reply


def test_a_line_that_does_not_read_is_told_with_what_the_rules_say_of_the_lines_before_it(table):
    # Found in play-testing: "BID 9 9 9" beside a misspelt act was told only of the act, and the
    # mended email was refused again for the bid.
    bt = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=3)
    before = bt.game().row.state
    result = bt.mail(ANN, "BID 9 9 9\nAM Z9")
    assert _lines_told(result.reason) == ['line 1 "BID 9 9 9"', 'line 2 "AM Z9"']
    assert "you cannot bid 9 9 9" in result.reason and bt.game().row.state == before
    # A line after one that does not read may lean on it, and is not judged; nor is the email
    # as a whole (its BID may be the line that did not read).
    assert _lines_told(bt.mail(ANN, "AM Z9\nBID 9 9 9").reason) == ['line 1 "AM Z9"']
    assert _lines_told(bt.mail(ANN, "BIDD 3\nAM A1").reason) == ['line 1 "BIDD 3"']
    sm = _sm(table)
    result = sm.mail(ANN, "LOAN WOLF 5\nHIRE 7")
    assert result.reason.startswith('line 1 "LOAN WOLF 5": you have no production of Wolf')
    assert '; line 2 "HIRE 7": there is no slot 7' in result.reason


def _lines_told(reason: str) -> list[str]:
    return re.findall(r'line \d+ "[^"]*"', reason)


def test_from_alone_never_authenticates(table):
    game = _sm(table)
    before = game.game().row.state
    result = game.mail(ANN, "HIRE 0", to=SETTINGS.address, subject=f"[{game.id}] orders")
    assert result.status == "rejected"
    assert game.game().row.state == before


def test_subject_tag_with_password_line_authenticates(table):
    game = _sm(table)
    body = f"PASSWORD {game.secret(ANN)}\nHIRE 0"
    result = game.mail(ANN, body, to=SETTINGS.address, subject=f"Re: [{game.id}] Your turn")
    assert result.status == "accepted"


def test_the_game_named_in_the_text_with_a_password_line_authenticates(table):
    game = _sm(table)
    body = f"[{game.id}]\nPASSWORD {game.secret(ANN)}\nHIRE 0"
    result = game.mail(ANN, body, to=SETTINGS.address, subject="my orders")
    assert result.status == "accepted"


def test_a_wrong_password_for_a_named_game_is_told_and_tells_nothing_of_the_game(table):
    game = _sm(table)
    before = game.game().row.state
    answers = []
    for named in (game.id, "sm-999"):  # a game that exists, and one that does not
        subject = f"Re: Re: [{named}] Your turn"
        result = game.mail(ANN, "PASSWORD wrong1\nHIRE 0", to=SETTINGS.address, subject=subject)
        assert (result.status, result.reason) == ("rejected", "wrong password")
        answer = game.outbox()[-1]
        assert answer.kind == "stranger" and answer.to_address == ANN
        assert read_email(answer.raw).subject == f"Re: [{named}] Your turn"
        told = letter_text(answer.raw).replace(named, "GAME")
        kept = "\n".join(line for line in told.splitlines() if set(line) != {"="})
        answers.append(" ".join(kept.split()))  # long lines are wrapped: read as words
    text = answers[0]
    assert "names game GAME, but its password" in text and "could not be matched" not in text
    # Whether the game exists, who plays it and where it stands are not told.
    assert answers[0] == answers[1]
    assert "Bo" not in text and BO not in text and "Turn:" not in text
    assert game.game().row.state == before


def test_a_plus_address_with_a_wrong_secret_is_told_as_a_wrong_password(table):
    game = _sm(table)
    to = SETTINGS.address.replace("@", f"+{game.id}.nosuch@")
    result = game.mail(ANN, "HIRE 0", to=to)
    assert (result.status, result.reason) == ("rejected", "wrong password")
    # Long lines are wrapped: read as words.
    told = " ".join(letter_text(game.outbox()[-1].raw).split())
    assert f"names game {game.id}, but its password" in told


def test_a_former_player_is_told_they_no_longer_play_not_that_the_password_is_wrong(table):
    game = table("bigtime", [ANN, BO, CY], seed=3)
    # Each one's old reply address, which their mail client still answers.
    old = {
        who: SETTINGS.address.replace("@", f"+{game.id}.{game.secret(who)}@")
        for who in (ANN, BO, CY)
    }
    with session_scope(game.engine) as session:
        gm.replace(Desk(session, SETTINGS), game.id, ANN, "dee@example.org:Dee", "moving house")
    with session_scope(game.engine) as session:
        gm.remove(Desk(session, SETTINGS), game.id, BO, None)
    assert game.mail(CY, "RESIGN").status == "accepted"
    with Session(game.engine) as session:
        day = last_history(session, game.id, 1)[0].at.strftime("%Y-%m-%d")
    told = {
        ANN: "the game master gave your seat to another player on",
        BO: "the game master removed you from the game on",
        CY: "you resigned on",
    }
    before = game.game().row.state
    for who, how in told.items():
        result = game.mail(who, "BID 3 2 1", to=old[who], subject=f"Re: [{game.id}] Round 1")
        assert (result.status, result.reason) == ("rejected", "wrong password")
        answer = game.outbox()[-1]
        assert (answer.kind, answer.to_address) == ("stranger", who)
        text = " ".join(letter_text(answer.raw).split())
        assert f"You no longer play in {game.id}: {how} {day}" in text
        assert f"write WATCH {game.id} to {SETTINGS.address}" in text
        assert "password" not in text.lower() and "dee@example.org" not in text
    assert game.game().row.state == before
    # Someone who never played is still told the password is wrong.
    game.mail("eve@example.org", "BID 3 2 1", to=old[ANN])
    assert "but its password" in " ".join(letter_text(game.outbox()[-1].raw).split())


def test_a_secret_from_another_address_is_accepted_and_copied_to_the_seat(table):
    game = _sm(table)
    raw = game.email(ANN, "HIRE 0").replace(f"From: {ANN}".encode(), b"From: ann@work.example")
    assert game.send(raw).status == "accepted"
    replies = [r.to_address for r in game.outbox() if r.kind == "reply"]
    assert replies == ["ann@work.example", ANN]


def test_one_games_secret_never_acts_in_another_game(table):
    first = _sm(table)
    second = _sm(table)
    stolen = f"pbem+{second.id}.{first.secret(ANN)}@example.org"
    if first.secret(ANN) in (second.secret(ANN), second.secret(BO)):
        return  # the two games drew the same secret by chance; nothing to test
    before = second.game().row.state
    assert second.mail(ANN, "HIRE 0", to=stolen).status == "rejected"
    assert second.game().row.state == before


def test_one_seats_secret_orders_only_for_that_seat(table):
    game = _sm(table)
    bo_address = f"pbem+{game.id}.{game.secret(BO)}@example.org"
    result = game.mail(ANN, "HIRE 0", to=bo_address)
    # Bo's secret acts for Bo's seat, whoever sends it, and Bo's turn has not come: queued.
    assert result.status == "queued"
    assert game.game().engine.awaiting(game.game().state) == (0,)


def test_mail_from_machines_gets_no_reply(table):
    game = _sm(table)
    sent = len(game.outbox())
    machine_headers = [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"List-Id": "<players.example.org>"},
        {"Return-Path": "<>"},
    ]
    for headers in machine_headers:
        assert game.mail(ANN, "HIRE 0", headers=headers).status == "ignored"
    assert (
        game.mail(
            "MAILER-DAEMON@example.org",
            "HIRE 0",
            to=f"pbem+{game.id}.{game.secret(ANN)}@example.org",
        ).status
        == "ignored"
    )
    assert len(game.outbox()) == sent


def test_strangers_get_a_few_replies_an_hour_at_most(table):
    game = _sm(table)
    for _ in range(6):
        game.mail("stranger@example.net", "hello", to=SETTINGS.address, subject="hi")
    strangers = [r for r in game.outbox() if r.to_address == "stranger@example.net"]
    assert len(strangers) == 3


def test_an_email_without_orders_is_answered_with_help_and_rejected(table):
    game = _sm(table)
    assert game.mail(ANN, "Thanks for running this!").status == "rejected"
    answer = letter_text(game.outbox()[-1].raw)
    assert "HIRE" in answer
    # The answer shows the board too: whatever a player answers, the newest email has it.
    assert "Show Manager (standard game). Turn:" in answer


def test_an_email_that_only_asks_is_answered_with_what_it_asked_not_as_orders_carried_out(table):
    # Play-testing: `status` alone was answered "Your orders were carried out.", though STATUS,
    # HISTORY and HELP change nothing.
    game = _sm(table)
    state = game.game().row.state
    asked = {
        "status": "Here is your status.",
        "history please": "Here is the game's history.",
        "HELP\nSTATUS\nHISTORY": "Here is the list of orders, the game's history and your status.",
    }
    for body, headline in asked.items():
        assert game.mail(BO, body).status == "accepted"
        reply = letter_text(game.outbox()[-1].raw)
        assert headline in reply and "Your orders were carried out" not in reply
    assert game.game().row.state == state
    # Orders with STATUS are orders: their answer says so, as before.
    assert game.mail(ANN, "HIRE 0\nSTATUS").status == "accepted"
    reply = next(r for r in reversed(game.outbox()) if r.to_address == ANN)
    assert "Your orders were carried out." in letter_text(reply.raw)


def test_early_order_waits_for_the_turn_and_is_applied_then(table):
    game = _sm(table)
    assert game.mail(BO, "HIRE 0").status == "queued"
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    loaded = game.game()
    view = loaded.engine.view(loaded.state, None)
    assert [p.hand_size for p in view.players] == [1, 1]
    assert loaded.engine.awaiting(loaded.state) == (0,)


def test_big_time_phase_resolves_when_every_bid_is_in(table):
    game = table("bigtime", [ANN, BO, CY], seed=3)
    assert game.mail(ANN, "BID 0").status == "accepted"
    assert game.mail(BO, "BID 0").status == "accepted"
    assert game.game().state.phase_key == "r1p1"
    assert game.mail(CY, "BID 0").status == "accepted"
    assert game.game().state.phase_key == "r1p2"
    # The others get the new status; Cy, whose bid resolved the phase, gets one email: the
    # reply with the new status, sent last so it is the newest Cy has.
    outbox = game.outbox()
    statuses = [r for r in outbox if r.kind == "status"]
    assert sorted(r.to_address for r in statuses[3:]) == [ANN, BO]
    assert read_email(statuses[-1].raw).subject == f"[{game.id}] Round 1 · Phase 2"
    to_cy = [r for r in outbox if r.to_address == CY]
    assert [r.kind for r in to_cy] == ["status", "reply"]
    assert read_email(to_cy[-1].raw).subject == f"[{game.id}] Round 1 · Phase 2"
    assert "Second Talent Buy" in letter_text(to_cy[-1].raw)


def test_a_big_time_email_replacing_the_order_on_file_says_what_no_longer_stands(table):
    # Found in play-testing: the earlier email's preferences were silently gone.
    game = table("bigtime", [ANN, BO], seed=3)
    codes = game.game().engine.codes(game.game().state)
    assert game.mail(ANN, "BID 3 3 1\nAM A3 A1\nPM P2\nHOOK " + codes["A1"]).status == "accepted"
    first = letter_text(game.outbox()[-1].raw)
    assert "replaces" not in first
    assert game.mail(ANN, "BID 3 2\nPM P1").status == "accepted"
    said = " ".join(letter_text(game.outbox()[-1].raw).split())
    am, pm = f"AM {codes['A3']} {codes['A1']}", f"PM {codes['P2']}"
    assert (
        f"This email replaces your earlier orders for round 1, phase 1 (BID 3 3 1 / {am} / {pm}): "
        f"your earlier preferences ({am}) no longer stand, as this email does not repeat them."
    ) in said
    assert f"Your Hook choice (HOOK {codes['A1']}) still stands" in said
    # Phase 2: Headliner preferences go with the BID, and are replaced with it.
    assert game.mail(BO, "BID 0").status == "accepted"
    assert game.mail(ANN, "BID 0\nHEADLINER H2 H1").status == "accepted"
    assert game.mail(ANN, "BID 0").status == "accepted"
    said = " ".join(letter_text(game.outbox()[-1].raw).split())
    codes = game.game().engine.codes(game.game().state)
    headliner = f"HEADLINER {codes['H2']} {codes['H1']}"
    assert f"your earlier preferences ({headliner}) no longer stand" in said
    # Phase 3: Headliner preferences on file from phase 2 are replaced by the phase's HEADLINER.
    assert game.mail(ANN, "BID 0\nHEADLINER H2").status == "accepted"
    assert game.mail(BO, "BID 0", subject=f"Re: [{game.id}] Round 1 · Phase 2").status == "accepted"
    assert game.game().state.phase == 3
    assert game.mail(ANN, "HEADLINER H1").status == "accepted"
    said = " ".join(letter_text(game.outbox()[-1].raw).split())
    assert f"This email replaces your earlier Headliner preferences (HEADLINER {codes['H2']})." in (
        said
    )
    to_bo = [letter_text(row.raw) for row in game.outbox() if row.to_address == BO]
    assert not any("replaces your earlier" in text for text in to_bo)  # the sender's alone


def test_an_order_sent_again_is_told_alone_in_the_next_status(table):
    # Found in play-testing: the status told both "Your order ... is on file: bid 3 2 2" and
    # "... is on file: bid 3 3 1", as if two orders stood for one phase.
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=3)
    assert game.mail(ANN, "BID 3 2 2\nHOOK T01").status == "accepted"
    assert game.mail(ANN, "BID 3 3 1\nHOOK T01").status == "accepted"
    assert game.mail(BO, "BID 0").status == "accepted"
    status = letter_text([r for r in game.outbox() if r.to_address == ANN][-1].raw)
    assert status.count("Your order for round 1, phase 1 is on file") == 1
    assert "bid 3 3 1" in status and "bid 3 2 2" not in status


def test_a_hire_by_slot_answering_an_older_email_is_refused_when_the_slot_changed(table):
    # Found in play-testing: Ann answered her welcome with HIRE 3 and was hired another card than
    # the one it showed in slot 3, with no word.
    game = table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=4, first_player=ANN)
    welcome = [row for row in game.outbox() if row.to_address == ANN][-1]
    shown = game.game().state.display[3]
    for player in (ANN, BO, CY):
        assert game.mail(player, "HIRE 0").status == "accepted"
    now = game.game().state.display[3]
    assert now != shown
    old = {"In-Reply-To": welcome.message_id}
    refused = game.mail(ANN, "HIRE 3", subject="Re: welcome", headers=old)
    assert refused.status == "rejected"
    assert refused.reason.startswith(f'line 1 "HIRE 3": the email you answered showed #{shown} ')
    assert f"slot 3 holds #{now} " in refused.reason and f"(HIRE #{now})" in refused.reason
    # A REFRESH before it hires blind, on purpose (ORDERS.md: whatever is in the slot then).
    subject = "Re: " + read_email(welcome.raw).subject
    assert game.mail(ANN, "REFRESH\nHIRE 3", subject=subject, headers=old).status == "accepted"


def test_big_time_email_for_a_resolved_phase_is_stale(table):
    game = table("bigtime", [ANN, BO], seed=3)
    old_subject = game.latest_subject(ANN)
    game.mail(ANN, "BID 0")
    game.mail(BO, "BID 0")
    before = game.game().row.state
    assert game.mail(ANN, "BID 0", subject=old_subject).status == "rejected"
    assert game.game().row.state == before
    refusal = game.outbox()[-1]
    assert "already been resolved" in letter_text(refusal.raw)
    # The refusal names the current phase and shows its board, so answering it works.
    assert read_email(refusal.raw).subject == f"[{game.id}] Not carried out · Round 1 · Phase 2"
    assert "Second Talent Buy" in letter_text(refusal.raw)
    answer = "Re: " + read_email(refusal.raw).subject
    assert game.mail(ANN, "BID 0", subject=answer).status == "accepted"


def test_an_answer_to_a_resolved_phase_is_stale_when_the_mail_client_changed_the_subject(table):
    game = table("bigtime", [ANN, BO], seed=3)
    phase_one = [r for r in game.outbox() if r.to_address == ANN and r.kind == "status"][-1]
    game.mail(ANN, "BID 0")
    game.mail(BO, "BID 0")
    before = game.game().row.state
    # The subject names no phase; the email it replies to (In-Reply-To) named phase 1.
    answer = {"In-Reply-To": read_email(phase_one.raw).message_id or ""}
    result = game.mail(ANN, "BID 0\nAM A1", subject="my bids", headers=answer)
    assert result.status == "rejected"
    assert game.game().row.state == before
    refusal = letter_text(game.outbox()[-1].raw)
    assert "this email answers round 1, phase 1, which has already been resolved" in refusal
    # Replying to the current phase's email is taken, whatever the subject says.
    current = [r for r in game.outbox() if r.to_address == ANN][-1]
    answer = {"In-Reply-To": read_email(current.raw).message_id or ""}
    assert game.mail(ANN, "BID 0", subject="my bids", headers=answer).status == "accepted"


def test_a_stale_email_is_told_only_that_it_is_stale_not_read_against_the_new_phase(table):
    game = table("bigtime", [ANN, BO], seed=3)

    def newest_subject(address: str) -> str:
        newest = [row for row in game.outbox() if row.to_address == address][-1]
        return "Re: " + read_email(newest.raw).subject

    def everyone_bids_nothing() -> None:
        for player in (ANN, BO):
            assert game.mail(player, "BID 0", subject=newest_subject(player)).status == "accepted"

    everyone_bids_nothing()  # phase 1
    phase_two = newest_subject(ANN)
    everyone_bids_nothing()
    assert game.game().state.phase == 3
    # A1 was an act of phase 2, which this email answers; phase 3 has only Headliners.
    assert "A1" not in game.game().engine.codes(game.game().state)
    assert game.mail(ANN, "BID 0\nAM A1", subject=phase_two).status == "rejected"
    refusal = letter_text(game.outbox()[-1].raw)
    assert "already been resolved" in refusal
    assert "is not an act" not in refusal
    assert "Final Talent Buy" in refusal


def test_the_answer_to_resign_carries_neither_the_seats_new_password_nor_its_address(table):
    game = table("bigtime", [ANN, BO, CY], seed=3)
    old_secret = game.secret(CY)
    assert game.mail(CY, "RESIGN").status == "accepted"
    seat = game.game().seats[2]
    assert seat.kind == "bot" and seat.secret != old_secret
    answer = [row for row in game.outbox() if row.to_address == CY][-1]
    mail = read_email(answer.raw)
    assert (answer.kind, mail.reply_to) == ("reply", None)
    assert mail.subject == f"[{game.id}] You left the game · Round 1 · Phase 1"
    parsed = message_from_bytes(answer.raw, policy=policy.default)
    parts = [part.get_content() for part in parsed.walk() if part.get_content_maintype() == "text"]
    assert len(parts) == 2  # the plain text and the HTML
    for part in parts:
        assert seat.secret not in part and old_secret not in part
        assert "your password" not in part.lower() and "Orders you could send" not in part
        assert "no longer counts as orders" in part
    # Answering that email reaches the moderator's bare address: refused, the computer plays on.
    before = game.game().row.state
    answer_subject = f"Re: {mail.subject}"
    result = game.mail(CY, "BID 0", to=SETTINGS.address, subject=answer_subject)
    assert result.status == "rejected"
    assert game.game().row.state == before


def test_resigning_on_ones_own_turn_is_not_answered_your_turn(table):
    game = _sm(table)
    assert game.game().state.turn == 0  # Ann's
    assert game.mail(ANN, "RESIGN").status == "accepted"
    answer = [row for row in game.outbox() if row.to_address == ANN][-1]
    subject = read_email(answer.raw).subject
    assert subject.startswith(f"[{game.id}] You left the game · ")
    assert "Your turn" not in subject and "Your turn" not in letter_text(answer.raw)


def test_a_second_early_email_takes_the_place_of_the_waiting_one(table):
    # Found in play-testing: both stayed waiting, and the second was played a whole round later.
    game = _sm(table)
    assert game.mail(BO, "REFRESH").status == "queued"
    assert game.mail(BO, "HIRE 1").status == "queued"
    # Long lines are wrapped: read as words.
    answer = " ".join(letter_text(game.outbox()[-1].raw).split())
    assert "take the place of your earlier ones that were waiting for your turn (REFRESH)" in answer
    assert game.mail(ANN, "HIRE 0").status == "accepted"  # Bo's turn comes: HIRE 1 is played
    loaded = game.game()
    assert loaded.engine.awaiting(loaded.state) == (0,)
    with Session(game.engine) as session:
        rows = session.exec(select(QueuedOrderRow).order_by(col(QueuedOrderRow.id))).all()
        assert [(r.lines, r.status, r.reason) for r in rows] == [
            ("REFRESH", "refused", "replaced by newer orders for the seat"),
            ("HIRE 1", "applied", ""),
        ]


def test_early_orders_are_not_played_for_the_seats_next_holder(table):
    # Found in play-testing: Bo's waiting HIRE was played for Bobby, who never sent it.
    game = _sm(table)
    assert game.mail(BO, "HIRE 1").status == "queued"
    with session_scope(game.engine) as session:
        change = gm.replace(Desk(session, SETTINGS), game.id, BO, "bobby@example.org:Bobby", None)
    assert change.summary.endswith("passed to Bobby; early orders set aside (HIRE 1)")
    assert game.mail(ANN, "HIRE 0").status == "accepted"  # Bobby's turn comes: nothing played
    loaded = game.game()
    assert loaded.engine.awaiting(loaded.state) == (1,)
    with Session(game.engine) as session:
        rows = session.exec(select(QueuedOrderRow)).all()
        assert [(r.lines, r.status, r.reason) for r in rows] == [
            ("HIRE 1", "refused", "the seat passed to another player before its turn"),
        ]


def test_early_orders_are_not_played_by_the_computer_player_that_takes_the_seat(table):
    game = _sm(table)
    assert game.mail(BO, "HIRE 1").status == "queued"
    assert game.mail(BO, "RESIGN").status == "accepted"
    with Session(game.engine) as session:
        rows = session.exec(select(QueuedOrderRow)).all()
        assert [(r.status, r.reason) for r in rows] == [
            ("refused", "the seat passed to another player before its turn"),
        ]
        resigned = last_history(session, game.id, 1)[-1]
        assert resigned.summary.endswith("early orders set aside (HIRE 1)")


def test_orders_written_in_the_subject_are_told_that_the_subject_is_not_read(table):
    game = _sm(table)
    assert game.mail(ANN, "\n", subject=f"Re: [{game.id}] HIRE 1").status == "rejected"
    answer = letter_text(game.outbox()[-1].raw)
    assert "Your email held no orders." in answer
    assert "Orders are read from the text of your email, not from its subject" in answer
    assert game.mail(ANN, "\n", subject=f"Re: [{game.id}] Your turn").status == "rejected"
    assert "not from its subject" not in letter_text(game.outbox()[-1].raw)


def test_a_correction_that_comes_after_the_turn_was_played_is_told_so(table):
    # Found in play-testing: "oops, I meant HIRE 2" was quietly kept for the next turn.
    game = _sm(table)
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    assert game.mail(ANN, "oops I meant\nHIRE 1").status == "queued"
    answer = letter_text(game.outbox()[-1].raw)
    assert "Your orders of your last turn (HIRE 0) had already been carried out" in answer
    assert "ask the game master, who can undo it" in answer
    other = _sm(table)
    assert other.mail(BO, "REFRESH").status == "queued"  # early, but Bo played no turn yet
    assert "had already been carried out" not in letter_text(other.outbox()[-1].raw)


def test_orders_written_under_the_quote_are_told_where_reading_stopped(table):
    # Found in play-testing: a bottom-posted reply got "held no orders" and HELP, with no reason.
    game = table("bigtime", [ANN, BO], seed=3)
    header = "On Thursday, 3 December 2026 at 08:00, PBEM moderator <pbem@example.org> wrote:"
    body = f"{header}\n> -- write your orders above this line --\n> Welcome\n\nBDI 3 2 2\nthx\n"
    assert game.mail(ANN, body).status == "rejected"
    # Long lines are wrapped: read as words.
    answer = " ".join(letter_text(game.outbox()[-1].raw).split())
    assert "Your email held no orders." in answer
    assert f'Reading stopped at line 1 ("{header[:59]}…")' in answer
    assert "Write your orders above that line." in answer
    # Chatter under a signature is no order: nothing to point at.
    assert game.mail(ANN, "Hello all!\n-- \nAnn, from her phone\n").status == "rejected"
    assert "Reading stopped" not in letter_text(game.outbox()[-1].raw)


def test_quoted_status_email_under_a_reply_is_not_read_as_orders(table):
    game = _sm(table)
    body = "HIRE 0\n\nOn Tue, 1 Dec 2026, pbem <pbem@example.org> wrote:\n> HIRE 1\n> REFRESH\n"
    assert game.mail(ANN, body).status == "accepted"
    assert game.game().engine.awaiting(game.game().state) == (1,)


def test_early_order_illegal_when_its_turn_comes_is_refused_and_the_turn_waits(table):
    game = _sm(table)
    assert game.mail(BO, "LOAN WOLF 3").status == "queued"  # Bo has no production to borrow on
    before_bo = len([r for r in game.outbox() if r.to_address == BO])
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    loaded = game.game()
    assert loaded.engine.awaiting(loaded.state) == (1,)
    to_bo = [r for r in game.outbox() if r.to_address == BO][before_bo:]
    # One email, the status saying it is Bo's turn, tells why his early orders were not played
    # (play-testing: a notice of its own came beside it, and the status said nothing of it).
    [status] = [letter_text(row.raw) for row in to_bo]
    told = " ".join(status.split())
    assert (
        "Your turn came, but the orders you sent earlier for it could not be carried out: " in told
    )
    assert "LOAN WOLF 3: " in told and "the turn waits for your new orders" in told
    ann_news = " ".join(letter_text(r.raw) for r in game.outbox() if r.to_address == ANN)
    assert "LOAN WOLF" not in ann_news  # Bo's orders are his
    assert game.mail(BO, "HISTORY").status == "accepted"
    own_history = " ".join(letter_text(game.outbox()[-1].raw).split())
    assert "LOAN WOLF 3: " in own_history and "(why:" not in own_history
    # Nobody else's HISTORY has a line of it, nor its reason, which may name Bo's hand (re-check:
    # the entry's `why` was shown to every reader).
    assert game.mail(ANN, "HISTORY").status == "accepted"
    history = letter_text(game.outbox()[-1].raw)
    assert "LOAN WOLF" not in history and "no production" not in history
    assert "noted a change" not in history


def test_an_early_order_no_turn_could_take_is_refused_at_once(table):
    # Found in play-testing: HIRE #999 was queued, failed when the turn came and the turn waited.
    game = _sm(table)
    assert game.mail(BO, "REFRESH\nHIRE #999").status == "rejected"
    answer = letter_text(game.outbox()[-1].raw)
    assert 'line 2 "HIRE #999": there is no card #999: card ids run 1 to 120' in answer
    assert game.mail(BO, "STAGE WOLF 14 27 333 IN KOELN").status == "rejected"
    # Long lines are wrapped: read as words.
    refused = " ".join(letter_text(game.outbox()[-1].raw).split())
    assert "there is no card #333: card ids run 1 to 120" in refused
    assert game.mail(BO, "STAGE WOLF 14 27 IN KOELN").status == "rejected"
    refused = " ".join(letter_text(game.outbox()[-1].raw).split())
    assert "Wolf has 3 roles: name exactly 3 cards, not 2" in refused
    with Session(game.engine) as session:
        assert session.exec(select(QueuedOrderRow)).all() == []
    # What may yet be legal when the turn comes waits for it: a card Bo does not hold now.
    assert game.mail(BO, "STAGE WOLF 14 27 33 IN KOELN").status == "queued"
    assert game.mail(BO, "HIRE #57").status == "queued"


def test_orders_after_the_end_are_told_only_that_the_game_is_over(table):
    # Found in play-testing: the reply first explained why H4 read as no act in this phase.
    game = table("bigtime", [ANN, BO], seed=4)
    finish(game)
    assert game.mail(BO, "HEADLINER H4").status == "rejected"
    answer = letter_text(game.outbox()[-1].raw)
    assert "the game is over; no more orders are taken" in answer
    assert "Headliner's code" not in answer


def test_early_orders_of_several_lines_are_one_line_in_the_history(table):
    game = _sm(table)
    assert game.mail(BO, "REFRESH\nHIRE 0").status == "queued"
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    with Session(game.engine) as session:
        [entry] = [e for e in last_history(session, game.id, 5) if e.actor == BO]
    assert entry.summary == "REFRESH / HIRE 0"
