"""Ending a sign-up: the game starts from it (full, at its date, or by the game master), or the
game master closes it. Starting is the normal start (pbem/moderator/start.py) under the id the
sign-up reserved, with the players in the order they joined and computer players filling up to
the fewest when asked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pbem.games.event_codec import encode_events
from pbem.moderator.counting import counted
from pbem.moderator.desk import Desk
from pbem.moderator.events import GmReason, StartedByGm
from pbem.moderator.loaded import LoadedGame, encode_state
from pbem.moderator.signup_letters import count_line, tell_address, tell_gm
from pbem.moderator.start import GameRequest, PlayerSpec, StartError, start_game
from pbem.orders.signup import same_name
from pbem.store import (
    SignupPlayerRow,
    SignupRow,
    append_history,
    lock_signup,
    signup_players,
)

# The computer players that make up the numbers, in this order, skipping names already taken.
BOT_NAMES = ("Robby", "Marvin", "Ada", "Hal", "Dot", "Kit")
# What started a game from its sign-up (`signups.ended_by`): its last seat taken, its start date
# or the game master.
StartedBy = Literal["full", "date", "gm"]


class SignupError(ValueError):
    """A sign-up that cannot be opened, started or closed as asked; the message says why."""


@dataclass(frozen=True)
class SignupChange:
    """What `pbem gm start` or `pbem gm close` did, and whom it wrote to."""

    game: str
    summary: str
    why: str | None
    told: tuple[str, ...]


def start_from_signup(
    desk: Desk,
    signup: SignupRow,
    players: Sequence[SignupPlayerRow],
    by: StartedBy,
    why: str | None = None,
    fill: bool = False,
) -> LoadedGame:
    """Start the game with the players signed up, in the order they joined, and computer
    players up to the fewest when `fill`; refused with too few."""
    specs = [PlayerSpec(p.address, p.name) for p in players]
    short = signup.min_seats - len(specs)
    if short > 0 and not fill:
        raise SignupError(
            f"{signup.id} has {len(specs)} of at least {signup.min_seats} players; "
            "wait, or fill the seats with computer players (--fill-with-bots)"
        )
    computers = _computers(desk, players, max(short, 0))
    request = GameRequest(
        game=signup.game,
        players=tuple(specs + computers),
        variant=signup.variant,
        deadline_hours=signup.deadline_hours,
        policy=signup.policy,
        press=signup.press,
        away_mode=signup.away_mode,
        max_away_days=signup.max_away_days,
        game_id=signup.id,
        private=signup.private,
    )
    try:
        game = start_game(desk, request)
    except StartError as exc:
        raise SignupError(str(exc)) from exc
    signup.status, signup.ended_at, signup.ended_by, signup.why = "started", desk.clock(), by, why
    desk.session.add(signup)
    if by == "gm":  # an override, recorded like every other
        events = [StartedByGm(len(players), len(computers)), *([GmReason(why)] if why else [])]
        append_history(
            desk.session,
            game.id,
            actor="gm",
            kind="gm",
            summary=f"started from the sign-up with {_started_with(len(players), len(computers))}",
            why=why,
            state_after=encode_state(game, game.state),
            events=encode_events(events),
        )
    tell_gm(
        desk,
        signup,
        "the game started",
        [f"{signup.id} started {_how_started(signup, by)} with {', '.join(game.names)}."],
    )
    return game


def _started_with(people: int, computers: int) -> str:
    """Who a game started with: play-testing read "1 of 4 players and 2 computer players" of a
    sign-up for 3-4 that started with 3, and took 4 for the players there were."""
    signed_up = f"{counted(people, 'player')} signed up"
    return f"{signed_up} and {counted(computers, 'computer player')}" if computers else signed_up


def _how_started(signup: SignupRow, by: StartedBy) -> str:
    """What started the game, in words: `by` is a code kept in `signups.ended_by`, which the
    game master's notice once showed as it is ("started (date)")."""
    if by == "full":
        return f"when its last seat was taken (all {signup.max_seats})"
    if by == "date":
        assert signup.start_at is not None  # only a sign-up with a date starts at it
        return f"at its start date, {signup.start_at:%Y-%m-%d %H:%M} UTC,"
    return "by the game master (pbem gm start)"


def _computers(desk: Desk, players: Sequence[SignupPlayerRow], count: int) -> list[PlayerSpec]:
    taken_names = [p.name for p in players if p.name]
    taken_addresses = {p.address for p in players}
    free = [
        spec
        for spec in (PlayerSpec.computer(name) for name in BOT_NAMES)
        if spec.bot
        and not any(same_name(spec.bot, taken) for taken in taken_names)
        and spec.address not in taken_addresses
    ]
    return free[:count]


def gm_start(desk: Desk, game_id: str, why: str | None, fill: bool = False) -> SignupChange:
    """`pbem gm start`: start an open game now with the players signed up."""
    signup = _open(desk, game_id)
    players = signup_players(desk.session, signup.id)
    if not players:
        raise SignupError(f"nobody has signed up for {game_id}; `pbem gm close {game_id}` ends it")
    game = start_from_signup(desk, signup, players, "gm", why, fill or signup.fill_with_bots)
    return SignupChange(
        game.id,
        f"started with {', '.join(game.names)}",
        why,
        tuple(seat.address for seat in game.humans()),
    )


def gm_close(desk: Desk, game_id: str, why: str | None) -> SignupChange:
    """`pbem gm close`: end the sign-up without a game; each player signed up is told."""
    signup = _open(desk, game_id)
    players = signup_players(desk.session, signup.id)
    signup.status, signup.ended_at, signup.ended_by, signup.why = "closed", desk.clock(), "gm", why
    desk.session.add(signup)
    for player in players:
        tell_address(
            desk,
            player.address,
            f"Sign-up {signup.id}: closed",
            [
                f"The game master closed the sign-up for {signup.id}: the game will not start, "
                "and your seat is given back.",
                f"Write LIST to {desk.settings.address} for the games open for sign-up.",
            ],
            why,
        )
    told = f"{counted(len(players), 'player')} told" if players else "nobody had signed up"
    tell_gm(desk, signup, "closed", [f"{signup.id} closed; {told}."])
    return SignupChange(game_id, "sign-up closed", why, tuple(p.address for p in players))


def start_due(desk: Desk, signup_id: str) -> bool:
    """At the start date: start with the players signed up (computer players filling up when
    asked); too few, and the game master is told once while the game stays open. True when
    the game started."""
    signup = lock_signup(desk.session, signup_id)
    if signup is None or signup.status != "open":
        return False
    players = signup_players(desk.session, signup.id)
    enough = len(players) >= signup.min_seats or (signup.fill_with_bots and bool(players))
    if enough:
        start_from_signup(desk, signup, players, "date", fill=signup.fill_with_bots)
        return True
    if signup.short_told_at is None:
        signup.short_told_at = desk.clock()
        desk.session.add(signup)
        tell_gm(
            desk,
            signup,
            "too few players at the start date",
            [
                f"{signup.id} was to start now, but {count_line(signup, players)} The sign-up "
                "stays open.",
                f"Start it anyway (pbem gm start {signup.id} --fill-with-bots) or close it "
                f"(pbem gm close {signup.id}).",
            ],
        )
    return False


def _open(desk: Desk, game_id: str) -> SignupRow:
    signup = lock_signup(desk.session, game_id)
    if signup is None or signup.status != "open":
        raise SignupError(f"{game_id} is not open for sign-up; `pbem games` lists the open ones")
    return signup
