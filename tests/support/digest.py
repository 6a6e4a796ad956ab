"""A fingerprint of seeded games: every action, event, outcome and final state, hashed.

The engines may be made faster, never different: for a fixed seed a random (or computer) game
must play out with the same events and the same result. The digest tests record these hashes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pbem.games.base import NewGame, RulesEngine
from pbem.games.rng import Rng


def random_games_digest(
    engine: RulesEngine[Any, Any], variant: str, players: int, games: int, seed: int = 1
) -> str:
    """Games as `pbem.cli.simulate` plays them (same seeds), each email's actions and events
    recorded, then the outcome and the final state's saved form."""
    digest = hashlib.sha256()
    for index in range(games):
        game_seed = seed + index
        state = engine.new_game(NewGame(players, variant, game_seed))
        rng = Rng.from_seed(game_seed ^ 0x5EED)
        while seats := engine.awaiting(state):
            seat = seats[0]
            for action in engine.random_actions(state, seat, rng):
                digest.update(repr((seat, action)).encode())
                digest.update(repr(engine.apply(state, seat, action)).encode())
        digest.update(repr(engine.outcome(state)).encode())
        digest.update(json.dumps(engine.dump(state), sort_keys=True).encode())
    return digest.hexdigest()


def bot_games_digest(
    engine: RulesEngine[Any, Any], variant: str, players: int, games: int, seed: int = 1
) -> str:
    """Games between computer players through `submit`, as `bench/engine.py` plays them."""
    digest = hashlib.sha256()
    for index in range(games):
        game_seed = seed + index
        state = engine.new_game(NewGame(players, variant, game_seed))
        rng = Rng.from_seed(game_seed)
        while seats := engine.awaiting(state):
            actions = engine.bot_actions(state, seats[0], rng)
            outcome = engine.submit(state, seats[0], actions)
            assert outcome.state is not None, outcome.refusal
            digest.update(repr((seats[0], actions, outcome.events)).encode())
            state = outcome.state
        digest.update(repr(engine.outcome(state)).encode())
        digest.update(json.dumps(engine.dump(state), sort_keys=True).encode())
    return digest.hexdigest()
