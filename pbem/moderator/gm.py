"""The game master's overrides. Each is recorded in the history (who, when, why) and told to the
players it concerns, by name and in the words of their status emails; none is possible by email.

A player is named by email address, by name or by seat number (`seat_named`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from sqlmodel import col, select

from pbem.games.base import Event, Submission
from pbem.games.event_codec import encode_events
from pbem.moderator.absences import come_back, ended_summary, ended_words, forget_absence
from pbem.moderator.compose import header_safe
from pbem.moderator.desk import Desk
from pbem.moderator.events import (
    DeadlineSet,
    GmReason,
    OrdersQueued,
    Paused,
    SeatMoved,
    StatusResent,
    Welcome,
)
from pbem.moderator.former import goodbye
from pbem.moderator.gm_letters import (
    DEADLINE_CHANGED,
    DEADLINE_REMOVED,
    RESENT,
    Headline,
    about,
    tell_everyone,
    tell_notice,
    tell_status,
)
from pbem.moderator.letters import status_letter
from pbem.moderator.loaded import LoadedGame, encode_state, load_game, save_state
from pbem.moderator.news import events_since_own, untold_events
from pbem.moderator.play import (
    LEFT,
    carry_out,
    follow_up,
    parse_for,
    replace_waiting_orders,
    set_aside,
)
from pbem.moderator.seats import resign, tell_change
from pbem.moderator.start import (
    PlayerSpec,
    StartError,
    check_deadline_hours,
    check_names,
    check_policy,
)
from pbem.moderator.watchers import tell_watchers
from pbem.orders import ParsedOrders
from pbem.orders.grammar import AnyCommand, Talk
from pbem.store import (
    OutboxRow,
    QueuedOrderRow,
    append_history,
    history_entry,
    last_history,
    new_secret,
)
from pbem.store.tables import DeadlinePolicy, GameStatus

GM = "gm"
# An engine's refusal names seats as "Player 2"; the game master reads the players' names.
_SEAT_NUMBER = re.compile(r"\bPlayer (\d+)\b")


class GmError(ValueError):
    """An override that cannot be done as asked; the message says why and what would work."""


@dataclass(frozen=True)
class Change:
    """What an override did: its history entry and who was written to (computer seats aside)."""

    game: str
    verb: str
    summary: str
    why: str | None
    entry: int
    told: tuple[str, ...]


def seat_named(game: LoadedGame, who: str) -> int:
    """The seat `who` names: its email address, its player's name or its number (1, 2, ...)."""
    wanted = who.strip().lower()
    if wanted.isdigit() and 1 <= int(wanted) <= len(game.seats):
        return int(wanted) - 1
    for key in (lambda s: s.address, lambda s: s.name or "", lambda s: s.bot_name or ""):
        matches = [s.position for s in game.seats if key(s).lower() == wanted]
        if len(matches) == 1:
            return matches[0]
    players = "; ".join(
        f"{s.position + 1} {game.name_of(s.position)} <{s.address}>" for s in game.seats
    )
    raise GmError(
        f"{who!r} is not a player of {game.id}; name one by seat number, name or email: {players}"
    )


def order(desk: Desk, game_id: str, who: str, text: str, why: str | None) -> Change:
    """Orders entered for a player, as if the player had sent them: carried out on the player's
    turn, or (turn-based games) kept until that turn comes, like an early email."""
    game, mark = _in_play(desk, game_id)
    seat = seat_named(game, who)
    parsed = parse_for(game, text)
    if parsed.errors or not parsed.actions:
        problems = "; ".join(str(e) for e in parsed.errors) or f"no orders in {text!r}"
        if "/" in text:
            # `pbem history` shows a player's lines joined by " / ": copied back (or typed
            # "BID 0/AM A1"), they are one, and what the parser makes of that line ("'/' is
            # not a number") is no help first. No order of either game holds a slash.
            problems = (
                "write one order a line, a line break between them as in an email, not ' / ' "
                f"(read as one line: {problems})"
            )
        raise GmError(problems)
    name = game.name_of(seat)
    written = " / ".join(line.text for line in parsed.orders)
    entered = about(game, seat, "Orders entered for you", "Orders entered for {}")
    if seat not in game.engine.awaiting(game.state):
        if not game.kind.turn_based:
            raise GmError(f"{name} has no orders to give now")
        if (never := game.kind.never_legal(game.state, seat, parsed.actions)) is not None:
            raise GmError(f"{name}'s orders can never be carried out: {never[1]}")
        # The newest orders are the seat's, as when a player sends a second early email.
        replaced = replace_waiting_orders(desk, game, seat)
        desk.session.add(
            QueuedOrderRow(game_id=game.id, position=seat, inbound_id=None, lines=text.strip())
        )
        # Not the lines: the other players may read the history before the turn comes.
        queued = OrdersQueued(seat, to=(seat,))
        kept = f"early orders for {name} kept for their turn"
        if replaced:  # the summary is the game master's alone: the lines may show
            kept += f", in place of those waiting ({' / '.join(replaced)})"
        _record(desk, game, kept, why, queued)
        tell_notice(desk, game, [game.seat(seat)], [queued], why, entered)
        return override_change(desk, game, "order", mark)
    before = game.engine.progress(game.state)
    # The lines, sealed or not: an entry's summary is the game master's alone (HISTORY tells
    # the players its events), and the transcript writes it back as the seat's email.
    summary = f"orders for {name}: {written}"
    outcome = carry_out(
        desk,
        game,
        seat,
        parsed.actions,
        actor=GM,
        kind="gm",
        summary=summary,
        why=why,
        stand_in="gm",
    )
    if outcome.refusal is not None:
        raise GmError(_refused(game, seat, parsed, outcome))
    entry = last_history(desk.session, game.id, 1)[-1].seq
    tell_notice(desk, game, game.humans(), outcome.events, why, entered)
    # The statuses of a turn or phase the orders ended tell the reason too, as every other
    # override's do (play-testing: "The game master entered orders for you:" and no word why).
    follow_up(desk, game, list(outcome.events), before, why=why)
    return override_change(desk, game, "order", mark, entry)


def set_money(desk: Desk, game_id: str, who: str, amount: int, why: str | None) -> Change:
    game, mark = _in_play(desk, game_id)
    seat = seat_named(game, who)
    fix = getattr(game.engine, "set_money", None)
    if fix is None:
        raise GmError(f"money cannot be set in {game.kind.title}")
    summary = f"money of {game.name_of(seat)} set to {amount}"
    return _corrected(
        desk,
        game,
        mark,
        "set-money",
        summary,
        why,
        lambda s: fix(s, seat, amount),
        about(game, seat, "Your money changed", "{}'s money changed"),
    )


def set_value(
    desk: Desk, game_id: str, who: str, production: str, value: int, why: str | None
) -> Change:
    game, mark = _in_play(desk, game_id)
    seat = seat_named(game, who)
    fix = getattr(game.engine, "set_value", None)
    if fix is None:
        raise GmError(f"{game.kind.title} has no chips to set")
    musical, _, number = production.partition("#")
    number = number.strip()  # `Miss Hanoi # 2`, as an order line may space it
    if number and not number.isdigit():
        raise GmError(f"{production!r} is not MUSICAL or MUSICAL#N (e.g. WOLF#1)")
    chip = int(number) if number else None
    summary = f"value of {game.name_of(seat)}'s {production} set to {value}"
    return _corrected(
        desk,
        game,
        mark,
        "set-value",
        summary,
        why,
        lambda s: fix(s, seat, musical, chip, value),
        about(game, seat, "Your production's value changed", "{}'s production's value changed"),
    )


def replace(desk: Desk, game_id: str, who: str, new: str, why: str | None) -> Change:
    """The seat passes to another person (`EMAIL` or `EMAIL:NAME`), with a new secret so the old
    address can no longer order. The others are told by name, the newcomer is welcomed with the
    seat's status and the old address told it no longer plays."""
    try:
        player = PlayerSpec.parse(new)
    except StartError as exc:
        raise GmError(str(exc)) from exc
    game, mark = _in_play(desk, game_id)
    seat = game.seat(seat_named(game, who))
    taken = next((s for s in game.seats if s.address.lower() == player.address.lower()), None)
    if taken is not None:
        raise GmError(
            f"{player.address} already plays seat {taken.position + 1} "
            f"({game.name_of(taken.position)}) in {game_id}; one address plays one seat"
        )
    if player.name is not None:
        kept = [game.name_of(s.position) for s in game.seats if s.position != seat.position]
        try:
            check_names([*kept, player.name])
        except StartError as exc:
            raise GmError(f"{exc}; the others are {', '.join(kept)}") from exc
    before = game.engine.progress(game.state)
    was_person, old_address = seat.kind == "human", seat.address
    # A seat the computer took over is still the seat of the person who left ("Bo").
    old_name = (None if was_person else seat.bot_name) or game.name_of(seat.position)
    seat.address = player.address
    seat.name = player.name or (seat.bot_name if seat.kind == "bot" else seat.name)
    seat.secret = new_secret({s.secret for s in game.seats})
    seat.kind, seat.bot_name = "human", None
    # The absence was the earlier holder's: it ends, and the game master reads so.
    away = forget_absence(desk, game, seat)
    desk.session.add(seat)
    new_name = game.name_of(seat.position)
    dropped = replace_waiting_orders(desk, game, seat.position, LEFT)
    # A newcomer given no name keeps the seat's: said so, or "Bo passed to Bo" reads as nothing.
    to = new_name if new_name != old_name else f"a new player, who keeps the name {new_name}"
    passed = f"seat {seat.position + 1} ({old_name}) passed to {to}" + set_aside(dropped)
    passed += ended_summary(old_name, away)
    # An order on file (a Big Time! sealed bid) was the old holder's: the newcomer gives theirs.
    filed = seat.position not in game.engine.awaiting(game.state)
    game.engine.withdraw(game.state, seat.position)
    taken_back = filed and seat.position in game.engine.awaiting(game.state)
    if taken_back:
        passed += "; the order on file taken back"
    moved = SeatMoved(
        seat.position, old_name, order_taken_back=taken_back, away_until=ended_words(away)
    )
    save_state(
        desk.session, game, game.state, actor=GM, kind="gm", summary=passed, why=why, events=[moved]
    )
    given = f"{old_name}'s seat given to {new_name if new_name != old_name else 'a new player'}"
    # The others (and the watchers) at once, each a status: one whose turn it is can play on.
    news = tell_change(desk, game, seat.position, [moved], before, headline=given, why=why)
    if not was_person:
        _drop_computer_mail(desk, game, old_address)
    if was_person:
        goodbye(
            desk,
            game,
            old_address,
            f"The game master gave your seat ({old_name}) to another player.",
            why,
        )
    # The letter's footer gives the seat's new password for the PASSWORD fallback. It tells the
    # news the others were just told, up to the takeover as a watcher reads it: told to them,
    # it is told to nobody again (`news.untold_events`).
    welcome: list[Event] = [
        *news,
        Welcome(moved, game.row.press),
        *([GmReason(why)] if why else []),
    ]
    desk.postman.post(
        status_letter(game, seat.position, desk.settings, welcome, "Welcome"), game.id
    )
    return override_change(desk, game, "replace", mark)


def remove(desk: Desk, game_id: str, who: str, why: str | None) -> Change:
    """A computer player takes the seat (RULINGS.md), so the game still ends."""
    game, mark = _in_play(desk, game_id)
    position = seat_named(game, who)
    seat = game.seat(position)
    name = game.name_of(position)
    if seat.kind == "bot":
        raise GmError(
            f"{seat.bot_name or name}'s seat is already played by the computer; "
            "`pbem gm replace` gives it to a person"
        )
    old_address, before = seat.address, game.engine.progress(game.state)
    # No reason given, none recorded: the players read an entry's reason in HISTORY, and a
    # filler one ("removed by the game master") read as the game master's word (play-testing).
    left = resign(desk, game, position, actor=GM, why=why)
    # As for `replace`: everyone else a status at once, and the watchers theirs.
    tell_change(
        desk, game, position, left, before, headline=f"{name} removed from the game", why=why
    )
    goodbye(
        desk,
        game,
        old_address,
        "The game master removed you from the game; a computer player takes your seat.",
        why,
    )
    return override_change(desk, game, "remove", mark)


def back(desk: Desk, game_id: str, who: str, why: str | None) -> Change:
    """End a player's absence (AWAY) before its day; every person in the game is told."""
    game, mark = _in_play(desk, game_id)
    position = seat_named(game, who)
    before = game.engine.progress(game.state)
    ended = come_back(desk, game, position, "gm", actor=GM, kind="gm", why=why)
    if not ended:
        raise GmError(f"{game.name_of(position)} is not away in {game_id}")
    # The player back gets the board and the deadline, which may have started again (`wait`).
    back_seat = game.seat(position)
    is_back = about(game, position, "You are back", "{} is back")
    tell_notice(desk, game, [s for s in game.humans() if s is not back_seat], ended, why, is_back)
    if back_seat.kind == "human":
        tell_status(desk, game, [back_seat], ended, why, is_back)
    # With everyone else away, the moderator may play for them again now someone is back.
    follow_up(desk, game, [], before)
    return override_change(desk, game, "back", mark)


def pause(desk: Desk, game_id: str, why: str | None, resume_it: bool = False) -> Change:
    game, mark = _in_play(desk, game_id)
    wanted: GameStatus = "running" if resume_it else "paused"
    now = "paused" if resume_it else "running"
    if game.row.status != now:
        raise GmError(f"{game_id} is {game.row.status}, not {now}")
    game.row.status = wanted
    desk.session.add(game.row)
    paused = Paused(resumed=resume_it)
    _record(desk, game, "game resumed" if resume_it else "game paused", why, paused)
    if resume_it:
        # One email each (play-testing: a notice, then a status that told it again): a status
        # headed "Game resumed", telling the pause and its end with the news. "" differs from
        # any progress, so every seat and watcher gets one and the deadline starts again.
        follow_up(desk, game, [], "", headline="Game resumed", why=why)
        return override_change(desk, game, "resume", mark)
    # Paused, every subject says "Game paused" in place of the phase: no headline before it.
    tell_notice(desk, game, game.humans(), [paused], why, None)
    tell_watchers(desk, game, [paused, *([GmReason(why)] if why else [])])
    return override_change(desk, game, "pause", mark)


def deadline(
    desk: Desk, game_id: str, hours: float | None, policy: str | None, why: str | None
) -> Change:
    """Hours for each turn or phase (None: no deadline), from now; and what happens at one."""
    try:
        if hours is not None:
            check_deadline_hours(hours)
        if policy is not None:
            check_policy(policy)
    except StartError as exc:
        raise GmError(str(exc)) from exc
    game, mark = _in_play(desk, game_id)
    game.row.deadline_hours = hours
    game.row.deadline_at = desk.clock() + timedelta(hours=hours) if hours else None
    if policy is not None:
        game.row.policy = cast(DeadlinePolicy, policy)
    desk.session.add(game.row)
    if game.row.deadline_at is None:
        summary, at = "deadline removed", None
    else:
        at = game.row.deadline_at.strftime("%Y-%m-%d %H:%M UTC")
        summary = f"deadline set to {hours:g} hours, policy {game.row.policy}"
    _record(desk, game, summary, why, DeadlineSet(hours, game.row.policy, at))
    # A status to every seat and every watcher: what it tells counts as told, so the next one
    # does not tell this deadline again beside a later one (nor, to a watcher, ever tell what
    # came before it: play-testing found a watcher's old deadline, and a refresh never told).
    changed = DEADLINE_CHANGED if game.row.deadline_at else DEADLINE_REMOVED
    tell_everyone(desk, game, untold_events(desk, game), why, changed)
    return override_change(desk, game, "deadline", mark)


def resend(desk: Desk, game_id: str, who: str | None, why: str | None) -> Change:
    game, mark = load_override(desk, game_id)
    seats = [game.seat(seat_named(game, who))] if who else game.seats
    whom = game.name_of(seats[0].position) if who else "every player"
    # To one player: what happened since they last wrote, which the status they lost told. To
    # every seat: a status that tells all that is untold.
    resent = StatusResent(seats[0].position, to=(seats[0].position,)) if who else StatusResent(None)
    _record(desk, game, f"status resent to {whom}", why, resent)
    if who:
        news = [resent, *events_since_own(desk, game, seats[0].position)]
    else:
        untold = untold_events(desk, game)
        news = [resent, *untold]
        # Once told, news is never told again: the watchers read it now too.
        if untold:
            tell_watchers(desk, game, untold)
    tell_status(desk, game, seats, news, why, words=RESENT)
    return override_change(desk, game, "resend", mark)


def _corrected(
    desk: Desk,
    game: LoadedGame,
    mark: int,
    verb: str,
    summary: str,
    why: str | None,
    correct: Callable[[Any], list[Event]],
    headline: Headline,
) -> Change:
    """A correction the engine makes to a copy of the state; then every seat gets a status,
    and every watcher, headed `headline`."""
    state = game.engine.load(game.engine.dump(game.state))
    try:
        events = correct(state)
    except ValueError as exc:  # the engine's refusal of a value it cannot take
        raise GmError(_named(game, str(exc))) from exc
    save_state(
        desk.session, game, state, actor=GM, kind="gm", summary=summary, why=why, events=events
    )
    tell_everyone(desk, game, untold_events(desk, game), why, headline)
    return override_change(desk, game, verb, mark)


def load_override(desk: Desk, game_id: str) -> tuple[LoadedGame, int]:
    """The game, and how many letters this transaction had written before the override."""
    return load_game(desk.session, game_id), len(desk.postman.sent)


def _in_play(desk: Desk, game_id: str) -> tuple[LoadedGame, int]:
    """`load_override` for an override that changes the game: a finished game's result stands, so it
    is refused before anything is recorded or mailed. `undo` (which plays it on from before its
    end) and `resend` (the final result again, to a player who lost it) take a finished game."""
    game, mark = load_override(desk, game_id)
    if game.row.status == "finished":
        raise GmError(
            f"{game.id} is over: its final result stands (to change it, `pbem gm undo` to an "
            "entry before its end first)"
        )
    return game, mark


def override_change(
    desk: Desk, game: LoadedGame, verb: str, mark: int, entry: int | None = None
) -> Change:
    """The override's history entry (the latest unless given) and the addresses written to."""
    recorded = history_entry(desk.session, game.id, entry) if entry else None
    row = recorded or last_history(desk.session, game.id, 1)[-1]
    computer = {s.address for s in game.seats if s.kind == "bot"}
    told = (header_safe(letter.to) for letter in desk.postman.sent[mark:])
    return Change(
        game=game.id,
        verb=verb,
        summary=row.summary,
        why=row.why,
        entry=row.seq,
        told=tuple(dict.fromkeys(a for a in told if a not in computer)),
    )


def _drop_computer_mail(desk: Desk, game: LoadedGame, address: str) -> None:
    """Mail the computer player had not read yet: with a person in the seat it would otherwise
    be sent to its unroutable address."""
    unread = desk.session.exec(
        select(OutboxRow)
        .where(col(OutboxRow.game_id) == game.id)
        .where(col(OutboxRow.to_address) == address)
        .where(col(OutboxRow.status) == "pending")
    ).all()
    for row in unread:
        row.status = "failed"
        row.last_error = "the seat passed from the computer to a person before this was read"
        desk.session.add(row)


def _named(game: LoadedGame, refusal: str) -> str:
    """An engine's refusal, for the game master's terminal, with the players' names for the
    engine's seat numbers ("Player 2"); players never read it."""
    names = game.names

    def name(match: re.Match[str]) -> str:
        number = int(match[1])
        return names[number - 1] if 1 <= number <= len(names) else match[0]

    return _SEAT_NUMBER.sub(name, refusal)


def _refused(game: LoadedGame, seat: int, parsed: ParsedOrders, outcome: Submission[Any]) -> str:
    """The rules' refusal of orders the game master entered. The engine words it for the player
    ("You hold 3 3 2 ...; you cannot bid 9 9"), which the game master read as their own hand
    (play-testing): so it is quoted as the player would be told it, after whose orders they
    are and the line it is about."""
    name = game.name_of(seat)
    at = ""
    if outcome.refused_index is not None:
        # The index is among the game's actions: the lines that are no command or talk.
        lines = [line for line in parsed.orders if not isinstance(line.order, AnyCommand | Talk)]
        line = lines[outcome.refused_index]
        at = f' at line {line.number} ("{line.text}")'
    told = _named(game, str(outcome.refusal))
    return f'{name}\'s orders are refused{at}; {name} would be told: "{told}"'


def _record(desk: Desk, game: LoadedGame, summary: str, why: str | None, event: Event) -> None:
    """An entry for a change outside the game's state: `summary` for the game master, `event`
    for the players."""
    append_history(
        desk.session,
        game.id,
        actor=GM,
        kind="gm",
        summary=summary,
        why=why,
        state_after=encode_state(game, game.state),
        events=encode_events([event]),
    )
