"""The letters the moderator writes, rendered from templates with only what the reader may see.

Every letter of a game names the game's current phase in its subject (`[bt-2] Round 1 · Phase 2`),
whatever it answers, so a player can always answer the newest email; threading goes through
In-Reply-To and References (compose.py), never through a growing `Re: Re:` subject. Every letter
starts with the mark line above which orders are read, and a letter to a seat ends with the
footer naming the game and the seat's password, for the PASSWORD fallback; once the game is
over it says so and asks for nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from pbem.games.base import Event
from pbem.moderator.absences import absences, held_deadline
from pbem.moderator.addresses import reply_address
from pbem.moderator.boards import board_html
from pbem.moderator.compose import Letter
from pbem.moderator.events import TALK, SeatLeft, SeatMoved
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.news import told_once
from pbem.moderator.render import render, render_text
from pbem.moderator.telling import Scene, Sentence, scene_of, tell_as_then, tell_public
from pbem.orders.quotes import ORDERS_ABOVE_MARK
from pbem.settings import Settings

# The subject's headline of the answer to an email that resigned its seat.
LEFT_HEADLINE = "You left the game"
# What every subject of a paused game says in place of whose turn it is.
PAUSED = "Game paused"


@dataclass(frozen=True)
class HistoryLine:
    """One history entry as a player may read it: with no entry number, since the numbers of the
    entries the reader may not see (others' private talk) would show in the gaps."""

    at: str
    actor: str  # "" when the summary names who acted (talk: "Ann says: ...")
    summary: str  # the reader's own order lines, the one thing that happened, or what was done
    told: tuple[Sentence, ...]  # what happened (or what the one thing heads), listed under it
    why: str | None
    undone: bool  # a later `gm undo` went back to before it


@dataclass(frozen=True)
class History:
    """The history a reader asked for: its lines, and whether they go back to the game's start
    (its heading says "from the start" then, and "the last 200" when older ones were left out)."""

    lines: tuple[HistoryLine, ...]
    from_start: bool

    @property
    def heading(self) -> str:
        """What the history's title says of it: "from the start, 5 entries"."""
        count = len(self.lines)
        entries = "1 entry" if count == 1 else f"{count} entries"
        return f"from the start, {entries}" if self.from_start else f"the last {entries}"


@dataclass(frozen=True)
class Footer:
    """What ends a letter to a seat: how to answer it, and the game and password for the
    PASSWORD fallback. `orders_open` is False unless the game is running: no request for orders
    while it is paused or once it is `over`, when the password is only for HISTORY."""

    game_id: str
    password: str
    orders_open: bool
    over: bool = False
    watching: ClassVar[bool] = False


@dataclass(frozen=True)
class WatchFooter:
    """What ends a letter to a watcher: how to stop watching (a watcher has no password)."""

    game_id: str
    address: str  # the moderator's bare address, where UNWATCH goes
    # The game is over: nothing more comes, so no word of stopping (play-testing: the final
    # result told the watcher how to stop what had ended).
    ended: bool = False
    watching: ClassVar[bool] = True


@dataclass(frozen=True)
class Place:
    """One line of the final standings; `ahead` says which tie-break put it before the next."""

    place: int
    name: str
    points: int
    ahead: str | None


# A reply's subject is `Re: ` once, however many a mail client piled up before it.
_REPLY_PREFIXES = re.compile(r"^\s*((re|aw|sv|antw|fwd?|wg)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)


def reply_subject(subject: str) -> str:
    """`Re: ` and the subject without the prefixes a chain of replies piled up."""
    return "Re: " + _REPLY_PREFIXES.sub("", subject).strip()


def phase_words(game: LoadedGame, seat: int | None, headline: str | None = None) -> str:
    """`Round 1 · Phase 2`: the game's current phase as `seat` reads it, after a headline."""
    phase = game.kind.phase(game.state, seat, game.names)
    if game.row.status == "paused":
        # Never "Your turn" while no orders are taken. A Big Time! subject keeps its phase: an
        # answer sent after the game resumes is judged stale or not by it (`kinds.stale`).
        phase = PAUSED if game.kind.turn_based else f"{PAUSED} · {phase}"
    return f"{headline} · {phase}" if headline else phase


def _deadline(game: LoadedGame) -> str | None:
    at: datetime | None = game.row.deadline_at
    return at.strftime("%Y-%m-%d %H:%M UTC") if at and game.row.status == "running" else None


# What happens at a deadline, by the game's policy, as the status tells it beside the time.
AT_DEADLINE = {
    "default": "then the moderator plays the default orders for whoever has not answered",
    "skip": "then whoever has not answered misses the turn",
    "wait": "then the game waits for the game master",
}


def final_standings(game: LoadedGame) -> list[Place]:
    """Places best first; equal places where the tie-breaks leave a tie; [] while playing."""
    if not game.engine.is_over(game.state):
        return []
    standings = game.engine.outcome(game.state).standings
    places: list[Place] = []
    for index, standing in enumerate(standings):
        below = standings[index + 1] if index + 1 < len(standings) else None
        ahead = (
            game.kind.tie_break(standing, below)
            if below is not None and below.score == standing.score
            else None
        )
        above = places[-1] if places else None
        shared = above is not None and above.points == standing.score and above.ahead is None
        place = above.place if shared and above is not None else index + 1
        places.append(Place(place, game.name_of(standing.seat), standing.score, ahead))
    return places


def status_context(game: LoadedGame, seat: int | None) -> dict[str, Any]:
    """What a status section shows `seat` (None: the game master): the view is the only source."""
    engine = game.engine
    running = game.row.status == "running" and not engine.is_over(game.state)
    awaiting = engine.awaiting(game.state) if running else ()
    examples = engine.legal_summary(game.state, seat) if seat in awaiting else []
    return _status(game, engine.view(game.state, seat), seat, examples)


def public_status_context(game: LoadedGame) -> dict[str, Any]:
    """What a status section shows a watcher: the public view, no seat, no example orders."""
    return _status(game, game.engine.public_view(game.state), None, [])


def _status(game: LoadedGame, view: Any, seat: int | None, examples: list[str]) -> dict[str, Any]:
    return {
        "game": game.row.game,
        "view": view,
        "names": game.names,
        "viewer": seat,
        "board": board_html(game.row.game, view, game.names, seat, ordering=seat is not None),
        "examples": examples,
        "deadline": _deadline(game),
        "at_deadline": AT_DEADLINE.get(game.row.policy, ""),
        "deadline_held": held_deadline(game, seat) if game.row.status == "running" else None,
        "standings": final_standings(game),
        "away": absences(game) if game.row.status != "finished" else [],
    }


def seat_reply_to(game: LoadedGame, seat: int, settings: Settings) -> str:
    return reply_address(settings.address, game.id, game.seat(seat).secret)


def _footer(game: LoadedGame | None, seat: int | None) -> Footer | None:
    if game is None or seat is None:
        return None
    over = game.engine.is_over(game.state)
    return Footer(game.id, game.seat(seat).secret, game.row.status == "running" and not over, over)


def _letter(
    *,
    to: str,
    headline: str | None,
    kind: str,
    template: str,
    loaded: LoadedGame | None,
    seat: int | None,
    settings: Settings,
    in_reply_to: str | None = None,
    footer: Footer | WatchFooter | None = None,
    former: bool = False,
    phase: bool = True,
    **context: Any,
) -> Letter:
    """A letter from `template`: the mark line first, then the template, then the footer (by
    default the seat's). Its subject is the game and its phase after `headline` (`phase`
    False: the headline alone); with no game, `headline` alone. To the `former` holder of
    `seat` (who just left it): told as the seat, but with neither the seat's password nor its
    reply address, which are no longer theirs, and the phase in the subject as anyone reads it
    (never "Your turn"). No letter to a `former` player starts with the mark line: they can no
    longer order, and nothing they send is read as orders (no password of theirs opens a
    seat), so no letter quoted under it needs the mark to stop the reading."""
    seated = None if former else seat
    mark = "" if former else ORDERS_ABOVE_MARK
    words = phase_words(loaded, seated, headline) if loaded and phase else headline or ""
    subject = f"[{loaded.id}] {words}" if loaded else words
    title = f"{loaded.kind.title} {loaded.id}: {words}" if loaded else words
    footer = footer or _footer(loaded, seated)
    body, html = render(
        template,
        title=title,
        game_id=loaded.id if loaded else None,
        footer=footer,
        mark=mark,
        **context,
    )
    text = f"{body.rstrip()}\n{render_text('_footer', footer=footer)}"
    text = f"{mark}\n\n{text}" if mark else text
    return Letter(
        to=to,
        subject=subject,
        text=text,
        html=html,
        kind=kind,
        reply_to=seat_reply_to(loaded, seated, settings) if loaded and seated is not None else None,
        in_reply_to=in_reply_to,
    )


def told(
    game: LoadedGame, events: Sequence[Event], seat: int | None, former: bool = False
) -> dict[str, Any]:
    """The events as `seat` is told them: what happened, and the table talk apart from it.
    `former`: the reader is the seat's holder who left it in the last event (the answer to
    RESIGN), so what came before is theirs ("You said ..."), not a watcher's reading of it."""
    last = events[-1] if events else None
    if former and isinstance(last, SeatLeft) and last.seat == seat:
        before, leaving = told(game, events[:-1], seat), told(game, [last], seat)
        return {key: [*before[key], *leaving[key]] for key in before}
    events = told_once(events, seat, len(game.seats))
    rest = [event for event in events if not isinstance(event, TALK)]
    scene = scene_of(game)
    return {"events": tell_as_then(scene, rest, seat), "talk": _talk_as_then(scene, events, seat)}


def _talk_as_then(scene: Scene, events: Sequence[Event], seat: int | None) -> list[Sentence]:
    """The talk among `events`, under the names of its time, as `tell_as_then` tells it among
    them all: talk said just before its speaker resigned (SAY beside RESIGN) is Dee's, not
    "Dee (computer)"'s. Told apart from the other events, it is told with the seat changes
    after it, whose own sentences are then left out."""
    talk = [event for event in events if isinstance(event, TALK)]
    if not any(isinstance(event, SeatLeft | SeatMoved) for event in events):
        return tell_as_then(scene, talk, seat)
    told: list[Sentence] = []
    for index, event in enumerate(events):
        if isinstance(event, TALK):
            after = [e for e in events[index + 1 :] if isinstance(e, SeatLeft | SeatMoved)]
            both = tell_as_then(scene, [event, *after], seat)
            told += both[: len(both) - len(tell_as_then(scene, after, seat))]
    return told


def status_letter(
    game: LoadedGame,
    seat: int,
    settings: Settings,
    events: Sequence[Event],
    headline: str | None = None,
) -> Letter:
    return _letter(
        to=game.seat(seat).address,
        headline=headline,
        kind="status",
        template="status",
        loaded=game,
        seat=seat,
        settings=settings,
        **told(game, events, seat),
        **status_context(game, seat),
    )


def reply_letter(
    *,
    to: str,
    game: LoadedGame | None,
    seat: int | None,
    settings: Settings,
    about: str,
    verdict: str,
    accepted: Sequence[str] = (),
    ignored: Sequence[str] = (),
    problems: Sequence[str] = (),
    notes: Sequence[str] = (),
    events: Sequence[Event] = (),
    show_status: bool = False,
    help_text: str | None = None,
    history: History | None = None,
    done: str | None = None,
    held_talk: bool = False,
    in_reply_to: str | None = None,
    former: bool = False,
) -> Letter:
    """The answer to one email from a person: what was carried out, refused and ignored, what its
    commands asked for (HELP, HISTORY, STATUS), and the status when asked or when it changed.
    `done` heads the answer to an email carried out ("Your orders were carried out."); the
    answer to a refused email that `held_talk` says the talk was not passed on either.

    Its subject is the game's current phase, not the email's: answering it answers that phase.
    To a `former` player (the email resigned the seat), no status and nothing of the seat's
    password or reply address: the seat is the computer's now.
    """
    context: dict[str, Any] = {"view": None, "examples": [], "deadline": None, "standings": []}
    if game is not None and show_status and not former:
        context = status_context(game, seat)
    headline = "Not carried out" if verdict == "rejected" else None
    return _letter(
        to=to,
        headline=(LEFT_HEADLINE if former else headline) if game else reply_subject(about),
        kind="reply",
        template="reply",
        loaded=game,
        seat=seat,
        settings=settings,
        in_reply_to=in_reply_to,
        verdict=verdict,
        accepted=list(accepted),
        ignored=list(ignored),
        problems=list(problems),
        notes=list(notes),
        **(told(game, events, seat, former) if game else {"events": [], "talk": []}),
        help=help_text,
        history=history,
        done=done,
        held_talk=held_talk,
        former=former,
        **context,
    )


def notice_letter(
    *,
    to: str,
    game: LoadedGame | None,
    seat: int | None,
    settings: Settings,
    words: str | None,
    lines: Sequence[str | Sentence],
    kind: str = "notice",
    why: str | None = None,
    help_text: str | None = None,
    in_reply_to: str | None = None,
    phase: bool = True,
    former: bool = False,
) -> Letter:
    """A short message: a GM change, a deadline passed, a word to a stranger. `words` head its
    subject (None: a game's phase alone), then the game's phase unless `phase` is False. Told
    events come as sentences, with what each heads listed under it. `former`: to someone who
    no longer plays in the game, so no mark line."""
    return _letter(
        to=to,
        headline=words,
        kind=kind,
        template="notice",
        loaded=game,
        seat=seat,
        settings=settings,
        in_reply_to=in_reply_to,
        phase=phase,
        former=former,
        lines=[line if isinstance(line, Sentence) else Sentence(line) for line in lines],
        why=why,
        help=help_text,
    )


def watch_letter(
    game: LoadedGame,
    to: str,
    settings: Settings,
    events: Sequence[Event],
    headline: str | None = None,
    lines: Sequence[str] = (),
    in_reply_to: str | None = None,
    kind: str = "watch",
    history: History | None = None,
    former: bool = False,
) -> Letter:
    """A watcher's status: `lines` first (a welcome), the public `history` when asked, the
    public events and the public view, nothing any seat's view hides; its footer says how to
    stop watching. `former`: the final result as a watcher reads it, to a player who left the
    game (`former.tell_resigned`): no mark line, and no footer (they watch nothing)."""
    ended = game.engine.is_over(game.state)
    return _letter(
        to=to,
        headline=headline,
        kind=kind,
        template="watch",
        loaded=game,
        seat=None,
        settings=settings,
        in_reply_to=in_reply_to,
        footer=None if former else WatchFooter(game.id, settings.address, ended),
        former=former,
        lines=list(lines),
        history=history,
        events=tell_public(game, events),
        **public_status_context(game),
    )
