"""`pbem gm undo`: the game goes back to the state a history entry left.

The undone entries may have shown what was hidden there: cards drawn from the deck, face-down
cards turned up, sealed bids revealed. Going back to that state as it was would let the players
choose again knowing what comes next, so the cards still unseen are shuffled again and the
revealed sealed orders are taken back, every seat's, so each player bids again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlmodel import col, select

from pbem.games.rng import Rng
from pbem.moderator.addresses import BOT_DOMAIN
from pbem.moderator.desk import Desk
from pbem.moderator.events import StartedByGm, Undone
from pbem.moderator.gm import GM, Change, GmError, load_override, override_change
from pbem.moderator.gm_letters import MOVED_BACK, tell_everyone
from pbem.moderator.loaded import LoadedGame, save_state
from pbem.moderator.news import untold_events
from pbem.moderator.seats import events_of
from pbem.store import (
    HistoryRow,
    history_entry,
    history_since,
    last_history,
    set_aside_waiting_orders,
    waiting_orders,
)

# Play-testing: an undo right after the start "moved the game back" to where it stood, told
# every player and watcher so, and left a line in the history for good.
SINCE_START = "nothing to undo: no orders or changes since the game started"


class NotAnEntryNumber(GmError):
    """`--to` words that are no number: no game could take them, so the command line calls it
    a usage error (exit 2), though naming the entries there are takes the game."""


@dataclass(frozen=True)
class Restored:
    """The state to go back to, and what was done about what the undone entries showed."""

    state: Any
    reshuffled: bool
    orders_taken_back: bool


def undo(desk: Desk, game_id: str, to: int | str | None, why: str | None) -> Change:
    """Restore the state after history entry `to` (default: the one before the last change a
    person made; table talk changes nothing, so undoing it alone would do nothing, and a
    computer player's orders after it would only be given again at once). `to` may be the
    words typed after `--to`. An undo that would change nothing is refused: it would tell
    everyone the game moved back, and stay in the history."""
    game, mark = load_override(desk, game_id)
    latest = last_history(desk.session, game_id, 1)[-1]
    if to is None:
        target = _before_last_change(desk, game_id)
        if target is None:
            raise GmError(f"{game_id}: {SINCE_START}")
    else:
        target = _entry_number(game_id, to, latest.seq)
    # Only a number in range is looked up: a 20-digit one overflows the database's integers.
    entry = history_entry(desk.session, game_id, target) if 1 <= target <= latest.seq else None
    if entry is None:
        raise GmError(f"{game_id} has no history entry {target}: {_choose(game_id, latest.seq)}")
    restored = _restored(desk, game, entry, latest)
    if _changes_nothing(desk, game, entry, restored):
        raise GmError(_nothing_after(desk, game_id, target, latest.seq))
    where = game.kind.where(restored.state, game.names)
    if game.row.status == "finished":
        game.row.status = "running"
    # Early orders kept after that entry were given against what is undone: no turn plays them.
    undone = f"undone by the game master (undo to entry {target})"
    set_aside_waiting_orders(desk.session, game_id, undone, since=entry.at)
    summary = f"undo to entry {target} ({where})"
    if restored.orders_taken_back:
        summary += "; its bids had been revealed: every bid taken back, every seat bids again"
    if restored.reshuffled:
        summary += "; the undone entries showed unseen cards: they were shuffled again"
    save_state(
        desk.session,
        game,
        restored.state,
        actor=GM,
        kind="gm",
        summary=summary,
        why=why,
        events=[
            Undone(
                target,
                where,
                restored.reshuffled,
                restored.orders_taken_back,
                turn=game.kind.turn(restored.state),
            )
        ],
    )
    # Every seat gets a status telling what happened since the last one, the undo last.
    tell_everyone(desk, game, untold_events(desk, game, undone_after=target), why, MOVED_BACK)
    return override_change(desk, game, "undo", mark)


def _restored(desk: Desk, game: LoadedGame, entry: HistoryRow, latest: HistoryRow) -> Restored:
    """Entry `entry`'s state, with what the entries after it showed made unknown again."""
    engine = game.engine
    state = engine.load(json.loads(entry.state_after))
    later = [
        engine.load(json.loads(row.state_after))
        for row in history_since(desk.session, game.id, entry.seq)
    ]
    # The game moved on for everybody after it (a phase resolved): the sealed orders then on
    # file were revealed, so the seats that had them give new ones like everyone else.
    taken_back = False
    if any(engine.progress(after) != engine.progress(state) for after in later):
        awaited = engine.awaiting(state)
        for seat in range(len(game.seats)):
            if seat not in awaited:
                engine.withdraw(state, seat)
        taken_back = engine.awaiting(state) != awaited
    # Conservative: any later state hiding something else (an undo's reshuffle too) counts.
    hidden = engine.unseen(state)
    reshuffled = any(engine.unseen(after) != hidden for after in later)
    if reshuffled:
        state = engine.reshuffle(state, _fresh_rng(game.row.seed, entry, latest))
    return Restored(state, reshuffled, taken_back)


def _fresh_rng(seed: int, entry: HistoryRow, latest: HistoryRow) -> Rng:
    """A generator no player can foresee (the seed is secret) that a replay still reproduces:
    it comes from the seed and the two recorded states, the one gone back to and the one left,
    not from entry numbers, which a transcript that leaves out table talk numbers differently."""
    text = "\n".join((str(seed), entry.state_after, latest.state_after))
    return Rng.from_seed(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def _before_last_change(desk: Desk, game_id: str) -> int | None:
    """The entry before the last change a player or the game master made; None when nobody made
    one since the game started. The computer players' orders after it go back with it:
    undoing those alone would have them ordered again at once, and nothing would change but
    the game master's word that it did. The start's own entries are no change: the game
    started, the computer players' first orders, and `pbem gm start`'s entry after them."""
    changes = desk.session.exec(
        select(HistoryRow)
        .where(col(HistoryRow.game_id) == game_id)
        .where(col(HistoryRow.kind) != "talk")
        .order_by(col(HistoryRow.seq).desc())
    )
    last_by_a_person = False
    for row in changes:
        if last_by_a_person:
            return row.seq
        if _starts(row):
            return None
        last_by_a_person = not row.actor.endswith(f"@{BOT_DOMAIN}")
    return None


def _starts(row: HistoryRow) -> bool:
    """Whether the entry is the game's start: its first, or the game master's start of a game
    open for sign-up (`signup_start`), which changes nothing the first did not."""
    if row.seq == 1:
        return True
    return row.actor == GM and any(isinstance(e, StartedByGm) for e in events_of(row))


def _entry_number(game_id: str, to: int | str, latest: int) -> int:
    """`--to` as a number: typed words that are none are named, with the entries there are."""
    if isinstance(to, int):
        return to
    try:
        return int(to.strip())
    except ValueError:
        raise NotAnEntryNumber(
            f"--to {to!r} is not an entry number: {_choose(game_id, latest)}"
        ) from None


def _choose(game_id: str, latest: int) -> str:
    """The entries there are, to choose from (play-testing: "choose one of 1-1" read oddly)."""
    entries = "the only entry is 1" if latest == 1 else f"choose one of 1-{latest}"
    return f"{entries} (`pbem history {game_id}` lists them)"


def _changes_nothing(desk: Desk, game: LoadedGame, entry: HistoryRow, restored: Restored) -> bool:
    """Whether going back to `entry` would leave the game as it is: the same state, and no
    early orders kept since then to set aside."""
    engine = game.engine
    if engine.dump(restored.state) != engine.dump(game.state):
        return False
    return not any(row.created_at > entry.at for row in waiting_orders(desk.session, game.id))


def _nothing_after(desk: Desk, game_id: str, target: int, latest: int) -> str:
    """Why an undo to `target` would change nothing, and where an undo could go instead."""
    if _before_last_change(desk, game_id) is None:
        return f"{game_id}: {SINCE_START}"
    if target == latest:
        why = f"entry {target} is the latest"
    else:
        why = (
            f"the game stands as entry {target} left it: what came after it changed no orders, "
            "cards or money (an undo leaves deadlines, pauses and seats as they are)"
        )
    if target == 1:
        return f"{game_id}: nothing to undo: {why}"
    earlier = "1" if target == 2 else f"one of 1-{target - 1}"
    return f"{game_id}: nothing to undo: {why}; to go further back, give --to {earlier}"
