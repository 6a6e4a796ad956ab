"""The Show Manager computer player: legal, blind to hidden information and much stronger
than the uniform random player."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.cli.simulate import play_random_emails
from pbem.games.base import NewGame
from pbem.games.rng import Rng
from pbem.games.showmanager import ENGINE, GameState
from pbem.games.showmanager.actions import Hire, Loan, Stage
from pbem.games.showmanager.bot import expected_points
from tests.showmanager.sm_tables import BEST, CONFIGS, fresh, give

SEEDS = st.integers(min_value=0, max_value=2**32)


def random_state(variant: str, players: int, seed: int, emails: int) -> GameState:
    """A game after up to `emails` random legal emails."""
    state = ENGINE.new_game(NewGame(players, variant, seed))
    play_random_emails(ENGINE, state, Rng.from_seed(seed), emails)
    return state


def bot_email(state: GameState, seat: int, rng: Rng) -> GameState:
    actions = ENGINE.bot_actions(state, seat, rng)
    assert actions, "a bot whose turn it is must send an order"
    result = ENGINE.submit(state, seat, actions)
    assert result.state is not None, f"{actions} refused: {result.refusal}"
    return result.state


def play(variant: str, players: int, seed: int, bots: set[int]) -> GameState:
    """A whole game: seats in `bots` are computer players, the others random players."""
    state = ENGINE.new_game(NewGame(players, variant, seed))
    rng = Rng.from_seed(seed ^ 0xB07)
    for _ in range(10_000):
        if ENGINE.is_over(state):
            return state
        seat = ENGINE.awaiting(state)[0]
        if seat in bots:
            state = bot_email(state, seat, rng)
        else:
            for action in ENGINE.random_actions(state, seat, rng):
                ENGINE.apply(state, seat, action)
    raise AssertionError(f"game {seed} did not end")


def win_rate(variant: str, players: int, games: int, seed: int = 0) -> float:
    """One bot against random players, its seat going round the table."""
    wins = 0
    for index in range(games):
        seat = index % players
        state = play(variant, players, seed + index, {seat})
        wins += ENGINE.outcome(state).winner == seat
    return wins / games


@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=SEEDS, emails=st.integers(0, 150))
def test_bot_orders_are_always_accepted(config: tuple[str, int], seed: int, emails: int) -> None:
    state = random_state(*config, seed, emails)
    rng = Rng.from_seed(seed)
    for _ in range(3):  # a refresh leaves the turn open: the next email must be legal too
        if ENGINE.is_over(state):
            return
        state = bot_email(state, ENGINE.awaiting(state)[0], rng)


def hide_differently(state: GameState, seat: int) -> GameState:
    """The same public table with everything `seat` may not see changed: the other hands (swapped
    with deck cards), the other players' money, the deck's order, the engine's random state."""
    other = ENGINE.copy(state)
    for index, player in enumerate(other.players):
        if index == seat:
            continue
        player.money += 5
        swap = min(len(player.hand), len(other.deck))
        player.hand[:swap], other.deck[:swap] = other.deck[:swap], player.hand[:swap]
    other.deck.reverse()
    other.rng = Rng(other.rng.state ^ 0xFFFF)
    return other


@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=SEEDS, emails=st.integers(0, 150))
def test_bot_never_reads_hidden_information(
    config: tuple[str, int], seed: int, emails: int
) -> None:
    state = random_state(*config, seed, emails)
    if ENGINE.is_over(state):
        return
    seat = ENGINE.awaiting(state)[0]
    seen = ENGINE.bot_actions(state, seat, Rng.from_seed(seed))
    assert ENGINE.bot_actions(hide_differently(state, seat), seat, Rng.from_seed(seed)) == seen


def test_games_of_bots_always_finish() -> None:
    for variant, players in CONFIGS:
        for seed in range(3):
            state = play(variant, players, seed, set(range(players)))
            assert ENGINE.is_over(state)


def test_bot_hires_the_card_its_production_lacks() -> None:
    state = fresh(players=4, variant="queen")
    wolf, queenie = BEST["Wolf"], BEST["Queenie"]
    give(state, 0, wolf[0], wolf[1])
    useless = [card for card in state.deck if card not in (*wolf, *queenie)][:3]
    state.deck = [card for card in state.deck if card not in (*useless, wolf[2])]
    state.display = [useless[0], useless[1], wolf[2], useless[2]]
    assert ENGINE.bot_actions(state, 0, Rng(1)) == [Hire(slot=2)]


def test_bot_stages_a_perfect_cast_in_the_city_paying_most_for_the_top() -> None:
    state = fresh(players=4, variant="queen")
    give(state, 0, *BEST["Wolf"])
    assert ENGINE.bot_actions(state, 0, Rng(1)) == [Stage("Wolf", BEST["Wolf"], "New York")]


def test_weak_first_production_expects_more_from_a_flat_city_table() -> None:
    state = fresh(players=6, variant="queen")
    cities = [c.name for c in state.data.cities]
    new_york, troisdorf = cities.index("New York"), cities.index("Troisdorf")

    def points(city: int, value: int) -> float:
        return expected_points(state, 0, city, value)

    assert points(troisdorf, 6) > points(new_york, 6)
    assert points(new_york, 30) > points(troisdorf, 30)


def test_bot_borrows_when_broke_against_a_production_that_keeps_its_place() -> None:
    state = fresh(players=4, variant="queen")
    give(state, 0, *BEST["Wolf"])
    state.players[0].money = 0
    ENGINE.apply(state, 0, Stage("Wolf", BEST["Wolf"], "New York"))
    state.turn = 0
    actions = ENGINE.bot_actions(state, 0, Rng(1))
    assert isinstance(actions[0], Loan) and actions[0].musical == "Wolf"
    assert ENGINE.submit(state, 0, actions).accepted


# Measured with win_rate(variant, players, games=200): one bot won 100% of games in standard
# 2-6, queen 4 and premiere 5 players.
@pytest.mark.parametrize(("variant", "players"), [("standard", 2), ("queen", 4), ("standard", 6)])
def test_one_bot_beats_random_players_clearly(variant: str, players: int) -> None:
    assert win_rate(variant, players, games=40) > 1 / players + 0.4
