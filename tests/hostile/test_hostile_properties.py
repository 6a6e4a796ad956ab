"""Generated emails (bodies, headers, MIME trees) through `handle_inbound` on a running game.

Whatever arrives: handling never raises; an email that was not carried out leaves the game as it
was; nobody gets more than one reply to one email and a machine gets none; every email the
moderator writes parses without a defect.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.orders.incoming import read_email
from tests.hostile.harness import ANN, Moderator, recipients, well_formed
from tests.orders.test_order_robustness import render, trees

EXAMPLES = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)

ORDER_WORDS = [
    "HIRE", "HIRE 0", "HIRE 9", "REFRESH", "LOAN WOLF 3", "STAGE", "IN KOELN", "BID 0", "BID 3 3",
    "AM A1", "PM P2", "HEADLINER", "HOOK T07", "HELP", "STATUS", "HISTORY", "PASSWORD zzzzz",
    "HIER 0", "REFERSH", "UNDO", "gm undo", "SET-MONEY 0 99", "> HIRE 0", "-- ", "Thanks!",
    "On Mon, 1 Dec 2026, pbem <pbem@example.org> wrote:", "#57", "{{ 7*7 }}", "<b>x</b>",
]  # fmt: skip
lines = st.sampled_from(ORDER_WORDS) | st.text(max_size=40)
bodies = st.lists(lines, max_size=8).map("\n".join)

HEADER_NAMES = [
    "From", "To", "Cc", "Reply-To", "Subject", "Message-ID", "References", "In-Reply-To",
    "Delivered-To", "Return-Path", "Auto-Submitted", "Precedence", "List-Id", "X-Autoreply",
    "Content-Type", "Content-Transfer-Encoding", "MIME-Version", "Sender",
]  # fmt: skip
CRAFTED_VALUES = [
    b"<>", b"auto-replied", b"no", b"bulk", b"MAILER-DAEMON@example.org", b"pbem@example.org",
    b"=?utf-8?q?Ann=0D=0ABcc=3A_evil=40attacker=2Eexample?= <ann@example.org>",
    b"=?utf-8?b?//79?=", b"=?x-unknown?q?abc?=", b"multipart/report; boundary=x",
    b"text/plain; charset=\"\xff\"", b"\"unterminated <ann@example.org>", b"<a@b@c>", b"",
    b"ann@example.org,,,,bo@example.org", b"(comment (nested (deep)))", b"\x00\x01\x02",
]  # fmt: skip
header_values = st.sampled_from(CRAFTED_VALUES) | st.binary(max_size=80).map(
    lambda value: value.replace(b"\n", b" ").replace(b"\r", b" ")
)
header_lists = st.lists(st.tuples(st.sampled_from(HEADER_NAMES), header_values), max_size=6)


class Table:
    """One running game and a way to mail Ann's seat and check what the moderator made of it."""

    def __init__(self, game: str) -> None:
        self.moderator = Moderator()
        self.game_id = self.moderator.start(game, seed=7, **_first_player(game))
        self.to = self.moderator.plus_address(self.game_id, ANN).encode()
        self.numbers = itertools.count()

    def head(self) -> bytes:
        """From Ann to her seat, with a Message-ID of its own so no example is a duplicate."""
        message_id = b"<%d@generated.test>" % next(self.numbers)
        return (
            b"From: Ann <ann@example.org>\nTo: " + self.to + b"\nSubject: Re: orders\n"
            b"Message-ID: " + message_id + b"\n"
        )

    def check(self, raw: bytes) -> str:
        """Send `raw` and check the invariants; the inbound status, for the caller's own checks."""
        moderator = self.moderator
        before, mark = moderator.snapshot(self.game_id), moderator.outbox_count()
        result = moderator.send(raw)
        after, sent = moderator.snapshot(self.game_id), moderator.sent_since(mark)
        # HISTORY is answered with the history as a letter of its own, besides the reply.
        answers = [row for row in sent if not read_email(row.raw).subject.endswith("] History")]
        replies = recipients(answers, ("reply", "stranger"))
        assert all(count == 1 for count in replies.values()), replies
        if result.status in ("accepted", "queued"):
            assert after.history[: len(before.history)] == before.history
            # HELP, STATUS or HISTORY alone are carried out and change nothing; but a state
            # never changes without a history entry saying how.
            if after.history == before.history and after.queued == before.queued:
                assert after.state == before.state
        else:
            assert after == before, result.reason
            assert {row.kind for row in sent} <= {"reply", "stranger"}
        if result.status in ("ignored", "duplicate"):
            assert sent == []
        for row in sent:
            well_formed(row.raw)
        return result.status


def _first_player(game: str) -> dict[str, str]:
    return {"first_player": ANN} if game == "showmanager" else {}


@pytest.mark.parametrize("game", ["showmanager", "bigtime"])
def test_generated_bodies_never_crash_nor_change_a_game_unless_carried_out(game: str) -> None:
    table = Table(game)

    @EXAMPLES
    @given(body=bodies)
    def check(body: str) -> None:
        raw = table.head() + b"Content-Type: text/plain; charset=utf-8\n\n"
        status = table.check(raw + body.encode("utf-8", "surrogatepass"))
        assert status in ("accepted", "queued", "rejected")

    check()


def test_generated_headers_never_crash_nor_change_a_game_and_machines_get_no_reply() -> None:
    table = Table("showmanager")

    @EXAMPLES
    @given(headers=header_lists)
    def check(headers: list[tuple[str, bytes]]) -> None:
        extra = b"".join(name.encode() + b": " + value + b"\n" for name, value in headers)
        status = table.check(table.head() + extra + b"\nThanks for the game!\n")
        if any(name == "Auto-Submitted" and value == b"auto-replied" for name, value in headers):
            assert status == "ignored"

    check()


def test_generated_mime_trees_never_crash_nor_change_a_game_unless_carried_out() -> None:
    table = Table("showmanager")

    @EXAMPLES
    @given(tree=trees)
    def check(tree: tuple[str, str, object]) -> None:
        table.check(table.head() + b"MIME-Version: 1.0\n" + render(tree))

    check()
