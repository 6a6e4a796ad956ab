"""The Big Time!'s orders (ORDERS.md): BID, AM, PM, HEADLINER, HOOK, and how to read each.

Acts are card ids (`T07`, written loosely `t7` too) or the short codes (`A1`, `P2`, `H1`) of the
status email the player answers; the caller passes that phase's codes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from pbem.games.bigtime.actions import Bid, Hook, PreferAM, PreferHeadliner, PreferPM
from pbem.orders.commands import COMMANDS
from pbem.orders.grammar import Grammar, Order, OrderForm
from pbem.orders.vocabulary import BigTimeVocabulary
from pbem.orders.words import Problem, Words, expect_end, money_value

Codes = Mapping[str, str]  # short code as the status email shows it -> card id
_HEADLINER_CODE = re.compile(r"H\d", re.IGNORECASE)  # H1..H5; card ids (H31) are read before


def _act(vocabulary: BigTimeVocabulary, codes: Codes, row: str, word: str) -> str | Problem:
    """Exact card ids first, then this phase's codes, then loosely written card ids. A word
    that is none of them is told the codes of the line's own row (`row`: "A", "P", "H")."""
    act = vocabulary.exact_id(word) or codes.get(word.upper()) or vocabulary.loose_id(word)
    if act is not None:
        return act
    if _HEADLINER_CODE.fullmatch(word) and not any(code.startswith("H") for code in codes):
        return Problem(
            f"{word!r} would be a Headliner's code, but no Headliners are on offer now: they are "
            f"turned up in phase 2, and HEADLINER preferences are taken in phases 2 and 3 "
            f"(codes now: {', '.join(codes) or 'none'})"
        )
    own = [code for code in codes if code.startswith(row)]
    known = ", ".join(own) if own else "none in this phase"
    return Problem(
        f"{word!r} is not an act: write a card id (T07, H31) or a code from your status email "
        f"(codes: {known})"
    )


def _read_acts(
    vocabulary: BigTimeVocabulary, codes: Codes, row: str, words: Words
) -> tuple[str, ...] | Problem:
    acts: list[str] = []
    while (word := words.take()) is not None:
        act = _act(vocabulary, codes, row, word)
        if isinstance(act, Problem):
            return act
        acts.append(act)
    return tuple(acts)


def _preference(
    make: Callable[[tuple[str, ...]], Order],
    row: str,
    needs_one: bool,
    vocabulary: BigTimeVocabulary,
    codes: Codes,
    words: Words,
) -> Sequence[Order] | Problem:
    if needs_one and words.at_end:
        return Problem("list at least one act, the one you want most first")
    acts = _read_acts(vocabulary, codes, row, words)
    if isinstance(acts, Problem):
        return acts
    return [make(acts)]


def _read_bid(words: Words) -> Sequence[Order] | Problem:
    written = [word for word in words.remaining() if word != "$"]
    if not written:
        return Problem("list the money cards you bid by value, or BID 0 to bid nothing")
    values = [money_value(word) for word in written]
    stray = next((word for word, value in zip(written, values, strict=True) if value is None), None)
    if stray is not None:
        return Problem(f"bid money cards by their values; {stray!r} is not a number")
    cards = [value for value in values if value is not None]
    if cards == [0]:
        return [Bid(())]
    if 0 in cards:
        return Problem("BID 0 bids nothing and stands alone; leave out the 0 when you bid cards")
    return [Bid(tuple(cards))]


def _read_hook(
    vocabulary: BigTimeVocabulary, codes: Codes, words: Words
) -> Sequence[Order] | Problem:
    word = words.take()
    if word is None:
        return Problem("name the card id of the act that takes the Hook")
    act = vocabulary.exact_id(word) or vocabulary.loose_id(word)
    if act is None and word.upper() in codes:
        # The other orders take the phase's codes; a HOOK outlasts the phase, so it takes the
        # card id alone (ORDERS.md). Say which one the code stands for (play-testing).
        coded = codes[word.upper()]
        return Problem(
            f"HOOK takes a card id, not a code: {word.upper()} is {coded}, so write HOOK {coded}"
        )
    if act is None:
        return Problem(f"{word!r} is not a card id: name one of your acts by its id, e.g. T07")
    return expect_end(words) or [Hook(act)]


def big_time_grammar(vocabulary: BigTimeVocabulary, codes: Codes | None = None) -> Grammar:
    """The grammar for one email; `codes` are those of the phase it answers (`A1` -> `T05`)."""
    codes = {code.upper(): act for code, act in (codes or {}).items()}
    shown_codes = ", ".join(f"{code}={act}" for code, act in codes.items())
    return Grammar(
        game="bigtime",
        title="The Big Time!",
        orders=(
            OrderForm(
                "BID",
                ("BID <cards>", "BID 0"),
                ("BID 3 3 1", "BID $3 $1", "BID 0"),
                "money cards from your hand, by value, $ or not; BID 0 bids nothing",
                _read_bid,
            ),
            OrderForm(
                "AM",
                ("AM <acts>",),
                ("AM A3 A1 A2",),
                "ranked preferences for the A.M. pick",
                partial(_preference, PreferAM, "A", True, vocabulary, codes),
            ),
            OrderForm(
                "PM",
                ("PM <acts>",),
                ("PM P2 P3",),
                "ranked preferences for the P.M. pick",
                partial(_preference, PreferPM, "P", True, vocabulary, codes),
            ),
            OrderForm(
                "HEADLINER",
                ("HEADLINER [acts]",),
                ("HEADLINER H2 H3", "HEADLINER"),
                "phase 3 preferences (may be sent in phase 2); bare HEADLINER: the default pick",
                partial(_preference, PreferHeadliner, "H", False, vocabulary, codes),
            ),
            OrderForm(
                "HOOK",
                ("HOOK <card id>",),
                ("HOOK T07",),
                "which of your equal-lowest acts takes the Hook if you flop (optional)",
                partial(_read_hook, vocabulary, codes),
            ),
        ),
        commands=COMMANDS,
        notes=(
            "Send one email per phase; a later email for the same phase replaces the earlier one "
            "until the phase resolves. Phases 1 and 2 need a BID.",
            "Write acts by card id (T07, H31), which never changes, or by the short code your "
            "status email shows (A1.., P1.., H1..), read against the phase that email announced.",
        ),
        names=(("Codes in this phase", shown_codes),) if codes else (),
    )
