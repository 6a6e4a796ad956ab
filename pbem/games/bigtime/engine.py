"""The Big Time! rules engine: `pbem.games.base.RulesEngine` over `BigTimeState` and the actions of
`actions.py`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.games.base import Event, NewGame, Outcome, Refusal, Standing, Submission
from pbem.games.bigtime import bot, choices, dealing, flow, orders
from pbem.games.bigtime.actions import Action
from pbem.games.bigtime.codec import dump_state, load_state
from pbem.games.bigtime.dealing import VARIANTS, new_state
from pbem.games.bigtime.show import standings_order
from pbem.games.bigtime.state import BigTimeState
from pbem.games.bigtime.views import BigTimeView, build_view, public_view
from pbem.games.rng import Rng


class BigTimeEngine:
    name = "bigtime"
    variants = VARIANTS

    def new_game(self, spec: NewGame) -> BigTimeState:
        """Raises BigTimeSetupError for unusable data, player count, variant or set-up."""
        return new_state(spec)

    # A random game asks these on every email: the rules' own functions, not a method calling
    # them, save a call each time (issue 14).
    awaiting = staticmethod(orders.awaiting)
    random_actions = staticmethod(choices.random_actions)
    apply = staticmethod(flow.apply)

    def check(self, state: BigTimeState, seat: int, action: Action) -> Refusal | None:
        return orders.check(state, seat, action)

    def submit(
        self, state: BigTimeState, seat: int, actions: Sequence[Action]
    ) -> Submission[BigTimeState]:
        problem = orders.email_problem(state, seat, actions)
        if problem is not None:
            return Submission(None, refused_index=problem[0], refusal=problem[1])
        copy = self.load(self.dump(state))
        events: list[Event] = []
        for index, action in sorted(
            enumerate(actions), key=lambda item: orders.completes_order(copy, item[1])
        ):
            refusal = orders.check(copy, seat, action)
            if refusal is not None:
                return Submission(None, refused_index=index, refusal=refusal)
            events += self.apply(copy, seat, action)
        return Submission(copy, events)

    def is_over(self, state: BigTimeState) -> bool:
        return state.over

    def outcome(self, state: BigTimeState) -> Outcome:
        """Standings best first, after both tie-breaks (show.standings_order)."""
        order = standings_order(state)
        standings = tuple(
            Standing(seat, state.theaters[seat].posterity, sum(state.theaters[seat].hand))
            for seat in order
        )
        return Outcome(standings, order[0] if state.over else None)

    def view(self, state: BigTimeState, seat: int | None) -> BigTimeView:
        return build_view(state, seat)

    def public_view(self, state: BigTimeState) -> BigTimeView:
        return public_view(state)

    def skip(self, state: BigTimeState, seat: int) -> list[Event]:
        # A Big Time! seat that says nothing bids nothing and takes the default picks: skipping
        # it is playing its default orders.
        events: list[Event] = []
        for action in choices.default_actions(state, seat):
            events.extend(self.apply(state, seat, action))
        return events

    def withdraw(self, state: BigTimeState, seat: int) -> None:
        orders.withdraw_order(state, seat)

    def unseen(self, state: BigTimeState) -> Any:
        return dealing.unseen(state)

    def reshuffle(self, state: BigTimeState, rng: Rng) -> BigTimeState:
        return dealing.reshuffle(state, rng)

    def progress(self, state: BigTimeState) -> str:
        return state.phase_key

    def codes(self, state: BigTimeState) -> dict[str, str]:
        return choices.codes(state)

    def legal_summary(self, state: BigTimeState, seat: int) -> list[str]:
        return choices.legal_summary(state, seat)

    def default_actions(self, state: BigTimeState, seat: int) -> list[Action]:
        return choices.default_actions(state, seat)

    def bot_actions(self, state: BigTimeState, seat: int, rng: Rng) -> list[Action]:
        """A computer player's email: bids in proportion to what is on offer (`bot.py`)."""
        return bot.bot_actions(state, seat, rng)

    def dump(self, state: BigTimeState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> BigTimeState:
        return load_state(data)


ENGINE = BigTimeEngine()
