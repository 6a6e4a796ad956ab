"""The strong Show Manager player's policy: the sensible player's play with bolder borrowing.

Self-play against three sensible players (4 players, 400 games a trial, docs/bots.md) showed
the sensible player near its best in what it hires, when it stages and where: random changes
to its thresholds, or to which musical it builds, lost. What it does not do well is borrow: it
borrows at most 4 points, keeps 3 points above the next production down, and only when money
is below 3. Money buys the cards that win first places; the points a loan costs cost nothing
while the production keeps its rank. So this player borrows as much as the production can lose
and keep its rank (up to the 10 allowed), when money falls below 4, or below 14 when one of its
productions is about to be closed to loans (its musical's last chip is still to come). Then it
plays the sensible player's email with the money borrowed: that player won 31-33% of games
where the sensible player wins 26-27%.

It reads only what its seat may see: its own money and productions, and the board.
"""

from __future__ import annotations

from pbem.games.rng import Rng
from pbem.games.showmanager import board, bot, turns
from pbem.games.showmanager.actions import Action
from pbem.games.showmanager.legal import loan_open
from pbem.games.showmanager.state import GameState, dump_state, load_state

MONEY_FLOOR = 4  # borrow when money is below this
CLOSING_FLOOR = 14  # or below this when a production is about to be closed to loans
LOAN_MARGIN = 0  # points kept above the next chip down: the rank is all that scores
PRESSURE = bot.Pressure(0.5, 3.0)  # a slot's price weighs half what the sensible player weighs


def strong_actions(state: GameState, seat: int, rng: Rng) -> list[Action]:
    """One email for `seat`: maybe a loan, then the sensible player's orders with its money."""
    if state.turn != seat:
        return []
    loan = (
        bot.loan_keeping_rank(state, seat, state.data.loan_max_points, LOAN_MARGIN)
        if loan_open(state) and _short(state, seat)
        else None
    )
    if loan is None:
        return bot.bot_actions(state, seat, rng, PRESSURE)
    after = load_state(dump_state(state))
    turns.apply(after, seat, loan)
    return [loan, *bot.bot_actions(after, seat, rng, PRESSURE)]


def _short(state: GameState, seat: int) -> bool:
    money = state.players[seat].money
    return money < MONEY_FLOOR or (money < CLOSING_FLOOR and _closing(state, seat))


def _closing(state: GameState, seat: int) -> bool:
    """Whether a production of the seat's will be closed to loans by the next staging of its
    musical: after that every chip of it is on the board."""
    for chip in board.loanable(state, seat):
        city = state.musical_city[chip.musical]
        assert city is not None
        if state.chips_per_musical - len(state.cities[city]) <= 1:
            return True
    return False
