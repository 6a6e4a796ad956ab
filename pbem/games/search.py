"""Choosing an email by determinized rollouts: the search behind the `strong` computer players.

The searcher never sees the game's state. It is given a way to *sample* a full state consistent
with its seat's view (the hidden cards drawn at random from those that could be there), a few
candidate emails, and a rollout policy (the `sensible` computer player, for every seat). Each
iteration samples one state; every candidate is tried on its own copy of that state (the same
sample, and the same rollout dice, for all of them, so their comparison is not drowned in the
luck of the draw) and the game is played on to its end, or to a point the game's `evaluate` can
judge. The candidate with the best mean reward is sent. A budget bounds both the iterations and
the wall-clock time, so a decision never keeps the daemon's cycle waiting.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from pbem.games.base import Outcome, RulesEngine
from pbem.games.rng import Rng

S = TypeVar("S")
A = TypeVar("A")

# Rollouts are played with their own dice, drawn from the iteration's seed, so that the hidden
# cards and the players' choices do not share one stream.
_ROLLOUT_DICE = 0x5EA5C4
# Reward for each point of lead over the best other player: enough to prefer the bigger lead
# among candidates that win equally often, never enough to prefer a loss.
MARGIN_WEIGHT = 0.02
# How many standard errors a candidate's gain over the prior's choice must clear to be chosen.
CONFIDENCE = 1.5
# A game that runs past this many emails in a rollout is a bug in an engine or a policy.
MAX_ROLLOUT_EMAILS = 10_000


@dataclass(frozen=True)
class Budget:
    """How much a decision may search: iterations (samples of the hidden cards, each tried with
    every candidate), this process's processor time, and time on the clock; whichever runs out
    first. One iteration is always made.

    Processor time keeps the player as strong on a busy machine as on an idle one; the clock's
    cap keeps a decision on a very busy machine from keeping the daemon's cycle (and its mail)
    waiting: there the player gets weaker, never late."""

    iterations: int = 8
    cpu_seconds: float = 0.4
    wall_seconds: float = 2.0


Policy = Callable[[S, int, Rng], list[A]]


@dataclass(frozen=True)
class Search(Generic[S, A]):
    """One game's pieces of the search."""

    engine: RulesEngine[S, A]
    policy: Policy[S, A]  # the rollout player, for every seat
    # None: play to the end and reward the outcome. Else, given the state a rollout starts
    # from, a judge of the states it passes: the seat's reward (in `win_share`'s units) once
    # the rollout has gone far enough, None to play on.
    horizon: Callable[[S], Callable[[S, int], float | None]] | None = None
    # the reward for each point of lead at the game's end (`win_share`)
    margin_weight: float = MARGIN_WEIGHT
    # standard errors a candidate's gain over the prior's choice must clear (`choose`)
    confidence: float = CONFIDENCE


def winners(outcome: Outcome) -> dict[int, float]:
    """Each winning seat's share of the win: 1, or split when the top is tied."""
    if outcome.winner is not None:
        return {outcome.winner: 1.0}
    top = outcome.standings[0]
    tied = [s.seat for s in outcome.standings if (s.score, s.money) == (top.score, top.money)]
    return dict.fromkeys(tied, 1.0 / len(tied))


def win_share(outcome: Outcome, seat: int, margin_weight: float = MARGIN_WEIGHT) -> float:
    """The seat's share of the win, plus a little for its lead over the best other player."""
    score = {standing.seat: standing.score for standing in outcome.standings}
    lead = score.pop(seat) - max(score.values())
    return winners(outcome).get(seat, 0.0) + margin_weight * lead


def choose(
    search: Search[S, A],
    seat: int,
    sample: Callable[[Rng], S],
    candidates: Sequence[list[A]],
    rng: Rng,
    budget: Budget,
) -> list[A]:
    """The first candidate (the prior's choice), unless another one beats it clearly.

    Each candidate is compared with the first on the same samples, so what is measured is the
    difference their choice makes. Another candidate is chosen only when its mean difference
    is the best and more than `search.confidence` standard errors above nothing: with few
    samples the best-looking candidate is often just the luckiest, and deviating from a
    coherent plan on luck loses more than it wins."""
    if len(candidates) < 2:
        return list(candidates[0]) if candidates else []
    cpu_deadline = time.process_time() + budget.cpu_seconds
    wall_deadline = time.perf_counter() + budget.wall_seconds
    gains = [Gain() for _ in candidates]
    for _ in range(max(1, budget.iterations)):
        seed = rng.next64()
        rewards = [
            _try(search, seat, sample(Rng(seed)), email, Rng(seed ^ _ROLLOUT_DICE))
            for email in candidates
        ]
        first = rewards[0]
        if first is not None:
            for gain, reward in zip(gains, rewards, strict=True):
                if reward is not None:
                    gain.add(reward - first)
        if time.process_time() >= cpu_deadline or time.perf_counter() >= wall_deadline:
            break
    best = max(range(len(candidates)), key=lambda index: (gains[index].mean, -index))
    clear = gains[best].clear(search.confidence)
    return list(candidates[best] if clear else candidates[0])


@dataclass
class Gain:
    """What a candidate gains over the first, sample by sample."""

    count: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, difference: float) -> None:
        self.count += 1
        self.total += difference
        self.squares += difference * difference

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else float("-inf")

    def clear(self, confidence: float = CONFIDENCE) -> bool:
        """A gain more than `confidence` standard errors above zero."""
        if self.count < 2:
            return False
        variance = max(0.0, (self.squares - self.count * self.mean**2) / (self.count - 1))
        return self.mean > confidence * math.sqrt(variance / self.count)


def _try(search: Search[S, A], seat: int, state: S, email: list[A], dice: Rng) -> float | None:
    """The reward of sending `email` in `state`; None when the sample does not allow it."""
    engine = search.engine
    judge = search.horizon(state) if search.horizon is not None else None
    for action in email:
        if engine.check(state, seat, action) is not None:
            return None
        engine.apply(state, seat, action)
    return rollout(search, seat, state, dice, judge)


def rollout(
    search: Search[S, A],
    seat: int,
    state: S,
    dice: Rng,
    judge: Callable[[S, int], float | None] | None = None,
) -> float:
    """Play `state` on with the policy for every seat until the judge (made before the email
    tried was applied) has a verdict or the game ends; the reward for `seat`."""
    engine = search.engine
    for _ in range(MAX_ROLLOUT_EMAILS):
        if judge is not None:
            judged = judge(state, seat)
            if judged is not None:
                return judged
        waiting = engine.awaiting(state)
        if not waiting:
            return win_share(engine.outcome(state), seat)
        mover = waiting[0]
        for action in search.policy(state, mover, dice):
            engine.apply(state, mover, action)
    raise RuntimeError(f"a {engine.name} rollout did not end")
