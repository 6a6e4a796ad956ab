"""Starting a game: the deck (optionally stacked on top), the display, money, first player."""

from __future__ import annotations

import functools

from pbem.games.base import NewGame
from pbem.games.rng import Rng
from pbem.games.showmanager import agency
from pbem.games.showmanager.components import Components, load_components
from pbem.games.showmanager.errors import ShowManagerError
from pbem.games.showmanager.state import GameState, Player

VARIANTS: tuple[str, ...] = ("standard", "queen", "premiere")
SETUP_KEYS = frozenset({"deck"})


def new_game(spec: NewGame) -> GameState:
    if spec.variant not in VARIANTS:
        raise ShowManagerError(f"unknown variant {spec.variant!r}: choose one of {VARIANTS}")
    data_file = str(spec.data_file.resolve()) if spec.data_file is not None else None
    data = load_components(spec.data_file)
    players = spec.players
    _check_players(data, spec.variant, players)
    unknown = set(spec.setup) - SETUP_KEYS
    if unknown:
        raise ShowManagerError(f"Show Manager set-up has no {', '.join(sorted(unknown))}")
    rng = Rng.from_seed(spec.seed)
    stacked = _stacked(data, spec.setup.get("deck", []))
    rest = [card for card in data.cards if card not in stacked] if stacked else list(data.cards)
    rng.shuffle(rest)
    deck = [*stacked, *rest]
    deck.reverse()  # the top card is drawn from the end
    first = spec.first_player if spec.first_player is not None else rng.below(players)
    if not 0 <= first < players:
        raise ShowManagerError(f"first player {first} is not a seat of {players} players")
    state = GameState(
        data=data,
        data_file=data_file,
        variant=spec.variant,
        rng=rng,
        deck=deck,
        discard=[],
        display=[None] * len(data.slot_costs),
        players=[
            Player(data.starting_money[players], [0] * len(data.musicals)) for _ in range(players)
        ],
        cities=[[] for _ in data.cities],
        musical_city=[None] * len(data.musicals),
        turn=first,
    )
    agency.deal(state, [])
    return state


@functools.cache  # passes once per data, variant and count; an error is not cached, so it recurs
def _check_players(data: Components, variant: str, players: int) -> None:
    counts = data.player_counts(variant)
    if players not in counts:
        raise ShowManagerError(
            f"{variant} is for {', '.join(map(str, counts))} players, not {players}"
        )
    # Every player's hand and staged cards together never pass most_cards_taken; one card more
    # than all of them guarantees a card in the agency whenever a player must hire.
    if len(data.cards) <= players * data.most_cards_taken(players):
        raise ShowManagerError(f"{len(data.cards)} artiste cards are too few for {players} players")


def _stacked(data: Components, ids: list[int]) -> list[int]:
    stacked = [int(card) for card in ids]
    unknown = [card for card in stacked if card not in data.cards]
    if unknown or len(set(stacked)) != len(stacked):
        raise ShowManagerError(f"set-up deck {stacked}: unknown or repeated cards {unknown}")
    return stacked
