"""Writing actions back as order lines, in the order language the parser reads.

Computer players and recorded transcripts send their orders as text through the same path as a
person's email, so what they write must parse to the same actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.bigtime import actions as bigtime
from pbem.games.showmanager import actions as showmanager
from pbem.orders.grammar import Order


def order_line(action: Order) -> str:
    """One action as a line; the moderator chooses the casting of a STAGE itself."""
    match action:
        case showmanager.Loan(musical=musical, points=points, number=number):
            production = f"{musical}#{number}" if number else musical
            return f"LOAN {production.upper()} {points}"
        case showmanager.Refresh():
            return "REFRESH"
        case showmanager.Hire(slot=slot, card=card):
            return f"HIRE {slot}" if slot is not None else f"HIRE #{card}"
        case showmanager.Stage(musical=musical, cards=cards, city=city):
            where = f" IN {city.upper()}" if city else ""
            return f"STAGE {musical.upper()} {' '.join(map(str, cards))}{where}"
        case bigtime.Bid(cards=cards):
            return "BID " + (" ".join(map(str, cards)) if cards else "0")
        case bigtime.PreferAM(acts=acts):
            return "AM " + " ".join(acts)
        case bigtime.PreferPM(acts=acts):
            return "PM " + " ".join(acts)
        case bigtime.PreferHeadliner(acts=acts):
            return " ".join(("HEADLINER", *acts))
        case bigtime.Hook(card=card):
            return f"HOOK {card}"
    raise TypeError(f"no order line for {action!r}")


def order_text(actions: Sequence[Order]) -> str:
    """The body of an email carrying `actions`, REFRESH repeats folded into one line; an empty
    A.M. or P.M. preference says nothing, so it is left out."""
    lines: list[str] = []
    for action in actions:
        if isinstance(action, bigtime.PreferAM | bigtime.PreferPM) and not action.acts:
            continue
        line = order_line(action)
        if line == "REFRESH" and lines and lines[-1].startswith("REFRESH"):
            count = int(lines[-1].partition(" ")[2] or 1) + 1
            lines[-1] = f"REFRESH {count}"
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"
