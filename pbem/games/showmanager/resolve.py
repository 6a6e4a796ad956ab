"""What an order refers to on the table now: the slot, the production, the musical and city.

Resolving does not judge legality (that is `rules`); it is shared by the checks and by `turns`,
which carries out orders already checked without checking them again.
"""

from __future__ import annotations

from pbem.games.showmanager import board
from pbem.games.showmanager.actions import Hire, Loan, Stage
from pbem.games.showmanager.names import find_city, find_musical, find_role
from pbem.games.showmanager.state import Chip, GameState


def hire_slot(state: GameState, hire: Hire) -> int | None:
    """The slot a HIRE names; None when its card is not on display."""
    if hire.card is None:
        return hire.slot
    return state.display.index(hire.card) if hire.card in state.display else None


def loan_chip(state: GameState, seat: int, loan: Loan) -> Chip | None:
    """The production a LOAN names; a bare musical name names its only production."""
    musical = find_musical(state.data, loan.musical)
    own = [] if musical is None else board.own_chips(state, seat, musical)
    if loan.number is None:
        return own[0] if len(own) == 1 else None
    return next((chip for chip in own if chip.number == loan.number), None)


def stage_city(state: GameState, musical: int, named: str | None) -> int | None:
    """Where a production of `musical` goes: its city once it has one, else the named one."""
    home = state.musical_city[musical]
    if home is not None:
        return home
    return None if named is None else find_city(state.data, named)


def fixed_roles(state: GameState, musical: int, stage: Stage) -> dict[int, int | None]:
    """The explicit casting, card -> role index (None: no such role in the musical)."""
    return {card: find_role(state.data, musical, role) for card, role in stage.casting}
