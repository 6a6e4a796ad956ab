"""Sign-up by email: a game opened with `pbem open` takes players who write JOIN to its join
address (`pbem+join-bt-3@host`), gives seats back on LEAVE, and starts when full, at its start
date, or when the game master says so (signup_start.py); LIST to the moderator's own address
shows the open games.

The game master (PBEM_GM_ADDRESS) is told of every change; the other players never see an
address.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pbem.games.base import NewGame
from pbem.games.registry import UnknownGame, engine_for
from pbem.moderator.absences import MAX_AWAY_DAYS
from pbem.moderator.addresses import join_game_in, to_bare_address
from pbem.moderator.desk import Desk
from pbem.moderator.kinds import KINDS
from pbem.moderator.signup_letters import (
    RULES,
    answer,
    count_line,
    describe,
    names_line,
    next_steps,
    seat_name,
    seats_words,
    signup_help,
    tell_gm,
)
from pbem.moderator.signup_start import SignupError, start_from_signup
from pbem.moderator.start import (
    StartError,
    check_away,
    check_deadline_hours,
    check_policy,
    check_press,
)
from pbem.orders.incoming import IncomingEmail
from pbem.orders.signup import SignupOrder, name_clash, name_refusal, read_signup, same_name
from pbem.store import (
    SignupPlayerRow,
    SignupRow,
    get_game,
    lock_signup,
    next_game_id,
    seat_by_address,
    seats_of,
    signup_players,
    signups_with_status,
)
from pbem.store.tables import AwayMode, DeadlinePolicy, InboundStatus, Press

MOST_SEATS_TRIED = 8  # a table larger than this is no game pbem knows

Handled = tuple[InboundStatus, str, str | None]


@dataclass(frozen=True)
class SignupRequest:
    game: str
    variant: str = "standard"
    seats: str | None = None  # "3-4" or "4"; None: every count the variant is for
    deadline_hours: float | None = None
    policy: DeadlinePolicy = "wait"
    start_at: datetime | None = None  # None: start when full
    fill_with_bots: bool = False
    # The game's table, as `pbem start` takes it (pbem.moderator.start.GameRequest).
    private: bool = False
    press: Press = "all"
    away_mode: AwayMode = "default"
    max_away_days: int = MAX_AWAY_DAYS


def player_counts(game: str, variant: str) -> list[int]:
    """The numbers of players the game's variant can start with, asked of the engine itself."""
    engine = engine_for(game)
    if variant not in engine.variants:
        raise SignupError(f"{game} has no variant {variant!r}: choose {', '.join(engine.variants)}")
    counts = []
    for players in range(1, MOST_SEATS_TRIED + 1):
        try:
            engine.new_game(NewGame(players, variant, 0))
        except ValueError:  # each engine refuses the player counts its variant is not for
            continue
        counts.append(players)
    return counts


def seat_range(text: str | None, counts: Sequence[int]) -> tuple[int, int]:
    """`3-4` or `4` read as (fewest, most), each a count the game can start with."""
    choices = f"{min(counts)}-{max(counts)}"
    if text is None:
        return min(counts), max(counts)
    low, _, high = text.partition("-")
    try:
        fewest, most = int(low), int(high or low)
    except ValueError:
        raise SignupError(f"--seats {text!r}: write FEWEST-MOST or N, e.g. {choices}") from None
    if fewest > most:
        # Play-testing: `4-3` was told "this game is for 2-4 players", though both counts are.
        legal = all(n in counts for n in range(most, fewest + 1))
        hint = f", e.g. {most}-{fewest}" if legal else f"; this game is for {choices} players"
        raise SignupError(f"--seats {text!r}: write the fewest first{hint}")
    if any(n not in counts for n in range(fewest, most + 1)):
        raise SignupError(f"--seats {text!r}: this game is for {choices} players")
    return fewest, most


def open_signup(desk: Desk, request: SignupRequest) -> SignupRow:
    """Open a game for sign-up under a new game id; nothing is sent."""
    try:
        counts = player_counts(request.game, request.variant)
        if request.deadline_hours is not None:
            check_deadline_hours(request.deadline_hours)
        check_policy(request.policy)
        check_press(request.press)
        check_away(request.away_mode, request.max_away_days)
    except (UnknownGame, StartError) as exc:
        raise SignupError(str(exc)) from exc
    fewest, most = seat_range(request.seats, counts)
    if request.start_at is not None and request.start_at <= desk.clock():
        raise SignupError(f"--start-at {request.start_at:%Y-%m-%d %H:%M} UTC has passed")
    signup = SignupRow(
        id=next_game_id(desk.session, request.game),
        game=request.game,
        variant=request.variant,
        min_seats=fewest,
        max_seats=most,
        deadline_hours=request.deadline_hours,
        policy=request.policy,
        start_at=request.start_at,
        fill_with_bots=request.fill_with_bots,
        private=request.private,
        press=request.press,
        away_mode=request.away_mode,
        max_away_days=request.max_away_days,
        created_at=desk.clock(),
    )
    desk.session.add(signup)
    desk.session.flush()
    return signup


def handle_signup_mail(desk: Desk, email: IncomingEmail) -> Handled | None:
    """Sign-up mail (to a join address, or LIST to the moderator's own), carried out and
    answered; None for any other mail."""
    recipients = list(email.recipients)
    game_id = join_game_in(desk.settings.address, recipients)
    if game_id is not None:
        return _to_join_address(desk, email, game_id)
    bare = to_bare_address(desk.settings.address, recipients)
    word = read_signup(email.text).word if bare else ""
    if word == "LIST":
        return _list(desk, email)
    if word == "JOIN":  # a reply to LIST's answer, say: the games and where JOIN goes
        return _list(desk, email, misdirected=True)
    return None


def _to_join_address(desk: Desk, email: IncomingEmail, game_id: str) -> Handled:
    order = read_signup(email.text)
    signup = lock_signup(desk.session, game_id)
    if signup is None:
        answer(desk, email, None, [_none_open(desk, game_id)])
        return "rejected", "no such sign-up", None
    if order.word == "LIST":
        return _list(desk, email)
    if order.word == "HELP":
        about = describe(desk, signup, _taken(desk, signup))
        answer(desk, email, signup, [about], help_text=signup_help(desk, signup))
        return "accepted", "help", None
    if signup.status != "open":
        answer(desk, email, None, [_ended(desk, signup, email.sender or "")])
        return "rejected", f"sign-up {signup.status}", None
    if order.word == "JOIN":
        return _join(desk, email, signup, order.name)
    if order.word == "LEAVE":
        return _leave(desk, email, signup)
    lines = [_not_an_order(order)]
    players = list(signup_players(desk.session, signup.id))
    index = _seat_index(players, email)
    if index is not None:
        # A player who signed up sends orders before the start (play-testing): they are told
        # first that they have their seat and where orders go once the game starts.
        lines = [
            f"You have a seat in {signup.id}, as {seat_name(players, index)}, but the game has "
            "not started: no game orders are read yet.",
            *lines,
            next_steps(signup),
        ]
    answer(desk, email, signup, lines, help_text=signup_help(desk, signup))
    return "rejected", "no sign-up order", None


def _not_an_order(order: SignupOrder) -> str:
    if not order.line:
        return "Your email was empty."
    meant = f": did you mean {order.meant}?" if order.meant else "."
    return f'"{order.line}" is not a sign-up order{meant}'


def _seat_index(players: Sequence[SignupPlayerRow], email: IncomingEmail) -> int | None:
    """Where the sender is among the players signed up, if they are."""
    sender = (email.sender or "").lower()
    return next((i for i, p in enumerate(players) if p.address == sender), None)


def _join(desk: Desk, email: IncomingEmail, signup: SignupRow, name: str | None) -> Handled:
    sender = (email.sender or "").lower()
    players = list(signup_players(desk.session, signup.id))
    index = _seat_index(players, email)
    if index is not None:
        answer(
            desk,
            email,
            signup,
            [
                f"You have a seat in {signup.id} already, as {seat_name(players, index)}: "
                "one seat each. To change your name, LEAVE and JOIN again.",
                f"Signed up so far: {names_line(players, sender)}.",
            ],
        )
        return "rejected", "already signed up", None
    if len(players) >= signup.max_seats:
        answer(
            desk,
            email,
            signup,
            [
                f"Sorry, {signup.id} is full: all {signup.max_seats} seats are taken. "
                f"Write LIST to {desk.settings.address} for the games still open.",
            ],
        )
        return "rejected", "the game is full", None
    refusal = _name_refusal(name, players)
    if refusal is not None:
        answer(desk, email, signup, [f"No seat taken: {refusal}."])
        return "rejected", refusal, None
    player = SignupPlayerRow(signup_id=signup.id, address=sender, name=name, joined_at=desk.clock())
    desk.session.add(player)
    desk.session.flush()
    players.append(player)
    you = seat_name(players, len(players) - 1)
    tell_gm(
        desk, signup, f"{you} joined", [f"{sender} joined as {you}.", count_line(signup, players)]
    )
    full = len(players) == signup.max_seats and signup.start_at is None
    title = KINDS[signup.game].title
    lines = [
        f"You have a seat in {signup.id}, a game of {title} ({signup.variant}), as {you}.",
        f"Signed up so far ({len(players)} of {seats_words(signup)}): "
        f"{names_line(players, sender)}.",
        RULES[signup.game],
        "The game is full and starts now: your first status email follows, and its reply "
        "address is your own for this game."
        if full
        else next_steps(signup),
    ]
    answer(desk, email, signup, lines, help_text=signup_help(desk, signup), seat_changed=True)
    if full:
        game = start_from_signup(desk, signup, players, "full")
        return "accepted", "joined; the game is full and started", game.id
    return "accepted", "joined", None


def _name_refusal(name: str | None, players: Sequence[SignupPlayerRow]) -> str | None:
    """Why `name` cannot be taken, and what to do: not a name, one a player signed up with
    already, or one that `SAY TO` could not tell from such a name (`Ann` beside `Ann Smith`)."""
    if name is None:
        return None
    refusal = name_refusal(name)
    if refusal is not None:
        return f"{refusal}. JOIN again with another name"
    for taken in (p.name for p in players if p.name):
        word = name_clash(name, taken)
        if word is None:
            continue
        clash = f"the name {name} reads like {taken}, who signed up already"
        if same_name(name, taken):
            return f"{clash}. JOIN again with another name"
        return (
            f"{clash}: the players talk to one another with SAY TO and a name or its first "
            f"word, and SAY TO {word} would not tell you apart. JOIN again with another name, "
            f"whose first word is not {word}"
        )
    return None


def _leave(desk: Desk, email: IncomingEmail, signup: SignupRow) -> Handled:
    sender = (email.sender or "").lower()
    players = list(signup_players(desk.session, signup.id))
    index = _seat_index(players, email)
    if index is None:
        answer(desk, email, signup, [f"You have no seat in {signup.id}, so none was given back."])
        return "rejected", "not signed up", None
    name = seat_name(players, index)
    desk.session.delete(players.pop(index))
    desk.session.flush()
    left = [f"{sender} ({name}) left.", count_line(signup, players)]
    tell_gm(desk, signup, f"{name} left", left)
    answer(
        desk,
        email,
        signup,
        [f"You gave back your seat in {signup.id}. JOIN again while it is open, if you like."],
        seat_changed=True,
    )
    return "accepted", "left", None


def _list(desk: Desk, email: IncomingEmail, misdirected: bool = False) -> Handled:
    open_now = signups_with_status(desk.session, "open")
    lines = [describe(desk, signup, _taken(desk, signup)) for signup in open_now]
    if lines:
        lines.insert(
            0,
            "Games open for sign-up (to join one, write JOIN or JOIN <your name> to its join "
            "address):",
        )
    else:
        lines = ["No game is open for sign-up just now."]
    if misdirected:
        lines.insert(
            0,
            f"No seat taken: JOIN goes to the join address of a game, not to "
            f"{desk.settings.address}.",
        )
    answer(desk, email, None, lines, help_text=signup_help(desk, None))
    return (
        ("rejected", "JOIN to the bare address", None)
        if misdirected
        else ("accepted", "list", None)
    )


def _taken(desk: Desk, signup: SignupRow) -> int:
    return len(signup_players(desk.session, signup.id))


def _ended(desk: Desk, signup: SignupRow, sender: str) -> str:
    still_open = f"Write LIST to {desk.settings.address} for the games still open."
    if signup.status == "started" and seat_by_address(desk.session, signup.id, sender):
        # A player of the game writing JOIN or LEAVE here: the way on is the game's own mail.
        return (
            f"You play in {signup.id}, which has started, so its sign-up takes no more orders. "
            "Reply to the latest email of the game with your orders; to leave the game, reply "
            "RESIGN to it (a computer player takes your seat)."
        )
    if signup.status == "started":
        return f"{_started_late(desk, signup)} {still_open}"
    return f"Sorry, the sign-up for {signup.id} was closed by the game master. {still_open}"


def _started_late(desk: Desk, signup: SignupRow) -> str:
    """A JOIN after the start: "full" only when every seat was taken (a range of seats may start
    with fewer), and WATCH where the game takes watchers (not private, not over), as
    `watchers.watch` decides."""
    game = get_game(desk.session, signup.id)
    seated = len(seats_of(desk.session, signup.id))
    if seated >= signup.max_seats:
        told = f"Sorry, {signup.id} is full: the game has started."
    else:
        told = (
            f"Sorry, {signup.id} has already started, with {seated} of its "
            f"{seats_words(signup)} seats taken: it takes no more players."
        )
    if game is None or game.private or game.status == "finished":
        return told
    return (
        f"{told} To follow it without playing, write WATCH {signup.id} to {desk.settings.address}."
    )


def _none_open(desk: Desk, game_id: str) -> str:
    return (
        f"No game {game_id} is open for sign-up. Write LIST to {desk.settings.address} for "
        "the games that are."
    )
