"""Starting a game: the engine's first state, the seats with their secrets, the welcome mail."""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, cast, get_args

from pbem.games.base import NewGame
from pbem.games.event_codec import encode_events
from pbem.games.levels import DEFAULT_LEVEL, LEVELS
from pbem.games.registry import engine_for
from pbem.moderator.absences import MAX_AWAY_DAYS
from pbem.moderator.addresses import bot_address
from pbem.moderator.desk import Desk
from pbem.moderator.events import GameStarted
from pbem.moderator.letters import status_letter
from pbem.moderator.loaded import LoadedGame, encode_state
from pbem.moderator.news import untold_events
from pbem.moderator.play import follow_up
from pbem.moderator.telling import computer_name
from pbem.orders.signup import same_name
from pbem.store import GameRow, SeatRow, append_history, new_secret, next_game_id
from pbem.store.tables import LARGEST_INTEGER, AwayMode, BotLevel, DeadlinePolicy, Press
from pbem.unreachable import unreachable


class StartError(ValueError):
    """A game that cannot be started as asked; the message says why."""


@dataclass(frozen=True)
class PlayerSpec:
    address: str
    name: str | None = None
    bot: str | None = None  # a computer player's name; None for a person
    level: BotLevel | None = None  # a computer player's level; None for a person

    def __post_init__(self) -> None:
        check_address(self.address)

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """`ann@example.org` or `ann@example.org:Ann`, a person the game master names: at an
        address mail can reach (a transcript's seats may sit at `bots.invalid`)."""
        address, _, name = text.partition(":")
        spec = cls(address.strip(), name.strip() or None)
        check_deliverable(spec.address)
        return spec

    @classmethod
    def computer(cls, text: str) -> PlayerSpec:
        """`Robby` or `Robby:sensible`: a computer player's name and level (default: strong), at
        an address no mail can reach (`robby@bots.invalid`), as every computer-held seat has."""
        name, _, level = (part.strip() for part in text.partition(":"))
        if not name:
            raise StartError(f"--bot {text!r}: give a name, as NAME or NAME:LEVEL")
        level = level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise StartError(
                f"--bot {text!r}: the level {level!r} is not one of {', '.join(LEVELS)}"
            )
        return cls(bot_address(name), computer_name(name), name, cast(BotLevel, level))


def check_names(names: Sequence[str]) -> None:
    """Players are told apart by name (`SAY TO Ann`, `pbem gm ... Ann`): no two may read alike."""
    for seat, name in enumerate(names):
        if any(same_name(name, other) for other in names[:seat]):
            raise StartError(
                f"two players would be called {name!r}: give each a name of their own (EMAIL:NAME)"
            )


def check_address(address: str) -> None:
    """A bare address a mail server accepts as a recipient: no name, spaces or line breaks."""
    local, at, domain = address.partition("@")
    if not (local and at and domain) or any(c in address for c in ' \t\r\n<>,;:"()[]\\'):
        raise StartError(f"{address!r} is not an email address (write EMAIL or EMAIL:NAME)")
    if not address.isascii():  # the moderator's mail servers may not take it (no SMTPUTF8)
        raise StartError(
            f"{address!r}: write the address in plain ASCII letters (a domain with accents in "
            "its xn-- form)"
        )


def check_deliverable(address: str) -> None:
    """A person's or a watcher's address: one mail can reach (computer players sit at
    `bots.invalid`, which RFC 2606 keeps from ever receiving mail)."""
    if unreachable(address):
        raise StartError(f"{address!r}: no mail can reach a .invalid domain")


# A year: longer is a typo, and far longer would overflow the clock's arithmetic.
LONGEST_DEADLINE_HOURS = 24 * 366
POLICIES: tuple[str, ...] = get_args(DeadlinePolicy)
PRESS: tuple[str, ...] = get_args(Press)
AWAY_MODES: tuple[str, ...] = get_args(AwayMode)
# A year, as the longest single absence (pbem.orders.absence.LONGEST_AWAY_DAYS).
LONGEST_AWAY_CAP = 366


def check_deadline_hours(hours: float) -> None:
    """Hours for each turn or phase: a number above 0, at most a year."""
    if not (math.isfinite(hours) and 0 < hours <= LONGEST_DEADLINE_HOURS):
        raise StartError(
            f"deadline {hours:g} is not a number of hours above 0 and at most "
            f"{LONGEST_DEADLINE_HOURS}"
        )


def check_seed(seed: int) -> None:
    """A seed the games table can keep (`pbem start --seed`, a transcript's `seed:`)."""
    if not 0 <= seed <= LARGEST_INTEGER:
        raise StartError(f"seed {seed}: write a whole number from 0 to {LARGEST_INTEGER}")


def check_policy(policy: str) -> None:
    if policy not in POLICIES:
        raise StartError(f"policy {policy!r} is not one of {', '.join(POLICIES)}")


def check_press(press: str) -> None:
    if press not in PRESS:
        raise StartError(f"press {press!r} is not one of {', '.join(PRESS)}")


def check_away(mode: str, max_days: int) -> None:
    """What an away player's turns get (default or wait), and the days away a game allows."""
    if mode not in AWAY_MODES:
        raise StartError(f"--away {mode!r} is not one of {', '.join(AWAY_MODES)}")
    if not 0 <= max_days <= LONGEST_AWAY_CAP:
        raise StartError(
            f"--max-away-days {max_days} is not a number of days from 0 (no absences) "
            f"to {LONGEST_AWAY_CAP}"
        )


@dataclass(frozen=True)
class GameRequest:
    game: str
    players: tuple[PlayerSpec, ...]
    variant: str = "standard"
    seed: int | None = None
    first_player: str | None = None
    data_file: Path | None = None
    deadline_hours: float | None = None
    policy: DeadlinePolicy = "wait"
    press: Press = "all"  # table talk: all, public (whispers are seen), none
    away_mode: AwayMode = "default"
    max_away_days: int = MAX_AWAY_DAYS
    setup: dict[str, Any] = field(default_factory=dict)
    game_id: str | None = None  # the id a sign-up reserved (pbem/moderator/signup.py); else new
    private: bool = False  # refuses watchers


def start_game(desk: Desk, request: GameRequest) -> LoadedGame:
    engine = engine_for(request.game)
    if request.variant not in engine.variants:
        raise StartError(
            f"{request.game} has no variant {request.variant!r}: "
            f"choose {', '.join(engine.variants)}"
        )
    if request.deadline_hours is not None:
        check_deadline_hours(request.deadline_hours)
    check_policy(request.policy)
    check_press(request.press)
    check_away(request.away_mode, request.max_away_days)
    # A computer player goes by its own name too (`--bot Ann` beside a player Ann).
    check_names([p.bot or p.name or f"Player {seat + 1}" for seat, p in enumerate(request.players)])
    addresses = [player.address.lower() for player in request.players]
    if len(set(addresses)) != len(addresses):
        raise StartError("each player needs an address of their own")
    first = None
    if request.first_player is not None:
        if request.first_player.lower() not in addresses:
            raise StartError(f"first player {request.first_player} is not one of the players")
        first = addresses.index(request.first_player.lower())
    seed = request.seed if request.seed is not None else secrets.randbelow(2**31)
    check_seed(seed)
    spec = NewGame(
        len(request.players), request.variant, seed, first, request.data_file, request.setup
    )
    try:
        state = engine.new_game(spec)
    except (ValueError, KeyError, OSError) as exc:
        raise StartError(f"cannot start {request.game}: {exc}") from exc
    session = desk.session
    row = GameRow(
        id=request.game_id or next_game_id(session, request.game),
        game=request.game,
        variant=request.variant,
        seed=seed,
        state=json.dumps(engine.dump(state)),
        data_file=str(request.data_file) if request.data_file else None,
        deadline_hours=request.deadline_hours,
        policy=request.policy,
        private=request.private,
        press=request.press,
        away_mode=request.away_mode,
        max_away_days=request.max_away_days,
        deadline_at=(desk.clock() + timedelta(hours=request.deadline_hours))
        if request.deadline_hours
        else None,
    )
    session.add(row)
    seats: list[SeatRow] = []
    for position, player in enumerate(request.players):
        seat = SeatRow(
            game_id=row.id,
            position=position,
            address=player.address,
            name=player.name,
            secret=new_secret({s.secret for s in seats}),
            kind="bot" if player.bot else "human",
            bot_name=player.bot,
            bot_level=player.level if player.bot else None,
        )
        seats.append(seat)
        session.add(seat)
    session.flush()
    game = LoadedGame(row, seats, engine, state)
    append_history(
        session,
        row.id,
        actor="gm",
        kind="gm",
        # The seed stays with the game master: it would tell every face-down card.
        summary=f"game started (seed {seed})",
        state_after=encode_state(game, state),
        events=encode_events([GameStarted(press=request.press)]),
    )
    welcome = untold_events(desk, game)
    for seat in game.seats:
        desk.postman.post(
            status_letter(game, seat.position, desk.settings, welcome, "Welcome"), row.id
        )
    follow_up(desk, game, [], game.engine.progress(state))
    return game
