"""What the moderator must know of each game beyond the engine protocol: how its emails name the
turn or phase they answer, and which tie-breaks order the final standings.

Show Manager is turn-based: an order sent out of turn waits for the turn. The Big Time! is
simultaneous: an email answers one phase, named in its subject, and is stale once that phase has
resolved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pbem.games.base import Refusal, Standing
from pbem.games.showmanager.actions import Hire, Refresh
from pbem.games.showmanager.rules import early_refusal
from pbem.moderator.replacing import replaced_note

_ROUND_PHASE = re.compile(r"round\s*(\d+)\s*\W*\s*phase\s*(\d+)", re.IGNORECASE)
# A row of the agency as a Show Manager status's text part shows it: slot, cost, card id.
_AGENCY_ROW = re.compile(r"^\s{0,4}(\d)\s+\d+\s+#(\d+)\s", re.MULTILINE)


class ShowManagerKind:
    title = "Show Manager"
    turn_based = True

    def stale(self, state: Any, subject: str) -> str | None:
        """Why an email is stale, or None: a turn-based order waits for its turn instead."""
        return None

    def names_phase(self, subject: str) -> bool:
        return False

    def replaced(self, state: Any, seat: int, actions: Sequence[Any]) -> str | None:
        """Show Manager keeps no order on file: the early orders a newer email replaces are told
        by `play.replace_waiting_orders`."""
        return None

    def never_legal(
        self, state: Any, seat: int, actions: Sequence[Any]
    ) -> tuple[int, Refusal] | None:
        """The early order no turn could take (a card id the game does not have), refused at
        once rather than kept to fail when the turn comes: (its index, why)."""
        return early_refusal(state, seat, actions)

    def outdated(
        self, state: Any, answered: Callable[[], str], actions: Sequence[Any]
    ) -> tuple[int, Refusal] | None:
        """A HIRE by slot in an email answering an older letter (`answered()`, its text, read
        only for such a HIRE), whose agency showed another card in that slot: the player would
        be hired a card they never saw (play-testing). A REFRESH before it hires blind on
        purpose."""
        for index, action in enumerate(actions):
            if isinstance(action, Refresh):
                return None
            if not isinstance(action, Hire) or action.slot is None:
                continue
            agency = answered().partition("-- Agency --")[2]
            shown = {int(slot): int(card) for slot, card in _AGENCY_ROW.findall(agency)}
            then, now = shown.get(action.slot), state.display[action.slot]
            if then is None or now is None or then == now:
                return None
            cards = state.data.cards
            return index, Refusal(
                f"the email you answered showed #{then} {cards[then].name} in slot "
                f"{action.slot}, but the agency has changed since: slot {action.slot} holds "
                f"#{now} {cards[now].name} now. Answer this email, which shows the agency "
                f"as it is, or hire a card by its id (HIRE #{now})"
            )
        return None

    def phase(self, state: Any, seat: int | None, names: Sequence[str]) -> str:
        """Whose turn it is, as the subject of every email tells `seat` (None: the GM)."""
        if state.turn is None:
            return "Final result"
        return "Your turn" if seat == state.turn else f"{names[state.turn]}'s turn"

    def tie_break(self, above: Standing, below: Standing) -> str | None:
        """How `above` came before `below` on equal points; None when they stay tied."""
        if above.money == below.money:
            return None
        return f"on money ({above.money} to {below.money})"  # money has no unit in the game

    def where(self, state: Any, names: list[str]) -> str:
        """Where the game stands, in the words of its status emails."""
        return "the end of the game" if state.turn is None else f"{names[state.turn]}'s turn"

    def turn(self, state: Any) -> int | None:
        """The seat whose turn it is; None at the end."""
        turn: int | None = state.turn
        return turn


class BigTimeKind:
    title = "The Big Time!"
    turn_based = False

    def stale(self, state: Any, subject: str) -> str | None:
        """Why an email answering a phase already resolved (`Round 1 · Phase 1`) is stale."""
        match = _ROUND_PHASE.search(subject or "")
        answered = (int(match[1]), int(match[2])) if match else None
        if answered is None or answered == (state.round, state.phase):
            return None
        # A phase ahead of the game's was taken back by the game master's undo.
        gone = (
            "which has already been resolved"
            if answered < (state.round, state.phase)
            else "which the game master's undo took back"
        )
        return (
            f"this email answers round {answered[0]}, phase {answered[1]}, {gone}; the game is "
            f"now at round {state.round}, phase {state.phase}, shown below: answer this email"
        )

    def names_phase(self, subject: str) -> bool:
        """Whether a subject says which phase its email answers (`Re: [bt-1] Round 1 · Phase 2`)."""
        return _ROUND_PHASE.search(subject or "") is not None

    def outdated(
        self, state: Any, answered: Callable[[], str], actions: Sequence[Any]
    ) -> tuple[int, Refusal] | None:
        """An email answering an older letter of the phase names acts by card id or by the
        phase's codes, which do not change within it: nothing to refuse."""
        return None

    def replaced(self, state: Any, seat: int, actions: Sequence[Any]) -> str | None:
        """What the reply to an email replacing the seat's order on file for the phase tells."""
        return replaced_note(state, seat, actions)

    def never_legal(
        self, state: Any, seat: int, actions: Sequence[Any]
    ) -> tuple[int, Refusal] | None:
        """A simultaneous game keeps no early orders: an email is judged in its phase."""
        return None

    def phase(self, state: Any, seat: int | None, names: Sequence[str]) -> str:
        return "Final result" if state.over else f"Round {state.round} · Phase {state.phase}"

    def tie_break(self, above: Standing, below: Standing) -> str | None:
        # The final reviews all differ (show.standings_order), so no tie is ever left.
        return (
            "on the tie-breaks (the Hall of Fame scored again on the final chart, "
            "then the lower final review)"
        )

    def where(self, state: Any, names: list[str]) -> str:
        """Where the game stands, in the words of its status emails."""
        return "the end of the game" if state.over else f"round {state.round}, phase {state.phase}"

    def turn(self, state: Any) -> int | None:
        """No seat's turn: every seat orders at once."""
        return None


GameKind = ShowManagerKind | BigTimeKind
KINDS: dict[str, GameKind] = {"showmanager": ShowManagerKind(), "bigtime": BigTimeKind()}
