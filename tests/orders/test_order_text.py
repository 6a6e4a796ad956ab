"""From raw email to the text a player wrote: HTML, charsets, quotes, signatures, headers."""

from __future__ import annotations

import pytest

from pbem.games.showmanager.actions import Hire
from pbem.orders import ORDERS_ABOVE_MARK, grammar_for, new_text, parse_orders, read_email
from pbem.orders.headers import addresses, first_header, message_ids
from pbem.orders.html_text import html_to_text
from pbem.orders.incoming import parse_message
from pbem.orders.mime import decode_bytes
from pbem.orders.quotes import is_orders_mark, read_new_text

STATUS_LINES = "Your hand: #14 #27\nHIRE 2\nSTAGE QUEENIE 14 27 33 109 IN KOELN"


def mail(body: bytes, headers: bytes = b"Content-Type: text/plain; charset=utf-8\n") -> bytes:
    return (
        b"From: Ann <ann@example.org>\nTo: mod@example.org\nSubject: orders\n"
        + headers
        + b"\n"
        + body
    )


# --- HTML read as text ---------------------------------------------------------------------


def test_html_hides_head_title_style_and_script() -> None:
    html = (
        "<html><head><title>HIRE 1</title><style>p {x: 'HIRE 2'}</style></head>"
        "<body><script>var a = 'HIRE 3';</script><p>HIRE 0</p></body></html>"
    )
    assert html_to_text(html) == "HIRE 0"


def test_html_line_breaks_come_from_br_and_blocks() -> None:
    html = (
        "REFRESH<br>HIRE 2<div>LOAN WOLF 5</div><p>STATUS</p><ul><li>HELP</li><li>RESIGN</li></ul>"
    )
    assert html_to_text(html).splitlines() == [
        "REFRESH",
        "HIRE 2",
        "LOAN WOLF 5",
        "STATUS",
        "HELP",
        "RESIGN",
    ]


def test_html_entities_are_decoded_and_spaces_folded() -> None:
    assert html_to_text("<div>STAGE  WOLF\n 1&nbsp;2 3 IN K&ouml;ln &amp; more</div>") == (
        "STAGE WOLF 1 2 3 IN Köln & more"
    )


def test_html_blockquote_lines_come_out_quoted() -> None:
    html = "HIRE 2<blockquote>HIRE 0<br>old<blockquote>older</blockquote></blockquote>after"
    assert html_to_text(html).splitlines() == ["HIRE 2", "> HIRE 0", "> old", "> > older", "after"]


def test_html_empty_div_with_br_is_one_blank_line() -> None:
    assert html_to_text("<div>a</div><div><br></div><div><br></div><div>b</div>") == "a\n\nb"


# --- charsets and transfer encodings -------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "declared", "text"),
    [
        ("Köln".encode(), "utf-8", "Köln"),
        ("Köln".encode("latin-1"), "iso-8859-1", "Köln"),
        ("Köln".encode(), "us-ascii", "Köln"),  # a lying charset: the bytes are UTF-8
        ("Köln".encode("latin-1"), None, "Köln"),  # 8-bit without a charset
        ("“Köln”".encode("cp1252"), "us-ascii", "“Köln”"),
        ("Köln".encode(), "x-no-such-charset", "Köln"),
        ("Köln".encode(), "base64", "Köln"),  # a codec that is not a text encoding
        (b"\x81\x8d", None, "\x81\x8d"),  # nothing else reads it: Latin-1 reads everything
    ],
)
def test_bytes_are_decoded_in_the_declared_charset_or_a_sane_fallback(
    data: bytes, declared: str | None, text: str
) -> None:
    assert decode_bytes(data, declared) == text


def test_an_unknown_charset_still_reads_the_orders() -> None:
    raw = mail(b"HIRE 2\n", b"Content-Type: text/plain; charset=x-martian\n")
    assert read_email(raw).text == "HIRE 2"


def test_broken_base64_reads_what_it_can() -> None:
    raw = mail(b"SElSRSAy\n!!!\n", b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n")
    assert read_email(raw).text.startswith("HIRE 2")


def test_quoted_printable_soft_breaks_join_an_order() -> None:
    raw = mail(
        b"STAGE WOLF 1 2 3 IN K=C3=B6=\nln\n",
        b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n",
    )
    assert read_email(raw).text == "STAGE WOLF 1 2 3 IN Köln"


# --- only the new text of a reply ----------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "On Mon, 3 Mar 2025 at 10:12, Show Manager <mod@example.org> wrote:",
        "On Mon, 3 Mar 2025 at 10:12, Show Manager <\nmod@example.org> wrote:",
        "On Mon, 3 Mar 2025 at 10:12,\nShow Manager\n<mod@example.org> wrote:",
        "On 3/3/25 10:12 AM, Show Manager wrote:",
        "Am 03.03.25 um 10:12 schrieb Show Manager:",
        "Am Mo., 3. März 2025 um 10:12 Uhr schrieb Show Manager <\nmod@example.org>:",
        "Le lun. 3 mars 2025 à 10:12, Show Manager <mod@example.org> a écrit\u00a0:",
        "El lun, 3 mar 2025 a las 10:12, Show Manager (<mod@example.org>) escribió:",
        "Op ma 3 mrt 2025 om 10:12 schreef Show Manager <mod@example.org>:",
        "Il giorno lun 3 mar 2025 alle ore 10:12 Show Manager ha scritto:",
        "Em seg., 3 de mar. de 2025 às 10:12, Show Manager escreveu:",
        "-----Original Message-----",
        "----- Original Message -----",
        "-----Ursprüngliche Nachricht-----",
        "---------- Forwarded message ---------",
        "-------- Weitergeleitete Nachricht --------",
        "Begin forwarded message:",
        "From: Show Manager <mod@example.org>\nSent: Monday, March 3, 2025 10:12\n"
        "To: Ann\nSubject: [sm-12] your turn",
        "Von: Show Manager <mod@example.org>\nGesendet: Montag, 3. März 2025 10:12\n"
        "An: Ann\nBetreff: [sm-12] du bist dran",
        "________________________________\nFrom: Show Manager\nSent: Monday\nTo: Ann",
        "-- ",
        "--",
        ORDERS_ABOVE_MARK,
    ],
)
def test_everything_from_a_quote_header_down_is_dropped(header: str) -> None:
    body = f"REFRESH\nHIRE 1\n\n{header}\n\n{STATUS_LINES}\n"
    assert new_text(body) == "REFRESH\nHIRE 1"


def test_where_reading_stopped_is_kept_with_the_unquoted_lines_under_it() -> None:
    header = "On Mon, 3 Mar 2025 at 10:12, Show Manager <mod@example.org> wrote:"
    text, stop = read_new_text(f"Hi\n\n{header}\n> Your turn\n> HIRE 2\n\nHIRE 1\nthanks\n")
    assert text == "Hi"
    assert stop is not None and (stop.number, stop.line) == (3, header)
    assert stop.below == "HIRE 1\nthanks"
    # Nothing of the sender's under the quote, and no stop at all.
    quoted = read_new_text(f"HIRE 1\n{header}\n> Your turn\n")[1]
    assert quoted is not None and quoted.below == ""
    assert read_new_text("HIRE 1\n")[1] is None


def test_quoted_lines_are_dropped_wherever_they_are() -> None:
    body = "> Your turn\nHIRE 1\n> HIRE 2\n  > STAGE WOLF 1 2 3\nSTATUS\n>\n"
    assert new_text(body) == "HIRE 1\nSTATUS"


def test_a_wrote_line_right_above_a_quote_is_a_quote_header() -> None:
    assert new_text("HIRE 1\nThe moderator wrote:\n\n> HIRE 2\nSTAGE WOLF 1 2 3\n") == "HIRE 1"


@pytest.mark.parametrize(
    "line",
    [
        "On second thought, hire the cheap one",
        "From: me, with love",
        "Am A1 A2",
        "I wrote: HIRE 2",
        "-- and then",
    ],
)
def test_ordinary_lines_that_look_a_little_like_quote_headers_are_kept(line: str) -> None:
    body = f"HIRE 1\n{line}\nREFRESH"
    assert new_text(body) == body


def test_crlf_and_lone_cr_line_endings_are_lines() -> None:
    assert new_text("REFRESH\r\nHIRE 1\r\n\r\n") == "REFRESH\nHIRE 1"
    assert new_text("REFRESH\rHIRE 1\r") == "REFRESH\nHIRE 1"


def test_a_status_email_pasted_whole_under_the_mark_is_never_read() -> None:
    raw = mail(f"HIRE 3\n\n{ORDERS_ABOVE_MARK}\nRound 3\n{STATUS_LINES}\n".encode())
    assert read_email(raw).text == "HIRE 3"


@pytest.mark.parametrize(
    "mark",
    [
        ORDERS_ABOVE_MARK,
        ORDERS_ABOVE_MARK.upper(),
        "  -- write your orders above this line --  ",
        "\u2014 write your orders above this line \u2014",  # dashes a client made typographic
        "\u2013 write\u00a0your orders above\u00a0this line \u2013",  # and no-break spaces
        "*-- write your orders above this line --*",  # HTML bold read as text
        "-- write  your orders  above this line --",
        "write your orders above this line",
        "\uff0d\uff0d write your orders above this line \uff0d\uff0d",  # full-width
    ],
)
def test_the_mark_is_known_however_a_client_pasted_it(mark: str) -> None:
    assert is_orders_mark(mark)
    assert new_text(f"HIRE 3\n{mark}\n{STATUS_LINES}") == "HIRE 3"


@pytest.mark.parametrize(
    "line",
    [
        "write your orders below",
        "-- write your orders --",
        "above this line",
        "HIRE 2 -- above",
        'Nothing at or below the line "-- write your orders above this line --" is read.',
    ],
)
def test_lines_near_the_mark_are_not_the_mark(line: str) -> None:
    assert not is_orders_mark(line)


def test_a_quoted_mark_is_a_quoted_line_and_reading_goes_on() -> None:
    body = f"> {ORDERS_ABOVE_MARK}\n> Round 3\n> HIRE 2\nHIRE 1\n>{ORDERS_ABOVE_MARK}\nREFRESH\n"
    assert not is_orders_mark(f"  > {ORDERS_ABOVE_MARK}")
    assert new_text(body) == "HIRE 1\nREFRESH"


def test_the_parser_itself_stops_at_the_mark() -> None:
    # Text can reach the parser without new_text (transcripts, the GM): it stops at the mark too.
    text = f"HIRE 3\n{ORDERS_ABOVE_MARK}\n{STATUS_LINES}\nHello"
    parsed = parse_orders(text, grammar_for("showmanager"))
    assert [line.order for line in parsed.orders] == [Hire(slot=3)]
    assert parsed.ignored == () and parsed.errors == ()


# --- headers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        b"Message-ID: <",
        b'From: "',
        b"To: a@",
        b"To: a@[",
        b"Message-Id: <[>",
        b"Message-ID: <a@[b>",
    ],
)
def test_headers_the_stdlib_cannot_parse_are_read_undecoded(header: bytes) -> None:
    message = parse_message(header + b"\n\nHIRE 2\n")
    name = header.split(b":")[0].decode()
    assert first_header(message, name) == header.split(b": ", 1)[1].decode()
    addresses(message, "From", "To")
    message_ids(message, "Message-ID")


def test_header_helpers_read_recipients_and_threading() -> None:
    message = parse_message(
        b"From: =?utf-8?q?J=C3=BCrgen?= <jurgen@example.de>\n"
        b"Delivered-To: mod+sm-1.abc@example.org\n"
        b"To: Mod <mod+sm-1.abc@example.org>, other@example.org\n"
        b"Cc: third@example.org\n"
        b"In-Reply-To: <a@x>\nReferences: <root@x>\n <a@x>\n\n"
    )
    assert addresses(message, "From") == ("jurgen@example.de",)
    assert addresses(message, "Delivered-To", "To", "Cc") == (
        "mod+sm-1.abc@example.org",
        "other@example.org",
        "third@example.org",
    )
    assert message_ids(message, "References") == ("<root@x>", "<a@x>")
    assert first_header(message, "Subject") is None
