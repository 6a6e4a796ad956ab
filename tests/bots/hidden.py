"""Games part-way through, and the same games with what one seat cannot see changed."""

from __future__ import annotations

from typing import Any

from pbem.cli.simulate import play_random_emails
from pbem.games.base import NewGame
from pbem.games.bigtime import ENGINE as BIGTIME
from pbem.games.bigtime.payment import sub_multisets
from pbem.games.bigtime.state import BigTimeState, Order
from pbem.games.registry import engine_for
from pbem.games.rng import Rng
from pbem.games.showmanager import ENGINE as SHOWMANAGER
from pbem.games.showmanager.state import GameState


def game_after(game: str, players: int, seed: int, emails: int) -> Any:
    """A game after up to `emails` random legal emails."""
    engine = engine_for(game)
    state = engine.new_game(NewGame(players, "standard", seed))
    play_random_emails(engine, state, Rng.from_seed(seed), emails)
    return state


def bigtime_unseen_changed(state: BigTimeState, seat: int, rng: Rng) -> BigTimeState:
    """The game with every card `seat` cannot see dealt again: the other hands (same count and
    total), the face-down Coming Soon cards and Headliners, the Headliner deck, the other
    players' sealed bids, and the dice of everything still to be dealt."""
    other = BIGTIME.load(BIGTIME.dump(state))
    other.rng = Rng(rng.next64())
    for position, theater in enumerate(other.theaters):
        if position == seat:
            continue
        # any hand of that count and total: the view tells no more
        alike = [
            hand
            for hand in sub_multisets(tuple(sorted((*theater.hand, 3, 2, 1), reverse=True)))
            if len(hand) == len(theater.hand) and sum(hand) == sum(theater.hand)
        ]
        theater.hand = rng.choice(alike)
        if theater.order is not None:
            bid = rng.choice(sub_multisets(theater.hand))
            theater.order = Order(bid, theater.order.pm, theater.order.am)
    if other.phase == 1:
        troupers = [c for c in other.data.troupers if c not in {*other.am_row, *other.pm_row}]
        unseen = [c for c in troupers if c not in other.coming_am]
        rng.shuffle(unseen)
        other.coming_pm = unseen[: len(other.coming_pm)]
        pool = other.headliner_deck + other.headliner_row
        rng.shuffle(pool)
        other.headliner_row, other.headliner_deck = (
            pool[: len(other.headliner_row)],
            pool[len(other.headliner_row) :],
        )
    else:
        rng.shuffle(other.headliner_deck)
    return other


def showmanager_unseen_changed(state: GameState, seat: int, rng: Rng) -> GameState:
    """The game with every card `seat` cannot see dealt again (the other hands, of the same
    sizes, the deck and the discard pile), the other players' money changed, and new dice."""
    other = SHOWMANAGER.copy(state)
    other.rng = Rng(rng.next64())
    hands = [p.hand for position, p in enumerate(other.players) if position != seat]
    pool = [card for hand in hands for card in hand] + other.deck + other.discard
    rng.shuffle(pool)
    for position, player in enumerate(other.players):
        if position != seat:
            player.hand = [pool.pop() for _ in player.hand]
            player.money += 1 + rng.below(5)
    other.deck = [pool.pop() for _ in other.deck]
    other.discard = pool
    return other
