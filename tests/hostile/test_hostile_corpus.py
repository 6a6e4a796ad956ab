"""A corpus of odd and hostile emails: none crashes the moderator, none changes a game unless it
is a valid order, a person gets one reply and a machine none, and every reply is well formed.

The .eml files in `corpus/` are written to Ann's seat of a fresh Show Manager game where it is
her turn: `@@TO@@` becomes her plus-address and `@@GAME@@` the game id. Mails too big for a file
are built by the functions below.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlmodel import Session, select

from pbem.store import InboundRow
from tests.hostile.harness import ANN, Moderator, recipients, well_formed

CORPUS = Path(__file__).parent / "corpus"
HEADER = (
    b"From: Ann <ann@example.org>\nTo: @@TO@@\nSubject: Re: [@@GAME@@] Welcome\n"
    b"Message-ID: <built@hostile.test>\n"
)


@dataclass(frozen=True)
class Expect:
    """How the moderator must answer: the inbound status, and who gets a reply (one each)."""

    status: str
    replied: tuple[str, ...] = (ANN,)


MACHINE = Expect("ignored", ())
PERSON = Expect("rejected")
ORDER = Expect("accepted")

EXPECTED = {
    "auto_submitted_no.eml": ORDER,
    "bidi_and_zero_width.eml": ORDER,
    "binary_garbage_body.eml": PERSON,
    "bounce_empty_return_path.eml": MACHINE,
    "bounce_plain_from_postmaster.eml": MACHINE,
    "broken_base64.eml": PERSON,
    "broken_quoted_printable.eml": PERSON,
    "calendar_invite.eml": PERSON,
    "cr_only_line_endings.eml": PERSON,
    "dsn_bounce.eml": MACHINE,
    "dsn_bounce_from_a_person_address.eml": MACHINE,
    "empty_body.eml": PERSON,
    "encoded_word_subject_with_crlf.eml": PERSON,
    "exchange_out_of_office.eml": MACHINE,
    "folded_from_injection.eml": PERSON,
    "forwarded_orders_only_inside_rfc822.eml": PERSON,
    "from_without_address.eml": MACHINE,
    "headers_only_no_separator.eml": PERSON,
    "html_script_and_style.eml": PERSON,
    "invalid_utf8_in_headers.eml": PERSON,
    "latin1_no_charset.eml": ORDER,
    "mailing_list_copy.eml": MACHINE,
    "missing_message_id.eml": ORDER,
    "moderator_plus_address_to_itself.eml": MACHINE,
    "moderator_to_itself.eml": MACHINE,
    "no_from.eml": MACHINE,
    "nul_bytes.eml": PERSON,
    "precedence_junk.eml": MACHINE,
    "smime_encrypted_blob.eml": PERSON,
    "smime_signed_order.eml": ORDER,
    "stranger_plain_address.eml": Expect("rejected", ("someone@example.net",)),
    "two_from_headers.eml": PERSON,
    "unknown_charset.eml": ORDER,
    "utf16_declared_not_utf16.eml": ORDER,
    "uuencoded_body.eml": ORDER,
    "vacation_auto_replied.eml": MACHINE,
    "vacation_precedence_auto_reply.eml": MACHINE,
    "vacation_x_autoreply.eml": MACHINE,
    "vacation_x_autorespond.eml": MACHINE,
}


def ten_megabytes() -> bytes:
    """A 10 MB email: a line of orders, megabytes of chatter, an HTML copy and an attachment."""
    chatter = b"blah blah blah, a long and chatty line that says nothing\n" * 60_000
    attachment = base64.encodebytes(bytes(range(256)) * 20_000)
    return (
        HEADER + b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=X\n\n"
        b"--X\nContent-Type: text/plain\n\nHIRE 0\n" + chatter + b"--X\nContent-Type: text/html\n\n"
        b"<div>" + b"<b>x</b>" * 300_000 + b"</div>\n--X\nContent-Type: application/octet-stream\n"
        b"Content-Disposition: attachment\nContent-Transfer-Encoding: base64\n\n"
        + attachment
        + b"--X--\n"
    )


def nested(depth: int) -> bytes:
    """Multiparts nested `depth` deep, the order at the bottom."""
    opening = b"".join(
        b"--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n" % (level, level + 1)
        for level in range(depth)
    )
    closing = b"".join(b"--b%d--\n" % level for level in range(depth, -1, -1))
    leaf = b"--b%d\nContent-Type: text/plain\n\nHIRE 0\n" % depth
    return HEADER + b"Content-Type: multipart/mixed; boundary=b0\n\n" + opening + leaf + closing


def huge_headers() -> bytes:
    """Thousands of Received lines, a 200 kB subject and a 100 kB folded To."""
    received = b"".join(b"Received: from relay%d.example.net by mx.example.org\n" % n
                        for n in range(5_000))  # fmt: skip
    folded_to = b"To: " + b",\n ".join(b"nobody%d@example.net" % n for n in range(5_000))
    return (
        received
        + HEADER.replace(b"Welcome", b"Welcome " + b"x" * 200_000)
        + folded_to
        + b"\n\nHello\n"
    )


def one_endless_line() -> bytes:
    """A body of one 5 MB line with no line break at all."""
    return HEADER + b"\nHIRE 0 " + b"0" * 5_000_000


BUILT = {
    "ten_megabytes": (ten_megabytes, ORDER),
    "nested_12_deep": (lambda: nested(12), ORDER),
    "nested_5000_deep": (lambda: nested(5000), PERSON),
    "huge_headers": (huge_headers, PERSON),
    "one_endless_line": (one_endless_line, PERSON),
}


def fill(template: bytes, moderator: Moderator, game_id: str) -> bytes:
    to = moderator.plus_address(game_id, ANN).encode()
    return template.replace(b"@@TO@@", to).replace(b"@@GAME@@", game_id.encode())


def check_handled_as_expected(template: bytes, expect: Expect) -> None:
    moderator = Moderator()
    game_id = moderator.start(seed=7, first_player=ANN)
    before = moderator.snapshot(game_id)
    mark = moderator.outbox_count()
    result = moderator.send(fill(template, moderator, game_id))
    assert result.status == expect.status, result.reason
    sent = moderator.sent_since(mark)
    after = moderator.snapshot(game_id)
    assert recipients(sent, ("reply", "stranger")) == dict.fromkeys(expect.replied, 1)
    if expect.status == "accepted":
        assert after.history[: len(before.history)] == before.history
        assert len(after.history) == len(before.history) + 1
        assert after.state != before.state
    else:
        assert after == before
        assert {row.kind for row in sent} <= {"reply", "stranger"}
    for row in sent:
        well_formed(row.raw)


def test_every_corpus_file_has_an_expectation() -> None:
    assert sorted(path.name for path in CORPUS.glob("*.eml")) == sorted(EXPECTED)
    assert len(EXPECTED) + len(BUILT) >= 30


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_email_is_handled_as_expected(name: str) -> None:
    check_handled_as_expected((CORPUS / name).read_bytes(), EXPECTED[name])


@pytest.mark.parametrize("name", sorted(BUILT))
def test_built_email_is_handled_as_expected(name: str) -> None:
    build, expect = BUILT[name]
    raw = build()
    # Processor time, so a busy machine does not fail it: the bound catches quadratic handling
    # (minutes), and the figures themselves are the benchmarks' business.
    started = time.process_time()
    check_handled_as_expected(raw, expect)
    assert time.process_time() - started < 30, f"{name} ({len(raw)} bytes) took too long"


def test_ten_megabyte_email_is_stored_whole() -> None:
    moderator = Moderator()
    game_id = moderator.start(seed=7, first_player=ANN)
    raw = fill(ten_megabytes(), moderator, game_id)
    assert len(raw) > 10_000_000
    moderator.send(raw)
    with Session(moderator.engine) as session:
        stored = session.exec(select(InboundRow)).one()
    assert stored.raw == raw


def test_same_email_without_message_id_twice_is_carried_out_once() -> None:
    moderator = Moderator()
    game_id = moderator.start(seed=7, first_player=ANN)
    raw = fill((CORPUS / "missing_message_id.eml").read_bytes(), moderator, game_id)
    assert moderator.send(raw).status == "accepted"
    after_first, mark = moderator.snapshot(game_id), moderator.outbox_count()
    assert moderator.send(raw).status == "duplicate"
    assert moderator.snapshot(game_id) == after_first
    assert moderator.outbox_count() == mark


def test_reused_message_id_with_another_body_is_a_duplicate_and_changes_nothing() -> None:
    moderator = Moderator()
    game_id = moderator.start(seed=7, first_player=ANN)
    first = fill(HEADER + b"\nThanks for the game!\n", moderator, game_id)
    assert moderator.send(first).status == "rejected"
    before, mark = moderator.snapshot(game_id), moderator.outbox_count()
    second = fill(HEADER + b"\nHIRE 0\n", moderator, game_id)
    assert moderator.send(second).status == "duplicate"
    assert moderator.snapshot(game_id) == before
    assert moderator.outbox_count() == mark
