"""Properties of random legal play, for every variant and player count."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.base import Event, NewGame
from pbem.games.rng import Rng
from pbem.games.showmanager import ENGINE, GameState
from pbem.games.showmanager.state import Chip
from tests.showmanager.sm_tables import CONFIGS

ChipKey = tuple[int | None, int, int]


def chip_key(chip: Chip) -> ChipKey:
    """A chip's identity: a player's n-th production, or a touring company by its value."""
    return (chip.owner, chip.musical, chip.value if chip.owner is None else chip.number)


class ArrivalLog:
    """When each chip last arrived in its city: placed, or re-ranked by a new value.

    Within one order the touring companies arrive first (in the data's order), then the
    production; that is the rule the engine's ranking must agree with.
    """

    def __init__(self) -> None:
        self.clock = 0
        self.seen: dict[ChipKey, tuple[int, int]] = {}  # key -> (value, arrival)

    def update(self, state: GameState) -> None:
        chips = [chip for city in state.cities for chip in city]
        touring = [c for c in chips if c.owner is None]
        owned = [c for c in chips if c.owner is not None]
        for chip in sorted(touring, key=lambda c: -c.value) + owned:
            key = chip_key(chip)
            if key not in self.seen or self.seen[key][0] != chip.value:
                self.clock += 1
                self.seen[key] = (chip.value, self.clock)

    def check_order(self, state: GameState) -> None:
        for city in state.cities:
            ranks = [(-chip.value, self.seen[chip_key(chip)][1]) for chip in city]
            assert ranks == sorted(ranks)


def check_invariants(state: GameState) -> None:
    assert all(player.money >= 0 for player in state.players)
    staged = [card for city in state.cities for chip in city for card in chip.cards]
    hands = [card for player in state.players for card in player.hand]
    shown = [card for card in state.display if card is not None]
    everywhere = Counter(state.deck + state.discard + shown + hands + staged)
    assert everywhere == Counter(list(state.data.cards))
    assert state.display == shown + [None] * (len(state.display) - len(shown))
    if len(shown) < len(state.display):
        assert not state.deck and not state.discard
    for seat, player in enumerate(state.players):
        if state.productions_left(seat) == 0:
            assert len(player.hand) <= state.data.hand_after_last_staging


def check_final(state: GameState) -> None:
    per = state.productions_per_musical
    for seat in range(len(state.players)):
        owned = [chip for city in state.cities for chip in city if chip.owner == seat]
        assert len(owned) == per * len(state.data.musicals)
    for musical, city in enumerate(state.musical_city):
        assert city is not None
        assert len(state.cities[city]) == state.chips_per_musical
        assert {chip.musical for chip in state.cities[city]} == {musical}
    expected = [0] * len(state.players)
    for table, chips in zip(state.data.cities, state.cities, strict=True):
        for rank, chip in enumerate(chips):
            if chip.owner is not None:
                expected[chip.owner] += table.points[rank]
    result = ENGINE.outcome(state)
    assert {s.seat: s.score for s in result.standings} == dict(enumerate(expected))


def play(
    state: GameState, rng: Rng, log: ArrivalLog | None = None, limit: int = 10**6
) -> list[Event]:
    """Random legal orders (each one checked) until the end or `limit` orders."""
    events: list[Event] = []
    for _ in range(limit):
        seats = ENGINE.awaiting(state)
        if not seats:
            break
        for action in ENGINE.random_actions(state, seats[0], rng):
            assert ENGINE.check(state, seats[0], action) is None, action
            events.extend(ENGINE.apply(state, seats[0], action))
            if log is not None:
                check_invariants(state)
                log.update(state)
                log.check_order(state)
    return events


@settings(max_examples=40, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**63))
def test_random_legal_play_keeps_the_rules_invariants_to_the_end(
    config: tuple[str, int], seed: int
) -> None:
    variant, players = config
    state = ENGINE.new_game(NewGame(players, variant, seed))
    log = ArrivalLog()
    log.update(state)
    play(state, Rng.from_seed(seed), log)
    assert ENGINE.is_over(state)
    check_final(state)


@settings(max_examples=25, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**63), cut=st.integers(0, 150))
def test_dump_and_load_mid_game_continues_identically(
    config: tuple[str, int], seed: int, cut: int
) -> None:
    variant, players = config
    state = ENGINE.new_game(NewGame(players, variant, seed))
    rng = Rng.from_seed(seed)
    play(state, rng, limit=cut)
    saved = json.loads(json.dumps(ENGINE.dump(state)))
    copy = ENGINE.load(saved)
    assert ENGINE.dump(copy) == ENGINE.dump(state)
    original_events = play(state, Rng(rng.state))
    copy_events = play(copy, Rng(rng.state))
    assert copy_events == original_events
    assert ENGINE.dump(copy) == ENGINE.dump(state)
    assert ENGINE.outcome(copy) == ENGINE.outcome(state)
