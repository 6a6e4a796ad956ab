"""Show Manager's orders (ORDERS.md): LOAN, REFRESH, HIRE, STAGE, and how to read each."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from pbem.games.showmanager.actions import Hire, Loan, Refresh, Stage
from pbem.orders.commands import COMMANDS
from pbem.orders.grammar import Grammar, Order, OrderForm
from pbem.orders.names import name_words
from pbem.orders.vocabulary import Musical, ShowManagerVocabulary
from pbem.orders.words import (
    Problem,
    Words,
    expect_end,
    is_number,
    read_name,
    read_number,
)

# REFRESH n is bounded so one line cannot ask for millions of actions; money runs out sooner.
MAX_REFRESHES = 20


def _musicals(vocabulary: ShowManagerVocabulary) -> str:
    return ", ".join(vocabulary.shown(musical.name) for musical in vocabulary.musicals)


def _cities(vocabulary: ShowManagerVocabulary) -> str:
    return ", ".join(vocabulary.shown(city.name) for city in vocabulary.cities)


def _read_loan(vocabulary: ShowManagerVocabulary, words: Words) -> Sequence[Order] | Problem:
    musical = read_name(words, vocabulary.musical_names, _musicals(vocabulary))
    if isinstance(musical, Problem):
        return musical
    number: int | Problem | None = None
    if words.peek() == "#":
        words.take()
        number = read_number(words, "the production number after #")
    if isinstance(number, Problem):
        return number
    points = read_number(words, "the loan in points", money=True)
    if isinstance(points, Problem):
        return points
    return expect_end(words) or [Loan(musical, points, number)]


def _read_refresh(words: Words) -> Sequence[Order] | Problem:
    if words.at_end:
        return [Refresh()]
    times = read_number(words, "how many refreshes")
    if isinstance(times, Problem):
        return times
    if not 1 <= times <= MAX_REFRESHES:
        return Problem(f"refresh 1 to {MAX_REFRESHES} times, not {times}")
    return expect_end(words) or [Refresh()] * times


def _read_hire(vocabulary: ShowManagerVocabulary, words: Words) -> Sequence[Order] | Problem:
    if words.peek() == "#":
        words.take()
        card = read_number(words, "the card id after #")
        if isinstance(card, Problem):
            return card
        return expect_end(words) or [Hire(card=card)]
    slot = read_number(words, "the agency slot")
    if isinstance(slot, Problem):
        return slot
    if slot >= vocabulary.slots:
        return Problem(
            f"there is no slot {slot}: slots are 0 to {vocabulary.slots - 1} "
            f"(to hire card {slot} by its id write HIRE #{slot})"
        )
    return expect_end(words) or [Hire(slot=slot)]


def _read_stage(vocabulary: ShowManagerVocabulary, words: Words) -> Sequence[Order] | Problem:
    musical = read_name(words, vocabulary.musical_names, _musicals(vocabulary))
    if isinstance(musical, Problem):
        return musical
    roles = vocabulary.role_names[musical]
    cards: list[int] = []
    casting: list[tuple[int, str]] = []
    while (word := words.peek()) is not None and is_number(word):
        words.take()
        cards.append(int(word))
        if words.peek() == "=":
            words.take()
            role = read_name(words, roles, ", ".join(roles.shown))
            if isinstance(role, Problem):
                return role
            casting.append((int(word), role))
    if not cards:
        return Problem("list the card ids of the artistes you stage")
    city: str | None = None
    if (word := words.peek()) is not None and word.upper() == "IN":
        words.take()
        named = read_name(words, vocabulary.city_names, _cities(vocabulary))
        if isinstance(named, Problem):
            return named
        city = named
    elif word is not None:
        return _stray_word(vocabulary, words, word)
    return expect_end(words) or [Stage(musical, tuple(cards), city, tuple(casting))]


def _stray_word(vocabulary: ShowManagerVocabulary, words: Words, word: str) -> Problem:
    city = vocabulary.city_names.match(words.remaining())
    if city is not None and city.name is not None:
        return Problem(f"write IN before the city: IN {vocabulary.shown(city.name)}")
    return Problem(f"expected a card id or IN <city>, found {word!r}")


def _role_word(vocabulary: ShowManagerVocabulary, musical: Musical, role: str) -> str:
    """The first single word that names `role` unambiguously (`Lady` for Lady-in-Waiting)."""
    roles = vocabulary.role_names[musical.name]
    for word in name_words(role):
        match = roles.match([word])
        if match is not None and match.name == role:
            return word
    return role


def _stage_examples(vocabulary: ShowManagerVocabulary) -> tuple[str, str]:
    musical = vocabulary.musicals[min(1, len(vocabulary.musicals) - 1)]
    city = vocabulary.cities[min(2, len(vocabulary.cities) - 1)]
    cards = [str(14 + 13 * index) for index in range(len(musical.roles))]
    head = f"STAGE {vocabulary.shown(musical.name).upper()}"
    tail = f"IN {vocabulary.shown(city.name).upper()}"
    cast = list(cards)
    cast[0] = f"{cards[0]}={_role_word(vocabulary, musical, musical.roles[0])}"
    if len(cast) > 1:
        cast[-1] = f"{cards[-1]}={_role_word(vocabulary, musical, musical.roles[-1])}"
    return f"{head} {' '.join(cards)} {tail}", f"{head} {' '.join(cast)} {tail}"


def _names(vocabulary: ShowManagerVocabulary) -> tuple[tuple[str, str], ...]:
    musicals = []
    for musical in vocabulary.musicals:
        shown = vocabulary.shown(musical.name)
        also = f" (also {musical.name})" if shown != musical.name else ""
        musicals.append(f"{shown}{also}: {', '.join(musical.roles)}")
    cities = []
    for city in vocabulary.cities:
        shown = vocabulary.shown(city.name)
        cities.append(f"{shown} (also {city.name})" if shown != city.name else shown)
    return (("Musicals and their roles", "\n".join(musicals)), ("Cities", ", ".join(cities)))


def show_manager_grammar(vocabulary: ShowManagerVocabulary) -> Grammar:
    first = vocabulary.shown(vocabulary.musicals[0].name).upper()
    slot = min(2, vocabulary.slots - 1)
    return Grammar(
        game="showmanager",
        title="Show Manager",
        orders=(
            OrderForm(
                "LOAN",
                ("LOAN <musical>[#n] <points>",),
                (f"LOAN {first} 5", f"LOAN {first}#2 $3"),
                "borrow against one of your productions (at most one a turn)",
                partial(_read_loan, vocabulary),
            ),
            OrderForm(
                "REFRESH",
                ("REFRESH [times]",),
                ("REFRESH", "REFRESH 2"),
                "pay to replace the four cards in the agency",
                _read_refresh,
            ),
            OrderForm(
                "HIRE",
                (f"HIRE <slot 0-{vocabulary.slots - 1}>", "HIRE #<card id>"),
                (f"HIRE {slot}", "HIRE #57"),
                "hire the card in a slot, or a card by its id",
                partial(_read_hire, vocabulary),
            ),
            OrderForm(
                "STAGE",
                ("STAGE <musical> <card ids> [IN <city>]", "STAGE <musical> <card id>=<role> ..."),
                _stage_examples(vocabulary),
                "put on a musical with these artistes, optionally casting them yourself",
                partial(_read_stage, vocabulary),
            ),
        ),
        commands=COMMANDS,
        notes=(
            "Lines go in the turn's order: loan, refreshes, then hire or stage. An email that "
            "stops after a loan or a refresh is applied and your turn stays open.",
            "IN <city> is required for a musical's first production.",
            "In an explicit casting a role may be written by any word of its name that is "
            "unambiguous in that musical.",
            "Orders sent before your turn wait for it: HIRE 2 takes whatever is in slot 2 then, "
            "HIRE #57 names a card.",
            "Names ignore case, spaces and hyphens; an umlaut may be written with e or without "
            "dots (Köln, Koeln, Koln). Both themes' names are accepted.",
        ),
        names=_names(vocabulary),
    )
