"""The reply accounts for every line, the PASSWORD line too, and never quotes its secret
(play-testing: the PASSWORD line appeared nowhere in the reply)."""

from __future__ import annotations

from collections.abc import Callable

from pbem.moderator.inbound import STRAY_PASSWORD_NOTE
from pbem.orders.incoming import parse_message
from pbem.orders.mime import body_text
from tests.moderator.conftest import ANN, BO, SETTINGS, Table

ELSEWHERE = "bo.work@example.net"


def _sm(table: Callable[..., Table]) -> Table:
    return table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo"], seed=7, first_player=BO)


def _reply(game: Table, to: str) -> str:
    row = [r for r in game.outbox() if r.to_address == to and r.kind == "reply"][-1]
    return body_text(parse_message(row.raw))


def _section(reply: str, heading: str) -> list[str]:
    """The lines quoted under `heading` ("Results:", "Ignored (not orders):")."""
    lines = reply.splitlines()
    if heading not in lines:
        return []
    quoted = []
    for line in lines[lines.index(heading) + 1 :]:
        if not line.strip():
            break
        quoted.append(line.strip().removeprefix("> ").removeprefix("- "))
    return quoted


def _above_the_board(reply: str) -> str:
    """The reply before the status: the footer names the password by design (ORDERS.md)."""
    return reply.split("Show Manager (standard game)")[0]


def test_the_password_line_is_listed_under_results_with_its_secret_masked(table):
    game = _sm(table)
    secret = game.secret(BO)
    body = f"Hello,\nPASSWORD {secret}\nhire 0\nBo"
    result = game.mail(ELSEWHERE, body, to=SETTINGS.address, subject=f"orders [{game.id}]")
    assert result.status == "accepted"
    for to in (ELSEWHERE, BO):  # the sender and the seat's own address
        reply = _reply(game, to)
        assert _section(reply, "Results:") == ["PASSWORD ·····", "hire 0"]
        assert _section(reply, "Ignored (not orders):") == ["Hello,", "Bo"]
        assert secret not in _above_the_board(reply)


def test_a_password_line_that_is_not_the_seats_is_ignored_and_told_when_the_address_named_it(
    table,
):
    game = _sm(table)
    assert game.mail(BO, "PASSWORD wrong9\nhire 0").status == "accepted"  # the plus-address
    reply = _reply(game, BO)
    assert _section(reply, "Results:") == ["hire 0"]
    assert _section(reply, "Ignored (not orders):") == ["PASSWORD ·····"]
    assert " ".join(STRAY_PASSWORD_NOTE.split()) in " ".join(reply.split())
    assert "wrong9" not in reply


def test_a_refused_password_line_is_not_quoted_with_its_secret(table):
    game = _sm(table)
    secret = game.secret(BO)
    subject = f"orders [{game.id}]"
    body = f"PASSWORD {secret} please\nhire 0"
    result = game.mail(BO, body, to=SETTINGS.address, subject=subject)
    # The PASSWORD line authenticates (inbound._PASSWORD reads its first word), but is no order.
    assert result.status == "rejected" and secret not in result.reason
    assert 'line 1 "PASSWORD ·····"' in result.reason
    assert secret not in _above_the_board(_reply(game, BO))


def test_password_with_a_colon_is_read_as_the_moderator_authenticates_it(table):
    game = _sm(table)
    secret = game.secret(BO)
    subject = f"orders [{game.id}]"
    result = game.mail(BO, f"Password: {secret}\nSTATUS", to=SETTINGS.address, subject=subject)
    assert result.status == "accepted"
    assert _section(_reply(game, BO), "Results:") == ["Password ·····", "STATUS"]
    result = game.mail(BO, f"PASSWORD:{secret}\nhire 0", to=SETTINGS.address, subject=subject)
    assert result.status == "accepted"
    assert _section(_reply(game, BO), "Results:") == ["PASSWORD ·····", "hire 0"]
