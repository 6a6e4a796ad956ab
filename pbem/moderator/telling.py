"""Telling events to one reader: each event kind's template macro (`templates/events/`), with
"you" for the reader and names for the other players. Nothing is substituted into finished text:
the macros get the event's data (seats, card ids) and name everything themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from jinja2.runtime import Macro

from pbem.games.base import Event
from pbem.moderator.events import PlayedFor, SeatLeft, SeatMoved
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.render import environment

# A macro that tells one event as several lines puts this between them (see `Words.sep`).
LINE_BREAK = "\x1e"
# Event modules kept (`_events_module`): one a game, reader and namespace of the games that get
# orders together (bench.throughput: 50 games, 3 readers, 2 namespaces); ~12 KB each, ~6 MB.
KEPT_MODULES = 512


@dataclass(frozen=True)
class Scene:
    """What telling needs besides the events: the players' names by seat, the game's printed
    component data (card and act names) and variant, and the game's title and id."""

    names: Sequence[str]
    data: Any
    variant: str = "standard"
    title: str = ""
    game_id: str = ""


@dataclass(frozen=True)
class Sentence:
    """One thing told, and what it heads: orders the moderator carried out for a seat
    (`PlayedFor`) head the events those orders made, told under it, so that they read as its
    own (play-testing: "The game master entered orders for Bo:" then sibling bullets)."""

    text: str
    under: tuple[Sentence, ...] = ()


def texts(sentences: Iterable[Sentence]) -> list[str]:
    """Every sentence's text, each heading before what it heads: the words alone."""
    return [text for sentence in sentences for text in (sentence.text, *texts(sentence.under))]


@dataclass(frozen=True)
class Words:
    """How the templates name players for one reader (None: the game master, who is no player)."""

    names: Sequence[str]
    reader: int | None
    sep: str = LINE_BREAK
    # Told in HISTORY, not as news in a letter: "this email" is then not the one that said it.
    in_history: bool = False

    def who(self, seat: int) -> str:
        return "you" if seat == self.reader else self.names[seat]

    def Who(self, seat: int) -> str:
        """The capitalised form, for the start of a sentence."""
        return "You" if seat == self.reader else self.names[seat]

    def whose(self, seat: int) -> str:
        return "your" if seat == self.reader else f"{self.names[seat]}'s"

    def Whose(self, seat: int) -> str:
        return "Your" if seat == self.reader else f"{self.names[seat]}'s"

    def former(self, seat: int) -> str:
        """The name the seat's player had before a computer player took it over."""
        return "you" if seat == self.reader else unmarked(self.names[seat])

    def has(self, seat: int) -> str:
        return "have" if seat == self.reader else "has"

    @staticmethod
    def ordinal(place: int) -> str:
        """1 -> `1st`, 2 -> `2nd`, 11 -> `11th`."""
        if 10 <= place % 100 <= 20:
            return f"{place}th"
        return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def tell_as_then(
    scene: Scene, events: Sequence[Event], reader: int | None, public: bool = False
) -> list[Sentence]:
    """`Teller(scene, reader, public).sentences(events)`, where a seat changed hands among the
    events (`gm replace`, a resignation): what came before the change is told with the names of
    then ("Bo is back", not the new holder's name), and to the seat's new holder as a watcher
    reads it (what the earlier holder did is not "you")."""
    names = list(scene.names)
    changed: set[int] = set()  # seats that change hands after the event at hand
    runs: list[tuple[tuple[str, ...], frozenset[int], list[Event]]] = []
    for event in reversed(events):
        then = (tuple(names), frozenset(changed))
        if not runs or runs[-1][:2] != then:
            runs.append((*then, []))
        runs[-1][2].append(event)
        if isinstance(event, SeatMoved | SeatLeft):
            name_before(names, event)
            changed.add(event.seat)
    told: list[Sentence] = []
    for names_then, seats, run in reversed(runs):
        as_watcher = reader in seats
        teller = Teller(
            replace(scene, names=names_then), None if as_watcher else reader, public or as_watcher
        )
        told += teller.sentences(run[::-1])
    return told


def name_before(names: list[str], event: Event) -> None:
    """`names` (by seat) set to what they were just before `event`: where a seat changed hands,
    its earlier holder's name, without the computer player's mark a resignation gave it."""
    if isinstance(event, SeatMoved) and event.old_name:
        names[event.seat] = event.old_name
    elif isinstance(event, SeatLeft):
        names[event.seat] = unmarked(names[event.seat])


def tell(events: Iterable[Event], scene: Scene, reader: int | None) -> list[str]:
    """The events `reader` may know (None: the game master, who knows all), one line each
    (`Teller.lines`: the words, not how they nest)."""
    return Teller(scene, reader).lines(events)


class Teller:
    """Tells events to one reader; keep one to tell many (it builds its templates once).

    `public`: the reader holds no seat (a watcher), so only events everyone may know are told,
    and every player by name, as the game master reads them. `in_history`: the events are told
    in HISTORY, long after the letter that first told them."""

    def __init__(
        self, scene: Scene, reader: int | None, public: bool = False, in_history: bool = False
    ) -> None:
        self.scene = scene
        self.words = Words(tuple(scene.names), None if public else reader, in_history=in_history)
        self.public = public
        self.modules: dict[str, Any] = {}

    def knows(self, event: Event) -> bool:
        return event.to is None if self.public else event.visible_to(self.words.reader)

    def sentences(self, events: Iterable[Event]) -> list[Sentence]:
        """The events this reader may know, told: what the moderator played for a seat as one
        sentence with the events of those orders under it."""
        told: list[Sentence] = []
        for event in events:
            if not self.knows(event):
                continue
            if isinstance(event, PlayedFor):
                inner = tuple(self.sentences(event.events))
                *before, heading = self._say(event, inner)
                told += [*map(Sentence, before), Sentence(heading, inner)]
            else:
                told += map(Sentence, self._say(event))
        return told

    def lines(self, events: Iterable[Event]) -> list[str]:
        """The sentences' words, one a line, each heading before what it heads."""
        return texts(self.sentences(events))

    def _say(self, event: Event, *args: Any) -> list[str]:
        namespace, _, name = event.kind.partition(".")
        macro: Macro = getattr(self._module(namespace), name)
        text = str(macro(event, *args))
        return [" ".join(part.split()) for part in text.split(LINE_BREAK) if part.strip()]

    def _module(self, namespace: str) -> Any:
        module = self.modules.get(namespace)
        if module is None:
            scene = self.scene
            module = self.modules[namespace] = _events_module(
                namespace, self.words, _Same(scene.data), scene.variant, scene.title, scene.game_id
            )
        return module


@dataclass(frozen=True, eq=False)
class _Same:
    """A value equal only to itself: a game's component data, loaded once for all its games
    (and unhashable), as part of a key."""

    value: Any

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)


@lru_cache(maxsize=KEPT_MODULES)
def _events_module(
    namespace: str, words: Words, data: _Same, variant: str, title: str, game_id: str
) -> Any:
    """The macros of `events/<namespace>.j2` for one reader of one game. Built once for the
    letters that game's readers are sent, not once a letter: the macros depend on nothing but
    these values (the key keeps the data alive, so its identity stays its own)."""
    template = environment().get_template(f"events/{namespace}.j2")
    return template.make_module(
        {"w": words, "data": data.value, "variant": variant, "title": title, "game_id": game_id}
    )


# How a computer player's name says so: "Bo (computer)", as the docs call it "computer player".
_COMPUTER = " (computer)"
# Games started before `--bot` seats were named so keep their stored "Robby (bot)": read as marked
# too, so it is not marked twice ("Robby (bot) (computer)") and `SAY TO Robby` still finds it.
_MARKS = (_COMPUTER, " (bot)")


def computer_name(name: str) -> str:
    """The name a computer player goes by in a seat: "Robby" -> "Robby (computer)"."""
    return f"{name}{_COMPUTER}"


def unmarked(name: str) -> str:
    """The name without its computer-player mark: "Bo (computer)" -> "Bo"."""
    for mark in _MARKS:
        if name.endswith(mark):
            return name.removesuffix(mark)
    return name


def scene_of(game: LoadedGame) -> Scene:
    """A game's scene: computer players are named as such, so their moves read as theirs."""
    names = [
        name if seat.kind != "bot" or name.endswith(_MARKS) else computer_name(name)
        for seat, name in zip(game.seats, game.names, strict=True)
    ]
    state = game.state
    return Scene(names, state.data, getattr(state, "variant", "standard"), game.kind.title, game.id)


def tell_game(game: LoadedGame, events: Iterable[Event], reader: int | None) -> list[Sentence]:
    return Teller(scene_of(game), reader).sentences(events)


def tell_public(game: LoadedGame, events: Iterable[Event]) -> list[Sentence]:
    """The events as a watcher reads them: what everyone may know, every player by name."""
    return tell_as_then(scene_of(game), list(events), None, public=True)
