"""Show Manager's strong policy against three sensible players, played directly on the state
(no views, no sampling: about 20 s of processor time for 400 games), the policy's seat turned
round the table; game k uses seed + k. How the strong policy was tuned (docs/bots.md); its
figures are not the bar's, which `pbem simulate --seats` measures through the seats' views.

    python bench/showmanager_policy.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import math
import time

from pbem.games.base import NewGame
from pbem.games.registry import engine_for
from pbem.games.rng import Rng
from pbem.games.search import winners
from pbem.games.showmanager import bot
from pbem.games.showmanager.strong_policy import strong_actions

PLAYERS = 4


def policy_wins(games: int, seed: int) -> float:
    """Games won by the strong policy (a tie at the top shared)."""
    engine = engine_for("showmanager")
    won = 0.0
    for index in range(games):
        state = engine.new_game(NewGame(PLAYERS, "standard", seed + index))
        strong = index % PLAYERS
        dice = Rng.from_seed((seed + index) ^ 0x70E)
        while waiting := engine.awaiting(state):
            seat = waiting[0]
            play = strong_actions if seat == strong else bot.bot_actions
            submitted = engine.submit(state, seat, play(state, seat, dice))
            assert submitted.state is not None, submitted.refusal
            state = submitted.state
        won += winners(engine.outcome(state)).get(strong, 0.0)
    return won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    start = time.process_time()
    won = policy_wins(args.games, args.seed)
    rate = won / args.games
    error = math.sqrt(rate * (1 - rate) / args.games)
    print(
        f"strong policy won {won:g} of {args.games} ({rate:.1%} ± {error:.1%}) against three"
        f" sensible players, seeds {args.seed}-{args.seed + args.games - 1},"
        f" {time.process_time() - start:.1f} s of processor time"
    )


if __name__ == "__main__":
    main()
