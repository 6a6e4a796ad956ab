"""The strong Show Manager player's search: at each decision where its hand could stage a
production, the few emails that differ in what matters (stage now or hire on; which musical;
for a first production, which city), each played to the end of the game on states sampled from
the view, the policy's own email kept unless another one clearly does better
(`pbem.games.search.choose`). Where nothing can be staged the policy's email is sent at once:
which of four cards to hire is a fine judgment the policy makes well and a handful of rollouts,
drowned in the unknown deck, makes badly (docs/bots.md).

In the rollouts the searching seat plays the strong policy (what it will really do next) and
every other seat the sensible player. The reward is the search's own
(`pbem.games.search.win_share`): the seat's share of the win, plus 0.05 for each point of its
lead over the best other player.
"""

from __future__ import annotations

from pbem.games.rng import Rng
from pbem.games.search import Search
from pbem.games.showmanager import ENGINE, board, bot
from pbem.games.showmanager.actions import Action, Loan, Stage
from pbem.games.showmanager.legal import best_stage, hand_rules, stageable
from pbem.games.showmanager.state import GameState
from pbem.games.showmanager.strong_policy import PRESSURE, strong_actions

CITIES_TRIED = 2  # for a first production, the free cities where its casting expects most
# The reward's weight on each point of lead, and the standard errors a gain must clear: a
# richer reward (win or lose, the lead is measured) and a lower bar than The Big Time!'s let
# the search overrule the policy where 16 samples show it should (docs/bots.md's trials:
# 0.02 and 1.5 overruled it in 6 of 99 searched decisions and won 69 of 200, the policy 68).
MARGIN_WEIGHT = 0.05
CONFIDENCE = 1.0


def candidates(state: GameState, seat: int, first: list[Action]) -> list[list[Action]]:
    """The policy's email `first`, then (after its loan, if any) every staging the hand can make
    now and, when the policy stages, the hire it would make instead. Only `first` when nothing
    can be staged."""
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
    return emails if len(emails) > 1 and _stagings(after, seat) else [first]


def _alternatives(state: GameState, seat: int) -> list[list[Action]]:
    emails: list[list[Action]] = [[stage] for stage in _stagings(state, seat)]
    hire = bot.best_hire(state, seat, PRESSURE)
    if hire is not None:
        emails.append([hire])
    return emails


def _stagings(state: GameState, seat: int) -> list[Stage]:
    """The best staging of each musical the hand can stage, a first production in each of the
    free cities where it expects most."""
    data = state.data
    stages = []
    for musical in stageable(state, seat, hand_rules(state, seat)):
        choice = best_stage(state, seat, musical)
        name = data.musicals[musical].name
        if state.musical_city[musical] is not None:
            stages.append(Stage(name, choice.cards, data.cities[choice.city].name))
            continue
        value = choice.casting.value
        cities = sorted(
            board.free_cities(state),
            key=lambda city: -bot.expected_points(state, musical, city, value),
        )
        stages.extend(
            Stage(name, choice.cards, data.cities[city].name) for city in cities[:CITIES_TRIED]
        )
    return stages


def rollout_search(seat: int) -> Search[GameState, Action]:
    """Rollouts in which `seat` plays the strong policy and every other seat the sensible one."""

    def play(state: GameState, mover: int, dice: Rng) -> list[Action]:
        if mover == seat:
            return strong_actions(state, mover, dice)
        return bot.bot_actions(state, mover, dice)

    return Search(ENGINE, play, margin_weight=MARGIN_WEIGHT, confidence=CONFIDENCE)
