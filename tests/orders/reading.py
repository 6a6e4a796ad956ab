"""Reading order text in tests: the orders a text gives, or the one error it gets."""

from __future__ import annotations

from pbem.orders.grammar import Grammar, Order
from pbem.orders.parse import parse_orders


def orders(text: str, grammar: Grammar) -> list[Order]:
    parsed = parse_orders(text, grammar)
    assert parsed.errors == (), [str(error) for error in parsed.errors]
    return [line.order for line in parsed.orders]


def error(text: str, grammar: Grammar) -> str:
    parsed = parse_orders(text, grammar)
    assert len(parsed.errors) == 1 and not parsed.orders
    return str(parsed.errors[0])
