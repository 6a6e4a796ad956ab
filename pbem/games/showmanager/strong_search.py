"""The strong Show Manager player's one-ply search: a few emails the policy thinks well of, each
played to the end of the game on sampled states, the policy's own email kept unless another one
clearly does better (`pbem.games.search.choose`).

The candidates are the policy's email (`strong_policy`), then, after the policy's loan if it
takes one, the other emails it nearly sent: the hires that add most to the hand, the best staging
of each musical the hand can stage now (in the city the policy would choose for a first
production), and a refresh. In the rollouts the searching seat plays the strong policy (what it
will really do next) and every other seat the sensible player.

The reward is the search's own (`pbem.games.search.win_share`): the seat's share of the win, plus
a little for its lead in points over the best other player.
"""

from __future__ import annotations

from pbem.games.rng import Rng
from pbem.games.search import Search
from pbem.games.showmanager import ENGINE, bot
from pbem.games.showmanager.actions import Action, Hire, Loan, Refresh
from pbem.games.showmanager.legal import best_stage, can_refresh, hand_rules, hire_slots, stageable
from pbem.games.showmanager.state import GameState
from pbem.games.showmanager.strong_policy import PRESSURE, strong_actions

HIRES_TRIED = 3  # the hires adding most to the hand (the policy's own is usually one)


def candidates(state: GameState, seat: int, first: list[Action]) -> list[list[Action]]:
    """The policy's email `first`, then the others it nearly sent (after its loan, if any)."""
    loan = [action for action in first[:1] if isinstance(action, Loan)]
    after = state
    if loan:
        after = ENGINE.copy(state)
        ENGINE.apply(after, seat, loan[0])
    emails = [first]
    for rest in _alternatives(after, seat):
        email = [*loan, *rest]
        if email not in emails:
            emails.append(email)
    return emails


def _alternatives(state: GameState, seat: int) -> list[list[Action]]:
    data = state.data
    rules = hand_rules(state, seat)
    hand = tuple(sorted(state.players[seat].hand))
    money = state.players[seat].money
    weight = PRESSURE.at(money)

    def worth(slot: int) -> float:
        card = state.display[slot]
        assert card is not None
        grown = tuple(sorted((*hand, card)))
        added = max(
            (bot.potential(data, m, grown) - bot.potential(data, m, hand) for m in rules.remaining),
            default=0,
        )
        return added - weight * data.slot_costs[slot]

    slots = sorted(hire_slots(state, seat, rules), key=lambda slot: -worth(slot))
    emails: list[list[Action]] = [[Hire(slot=slot)] for slot in slots[:HIRES_TRIED]]
    for musical in stageable(state, seat, rules):
        emails.append([bot.stage_order(state, best_stage(state, seat, musical))])
    if not state.turn_refreshed and can_refresh(state, seat):
        emails.append([Refresh()])
    return emails


def rollout_search(seat: int) -> Search[GameState, Action]:
    """Rollouts in which `seat` plays the strong policy and every other seat the sensible one."""

    def play(state: GameState, mover: int, dice: Rng) -> list[Action]:
        if mover == seat:
            return strong_actions(state, mover, dice)
        return bot.bot_actions(state, mover, dice)

    return Search(ENGINE, play)
