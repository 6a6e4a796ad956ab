"""Whole games played through the moderator as players and a game master would, every email
read for what its reader must not see.

Each step is one email from a player (random legal orders, sometimes with HISTORY or STATUS,
Show Manager turns split over several emails as random play does), or the game master's
override, a deadline passing (default or skip policy) or a bounce. Now and then an email also
carries table talk: to everyone, or private (SAY TO, a line or a SAY..END block) with a word of
its own, in games whose press is all or public. After each step every new email is searched, as
its reader gets it (subject, text and HTML), for: the seed, another seat's address (any it ever
had) or secret, private talk the reader neither sent nor was sent, and what the game hides at
that moment: another player's money (made unmistakable by the game master setting it to a
sentinel), an unrevealed bid, a face-down Headliner. A watcher follows every game from its first
turn (WATCH to the bare address): its letters are searched for all of that, for every seat, and
for any private section of a status; no other email may show the watcher's address. At the end,
the game's public archive page is read the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.header import decode_header, make_header
from typing import Any
from unittest import mock

from sqlmodel import Session, col, select

from pbem.archive.page import archive_page, finished_game
from pbem.daemon.deadlines import _act_for_missing
from pbem.games.rng import Rng
from pbem.moderator import gm
from pbem.moderator.addresses import reply_address
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import handle_inbound
from pbem.moderator.letters import phase_words
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.start import PlayerSpec
from pbem.moderator.undeliverable import record_undeliverable
from pbem.orders.format import order_text
from pbem.store import OutboxRow, ids, session_scope
from tests.hostile.harness import SETTINGS, Moderator

NAMES = ("Ann", "Bo", "Cy", "Dan", "Eve")
WATCHER = "watcher@example.net"
# What only a seat's own status shows: its private section, its password.
PRIVATE_WORDS = re.compile(
    r"\(private|your hand|money cards|sealed bid|password|your money", re.IGNORECASE
)


def sentinel(seat: int) -> int:
    """Money no real figure comes near, different for each seat, and recognisable after a
    thousand spent or borrowed (`sentinel_seen`)."""
    return (seat + 1) * 1_000_000 + 500_000


def sentinel_seen(seat: int, words: str) -> bool:
    return re.search(rf"\b{seat + 1}(49|50)\d{{4}}\b", words) is not None


MAX_STEPS = 2_000
# The seats' secrets are drawn from these letters alone. The archive is searched for a secret as
# a word, and a secret of any letters can spell one the page has ("cards", "stage": CI once
# failed so); no word of the page has five of these in a row.
NO_VOWELS = "bcdfghjkmnpqrstvwxz"


@dataclass
class Seen:
    """What each seat must not be shown, beyond the game's current hidden information."""

    seed: int
    addresses: list[set[str]]  # every address each seat ever had
    secrets: list[set[str]]
    sentinels: set[int] = field(default_factory=set)  # seats whose money is a sentinel
    history_asked: bool = False
    whispers: dict[str, tuple[int, int]] = field(default_factory=dict)  # word: sender, addressee
    talk_sent: list[int] = field(default_factory=list)  # how many SAYs each seat sent


@dataclass(frozen=True)
class Email:
    to: str
    kind: str
    words: str  # subject, text and HTML


def play(moderator: Moderator, game: str, players: int, index: int) -> Iterator[Email]:
    """Play one game to its end; after each step, check the new emails (raises on a leak)."""
    with mock.patch.object(ids, "SECRET_ALPHABET", NO_VOWELS):
        yield from _play(moderator, game, players, index)


def _play(moderator: Moderator, game: str, players: int, index: int) -> Iterator[Email]:
    rng = Rng.from_seed(index)
    seed = 1_000_000_007 + index * 7919  # an unmistakable seed
    policy = ("wait", "default", "skip")[index % 3]
    press = ("all", "public")[index // 2 % 2]
    # Every other game's players give no name: the others must then see no address either.
    specs = [
        PlayerSpec(f"{NAMES[n].lower()}.{index}@example.org", NAMES[n] if index % 2 else None)
        for n in range(players)
    ]
    game_id = moderator.start(game, specs, seed=seed, deadline_hours=48, policy=policy, press=press)
    moderator.send(
        f"From: {WATCHER}\nTo: {SETTINGS.address}\nSubject: watching\n"
        f"Message-ID: <watch.{index}@leak.test>\n\nWATCH {game_id}\n".encode()
    )
    with Session(moderator.engine) as session:
        loaded = load_game(session, game_id)
        seen = Seen(
            seed,
            [{seat.address} for seat in loaded.seats],
            [{seat.secret} for seat in loaded.seats],
            talk_sent=[0] * players,
        )
    mark = 0
    for _ in range(MAX_STEPS):
        with session_scope(moderator.engine) as session:
            loaded = load_game(session, game_id)
            if loaded.row.status != "running":
                break
            _step(Desk(session, SETTINGS), loaded, seen, rng, policy)
        with Session(moderator.engine) as session:
            loaded = load_game(session, game_id)
            for seat in loaded.seats:
                seen.addresses[seat.position].add(seat.address)
                seen.secrets[seat.position].add(seat.secret)
            rows = list(
                session.exec(
                    select(OutboxRow)
                    .where(col(OutboxRow.game_id) == game_id)
                    .where(col(OutboxRow.id) > mark)
                    .order_by(col(OutboxRow.id))
                ).all()
            )
            for row in rows:
                assert row.id is not None
                mark = row.id
                email = _read(row)
                _check(loaded, seen, email)
                yield email
    else:
        raise AssertionError(f"{game_id} did not end in {MAX_STEPS} steps")
    check_archive(moderator, game_id, seen)


def check_archive(moderator: Moderator, game_id: str, seen: Seen) -> None:
    """The finished game's public page (`pbem archive`, ARCHIVE by mail), read as a stranger
    reads it: no seed, no address or secret any seat ever had, no order line (a sealed bid), no
    Headliner never dealt, and a seat's money (the sentinel) only in the final standings and on
    the final board, as every player is told at the end."""
    with Session(moderator.engine) as session:
        game = finished_game(session, game_id)
        page = archive_page(session, game)
    where = f"{game_id}'s archive"
    assert not re.search(r"\bseed\b", page, re.IGNORECASE), f"{where}: says 'seed'"
    assert str(seen.seed) not in page, f"{where}: shows the seed"
    for addresses, secrets in zip(seen.addresses, seen.secrets, strict=True):
        for address in addresses:
            assert address not in page, f"{where}: shows {address}"
        for secret in secrets:
            found = re.search(rf"\b{secret}\b", page)
            around = page[found.start() - 80 : found.end() + 80] if found else ""
            assert not found, f"{where}: shows a secret, {secret!r}: {around!r}"
    assert not re.search(r"\bBID [0-9]", page), f"{where}: shows an order line"
    during = page[page.index('<section class="chapter"') : page.rindex('<section class="chapter"')]
    for seat in seen.sentinels:
        assert not sentinel_seen(seat, during), f"{where}: shows seat {seat}'s money in play"
    if game.row.game == "bigtime":
        for card in game.state.headliner_deck:
            assert game.state.data.acts[card].name not in page, f"{where}: shows {card}"


def _step(desk: Desk, game: LoadedGame, seen: Seen, rng: Rng, policy: str) -> None:
    engine, state = game.engine, game.state
    awaiting = engine.awaiting(state)
    roll = rng.below(100)
    seat = rng.choice(list(awaiting))
    # The first step of a Show Manager game always sets one: every game checks money.
    wanted = roll < 3 or not seen.sentinels
    if wanted and hasattr(engine, "set_money") and seat not in seen.sentinels:
        seen.sentinels.add(seat)
        gm.set_money(desk, game.id, game.seat(seat).address, sentinel(seat), "a test")
    elif roll < 5:
        gm.replace(
            desk, game.id, game.seat(seat).address, f"new.{rng.below(10**6)}@example.org", None
        )
    elif roll < 6:
        record_undeliverable(desk, game.seat(seat).address, "550 5.1.1 <x@example.org>", game.id)
    elif roll < 12 and policy != "wait":
        _act_for_missing(desk, game)
    else:
        _email(desk, game, seat, rng, seen)


def _email(desk: Desk, game: LoadedGame, seat: int, rng: Rng, seen: Seen) -> None:
    """The seat's orders (a computer player's choice, now and then random), now and then with
    HISTORY or STATUS. Show Manager's are sent one order an email: a loan or a refresh alone,
    then the hire or staging."""
    engine = game.engine
    choose = engine.random_actions if rng.below(10) == 0 else engine.bot_actions
    actions = choose(game.state, seat, rng)
    emails = [[action] for action in actions] if game.kind.turn_based else [actions]
    # The first email asks for HISTORY, so every game checks one; later ones now and then.
    extra = ("", "", "", "HISTORY\n", "STATUS\n", "HELP\n")[rng.below(6)]
    if not seen.history_asked:
        extra, seen.history_asked = "HISTORY\n", True
    address = game.seat(seat).address
    for orders in emails:
        raw = (
            f"From: {address}\nTo: {plus_address(game, seat)}\n"
            f"Subject: Re: {_subject(game)}\nMessage-ID: <{rng.below(10**12)}@leak.test>\n\n"
            f"{order_text(orders)}\n{extra}{_talk(game, seat, rng, seen)}"
        ).encode()
        handle_inbound(desk, raw, "test")


# Below the daily limit, so talk never makes an email refused.
_MOST_TALK = 18


def _talk(game: LoadedGame, seat: int, rng: Rng, seen: Seen) -> str:
    """Now and then talk to everyone or, with a word nobody else may read, to one other seat,
    named by its name or its number, on one line or in a SAY..END block."""
    roll = rng.below(8)
    # The first talk of a game is a one-line whisper, so every game checks one.
    if not seen.whispers and roll <= 2:
        roll = 1
    if roll > 2 or seen.talk_sent[seat] >= _MOST_TALK:
        return ""
    seen.talk_sent[seat] += 1
    if roll == 0:
        return "SAY good luck, all\n"
    to = rng.choice([other for other in range(len(game.seats)) if other != seat])
    word = f"zqx{len(seen.whispers)}w{seat}t{to}"
    seen.whispers[word] = (seat, to)
    name = game.seat(to).name or str(to + 1)
    if roll == 1:
        return f"SAY TO {name} only you may read {word}\n"
    return f"SAY TO {to + 1}\nfirst line\nthe word is {word}\nEND\n"


def plus_address(game: LoadedGame, seat: int) -> str:
    return reply_address(SETTINGS.address, game.id, game.seat(seat).secret)


def _subject(game: LoadedGame) -> str:
    return f"[{game.id}] " + phase_words(game, game.engine.awaiting(game.state)[0])


def _read(row: OutboxRow) -> Email:
    """The email as its reader sees it; the quick stdlib parser (the harness's strict one costs
    more than the moderator's work)."""
    message = message_from_bytes(row.raw)
    subject = str(make_header(decode_header(message["Subject"])))
    bodies = [
        part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
        for part in message.walk()
        if part.get_content_maintype() == "text"
    ]
    return Email(row.to_address, row.kind, "\n".join([subject, *bodies]))


def _check(game: LoadedGame, seen: Seen, email: Email) -> None:
    """`email` shows its reader (a seat, or the watcher: None) nothing it may not see."""
    reader = next((n for n, addresses in enumerate(seen.addresses) if email.to in addresses), None)
    assert reader is not None or email.to == WATCHER, f"mail to {email.to}, no seat or watcher"
    words = email.words
    where = f"{game.id}, {email.kind} to {'the watcher' if reader is None else game.names[reader]}"
    if reader is None:
        found = PRIVATE_WORDS.search(words)
        assert found is None, f"{where}: shows {found[0]!r}"
    else:
        assert WATCHER not in words, f"{where}: shows the watcher's address"
    assert not re.search(r"\bseed\b", words, re.IGNORECASE), f"{where}: says 'seed'"
    assert str(seen.seed) not in words, f"{where}: shows the seed"
    for other, addresses in enumerate(seen.addresses):
        if other == reader:
            continue
        for address in addresses:
            assert address not in words, f"{where}: shows {address}"
        for secret in seen.secrets[other]:
            assert f".{secret}@" not in words, f"{where}: shows another seat's secret"
        # The final result shows everybody's money, for the tie-break.
        if other in seen.sentinels and game.row.status == "running":
            assert not sentinel_seen(other, words), f"{where}: shows seat {other}'s money"
    for word, pair in seen.whispers.items():
        assert reader in pair or word not in words, f"{where}: shows private talk {word}"
    for hidden in _hidden(game, reader):
        found = re.search(hidden, words)
        assert found is None, f"{where}: shows {found[0]!r}"


def _hidden(game: LoadedGame, reader: int | None) -> list[str]:
    """Patterns of texts that would give away what `reader` (None: the watcher) may not know
    now (The Big Time!).

    A bid is a few small numbers that the reader's own past orders, HELP's examples or an
    earlier reveal may show too, so a sealed bid is looked for where only a leak would put it:
    another player's order lines (HISTORY shows them as "sent orders"), or a reveal of the
    phase whose bids are still sealed.
    """
    state: Any = game.state
    if game.row.game != "bigtime":
        return []
    view = game.engine.view(state, None)
    # Troupers return to the deck each round, so only a face-down Headliner's name is news.
    patterns = [
        re.escape(f"{card.card} {card.name}")
        for stack in view.coming_soon
        for card in stack.hidden
        if card.kind == "headliner"
    ]
    sealed = [
        seat
        for seat, theater in enumerate(state.theaters)
        if seat != reader and theater.order is not None and theater.order.bid
    ]
    for seat in sealed:
        patterns.append(rf"\b{re.escape(game.names[seat])}: [^\n]*\bBID [0-9]")
    if sealed:
        patterns.append(rf"Round {state.round}, phase {state.phase}: the bids are revealed")
    return patterns
