"""Everyday phrasing through the moderator (issue 10): chatter is listed as ignored, `$` money
is read, commands take chatter, and a refusal lists the real choices."""

from __future__ import annotations

from collections.abc import Callable

from pbem.orders import ORDERS_ABOVE_MARK
from pbem.orders.incoming import parse_message
from pbem.orders.mime import body_text
from tests.moderator.conftest import ANN, BO, CY, Table


def last_reply(game: Table, to: str) -> str:
    """The whole body of the newest reply to `to` (not only the text above the mark)."""
    row = [r for r in game.outbox() if r.to_address == to and r.kind == "reply"][-1]
    return " ".join(body_text(parse_message(row.raw)).split())


def test_here_are_my_orders_is_ignored_and_listed_and_the_orders_carried_out(
    table: Callable[..., Table],
) -> None:
    game = table("showmanager", [ANN, BO], seed=7, first_player=ANN)
    body = "Here are my orders:\n\nHIRE 0\n\nThanks!"
    assert game.mail(ANN, body).status == "accepted"
    reply = last_reply(game, ANN)
    assert "Ignored (not orders): > Here are my orders: > Thanks!" in reply
    assert "did you mean" not in reply


def test_a_bid_with_dollars_is_the_bid(table: Callable[..., Table]) -> None:
    game = table("bigtime", [ANN, BO, CY], seed=3)
    assert game.mail(ANN, "BID $3 $3 $2").status == "accepted"
    order = game.game().state.theaters[0].order
    assert order is not None and order.bid == (3, 3, 2)


def test_status_please_resends_the_status(table: Callable[..., Table]) -> None:
    game = table("bigtime", [ANN, BO, CY], seed=3)
    assert game.mail(ANN, "status please").status == "accepted"
    assert "Money cards: 3 3 3 3 2 2 2 2 1 1 1 1 1 ($25)" in last_reply(game, ANN)


def test_an_email_without_a_bid_is_told_every_bid_it_could_make(
    table: Callable[..., Table],
) -> None:
    game = table("bigtime", [ANN, BO, CY], seed=3)
    assert game.mail(ANN, "Here are my orders:\nAM A1").status == "rejected"
    reply = last_reply(game, ANN)
    assert "needs a BID line; you hold 3 3 3 3 2 2 2 2 1 1 1 1 1 ($25)." in reply
    assert "BID any of your money cards, e.g. BID 3 2 1, or BID 0" in reply
    assert "legal now: BID 0)" not in reply


def test_a_bid_typo_is_named_as_such(table: Callable[..., Table]) -> None:
    game = table("bigtime", [ANN, BO, CY], seed=3)
    assert game.mail(ANN, "BDI 3 2 2").status == "rejected"
    reply = last_reply(game, ANN)
    assert "'BDI' is not an order: did you mean BID?" in reply
    assert "needs a BID line" not in reply


def test_a_status_pasted_under_the_mark_with_no_quote_header_is_not_read(
    table: Callable[..., Table],
) -> None:
    game = table("bigtime", [ANN, BO, CY], seed=3)
    status = [r for r in game.outbox() if r.to_address == ANN and r.kind == "status"][-1]
    pasted = body_text(parse_message(status.raw))
    assert "\n    BID 3 2 1\n" in pasted  # the example orders a paste would carry
    body = f"BID $3 $1\n\n{ORDERS_ABOVE_MARK}\n{pasted}"
    assert game.mail(ANN, body).status == "accepted"
    order = game.game().state.theaters[0].order
    assert order is not None and order.bid == (3, 1)
