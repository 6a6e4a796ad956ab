"""The sign-up's letters: answers to JOIN, LEAVE, LIST and HELP, notices to the game master, and
what the open game looks like in a line. Players are named by name only ("Player N" without
one); addresses go to the game master alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pbem.moderator.absences import absence_rule
from pbem.moderator.addresses import join_address
from pbem.moderator.counting import are
from pbem.moderator.desk import Desk
from pbem.moderator.kinds import KINDS
from pbem.moderator.letters import notice_letter, reply_subject
from pbem.orders.help import help_text
from pbem.orders.incoming import IncomingEmail
from pbem.orders.signup import SIGNUP_HELP
from pbem.store import SignupPlayerRow, SignupRow

# Sign-up mail comes from people the moderator does not know yet: its answers are rate limited
# like any answer to a stranger, so a forged sender cannot turn the moderator into a mail cannon.
SIGNUP_REPLIES_PER_HOUR = 6
# A seat taken or given back is always told, up to this many answers an hour: the sender must
# know they hold a seat, while a JOIN/LEAVE loop from a forged address still cannot flood anyone.
SEAT_REPLIES_PER_HOUR = 20
REPLY_KINDS = ("signup", "stranger")

RULES = {
    "bigtime": (
        "The Big Time! in short: in each phase every player bids at once, in secret, for the "
        "acts on offer (troupers and headliners) and says which shows they want them in. Four "
        "rounds of three phases; the most points at the end wins."
    ),
    "showmanager": (
        "Show Manager in short: in turn, players hire actors from the agency (with loans when "
        "money is short) and stage musicals in the cities; the better the cast, the more "
        "points. The most points at the end wins."
    ),
}


def seat_name(players: Sequence[SignupPlayerRow], index: int) -> str:
    """What the other players read for the player who joined `index`-th (from 0)."""
    return players[index].name or f"Player {index + 1}"


def names_line(players: Sequence[SignupPlayerRow], reader: str | None) -> str:
    names = [
        seat_name(players, index) + (" (you)" if player.address == reader else "")
        for index, player in enumerate(players)
    ]
    return ", ".join(names) or "nobody yet"


def seats_words(signup: SignupRow) -> str:
    low, high = signup.min_seats, signup.max_seats
    return str(high) if low == high else f"{low}-{high}"


def start_words(signup: SignupRow) -> str:
    if signup.start_at is None:
        return "starts when full"
    fewest = (
        f"computer players filling up to {signup.min_seats}"
        if signup.fill_with_bots
        else f"at least {signup.min_seats}"
    )
    return f"starts {signup.start_at:%Y-%m-%d %H:%M} UTC with the players signed up ({fewest})"


def count_line(signup: SignupRow, players: Sequence[SignupPlayerRow]) -> str:
    taken = len(players)
    return f"{taken} of {seats_words(signup)} seats {are(taken)} taken."


def deadline_words(signup: SignupRow) -> str:
    if not signup.deadline_hours:
        return "no deadline"
    return f"{signup.deadline_hours:g} hours a turn or phase (then: {signup.policy})"


def describe(desk: Desk, signup: SignupRow, taken: int) -> str:
    """One open game as LIST shows it."""
    title = KINDS[signup.game].title
    return (
        f"{signup.id}: {title} ({signup.variant}), {taken} of {seats_words(signup)} seats taken, "
        f"{deadline_words(signup)}, {start_words(signup)}. "
        f"Join: {join_address(desk.settings.address, signup.id)}"
    )


def next_steps(signup: SignupRow) -> str:
    """What happens after a JOIN, as the welcome tells it."""
    if signup.start_at is None:
        when = f"The game starts as soon as all {signup.max_seats} seats are taken"
    else:
        when = (
            f"The game starts on {signup.start_at:%Y-%m-%d %H:%M} UTC with the players signed "
            f"up then (at least {signup.min_seats})"
        )
    return (
        f"{when}, or earlier if the game master starts it. Then you get your first status "
        "email: reply to it with your orders. Until the start, reply LEAVE to this email to "
        "give your seat back."
    )


def signup_help(desk: Desk, signup: SignupRow | None) -> str:
    """The sign-up orders, and the game's own orders when the email named a game."""
    join = join_address(desk.settings.address, signup.id if signup else "GAME")
    orders = SIGNUP_HELP.format(join=join)
    if signup is None:
        return orders
    rule = absence_rule(signup.away_mode, signup.max_away_days)
    return f"{orders}\n{help_text(signup.game, signup.variant, table=[rule])}"


def answer(
    desk: Desk,
    email: IncomingEmail,
    signup: SignupRow | None,
    lines: Sequence[str],
    *,
    help_text: str | None = None,
    seat_changed: bool = False,
) -> bool:
    """Answer sign-up mail, unless its sender had their share of answers this hour (a larger one
    when the email took or gave back a seat); the answer's Reply-To is the game's join address,
    so LEAVE is a reply."""
    assert email.sender is not None
    limit = SEAT_REPLIES_PER_HOUR if seat_changed else SIGNUP_REPLIES_PER_HOUR
    if desk.answers_this_hour(email.sender, REPLY_KINDS) >= limit:
        return False
    words = email.subject or (f"Sign-up for {signup.id}" if signup else "Your email")
    letter = notice_letter(
        to=email.sender,
        game=None,
        seat=None,
        settings=desk.settings,
        words=reply_subject(words),
        kind="signup",
        lines=lines,
        help_text=help_text,
        in_reply_to=email.message_id,
    )
    if signup is not None:
        letter = replace(letter, reply_to=join_address(desk.settings.address, signup.id))
    desk.postman.post(letter, None)
    return True


def tell_address(
    desk: Desk, to: str, words: str, lines: Sequence[str], why: str | None = None
) -> None:
    """A notice that is no answer (a closed sign-up, the game master's news): never limited."""
    desk.postman.post(
        notice_letter(
            to=to,
            game=None,
            seat=None,
            settings=desk.settings,
            words=words,
            kind="notice",
            lines=lines,
            why=why,
        ),
        None,
    )


def tell_gm(desk: Desk, signup: SignupRow, words: str, lines: Sequence[str]) -> None:
    """Tell the game master (PBEM_GM_ADDRESS, if set) of a change to a sign-up."""
    if desk.settings.gm_address:
        tell_address(desk, desk.settings.gm_address, f"Sign-up {signup.id}: {words}", lines)
