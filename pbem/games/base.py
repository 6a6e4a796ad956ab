"""What every rules engine offers the rest of pbem, and the values it hands back.

An engine is a module-level object implementing `RulesEngine`. Seats are numbered 0..N-1 in seat
order; addresses and names live outside the engine. `apply` changes a state in place (fast for
simulation); `submit` never touches the state it is given and returns a new one, which is what
the moderator uses so a refused email changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar, dataclass_transform

from pbem.games.rng import Rng

S = TypeVar("S")
A = TypeVar("A")
R = TypeVar("R")


@dataclass(frozen=True)
class Refusal:
    """Why an order cannot be carried out, in words a player can act on, and what would be legal."""

    reason: str
    legal: tuple[str, ...] = ()

    def __str__(self) -> str:
        if not self.legal:
            return self.reason
        return f"{self.reason} (legal now: {', '.join(self.legal)})"


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[R]) -> type[R]:
    """A value that never changes once made, such as an event or an order: a slotted dataclass
    compared and hashed by its fields.

    The type checker holds every `@record` class frozen. At run time it is a plain slotted
    dataclass all the same: a frozen one's `__init__` sets each field through
    `object.__setattr__`, several times slower, and games make events and orders by the hundred
    (an eighth to a sixth of a random game's time, issue 14).
    """
    return dataclass(slots=True, unsafe_hash=True)(cls)


@record
class Event:
    """Something that happened, as data: players by seat, cards by id, never words.

    Each kind of event is a subclass whose `kind` ("game.name") names the template macro that
    tells it to a reader (`pbem/templates/events/`). `to` None: everyone may know it; else only
    those seats (the game master always may).
    """

    kind: ClassVar[str] = ""
    to: tuple[int, ...] | None = field(default=None, kw_only=True)

    def __init_subclass__(cls) -> None:
        # No super(): `dataclass(slots=True)` remakes the class, which breaks its __class__ cell.
        if cls.kind:
            # `dataclass(slots=True)` makes a second class of the same name: it replaces the first.
            known = EVENT_KINDS.get(cls.kind)
            if known is not None and known.__qualname__ != cls.__qualname__:
                raise TypeError(f"event kind {cls.kind!r} is taken by {known.__qualname__}")
            EVENT_KINDS[cls.kind] = cls

    def visible_to(self, seat: int | None) -> bool:
        """seat None is the game master, who sees everything."""
        return self.to is None or seat is None or seat in self.to

    @property
    def files(self) -> tuple[object, ...] | None:
        """What the event puts on file, when a later event filing the same replaces it (a
        player's order for a phase, sent again): news tells the latest alone. None: it is no
        filing, and nothing replaces it."""
        return None


EVENT_KINDS: dict[str, type[Event]] = {}


@dataclass
class Submission(Generic[S]):
    """The outcome of one email's actions: a new state and events, or the refused action's index."""

    state: S | None
    events: list[Event] = field(default_factory=list)
    refused_index: int | None = None
    refusal: Refusal | None = None

    @property
    def accepted(self) -> bool:
        return self.refusal is None


@dataclass(frozen=True)
class Standing:
    seat: int
    score: int
    money: int


@dataclass(frozen=True)
class Outcome:
    """The end of a game: standings best first; winner None when the tie-breaks leave a tie."""

    standings: tuple[Standing, ...]
    winner: int | None


@dataclass(frozen=True)
class NewGame:
    """What starting a game takes. `setup` holds REPLAY.md's optional fixed set-up for the game."""

    players: int
    variant: str
    seed: int
    first_player: int | None = None
    data_file: Path | None = None
    setup: dict[str, Any] = field(default_factory=dict)


class RulesEngine(Protocol[S, A]):
    name: str
    variants: tuple[str, ...]

    def new_game(self, spec: NewGame) -> S: ...

    def awaiting(self, state: S) -> tuple[int, ...]:
        """The seats whose orders the game waits for now (empty once over)."""

    def check(self, state: S, seat: int, action: A) -> Refusal | None: ...

    def apply(self, state: S, seat: int, action: A) -> list[Event]:
        """Carry out a checked action, changing `state` in place."""

    def submit(self, state: S, seat: int, actions: Sequence[A]) -> Submission[S]:
        """One email's actions, all or nothing, on a copy of `state`."""

    def is_over(self, state: S) -> bool: ...

    def outcome(self, state: S) -> Outcome: ...

    def view(self, state: S, seat: int | None) -> Any:
        """The one place hidden information is filtered. seat None is the game master's view."""

    def public_view(self, state: S) -> Any:
        """What everyone may see, as a watcher of the game does: no seat's private part."""

    def progress(self, state: S) -> str:
        """A key that changes exactly when the game moves on for everybody (a turn ends, a phase
        resolves), which is when every player is sent a new status."""

    def codes(self, state: S) -> dict[str, str]:
        """The short codes orders may use now for card ids (e.g. `A1` -> `T07`); may be empty."""

    def legal_summary(self, state: S, seat: int) -> list[str]:
        """Example order lines `seat` could send now, for status emails."""

    def default_actions(self, state: S, seat: int) -> list[A]:
        """A sensible order for a seat that sent none (deadlines, computer players)."""

    def skip(self, state: S, seat: int) -> list[Event]:
        """The seat missed its deadline under the `skip` policy: the game goes on without its
        orders. Changes `state` in place."""

    def withdraw(self, state: S, seat: int) -> None:
        """The seat's orders on file are taken back, unplayed: the seat passed to another person,
        who gives their own. Changes `state` in place."""

    def unseen(self, state: S) -> Any:
        """What no player has seen yet and the game will reveal (the order of undrawn cards,
        face-down cards, the generator of later draws), as a value two states share exactly
        when the same things are still hidden in the same order."""

    def reshuffle(self, state: S, rng: Rng) -> S:
        """A copy of `state` with everything `unseen` covers drawn again by `rng`, which then
        makes every later random draw: what an undone entry showed comes out anew."""

    def bot_actions(self, state: S, seat: int, rng: Rng) -> list[A]:
        """A computer player's email for `seat`, using only what that seat may see."""

    def random_actions(self, state: S, seat: int, rng: Rng) -> list[A]:
        """A uniformly chosen legal email's worth of actions for `seat` (for simulation)."""

    def dump(self, state: S) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> S: ...
