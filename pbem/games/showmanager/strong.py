"""Show Manager computer players that decide from a seat's view alone.

`determinize` turns a view (what the seat's status email shows) into a full state by drawing what
it cannot see: the cards neither on display nor in the seat's hand are shuffled and dealt to the
other hands (their sizes are public), the deck and the discard pile (their sizes too); the rest
were staged, and staged cards never come back. Another player's money is hidden: it is guessed
from the cards that player has hired and the loans it has taken, at what the sensible player
pays on average, give or take a little. Every level decides on such a sample: `sensible` and
`random` play the engine's players on it (they read only what the seat may see, so any sample
gives the same email); `strong` searches over samples (`strong_search`) around its own policy's
email (`strong_policy`: the sensible player's with bolder borrowing and a lighter money pressure).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pbem.games.rng import Rng
from pbem.games.search import Budget, choose
from pbem.games.showmanager import ENGINE, bot
from pbem.games.showmanager.actions import Action, Stage
from pbem.games.showmanager.components import Components
from pbem.games.showmanager.names import find_musical
from pbem.games.showmanager.potential import added
from pbem.games.showmanager.state import Chip, GameState, Player
from pbem.games.showmanager.strong_policy import strong_actions
from pbem.games.showmanager.strong_search import candidates, rollout_search
from pbem.games.showmanager.view import GameView

# The sensible player's money, fitted over its own games: what a hired card costs on average,
# what a loan brings net of the hires it pays for, and how far off the guess typically is.
HIRE_COST = 0.95
LOAN_GAIN = 0.4
MONEY_SPREAD = 2
# A rollout from mid-game to the end of a 4-player game takes 3-10 ms of a core, by machine, and a
# searched decision tries 2 to 7 emails on each of its samples (docs/bots.md). Processor time
# keeps the player as strong on a busy machine; the clock's cap keeps the daemon's cycle going.
BUDGET = Budget(iterations=16, cpu_seconds=0.3, wall_seconds=2.0)
# Where a candidate opens a musical's first production (whether to open it now, and in which
# city, decide what it can score for the rest of the game) the search may spend 3 times the
# iterations and processor time, and 2.5 s on the clock: about 2 searched decisions in 5, so
# the median decision stays unsearched and the slowest stay under 3 s.
FIRST_SCALE = 3
FIRST_WALL_SECONDS = 2.5
OFFERED = 4  # cards a hidden hand's each card is the pick of: the agency's display


def determinize(view: GameView, data: Components, rng: Rng) -> GameState:
    """A full state consistent with the seat's view; the hidden cards and money drawn with `rng`."""
    seat = _seat(view)
    musical_of = {m.name: index for index, m in enumerate(data.musicals)}
    city_of = {c.name: index for index, c in enumerate(data.cities)}
    display = [None if slot.card is None else slot.card.id for slot in view.display]
    own = view.players[seat]
    own_hand = [card.id for card in own.hand or ()]
    known = {*own_hand, *(card for card in display if card is not None)}
    unknown = [card for card in data.cards if card not in known]
    rng.shuffle(unknown)
    cities = [
        [
            Chip(chip.owner, musical_of[chip.musical], chip.number, chip.value, chip.loaned)
            for chip in city.chips
        ]
        for city in view.cities
    ]
    per_musical = data.productions_per_musical[len(view.players)]
    players = []
    for shown in view.players:
        staged = [0] * len(data.musicals)
        hired = len(shown.hand or ()) if shown.seat == seat else shown.hand_size
        loans = 0
        for chip in (chip for city in cities for chip in city if chip.owner == shown.seat):
            staged[chip.musical] += 1
            hired += data.role_counts[chip.musical]
            loans += chip.loaned
        if shown.seat == seat:
            hand = own_hand
        else:
            remaining = tuple(m for m, count in enumerate(staged) if count < per_musical)
            hand = _likely_hand(data, remaining, shown.hand_size, unknown, rng)
        money = shown.money if shown.money is not None else _money(view, data, hired, loans, rng)
        players.append(Player(money, staged, hand))
    deck = [unknown.pop() for _ in range(view.deck_size)]
    discard = [unknown.pop() for _ in range(view.discard_size)]
    mid_turn = view.turn is not None and not view.loan_allowed
    return GameState(
        data=data,
        data_file=None,
        variant=view.variant,
        rng=Rng(rng.next64()),
        deck=deck,
        discard=discard,
        display=display,
        players=players,
        cities=cities,
        musical_city=[None if m.city is None else city_of[m.city] for m in view.musicals],
        turn=view.turn,
        # a loan or a refresh closed the turn's start; which of them does not matter to what
        # may follow (a refresh may repeat, the loan may not), so both are assumed
        turn_loaned=mid_turn,
        turn_refreshed=mid_turn,
    )


def _seat(view: GameView) -> int:
    if view.viewer is None:
        raise ValueError("a computer player decides from a seat's view, not the game master's")
    return view.viewer


def _likely_hand(
    data: Components, remaining: tuple[int, ...], size: int, unknown: list[int], rng: Rng
) -> list[int]:
    """`size` cards from `unknown` as a player building the musicals it has still to stage
    would hold them: each the most useful of a few drawn (as if picked from the agency's
    display), the others put back. A hand drawn blind would make the other players look far
    weaker than they are, and the search would play for time it does not have."""
    hand: list[int] = []
    for _ in range(size):
        offered = [rng.below(len(unknown)) for _ in range(min(OFFERED, len(unknown)))]
        ranked = sorted(
            set(offered), key=lambda index: -_gain(data, remaining, hand, unknown[index])
        )
        hand.append(unknown.pop(ranked[0]))
    return hand


def _gain(data: Components, remaining: tuple[int, ...], hand: list[int], card: int) -> int:
    """What the card adds to the best casting the hand promises for a musical still to stage."""
    held = tuple(sorted(hand))
    return max(
        (added(data, m, held, card) for m in remaining),
        default=0,
    )


def _money(view: GameView, data: Components, hired: int, loans: int, rng: Rng) -> int:
    start = data.starting_money[len(view.players)]
    guess = round(start - HIRE_COST * hired + LOAN_GAIN * loans)
    return max(0, guess + rng.below(2 * MONEY_SPREAD + 1) - MONEY_SPREAD)


def sensible(view: GameView, data: Components, rng: Rng) -> list[Action]:
    return bot.bot_actions(determinize(view, data, rng), _seat(view), rng)


def random(view: GameView, data: Components, rng: Rng) -> list[Action]:
    return ENGINE.random_actions(determinize(view, data, rng), _seat(view), rng)


@dataclass(frozen=True)
class StrongPlayer:
    """The `strong` level: `strong_policy`'s email, or a staging (or a hire instead of its
    staging) that rollouts on states sampled from the view show clearly better
    (`strong_search`); with `first_budget` where a candidate opens a first production."""

    data: Components
    budget: Budget = field(default_factory=lambda: BUDGET)

    def __call__(self, view: GameView, rng: Rng) -> list[Action]:
        seat = _seat(view)
        if view.turn != seat:
            return []
        prior = determinize(view, self.data, Rng(rng.next64()))
        emails = candidates(prior, seat, strong_actions(prior, seat, rng))
        budget = self.budget
        if any(_opens(prior, action) for email in emails for action in email):
            budget = first_budget(budget)
        return choose(
            rollout_search(seat),
            seat,
            lambda dice: determinize(view, self.data, dice),
            emails,
            rng,
            budget,
        )


def first_budget(budget: Budget) -> Budget:
    """The budget of a decision where a candidate opens a musical's first production."""
    return replace(
        budget,
        iterations=budget.iterations * FIRST_SCALE,
        cpu_seconds=budget.cpu_seconds * FIRST_SCALE,
        wall_seconds=max(budget.wall_seconds, FIRST_WALL_SECONDS),
    )


def _opens(state: GameState, action: Action) -> bool:
    """Whether `action` stages a musical that plays in no city yet."""
    if not isinstance(action, Stage):
        return False
    musical = find_musical(state.data, action.musical)
    return musical is not None and state.musical_city[musical] is None
