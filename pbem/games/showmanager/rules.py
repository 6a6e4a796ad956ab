"""Whether an order may be carried out now; if not, a `Refusal` in words the player can act on,
naming the legal orders of the kind the player was trying for.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.base import Refusal
from pbem.games.showmanager import agency, board, resolve
from pbem.games.showmanager.actions import Action, Hire, Loan, Refresh, Stage
from pbem.games.showmanager.legal import hand_rules, legal_summary
from pbem.games.showmanager.names import (
    city_name,
    find_city,
    find_musical,
    musical_name,
    production_name,
    seat_name,
)
from pbem.games.showmanager.state import GameState

LOANS = ("LOAN",)
HIRES = ("HIRE",)
# A card not on offer may come with a refresh: those are the player's ways to another card.
OTHER_CARDS = ("REFRESH", "HIRE")
STAGES = ("STAGE",)
TURN_ENDS = ("HIRE", "STAGE")
AFTER_LOAN = ("REFRESH", "HIRE", "STAGE")


def check(state: GameState, seat: int, action: Action) -> Refusal | None:
    refusal = turn_refusal(state, seat)
    if refusal is not None:
        return refusal
    if isinstance(action, Refresh):
        return refresh_refusal(state, seat)
    if isinstance(action, Hire):
        return hire_refusal(state, seat, action)
    if isinstance(action, Loan):
        return loan_refusal(state, seat, action)
    return stage_refusal(state, seat, action)


def turn_refusal(state: GameState, seat: int) -> Refusal | None:
    if state.turn is None:
        return Refusal("the game is over")
    if state.turn != seat:
        return Refusal(f"it is {seat_name(state.turn)}'s turn, not yours")
    return None


def _refuse(state: GameState, seat: int, kinds: tuple[str, ...], reason: str) -> Refusal:
    """A refusal naming the legal orders of the kinds the player was trying for, or, when none
    of those is legal (no production to borrow against), everything the player may do now."""
    return Refusal(reason, tuple(legal_summary(state, seat, kinds) or legal_summary(state, seat)))


def refresh_refusal(state: GameState, seat: int) -> Refusal | None:
    money = state.players[seat].money
    cost = state.data.refresh_cost
    if money < cost:
        return _refuse(state, seat, TURN_ENDS, f"a refresh costs {cost} but you have {money}")
    if not agency.cards_left(state):
        return _refuse(state, seat, TURN_ENDS, "there are no cards left to refresh the agency with")
    return None


def refreshes_refusal(state: GameState, seat: int, times: int) -> Refusal | None:
    """`times` refreshes in a row (REFRESH 10), judged before the first of them: refused one by
    one, the tenth would tell of the money left after nine, which the player does not have."""
    refusal = turn_refusal(state, seat) or refresh_refusal(state, seat)
    money = state.players[seat].money
    cost = state.data.refresh_cost
    if refusal is not None or times * cost <= money:
        return refusal
    return _refuse(
        state,
        seat,
        ("REFRESH", *TURN_ENDS),
        f"{times} refreshes cost {times * cost} and you have {money}: "
        f"you can afford up to {money // cost}",
    )


def hire_refusal(state: GameState, seat: int, hire: Hire) -> Refusal | None:
    display = state.display
    if (hire.slot is None) == (hire.card is None):
        return _refuse(state, seat, HIRES, "HIRE needs either a slot or a card id")
    slot = resolve.hire_slot(state, hire)
    if slot is None:
        unknown = None if hire.card is None else _unknown_card(state, hire.card)
        if unknown is not None:
            return _refuse(state, seat, HIRES, unknown)
        reason = f"card #{hire.card} is not in the agency: {_on_offer(state)}"
        return _refuse(state, seat, OTHER_CARDS, reason)
    if not 0 <= slot < len(display):
        return _refuse(
            state, seat, HIRES, f"there is no slot {slot}: slots are 0-{len(display) - 1}"
        )
    if display[slot] is None:
        return _refuse(state, seat, HIRES, f"slot {slot} is empty: the cards have run out")
    cost = state.data.slot_costs[slot]
    money = state.players[seat].money
    if cost > money:
        return _refuse(state, seat, HIRES, f"slot {slot} costs {cost} but you have {money}")
    held = len(state.players[seat].hand)
    rules = hand_rules(state, seat)
    if held >= rules.capacity:
        return _refuse(
            state,
            seat,
            STAGES,
            f"you hold {held} card{'s' if held != 1 else ''}: with one more, none of your "
            f"remaining productions could be staged (it may leave at most {rules.limit} in hand)",
        )
    return None


def _on_offer(state: GameState) -> str:
    """The agency's cards by id and slot, for a player who asked for a card that is not there."""
    display = state.display
    offered = [f"#{card} in slot {slot}" for slot, card in enumerate(display) if card is not None]
    return f"it offers {', '.join(offered)}" if offered else "it is empty"


def loan_refusal(state: GameState, seat: int, loan: Loan) -> Refusal | None:
    if state.turn_loaned:
        return _refuse(state, seat, AFTER_LOAN, "you have already taken a loan this turn")
    if state.turn_refreshed:
        return _refuse(state, seat, AFTER_LOAN, "a loan must come before any refresh in your turn")
    musical = find_musical(state.data, loan.musical)
    if musical is None:
        return _refuse(state, seat, LOANS, f"there is no musical called {loan.musical}")
    name = musical_name(state, musical)
    own = board.own_chips(state, seat, musical)
    if not own:
        return _refuse(state, seat, LOANS, f"you have no production of {name} on the board")
    if loan.number is None and len(own) > 1:
        names = " and ".join(production_name(state, chip) for chip in own)
        return _refuse(state, seat, LOANS, f"you have {names} on the board: say which")
    chip = resolve.loan_chip(state, seat, loan)
    if chip is None:
        return _refuse(state, seat, LOANS, f"you have no {name}#{loan.number} on the board")
    borrowed = next((c for c in own if c.loaned), None)
    if borrowed is not None:
        return _refuse(
            state,
            seat,
            LOANS,
            f"you have already borrowed against {production_name(state, borrowed)}; "
            f"a musical's productions may be borrowed against only once",
        )
    if board.all_chips_placed(state, musical):
        return _refuse(
            state, seat, LOANS, f"all chips of {name} are on the board: no more loans on it"
        )
    label = production_name(state, chip)
    limit = state.data.loan_max_points
    most = min(chip.value, limit)
    if most == 0:
        return _refuse(state, seat, LOANS, f"{label} is worth 0: nothing can be borrowed on it")
    if not 1 <= loan.points <= most:
        # The rule has two limits: say which one this production meets.
        if loan.points < 1:
            why = "a loan is at least 1 point"
        elif most < limit:
            why = "a loan may not take it below 0"
        else:
            why = f"a loan is at most {limit} points"
        return _refuse(
            state,
            seat,
            LOANS,
            f"{label} is worth {chip.value}: you may borrow 1 to {most} points against it ({why})",
        )
    return None


def stage_refusal(state: GameState, seat: int, stage: Stage) -> Refusal | None:
    data = state.data
    musical = find_musical(data, stage.musical)
    if musical is None:
        return _refuse(state, seat, STAGES, f"there is no musical called {stage.musical}")
    name = musical_name(state, musical)
    rules = hand_rules(state, seat)
    if musical not in rules.remaining:
        return _refuse(state, seat, STAGES, f"you have staged all your productions of {name}")
    shape = _stage_shape_problem(state, musical, stage.cards)
    if shape is not None:
        return _refuse(state, seat, STAGES, shape)
    roles = data.role_counts[musical]
    cards = stage.cards
    hand = state.players[seat].hand
    for card in cards:
        if card not in hand:
            # Said in words: "(87)" alone read as a riddle (play-testing).
            held = (
                f"your hand holds {', '.join(f'#{c}' for c in hand)}"
                if hand
                else "your hand is empty"
            )
            return _refuse(state, seat, STAGES, f"card #{card} is not in your hand: {held}")
    kept = len(hand) - roles
    if kept > rules.limit:
        return _refuse(
            state,
            seat,
            STAGES,
            f"after staging {name} you would keep {kept} cards but at most {rules.limit} may stay",
        )
    problem = _city_problem(state, musical, stage.city) or _casting_problem(state, musical, stage)
    return _refuse(state, seat, STAGES, problem) if problem else None


def early_refusal(
    state: GameState, seat: int, actions: Sequence[Action]
) -> tuple[int, Refusal] | None:
    """The first of an early email's orders (sent before the seat's turn) that no turn could
    ever take, whatever happens before it comes, and why: a card id the game does not have, a
    staging of the wrong size or naming a card twice. Whatever may yet be legal then (money
    enough for a slot, a card still to come into the hand) is not judged now: it waits."""
    for index, action in enumerate(actions):
        problem = None
        if isinstance(action, Hire) and action.card is not None:
            problem = _unknown_card(state, action.card)
        elif isinstance(action, Stage):
            musical = find_musical(state.data, action.musical)
            if musical is not None:
                problem = _stage_shape_problem(state, musical, action.cards)
        if problem is not None:
            return index, Refusal(problem)
    return None


def _unknown_card(state: GameState, card: int) -> str | None:
    """Why `card` names no artiste card of the game, or None when it does."""
    if card in state.data.cards:
        return None
    ids = state.data.cards
    return f"there is no card #{card}: card ids run {min(ids)} to {max(ids)}"


def _stage_shape_problem(state: GameState, musical: int, cards: tuple[int, ...]) -> str | None:
    """What is wrong with a staging's cards whatever the hand: their number, a card named twice,
    a card id the game does not have."""
    roles = state.data.role_counts[musical]
    if len(cards) != roles:
        name = musical_name(state, musical)
        return f"{name} has {roles} roles: name exactly {roles} cards, not {len(cards)}"
    if len(set(cards)) != len(cards):
        return "a card is named twice"
    return next(filter(None, (_unknown_card(state, card) for card in cards)), None)


def _city_problem(state: GameState, musical: int, named: str | None) -> str | None:
    """Why the production cannot go to the city named (or not named)."""
    city = None if named is None else find_city(state.data, named)
    if named is not None and city is None:
        return f"there is no city called {named}"
    home = state.musical_city[musical]
    if home is not None:
        if city in (None, home):
            return None
        return (
            f"{musical_name(state, musical)} plays in {city_name(state, home)}: "
            f"its later productions go there"
        )
    free = ", ".join(city_name(state, c) for c in board.free_cities(state))
    if city is None:
        return (
            f"the first production of {musical_name(state, musical)} must name a city: "
            f"IN <city> (free: {free})"
        )
    if state.cities[city]:
        return f"{city_name(state, city)} already has a musical (free: {free})"
    return None


def _casting_problem(state: GameState, musical: int, stage: Stage) -> str | None:
    """What is wrong with the explicit casting, if anything."""
    roles = state.data.musicals[musical].roles
    fixed = resolve.fixed_roles(state, musical, stage)
    cast_cards = [card for card, _ in stage.casting]
    for card, role_name in stage.casting:
        role = fixed[card]
        if role is None:
            return f"{musical_name(state, musical)} has no role {role_name} ({', '.join(roles)})"
        if card not in stage.cards:
            return f"card #{card} is cast but not among the staged cards"
        if cast_cards.count(card) > 1:
            return f"card #{card} is cast twice"
        if list(fixed.values()).count(role) > 1:
            return f"the role {roles[role]} is cast twice"
    return None
