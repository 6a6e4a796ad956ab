"""A PASSWORD line is read as the moderator authenticates it, and quoted without its secret
wherever a reply may show it: as read, as an error, as a near miss (play-testing)."""

from __future__ import annotations

import pytest

from pbem.orders import Grammar, Password, grammar_for, parse_orders
from pbem.orders.grammar import SECRET_SHOWN


@pytest.fixture(scope="module")
def grammar() -> Grammar:
    return grammar_for("bigtime")


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("PASSWORD ekpmj", "PASSWORD ·····"),
        ("password: ekpmj", "password ·····"),
        ("Password : ekpmj", "Password ·····"),  # the moderator authenticates it: so it reads
        ("PASSWORD:ekpmj", "PASSWORD ·····"),
        ("- PASSWORD ekpmj", "PASSWORD ·····"),
    ],
)
def test_a_password_line_is_read_and_quoted_without_its_secret(
    line: str, shown: str, grammar: Grammar
) -> None:
    parsed = parse_orders(f"{line}\nBID 3", grammar)
    assert parsed.errors == () and parsed.ignored == ()
    [password, _] = parsed.orders
    assert (password.order, password.text) == (Password("ekpmj"), shown)
    assert SECRET_SHOWN == "·····"  # five dots whatever the secret's length


@pytest.mark.parametrize("line", ["PASSWORD ekpmj extra", "Pasword ekpmj", "PASSWORD: ekpmj x"])
def test_a_password_line_that_does_not_read_is_quoted_without_its_secret(
    line: str, grammar: Grammar
) -> None:
    [error] = parse_orders(line, grammar).errors
    assert "ekpmj" not in str(error) and SECRET_SHOWN in str(error)


def test_a_password_line_without_a_secret_is_quoted_as_written(grammar: Grammar) -> None:
    [error] = parse_orders("PASSWORD", grammar).errors
    assert error.text == "PASSWORD"
