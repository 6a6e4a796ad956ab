"""What a Big Time! email is told when it replaces the seat's orders on file for the phase.

A later email for the same phase replaces the earlier one (RULINGS.md): its BID (or phase-3
HEADLINER) files a whole new order, so preferences the earlier email set and this one does not
repeat are gone. The player is told so in their own reply, or they would believe them on file.
The Hook choice is no part of an order (it holds for the round), so it is told as still standing.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.bigtime.actions import Action, Bid, Hook, PreferAM, PreferHeadliner, PreferPM
from pbem.games.bigtime.state import BigTimeState
from pbem.games.bigtime.wording import cards_text


def replaced_note(state: BigTimeState, seat: int, actions: Sequence[Action]) -> str | None:
    """The note for the reply to an email whose `actions` replace the seat's order on file
    (`state` is the state before them); None when nothing was on file."""
    theater = state.theaters[seat]
    earlier = _on_file(state, seat)
    if not earlier:
        return None
    written = {type(action) for action in actions}
    if state.phase == 3:
        note = f"This email replaces your earlier Headliner preferences ({earlier[0][1]})."
    else:
        lines = " / ".join(line for _, line in earlier)
        phase = f"round {state.round}, phase {state.phase}"
        note = f"This email replaces your earlier orders for {phase} ({lines})"
        dropped = [line for kind, line in earlier if kind is not Bid and kind not in written]
        note += (
            f": your earlier preferences ({' / '.join(dropped)}) no longer stand, as this email "
            "does not repeat them. To keep them, send them again with your BID."
            if dropped
            else "."
        )
    if theater.hook_choice is not None and Hook not in written:
        note += (
            f" Your Hook choice (HOOK {theater.hook_choice}) still stands: it holds for the round."
        )
    return note


def _on_file(state: BigTimeState, seat: int) -> list[tuple[type, str]]:
    """The seat's order on file for the current phase, as the lines that would file it again."""
    theater = state.theaters[seat]
    if state.phase == 3:
        prefs = theater.headliner_prefs
        return [] if prefs is None else [(PreferHeadliner, _line("HEADLINER", prefs))]
    order = theater.order
    if order is None:
        return []
    lines: list[tuple[type, str]] = [(Bid, f"BID {cards_text(order.bid)}")]
    lines += [(PreferAM, _line("AM", order.am))] if order.am else []
    lines += [(PreferPM, _line("PM", order.pm))] if order.pm else []
    # Phase-2 Headliner preferences are filed with the phase-2 BID, and replaced with it.
    if state.phase == 2 and theater.headliner_prefs is not None:
        lines.append((PreferHeadliner, _line("HEADLINER", theater.headliner_prefs)))
    return lines


def _line(word: str, acts: tuple[str, ...]) -> str:
    return " ".join((word, *acts))
