"""Who may order for a seat: only the holder of its secret, for that seat, in that game; and GM
commands are never taken from email."""

from __future__ import annotations

import pytest
from sqlmodel import Session, col, select

from pbem.moderator.loaded import load_game
from pbem.moderator.start import PlayerSpec
from pbem.store import SeatRow, session_scope
from tests.hostile.harness import ANN, BO, CY, SETTINGS, Moderator, recipients, well_formed


def email(sender: str, to: str, body: str, subject: str = "Re: orders", number: int = 0) -> bytes:
    return (
        f"From: {sender}\nTo: {to}\nSubject: {subject}\n"
        f"Message-ID: <{number}.{abs(hash(body))}@security.test>\n\n{body}\n"
    ).encode()


def awaiting(moderator: Moderator, game_id: str) -> tuple[int, ...]:
    with Session(moderator.engine) as session:
        game = load_game(session, game_id)
        return tuple(game.engine.awaiting(game.state))


def set_secrets(moderator: Moderator, game_id: str, secrets: dict[str, str]) -> None:
    """Give seats known secrets, so two games cannot share one by chance."""
    with session_scope(moderator.engine) as session:
        for seat in session.exec(select(SeatRow).where(col(SeatRow.game_id) == game_id)):
            seat.secret = secrets[seat.address]
            session.add(seat)


@pytest.fixture
def moderator() -> Moderator:
    return Moderator()


def started(moderator: Moderator) -> str:
    return moderator.start("showmanager", seed=7, first_player=ANN)


def test_forged_from_without_the_secret_changes_nothing(moderator: Moderator) -> None:
    game_id = started(moderator)
    before, mark = moderator.snapshot(game_id), moderator.outbox_count()
    forged = [
        email(ANN, SETTINGS.address, "HIRE 0", f"[{game_id}] orders", 1),
        email(ANN, SETTINGS.address, "PASSWORD wrong\nHIRE 0", f"[{game_id}] orders", 2),
        email(ANN, f"pbem+{game_id}.wrong@example.org", "HIRE 0", number=3),
        email(ANN, f"ann+{game_id}.{moderator.secret(game_id, ANN)}@example.org", "HIRE 0", 4),
    ]
    for raw in forged:
        assert moderator.send(raw).status == "rejected"
    assert moderator.snapshot(game_id) == before
    sent = moderator.sent_since(mark)
    assert {row.kind for row in sent} == {"stranger"}
    assert set(recipients(sent)) == {ANN}


def test_a_valid_secret_with_another_games_id_is_refused(moderator: Moderator) -> None:
    first, second = started(moderator), started(moderator)
    set_secrets(moderator, first, {ANN: "aaaaa", BO: "bbbbb"})
    set_secrets(moderator, second, {ANN: "ccccc", BO: "ddddd"})
    before = (moderator.snapshot(first), moderator.snapshot(second))
    attempts = [
        email(ANN, f"pbem+{second}.aaaaa@example.org", "HIRE 0", number=1),
        email(ANN, SETTINGS.address, "PASSWORD aaaaa\nHIRE 0", f"Re: [{second}] orders", 2),
        email(BO, f"pbem+{first}.ddddd@example.org", "HIRE 0", number=3),
    ]
    for raw in attempts:
        assert moderator.send(raw).status == "rejected"
    assert (moderator.snapshot(first), moderator.snapshot(second)) == before


def test_one_seats_secret_orders_for_that_seat_only(moderator: Moderator) -> None:
    game_id = started(moderator)
    bo_address = moderator.plus_address(game_id, BO)
    before = moderator.snapshot(game_id)
    # From Ann, with Ann's PASSWORD in the body, to Bo's address: the address names the seat.
    body = f"PASSWORD {moderator.secret(game_id, ANN)}\nHIRE 0"
    assert moderator.send(email(ANN, bo_address, body, number=1)).status == "queued"
    after = moderator.snapshot(game_id)
    assert (after.state, after.history) == (before.state, before.history)
    assert [(position, lines) for position, lines, _ in after.queued] == [(1, "HIRE 0")]
    assert awaiting(moderator, game_id) == (0,)


def test_a_big_time_bid_with_another_seats_secret_is_that_seats_bid(moderator: Moderator) -> None:
    game_id = moderator.start("bigtime", seed=3)
    assert awaiting(moderator, game_id) == (0, 1)
    bo_address = moderator.plus_address(game_id, BO)
    assert moderator.send(email(ANN, bo_address, "BID 0", number=1)).status == "accepted"
    assert awaiting(moderator, game_id) == (0,)
    assert moderator.snapshot(game_id).history[-1][1] == BO


GM_COMMANDS_BY_EMAIL = [
    "gm undo",
    "UNDO",
    "undo --to 1",
    "pbem gm undo {game} --why mistake",
    "SET-MONEY 0 99",
    "gm set-money {game} ann@example.org 99 --why gift",
    "SET-VALUE Boston 9",
    "REPLACE bo@example.org evil@attacker.example",
    "REMOVE Ann",
    "PAUSE",
    "RESUME",
    "DEADLINE 1",
    "RESEND",
    "gm order {game} ann@example.org HIRE 0",
]


@pytest.mark.parametrize("body", GM_COMMANDS_BY_EMAIL)
def test_gm_commands_sent_by_email_change_nothing(moderator: Moderator, body: str) -> None:
    game_id = moderator.start("showmanager", [], seed=7, first_player=ANN)
    ann_address = moderator.plus_address(game_id, ANN)
    assert moderator.send(email(ANN, ann_address, "HIRE 0", number=1)).status == "accepted"
    before, mark = moderator.snapshot(game_id), moderator.outbox_count()
    for number, sender in enumerate((ANN, BO), start=2):
        raw = email(sender, moderator.plus_address(game_id, sender), body.format(game=game_id))
        assert moderator.send(raw.replace(b"<0.", b"<%d." % number)).status == "rejected"
    assert moderator.snapshot(game_id) == before
    sent = moderator.sent_since(mark)
    assert recipients(sent) == {ANN: 1, BO: 1}
    for row in sent:
        well_formed(row.raw)


def test_a_resigned_players_secret_no_longer_orders(moderator: Moderator) -> None:
    players = [PlayerSpec(ANN), PlayerSpec(BO), PlayerSpec(CY)]
    game_id = moderator.start("bigtime", players, seed=3)
    cy_address = moderator.plus_address(game_id, CY)
    assert moderator.send(email(CY, cy_address, "RESIGN", number=1)).status == "accepted"
    before = moderator.snapshot(game_id)
    assert moderator.send(email(CY, cy_address, "BID 0", number=2)).status == "rejected"
    assert moderator.snapshot(game_id) == before
