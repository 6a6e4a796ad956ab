"""Where a transcript writes the emails of a computer player that took a seat over (RESIGN,
`gm remove`), so that `pbem replay` plays the game's moves, not its own computer player's.

The replay gives such a seat to a computer player of its own, which moves as soon as the seat
is awaited, by dice of its own (REPLAY.md): left to it, the replay would end elsewhere. So the
game's computer player's emails go where a later email still counts for the seat:

- The Big Time!: after the replay's computer player answered the phase (it does as soon as its
  status comes, while a person is still awaited), as a later email for the phase replacing its
  order on file.
- Show Manager: before the person's email that brought the seat's turn, as early orders, which
  the turn plays before any computer player moves. Two moves of the seat in one turn (REFRESH,
  then HIRE) go in one email: a seat has one early email waiting.

Where the game's computer player moved at once, in the step that gave it the seat (the seat
was the one the game waited for: a player resigning in answer to their turn, the game master
removing a player who did not answer), that change of hands is written just before the
person's email that came before it, which changes nothing of the game; the computer player's
email then goes as above. Where nothing can stand for the replay's computer player (only such
seats awaited, a turn brought by an undo), it makes the move: the transcript names a gap.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pbem.moderator.loaded import LoadedGame

from .steps import Left, Made, Replaced, Sent, Step


@dataclass(frozen=True)
class Place:
    """Where a step's message goes and what it makes in the replay. `key` orders the messages:
    `(step, 1, 0)` is the step's own place, `(step, 0, n)` just before that step's message.
    `entries`: the replay's history entries it makes. `joined`: its body goes in the email
    placed just before it. `written` False: the replay's own computer player makes the move,
    so there is no message."""

    key: tuple[int, int, int]
    entries: int
    joined: bool = False
    written: bool = True
    # Early orders: their entries come when the turn does, after the email of step `key[0]`.
    deferred: bool = False


def places(game: LoadedGame, steps: Sequence[Step]) -> list[Place]:
    """Each step's place, the start's (entry 1) first."""
    # The seats a computer player took over, just after each step.
    held: list[frozenset[int]] = [frozenset()]
    for step in steps[1:]:
        made = step.made
        if isinstance(made, Left):
            held.append(held[-1] | {made.seat})
        elif isinstance(made, Replaced):
            held.append(held[-1] - {made.seat})
        else:
            held.append(held[-1])
    found = [Place((0, 1, 0), 1)]
    for index, step in enumerate(steps[1:], start=1):
        made = step.made
        if isinstance(made, Sent) and made.seat in held[index]:
            found.append(_taken_over(game, steps, index, held, found))
        else:
            found.append(Place((index, 1, 0), int(made is not None)))
    return found


def _taken_over(
    game: LoadedGame,
    steps: Sequence[Step],
    index: int,
    held: list[frozenset[int]],
    found: list[Place],
) -> Place:
    """The place of step `index`, a computer player's email in a seat it took over; `found`
    (the places so far) may have that change of hands moved earlier."""
    made = steps[index].made
    assert isinstance(made, Sent)
    seat, computers = made.seat, held[index]
    if not game.kind.turn_based and _person_awaited(game, steps[index - 1], computers):
        return Place((index, 1, 0), 2)  # the replay's computer player's answer, then this
    # Back to the person's email that brought this move, in whose transaction it was made at
    # once: over the seat's own moves of this turn (REFRESH, then HIRE), then over other seats'
    # changes of hands and their computer players' moves; the seat's own change of hands, made
    # just before, is written before that email too (module docstring).
    person = index - 1
    while _seat(steps[person].made) == seat:
        person -= 1
    change_at: int | None = None
    while True:
        before = steps[person].made
        if isinstance(before, Left) and before.seat == seat:
            # Unless moved already, for the seat's earlier move of this turn (REFRESH).
            change_at = person if found[person].key[1] == 1 else change_at
        elif not _since(before, held[person], seat):
            break
        person -= 1
    if change_at is None and not game.kind.turn_based:
        return Place((index, 1, 0), 1, written=False)
    # The seats the replay's computer players hold when this email comes.
    then = held[person] | {seat}
    if _seat(steps[person].made) in (None, *then):
        return Place((index, 1, 0), 1, written=False)
    if game.kind.turn_based:
        if seat in _awaiting(game, steps[person - 1]):
            return Place((index, 1, 0), 1, written=False)
        entries = 1
    elif _person_awaited(game, steps[person - 1], then):
        entries = 2
    else:
        return Place((index, 1, 0), 1, written=False)
    if change_at is not None:
        found[change_at] = replace(found[change_at], key=(person, 0, change_at))
    earlier = found[index - 1]
    joins = earlier.key[:2] == (person, 0) and _seat(steps[index - 1].made) == seat
    turn_based = game.kind.turn_based
    if turn_based and joins:
        return Place((person, 0, index), 0, joined=True, deferred=True)
    return Place((person, 0, index), entries, deferred=turn_based)


def _seat(made: Made) -> int | None:
    """Whose email made the step, if an email did."""
    return made.seat if isinstance(made, Sent) else None


def _since(made: Made, computers: frozenset[int], seat: int) -> bool:
    """Whether a change the seat's change of hands may be written before: another seat's change
    of hands, or another computer player's move."""
    if isinstance(made, Left | Replaced):
        return made.seat != seat
    return isinstance(made, Sent) and made.seat in computers and made.seat != seat


def _awaiting(game: LoadedGame, step: Step) -> set[int]:
    return set(game.engine.awaiting(game.engine.load(json.loads(step.state))))


def _person_awaited(game: LoadedGame, step: Step, computers: frozenset[int]) -> bool:
    """Whether, once `step` was made, someone other than the computer players was awaited."""
    return bool(_awaiting(game, step) - computers)
