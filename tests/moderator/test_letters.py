"""What every letter looks like: the mark line first, the phase in the subject, the footer with
the game and password, and a final result that tells the standings once, with the tie-breaks."""

from __future__ import annotations

from collections.abc import Callable
from email import message_from_bytes, policy

import pytest

from pbem.games.showmanager import ENGINE
from pbem.moderator.letters import final_standings, reply_subject, status_letter
from pbem.moderator.loaded import LoadedGame
from pbem.orders.incoming import read_email
from pbem.orders.quotes import ORDERS_ABOVE_MARK
from pbem.settings import Settings
from pbem.store import GameRow, SeatRow
from tests.moderator.conftest import ANN, BO, Table
from tests.moderator.test_archive_mail import finish
from tests.showmanager.test_sm_scoring import tied_on_16_points
from tests.support.letters import letter_text

SETTINGS = Settings(database_url="sqlite://", address="pbem@example.org")
NAMES = ("Ann", "Bo", "Cy", "Di")


def finished_show_manager(money: tuple[int, int]) -> LoadedGame:
    """A Show Manager game over with seats 0 and 1 tied on 16 points, holding `money`."""
    state = tied_on_16_points()
    state.players[0].money, state.players[1].money = money
    state.turn = None
    row = GameRow(id="sm-9", game="showmanager", variant="standard", seed=1, state="{}")
    seats = [
        SeatRow(
            game_id="sm-9",
            position=n,
            address=f"{name.lower()}@example.org",
            name=name,
            secret=f"s{n}x",
        )
        for n, name in enumerate(NAMES)
    ]
    return LoadedGame(row, seats, ENGINE, state)


def test_a_tie_on_points_is_told_with_the_tie_break_that_settled_it() -> None:
    places = final_standings(finished_show_manager((10, 11)))
    assert [(p.place, p.name, p.points) for p in places[:2]] == [(1, "Bo", 16), (2, "Ann", 16)]
    assert places[0].ahead == "on money (11 to 10)"
    assert places[1].ahead is None


def test_a_tie_the_tie_breaks_leave_shares_the_place() -> None:
    places = final_standings(finished_show_manager((10, 10)))
    assert [(p.place, p.ahead) for p in places[:2]] == [(1, None), (1, None)]


@pytest.mark.parametrize("money", [(10, 11), (10, 10)])
def test_the_final_email_tells_the_standings_once_and_asks_for_nothing(
    money: tuple[int, int],
) -> None:
    game = finished_show_manager(money)
    letter = status_letter(game, 2, SETTINGS, [])
    assert letter.subject == "[sm-9] Final result"
    text = letter.text
    assert text.startswith(ORDERS_ABOVE_MARK + "\n")
    assert text.count("Final standings") == 1
    assert "Deadline" not in text and "Reply to this email" not in text
    assert "It is your move" not in text
    if money == (10, 11):
        assert "1. Bo: 16 points, ahead on money (11 to 10)" in text
        assert "No single winner" not in text
    else:
        assert "1. Ann: 16 points" in text and "1. Bo: 16 points" in text
        assert "No single winner" in text
    # The footer names the reader's password for HISTORY alone: it tells not how to send orders.
    assert "Game sm-9 is over: no more orders are taken." in text
    words = " ".join(text.split())  # the footer's lines are wrapped at 78
    assert "write HISTORY and a line PASSWORD s2x, with [sm-9] in the subject" in words
    assert "Needed only when you write" not in text and "with your orders" not in text
    assert "Final standings" in letter.html and "s2x" in letter.html
    assert "Needed only when you write" not in letter.html


def test_the_big_time_final_result_keeps_the_money_and_asks_for_no_orders(
    table: Callable[..., Table],
) -> None:
    game = table("bigtime", [ANN, BO], seed=4)
    finish(game)
    for row in [r for r in game.outbox() if r.to_address in (ANN, BO)][-2:]:
        assert read_email(row.raw).subject.endswith("Final result")
        text = letter_text(row.raw)
        html = message_from_bytes(row.raw, policy=policy.default).get_body(("html",))
        assert html is not None
        page = html.get_content()  # type: ignore[attr-defined]
        assert text.startswith(ORDERS_ABOVE_MARK) and "Money cards: " in text
        for asking in (
            "Sealed bid",
            "A.M. preferences",
            "Preferred Headliners",
            "Choice for the Hook",
            "Orders you could send",
            "Needed only when you write",
            "write an act by its code",
        ):
            assert asking not in text and asking not in page, asking


def test_every_letter_starts_with_the_mark_so_none_of_it_is_read_back() -> None:
    game = finished_show_manager((10, 11))
    letter = status_letter(game, 0, SETTINGS, [])
    assert letter.text.splitlines()[0] == ORDERS_ABOVE_MARK
    assert ORDERS_ABOVE_MARK in letter.html
    raw = (
        f"From: ann@example.org\nTo: pbem@example.org\nSubject: Re: {letter.subject}\n\n"
        f"STATUS\n\n{letter.text}"
    ).encode()
    assert read_email(raw).text == "STATUS"


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("hello", "Re: hello"),
        ("Re: Re: RE: [bt-2] Round 1 · Phase 1", "Re: [bt-2] Round 1 · Phase 1"),
        ("AW: Re: Fwd: orders", "Re: orders"),
        ("Re[2]: orders", "Re: orders"),
    ],
)
def test_a_reply_subject_says_re_once(subject: str, expected: str) -> None:
    assert reply_subject(subject) == expected


def test_a_big_time_hand_lists_only_what_the_phase_takes(table: Callable[..., Table]) -> None:
    """Play-testing: phase 3 listed a sealed bid and A.M./P.M. preferences it no longer takes.
    A bid and those preferences in phases 1 and 2, Headliner preferences from phase 2, the
    Hook's choice in all three; in text and HTML alike."""
    game = table("bigtime", [ANN, BO], seed=4)
    taken = {
        1: ("Sealed bid", "A.M. preferences", "P.M. preferences", "Choice for the Hook"),
        2: ("Sealed bid", "A.M. preferences", "Preferred Headliners", "Choice for the Hook"),
        3: ("Preferred Headliners", "Choice for the Hook"),
    }
    for phase in (1, 2, 3):
        row = [r for r in game.outbox() if r.to_address == ANN][-1]
        text = letter_text(row.raw)
        html = message_from_bytes(row.raw, policy=policy.default).get_body(("html",))
        assert html is not None and f"phase {phase}" in text
        page = html.get_content()  # type: ignore[attr-defined]
        for line in ("Sealed bid", "A.M. preferences", "Preferred Headliners"):
            shown = line in taken[phase]
            assert (f"\n{line}: " in text) is shown and (f">{line}</td>" in page) is shown, line
        for line in taken[phase]:
            assert line in text and line in page, line
        if phase < 3:
            for seat in (ANN, BO):
                latest = [r for r in game.outbox() if r.to_address == seat][-1]
                subject = "Re: " + read_email(latest.raw).subject
                reply = game.mail(seat, "BID 0", subject=subject)
                assert reply.status == "accepted", reply.reason
