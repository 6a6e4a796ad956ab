"""The Show Manager rules engine: `pbem.games.base.RulesEngine` over `GameState` and `Action`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.games.base import Event, NewGame, Outcome, Refusal, Submission
from pbem.games.rng import Rng
from pbem.games.showmanager import agency, bot, gm, legal, players, rules, scoring, setup, turns
from pbem.games.showmanager.actions import Action, Hire, Refresh, Stage
from pbem.games.showmanager.state import GameState, dump_state, load_state
from pbem.games.showmanager.view import GameView, public_view, view


class ShowManagerEngine:
    name = "showmanager"
    variants: tuple[str, ...] = setup.VARIANTS

    def new_game(self, spec: NewGame) -> GameState:
        return setup.new_game(spec)

    def awaiting(self, state: GameState) -> tuple[int, ...]:
        return () if state.turn is None else (state.turn,)

    def check(self, state: GameState, seat: int, action: Action) -> Refusal | None:
        return rules.check(state, seat, action)

    # A simulation calls these two for every order: the functions themselves, with no method
    # call in between (issue 14).
    apply = staticmethod(turns.apply)
    random_actions = staticmethod(players.random_actions)

    def submit(
        self, state: GameState, seat: int, actions: Sequence[Action]
    ) -> Submission[GameState]:
        """One email, all or nothing: a loan, refreshes, then at most one hire or stage."""
        work = self.copy(state)
        events: list[Event] = []
        for index, action in enumerate(actions):
            previous = actions[index - 1] if index else None
            if isinstance(previous, Hire | Stage):
                refusal: Refusal | None = Refusal(
                    "a HIRE or STAGE ends your turn: nothing may follow it in the same email"
                )
            elif isinstance(action, Refresh) and not isinstance(previous, Refresh):
                refusal = rules.refreshes_refusal(work, seat, _run_of_refreshes(actions, index))
            else:
                refusal = rules.check(work, seat, action)
            if refusal is not None:
                return Submission(None, [], index, refusal)
            events.extend(turns.apply(work, seat, action))
        return Submission(work, events)

    def is_over(self, state: GameState) -> bool:
        return state.turn is None

    def outcome(self, state: GameState) -> Outcome:
        return scoring.outcome(state)

    def view(self, state: GameState, seat: int | None) -> GameView:
        return view(state, seat)

    def public_view(self, state: GameState) -> GameView:
        return public_view(state)

    def progress(self, state: GameState) -> str:
        # A hire adds a card to a hand, a staging adds a production: each ends a turn. Loans and
        # refreshes leave both alone, so the turn they belong to stays open.
        hands = sum(len(player.hand) for player in state.players)
        staged = sum(sum(player.staged) for player in state.players)
        return f"{state.turn}:{hands}:{staged}"

    def skip(self, state: GameState, seat: int) -> list[Event]:
        return turns.skip_turn(state, seat)

    def withdraw(self, state: GameState, seat: int) -> None:
        """Nothing to take back: an order is played at once, and early orders wait outside the
        state (the moderator's `queued_orders`)."""

    def unseen(self, state: GameState) -> Any:
        return agency.unseen(state)

    def reshuffle(self, state: GameState, rng: Rng) -> GameState:
        return agency.reshuffle(state, rng)

    def codes(self, state: GameState) -> dict[str, str]:
        return {}  # cards are named by their ids and slots, which need no codes

    def default_actions(self, state: GameState, seat: int) -> list[Action]:
        return players.default_actions(state, seat)

    def bot_actions(self, state: GameState, seat: int, rng: Rng) -> list[Action]:
        """A computer player's email: sensible play from what `seat` may see (`bot.py`)."""
        return bot.bot_actions(state, seat, rng)

    def legal_summary(self, state: GameState, seat: int) -> list[str]:
        return legal.legal_summary(state, seat)

    def set_money(self, state: GameState, seat: int, amount: int) -> list[Event]:
        return gm.set_money(state, seat, amount)

    def set_value(
        self, state: GameState, seat: int, musical: str, number: int | None, value: int
    ) -> list[Event]:
        return gm.set_value(state, seat, musical, number, value)

    def dump(self, state: GameState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> GameState:
        return load_state(data)

    def copy(self, state: GameState) -> GameState:
        return load_state(dump_state(state))


def _run_of_refreshes(actions: Sequence[Action], start: int) -> int:
    """How many refreshes follow one another from `start` (REFRESH 10 is ten of them)."""
    count = 0
    while start + count < len(actions) and isinstance(actions[start + count], Refresh):
        count += 1
    return count
