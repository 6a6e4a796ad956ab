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
from pbem.moderator.events import Undone
from pbem.moderator.gm import GM, Change, GmError, load_override, override_change
from pbem.moderator.gm_letters import tell_everyone
from pbem.moderator.loaded import LoadedGame, save_state
from pbem.moderator.news import untold_events
from pbem.store import (
    HistoryRow,
    history_entry,
    history_since,
    last_history,
    set_aside_waiting_orders,
)


@dataclass(frozen=True)
class Restored:
    """The state to go back to, and what was done about what the undone entries showed."""

    state: Any
    reshuffled: bool
    orders_taken_back: bool


def undo(desk: Desk, game_id: str, to: int | None, why: str | None) -> Change:
    """Restore the state after history entry `to` (default: the one before the last change a
    person made; table talk changes nothing, so undoing it alone would do nothing, and a
    computer player's orders after it would only be given again at once)."""
    game, mark = load_override(desk, game_id)
    latest = last_history(desk.session, game_id, 1)[-1]
    target = to if to is not None else _before_last_change(desk, game_id)
    # Only a number in range is looked up: a 20-digit one overflows the database's integers.
    entry = history_entry(desk.session, game_id, target) if 1 <= target <= latest.seq else None
    if entry is None:
        raise GmError(f"{game_id} has no history entry {target}: choose one of 1-{latest.seq}")
    restored = _restored(desk, game, entry, latest)
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
    tell_everyone(desk, game, untold_events(desk, game, undone_after=target), why)
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


def _before_last_change(desk: Desk, game_id: str) -> int:
    """The entry before the last change a player or the game master made. The computer players'
    orders after it go back with it: undoing those alone would have them ordered again at
    once, and nothing would change but the game master's word that it did."""
    changes = desk.session.exec(
        select(HistoryRow.seq, HistoryRow.actor)
        .where(col(HistoryRow.game_id) == game_id)
        .where(col(HistoryRow.kind) != "talk")
        .order_by(col(HistoryRow.seq).desc())
    )
    last_by_a_person = False
    for seq, actor in changes:
        if last_by_a_person:
            return seq
        last_by_a_person = not actor.endswith(f"@{BOT_DOMAIN}")
    return 1
