"""The Big Time! state codec: the field-by-field encoder writes what `dataclasses.asdict` wrote.

Saved games hold the encoder's JSON, so the same state must encode to the same text as before
the encoder was written by hand, and load back to a state that encodes the same again.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from pbem.games.bigtime import ENGINE
from pbem.games.bigtime.codec import ROWS, dump_state, load_state
from pbem.games.bigtime.state import BigTimeState
from pbem.games.rng import Rng

from .helpers import new_game, two_player_game

PICK_FIELDS = ("seat", "row", "card", "paid", "penalty")


def asdict_dump(state: BigTimeState) -> dict[str, Any]:
    """The encoder as it was: `asdict` for the dataclasses, tuples made lists."""

    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [plain(item) for item in value]
        return value

    return {
        "data_file": state.data_file,
        "rng": state.rng.state,
        "round": state.round,
        "phase": state.phase,
        "over": state.over,
        "chart": dict(state.chart),
        **{row: list(getattr(state, row)) for row in ROWS},
        "fixed_deals": {str(n): plain(asdict(deal)) for n, deal in state.fixed_deals.items()},
        "revealed_bids": plain(state.revealed_bids),
        # A pick was a Pick(seat, row, card, paid, penalty) before picks were kept as their
        # Booked events: saved games hold those five fields in that order.
        "last_picks": [
            plain({field: getattr(pick, field) for field in PICK_FIELDS})
            for pick in state.last_picks
        ],
        "theaters": [plain(asdict(theater)) for theater in state.theaters],
    }


def encoded(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


@pytest.mark.parametrize(
    ("start", "seed"),
    [
        (lambda: two_player_game(), 1),  # fixed deals, reviews set
        (lambda: new_game(2, seed=5), 5),
        (lambda: new_game(3, seed=7), 7),
        (lambda: new_game(4, seed=11), 11),
    ],
    ids=["2p-fixed-deal", "2p", "3p", "4p"],
)
def test_every_state_of_a_game_encodes_as_asdict_did_and_loads_back(start: Any, seed: int) -> None:
    """Checked after every action, so that states between the lines of one email (a draft
    filled in, not yet filed with its BID) are encoded too."""
    state = start()
    rng = Rng.from_seed(seed)
    drafts = 0
    while not ENGINE.is_over(state):
        seat = ENGINE.awaiting(state)[0]
        for action in ENGINE.random_actions(state, seat, rng):
            ENGINE.apply(state, seat, action)
            text = encoded(dump_state(state))
            assert text == encoded(asdict_dump(state))
            assert encoded(dump_state(load_state(json.loads(text)))) == text
            drafts += any(theater.draft.am or theater.draft.pm for theater in state.theaters)
    assert drafts > 0
