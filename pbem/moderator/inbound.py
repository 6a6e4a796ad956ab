"""One inbound email, one transaction: deduplicate, authenticate, parse, carry out, reply.

Mailman 3's shape: the message is stored first, and the reply says what was carried out
(Results), what was not (Problems) and what was not an order (Ignored). A rejected email changes
nothing in the game. Nothing here acknowledges anything on a mail server: the caller does that
after the transaction commits.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from email.message import Message
from typing import Any

from pbem.games.base import Event, Submission
from pbem.moderator.absences import absence_rule, away_by_email, deadline_waits_for, listed
from pbem.moderator.addresses import bare, game_in_subject, seat_key_in
from pbem.moderator.archive_mail import answer_archive, archive_for_seat, archive_request
from pbem.moderator.desk import Desk
from pbem.moderator.events import AwayEnded, AwayStarted
from pbem.moderator.former import answer_former, former_player, where_it_stands
from pbem.moderator.letters import notice_letter, reply_letter, reply_subject
from pbem.moderator.loaded import LoadedGame, loaded_game
from pbem.moderator.loops import machine_reason
from pbem.moderator.misaddressed import misaddressed
from pbem.moderator.play import carry_out, follow_up, parse_for, replace_waiting_orders
from pbem.moderator.refusals import (
    judged_anyway,
    outdated_line,
    refusal_before_commands,
    refused_line,
    stale_phase,
)
from pbem.moderator.seats import RESIGN_OVER, history_lines, resign_by_email
from pbem.moderator.signup import handle_signup_mail
from pbem.moderator.talk import check_talk, record_talk, relay_talk
from pbem.moderator.undeliverable import record_bounces
from pbem.moderator.watcher_mail import answer_watcher, watched_game
from pbem.moderator.watchers import answer_request, watch_request_in
from pbem.orders.absence import Away
from pbem.orders.grammar import AnyCommand, Command, Password, Talk
from pbem.orders.help import help_text
from pbem.orders.incoming import IncomingEmail, parse_message, read_message
from pbem.orders.parse import IgnoredLine, OrderLine
from pbem.store import (
    GameRow,
    QueuedOrderRow,
    SeatRow,
    last_history,
    lock_game_if_any,
    message_key,
    record_inbound,
    record_inbound_result,
    seats_of,
)
from pbem.store.tables import InboundStatus

STRANGER_REPLIES_PER_HOUR = 3
# What the answer to RESIGN says after what was carried out (the game master's removal says it
# in its goodbye, `former.goodbye`), before how to follow the game.
LEFT_NOTE = (
    "A computer player now plays your seat, with a password of its own. "
    "Mail from you no longer counts as orders in this game. "
    "When the game ends, you will be sent its final result."
)
# What an email with no orders is told when orders follow the line where reading stopped.
STOPPED_NOTE = (
    'Reading stopped at line {number} ("{line}"): from there on your email is taken as the one '
    "you answer, so the orders under it were not read. Write your orders above that line."
)
STOP_SHOWN = 60  # characters of that line shown
SUBJECT_NOTE = (
    "Orders are read from the text of your email, not from its subject: write them in the text."
)
# `Re: Fwd: [sm-1] HIRE 2` -> `HIRE 2`: what a player may have written in the subject.
_REPLY_PREFIXES = re.compile(r"^(?:\s*(?:re|fwd?|aw|sv|wg)\s*:|\s*\[[^\]]*\])+\s*", re.IGNORECASE)
# What an email is told of the early orders its orders replaced (`play.replace_waiting_orders`).
REPLACED_NOTE = (
    "These orders take the place of your earlier ones that were waiting for your turn ({}): "
    "those will not be played."
)
PLAYED_NOTE = (
    "Your orders of your last turn ({}) had already been carried out when this email came: these "
    "wait for your next turn. If you meant them to correct that turn, ask the game master, who can "
    "undo it."
)
# What the answer to an email is told of a PASSWORD line whose password is not the seat's.
STRAY_PASSWORD_NOTE = (
    "Your PASSWORD line was ignored: its password is not your seat's. None was needed, as the "
    "address you wrote to names your seat."
)
# What the answer to an email that only asked holds, by command, in the order the reply shows it.
ASKED = {"HELP": "the list of orders", "HISTORY": "the game's history", "STATUS": "your status"}
_PASSWORD = re.compile(r"^\s*password[\s:]+(\S+)", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class InboundResult:
    status: InboundStatus | str  # "duplicate" when the message was handled before
    reason: str
    game_id: str | None = None


def handle_inbound(desk: Desk, raw: bytes, source: str) -> InboundResult:
    """Handle one received email inside the desk's transaction; a duplicate has no effect."""
    message = parse_message(raw)
    email = read_message(message)
    inbound_id = record_inbound(
        desk.session, message_key=message_key(email.message_id, raw), raw=raw, source=source
    )
    if inbound_id is None:
        return InboundResult("duplicate", "this message was handled before")
    status, reason, game_id = _handle(desk, inbound_id, email, message)
    if status == "ignored" and (bounced := record_bounces(desk, raw)):
        reason = f"bounce for {', '.join(bounced)}"
    record_inbound_result(desk.session, inbound_id, status, reason, game_id)
    return InboundResult(status, reason, game_id)


def _handle(
    desk: Desk, inbound_id: int, email: IncomingEmail, message: Message
) -> tuple[InboundStatus, str, str | None]:
    machine = machine_reason(message, desk.settings.address)
    if machine is not None or email.sender is None:
        return "ignored", machine or "no sender address", None
    signup = handle_signup_mail(desk, email)  # a join address, or LIST to the bare address
    if signup is not None:
        return signup
    if (archived := archive_request(desk.settings.address, email)) is not None:
        return answer_archive(desk, email, archived)
    # WATCH and UNWATCH to the bare address come from anyone: no seat, no password.
    if (request := watch_request_in(desk.settings.address, email)) is not None:
        return answer_request(desk, email, request)
    login = _authenticate(desk, email)
    if login.game_row is None or login.seat is None:
        return _answer_stranger(desk, email, login)
    game, seat = loaded_game(login.game_row, login.seats), login.seat
    copy_to = [game.seat(seat).address]
    if email.sender.lower() != game.seat(seat).address.lower():
        copy_to.insert(0, email.sender)
    status, reason = _orders(desk, game, seat, email, inbound_id, copy_to)
    return status, reason, game.id


@dataclass(frozen=True)
class _Login:
    """Whom an email speaks for: a game and seat, or why not. `named_game` is the game an email
    that failed named with a secret (plus-address or PASSWORD), so the sender can be told the
    secret is wrong; whether that game exists is never told."""

    game_row: GameRow | None = None
    seats: Sequence[SeatRow] = ()
    seat: int | None = None
    named_game: str | None = None
    reason: str = "not authenticated"


def _authenticate(desk: Desk, email: IncomingEmail) -> _Login:
    """The game and seat the email's secret names: the plus-address, else the game in the
    subject (or the text) and a PASSWORD line."""
    key = seat_key_in(desk.settings.address, list(email.recipients))
    if key is not None:
        game_id, secret = key.game_id, key.secret
    else:
        named = game_in_subject(email.subject) or game_in_subject(email.text)
        password = _PASSWORD.search(email.text)
        if named is None or password is None:
            return _Login(reason="names no game" if named is None else "no password")
        game_id, secret = named, password[1].lower()
    # Locked as `load_game` locks it, then its seats: when the secret fits, the game is loaded
    # from these two reads (a wrong password holds the lock only until its reply is queued).
    game_row = lock_game_if_any(desk.session, game_id)
    seats = seats_of(desk.session, game_id) if game_row else ()
    seat = next((seat for seat in seats if seat.secret == secret), None)
    if game_row is None or seat is None:
        return _Login(named_game=game_id, reason="wrong password")
    return _Login(game_row, seats, seat.position)


def _answer_stranger(
    desk: Desk, email: IncomingEmail, login: _Login
) -> tuple[InboundStatus, str, str | None]:
    """A polite word to mail that could not be matched to a seat, at most a few an hour per
    sender: a wrong password gets its own, which tells nothing of the game it named; a watcher
    is told what a watcher can do, and an address that played in the game that it no longer
    does (its old reply address carries the seat's old password). The inbound outcome: the
    watcher's, else rejected for `login`'s reason."""
    assert email.sender is not None
    rejected: tuple[InboundStatus, str, str | None] = ("rejected", login.reason, None)
    if desk.answers_this_hour(email.sender, ["stranger"]) >= STRANGER_REPLIES_PER_HOUR:
        return rejected
    named_game = login.named_game
    if named_game is None and (watched := watched_game(desk, email)) is not None:
        return answer_watcher(desk, email, watched)
    former = former_player(
        desk.session, named_game or game_in_subject(email.subject), bare(email.sender)
    )
    if former is not None:
        answer_former(desk, email, former)
        return rejected
    if named_game is not None:
        lines = [
            f"This is the play-by-email moderator. Your email names game {named_game}, but its "
            "password (in the reply address or on the PASSWORD line) is not the password of a "
            "seat in it, so nothing was done.",
            "Reply to the latest email of your game as it came, or copy the game and the "
            "password exactly as the footer of that email shows them: "
            f"[{named_game}] in the subject and a line PASSWORD <your password>.",
        ]
    else:
        lines = [
            "This is the play-by-email moderator. Your email could not be matched to a game "
            "and a seat, so nothing was done.",
            "To send orders, reply to the latest email of your game: its reply address carries "
            "your game and your password. If your mail client drops it, write the game in the "
            "subject, e.g. [sm-12], and your password on a line of its own: PASSWORD k7q2m. "
            "The footer of every email of your game shows both.",
            f"To find a game to join, write LIST to {desk.settings.address}; to follow a game "
            "without playing, WATCH and the game (WATCH bt-3); for the page of a finished "
            "game, ARCHIVE and the game.",
        ]
    letter = notice_letter(
        to=email.sender,
        game=None,
        seat=None,
        settings=desk.settings,
        words=reply_subject(email.subject) if email.subject else "Your email to the moderator",
        kind="stranger",
        lines=lines,
        in_reply_to=email.message_id,
    )
    desk.postman.post(letter, None)
    return rejected


def _orders(
    desk: Desk,
    game: LoadedGame,
    seat: int,
    email: IncomingEmail,
    inbound_id: int,
    copy_to: list[str],
) -> tuple[InboundStatus, str]:
    parsed = parse_for(game, email.text)
    # Every line is accounted for, a PASSWORD line too (its secret masked by the parser): one
    # with the seat's password is read, one with another did nothing (the address written to
    # named the seat) and is listed as ignored, with a word why.
    stray = _stray_passwords(parsed.orders, game.seat(seat).secret)
    not_read: list[IgnoredLine | OrderLine] = [*parsed.ignored, *stray]
    ignored = [line.text for line in sorted(not_read, key=lambda line: line.number)]
    order_lines = [line for line in parsed.orders if not isinstance(line.order, AnyCommand | Talk)]
    talk_lines = [line for line in parsed.orders if isinstance(line.order, Talk)]
    commands = {order.name for order in parsed.commands if isinstance(order, Command)}
    away = next((line for line in reversed(parsed.orders) if isinstance(line.order, Away)), None)
    back = next((line for line in parsed.orders if line.order == Command("BACK")), None)
    # Each line once (`REFRESH 2` is two orders of one line), a SAY block with its lines.
    written = dict.fromkeys((line.text, *line.block) for line in parsed.orders if line not in stray)

    def reply(verdict: str, events: Sequence[Event] = (), **details: Any) -> None:
        # Rendered once: the copy to the seat's own address differs only in its recipient.
        if stray:
            details["notes"] = [*details.get("notes", ()), STRAY_PASSWORD_NOTE]
        letter = reply_letter(
            to=copy_to[0],
            game=game,
            seat=seat,
            settings=desk.settings,
            about=email.subject or "your orders",
            verdict=verdict,
            ignored=ignored,
            accepted=[text for lines in written for text in lines],
            events=events,
            held_talk=bool(talk_lines),
            in_reply_to=email.message_id,
            **details,
        )
        for address in copy_to:
            desk.postman.post(replace(letter, to=address), game.id)

    if not parsed.has_orders:
        # A request for another address (LEAVE, ARCHIVE) is told where it goes, not taught HELP.
        if (archived := archive_for_seat(desk, game, email)) is not None:
            return archived[:2]
        elsewhere = misaddressed(game, email, desk.settings.address)
        notes = [
            *(elsewhere or ["Your email held no orders."]),
            *_orders_below_the_stop(game, email),
            *_orders_in_the_subject(game, email),
        ]
        help_text = None if elsewhere else _help(game)
        reply("rejected", notes=notes, help_text=help_text, show_status=True)
        return "rejected", "no orders"
    # Every problem the player can fix in one go is told at once: lines that do not read, orders
    # the rules refuse (judged when all lines read and nothing else stops the email), talk that
    # cannot go, and why the game cannot take the email now.
    talk = check_talk(desk, game, seat, talk_lines)
    tried_orders = bool(order_lines or parsed.errors)
    refused = refusal_before_commands(desk, game, seat, email, away, tried_orders)
    # A stale email was written for a phase that is gone, whose codes (A1, H2) are not today's:
    # its lines read against today's phase would tell of mistakes the player did not make.
    stale = tried_orders and stale_phase(desk, game, email) is not None
    # Once the game is over no order can be taken, so how one line reads is beside the point.
    over = tried_orders and game.row.status == "finished"
    problems = [] if stale or over else [str(error) for error in parsed.errors]
    queued = (
        bool(order_lines) and game.kind.turn_based and seat not in game.engine.awaiting(game.state)
    )
    # An early order no turn could take is refused now: kept, it would fail only when the turn
    # comes, and the turn would wait for another email.
    if queued and refused is None:
        actions = [line.order for line in order_lines]
        if (never := game.kind.never_legal(game.state, seat, actions)) is not None:
            problems.append(refused_line(order_lines, Submission(None, [], *never)))
    # Answering an older letter, an order may name what that letter showed, not what is now.
    # A computer player decides from the game as it is, whichever letter its email answers.
    in_turn = refused is None and bool(order_lines) and not queued and not stale
    person = game.seat(seat).kind == "human"
    outdated = outdated_line(desk, game, email, order_lines) if in_turn and person else None
    problems += [outdated] if outdated is not None else []
    # The rules judge the orders whenever the email is refused for something else, a pause too:
    # the player mends it before sending it again once the game resumes.
    judgeable = refused is None or game.row.status == "paused"
    other_problems = bool(problems or talk.problems or refused)
    if judgeable and order_lines and not queued and not stale and other_problems:
        judged = judged_anyway(game, seat, order_lines, parsed.errors)
        problems[:0] = [judged] if judged is not None else []
    problems += [*talk.problems, *([refused] if refused is not None else [])]
    resigning = "RESIGN" in commands
    if resigning and game.row.status == "finished":
        problems.append(RESIGN_OVER)
    if problems:
        reply("rejected", problems=problems, show_status=True)
        return "rejected", "; ".join(problems)
    verdict: InboundStatus = "accepted"
    events: list[Event] = []
    before = game.engine.progress(game.state)
    letters_before = len(desk.postman.sent)
    replaced: list[str] = []
    told: list[str] = []  # notes on the orders, for the reply
    if order_lines:
        if queued:
            if (played := _just_played(desk, game, seat)) is not None:
                told.append(PLAYED_NOTE.format(played))
            replaced = replace_waiting_orders(desk, game, seat)
            desk.session.add(
                QueuedOrderRow(
                    game_id=game.id,
                    position=seat,
                    inbound_id=inbound_id,
                    lines="\n".join(dict.fromkeys(line.text for line in order_lines)),
                )
            )
            verdict = "queued"
        else:
            actions = [line.order for line in order_lines]
            if (replacing := game.kind.replaced(game.state, seat, actions)) is not None:
                told.append(replacing)
            outcome = carry_out(
                desk,
                game,
                seat,
                actions,
                actor=game.seat(seat).address,
                summary=" / ".join(dict.fromkeys(line.text for line in order_lines)),
                inbound_id=inbound_id,
            )
            if outcome.refusal is not None:
                problem = refused_line(order_lines, outcome)
                reply("rejected", problems=[problem], show_status=True)
                return "rejected", problem
            events = list(outcome.events)
            replaced = replace_waiting_orders(desk, game, seat)
    # After the orders, so orders and AWAY in one email play the orders first.
    absence = away_by_email(desk, game, seat, away, back, inbound_id)
    events += absence.events
    told += absence.notes
    # The talk is kept only now that the orders went through, and before the status emails are
    # written, so that those told it carry it; the others get it in an email of its own.
    said = record_talk(desk, game, seat, talk.spoken, inbound_id)
    events += said
    if resigning:
        # Everyone is told at once, the email's talk with it (`seats.resign_by_email`).
        events = resign_by_email(desk, game, seat, before, said)
    elif order_lines or away or back:
        # Under `wait`, an absence on the seat's turn holds the deadline or starts it again:
        # everyone's status must say so, not only the sender's reply.
        everyone = bool(absence.events) and deadline_waits_for(game, seat)
        events = follow_up(desk, game, events, before, answered=seat, everyone=everyone)
    relay_talk(desk, game, seat, said, letters_before)
    done = _done(bool(order_lines) or resigning, absence.events, bool(said), commands)
    if resigning:
        # The seat is the computer's now, with a new password: the answer carries neither it
        # nor the seat's status and reply address, and asks for no more orders.
        gone = bare(copy_to[-1])
        reply(
            verdict,
            events,
            notes=[LEFT_NOTE, *where_it_stands(desk, game, gone, told_on=False)],
            help_text=_help(game) if "HELP" in commands else None,
            history=history_lines(desk, game, seat) if "HISTORY" in commands else None,
            done=done,
            former=True,
        )
        return verdict, "ok"
    # When the game moved on, the other seats were sent a status email; this seat's is the reply.
    moved_on = game.engine.progress(game.state) != before
    reply(
        verdict,
        events,
        show_status="STATUS" in commands or game.row.status == "running" or moved_on,
        help_text=_help(game) if "HELP" in commands else None,
        history=history_lines(desk, game, seat) if "HISTORY" in commands else None,
        done=done,
        notes=[*told, *([REPLACED_NOTE.format(" / ".join(replaced))] if replaced else [])],
    )
    return verdict, "ok"


def _stray_passwords(lines: Sequence[OrderLine], secret: str) -> list[OrderLine]:
    """The PASSWORD lines whose password is not `secret`, the seat's: the plus-address the
    email was sent to authenticated it (the PASSWORD line does only when it fits)."""
    return [
        line
        for line in lines
        if isinstance(line.order, Password) and line.order.secret.lower() != secret.lower()
    ]


def _done(orders: bool, absence: Sequence[Event], talk: bool, commands: Collection[str]) -> str:
    """The headline of the answer to an email carried out: all it did, an absence with talk
    (play-testing: "Your talk was passed on." hid the AWAY beside it), else what it asked for
    (an email of STATUS or HISTORY alone changes nothing, so nothing was carried out)."""
    did = [
        *(["your orders were carried out"] if orders else []),
        *(f"you are away until {e.until}" for e in absence if isinstance(e, AwayStarted)),
        *("you are back" for e in absence if isinstance(e, AwayEnded)),
        *(["your talk was passed on"] if talk else []),
    ]
    asked = [words for command, words in ASKED.items() if command in commands]
    if asked and not did:
        return f"Here is {listed(asked)}."
    # Nothing to name (BACK from a player who was not away, PASSWORD alone): as before.
    sentence = "; ".join(did or ["your orders were carried out"])
    return f"{sentence[0].upper()}{sentence[1:]}."


def _just_played(desk: Desk, game: LoadedGame, seat: int) -> str | None:
    """The seat's orders of the last turn played, when the seat played it: an early email just
    after one's own turn is most often a correction that came too late. Else None."""
    address = game.seat(seat).address.lower()
    for entry in reversed(last_history(desk.session, game.id, len(game.seats) + 2)):
        if entry.kind == "order":
            return entry.summary if entry.actor.lower() == address else None
    return None


def _orders_below_the_stop(game: LoadedGame, email: IncomingEmail) -> list[str]:
    """Where reading stopped, when the orders were written under the quote (bottom-posting):
    else the player cannot tell where they went. Nothing when no order is written there."""
    stop = email.stop
    if stop is None or not (written := stop.below):
        return []
    below = parse_for(game, written)
    if not (below.has_orders or below.errors):
        return []
    line = stop.line if len(stop.line) <= STOP_SHOWN else stop.line[: STOP_SHOWN - 1] + "…"
    return [STOPPED_NOTE.format(number=stop.number, line=line)]


def _orders_in_the_subject(game: LoadedGame, email: IncomingEmail) -> list[str]:
    """A word when the orders were written in the subject, which is never read for them."""
    subject = _REPLY_PREFIXES.sub("", email.subject or "")
    if not subject or not parse_for(game, subject).actions:
        return []
    return [SUBJECT_NOTE]


def _help(game: LoadedGame) -> str:
    rule = absence_rule(game.row.away_mode, game.row.max_away_days)
    return help_text(game.row.game, game.row.variant, game.data_file, table=[rule])
