"""Show Manager's strong policy: the sensible email with slots priced by its own lighter money
pressure, and a loan as big as a production can take and keep its rank when money runs short."""

from __future__ import annotations

from pbem.games.base import NewGame
from pbem.games.registry import engine_for
from pbem.games.rng import Rng
from pbem.games.showmanager import bot
from pbem.games.showmanager.actions import Loan
from pbem.games.showmanager.board import own_chips
from pbem.games.showmanager.names import find_musical
from pbem.games.showmanager.strong_policy import PRESSURE, strong_actions

ENGINE = engine_for("showmanager")


def test_the_strong_policy_borrows_keeping_the_rank_and_otherwise_plays_sensibly() -> None:
    state = ENGINE.new_game(NewGame(4, "standard", 11))
    dice = Rng(11)
    loans = plain = 0
    while state.turn is not None:
        seat = state.turn
        seed = dice.next64()
        email = strong_actions(state, seat, Rng(seed))
        submitted = ENGINE.submit(state, seat, email)
        assert submitted.state is not None, (email, submitted.refusal)
        first = email[0]
        if isinstance(first, Loan):
            loans += 1
            musical = find_musical(state.data, first.musical)
            assert musical is not None
            city = state.musical_city[musical]
            assert city is not None
            chip = own_chips(state, seat, musical)[0]
            place = state.cities[city].index(chip)
            after = ENGINE.copy(state)
            ENGINE.apply(after, seat, first)
            moved = own_chips(after, seat, musical)[0]
            assert after.cities[city].index(moved) == place, "the loan keeps the rank"
            assert email[1:] == bot.bot_actions(after, seat, Rng(seed), PRESSURE)
        else:
            plain += 1
            assert email == bot.bot_actions(state, seat, Rng(seed), PRESSURE)
        state = submitted.state
    assert loans and plain


def test_the_strong_policy_weighs_money_less_and_so_hires_differently() -> None:
    assert all(PRESSURE.at(money) < bot.PRESSURE.at(money) for money in range(60))
    state = ENGINE.new_game(NewGame(4, "standard", 5))
    differ = 0
    while state.turn is not None:
        seat = state.turn
        lighter = bot.bot_actions(state, seat, Rng(seat), PRESSURE)
        differ += lighter != bot.bot_actions(state, seat, Rng(seat))
        submitted = ENGINE.submit(state, seat, lighter)
        assert submitted.state is not None, (lighter, submitted.refusal)
        state = submitted.state
    assert differ
