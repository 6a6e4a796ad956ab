"""The corpus in tests/emails: real clients' ways of writing, each with the orders it must yield."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pbem.games.bigtime.actions import Bid, Hook, PreferAM, PreferHeadliner, PreferPM
from pbem.games.showmanager.actions import Hire, Loan, Refresh, Stage
from pbem.orders import Command, Order, Password, Talk, grammar_for, parse_orders, read_email
from pbem.orders.absence import Away
from pbem.orders.html_text import html_to_text
from pbem.orders.incoming import parse_message
from pbem.orders.mime import decoded_text
from pbem.orders.quotes import new_text

EMAILS = Path(__file__).resolve().parent.parent / "emails"

# The codes the status emails of the Big Time! corpus show (phase 1, then phase 2 of round 2).
PHASE_1_CODES = {
    "A1": "T05", "A2": "T11", "A3": "T18", "A4": "T23",
    "P1": "T02", "P2": "T14", "P3": "T20", "P4": "T08",
}  # fmt: skip
PHASE_2_CODES = {"A1": "T03", "P1": "T04", "H1": "H29", "H2": "H31"}


@dataclass(frozen=True)
class Expected:
    orders: list[Order]
    ignored: tuple[str, ...] = ()
    error_lines: tuple[int, ...] = ()
    game: str = "showmanager"
    codes: dict[str, str] = field(default_factory=dict)


QUEENIE_IN_KOELN = Stage("Queenie", (14, 27, 33, 109), "Köln")
LEAR_IN_KOELN = Stage("King Lear", (3, 8, 21, 40, 77), "Köln")

CORPUS: dict[str, Expected] = {
    "apple_inline_text_file.eml": Expected([Loan("Queenie", 3), Hire(card=88)]),
    "apple_mail_begin_forwarded.eml": Expected(
        [Hire(card=57)], ignored=("Was this card in the display last round?",)
    ),
    "apple_mail_on_at_wrote.eml": Expected([Loan("Wolf", 5), Refresh()]),
    "attachment_with_orders.eml": Expected(
        [Hire(slot=1)], ignored=("My plan for the game is attached.",)
    ),
    "bigtime_bid_codes_gmail.eml": Expected(
        [Bid((3, 3, 1)), PreferAM(("T18", "T05")), PreferPM(("T14", "T20"))],
        game="bigtime",
        codes=PHASE_1_CODES,
    ),
    # Issue 10: a typo of BID with its arguments is an error, not a silently missing BID.
    "bigtime_bdi_typo_android.eml": Expected(
        [PreferAM(("T05", "T18"))],
        ignored=("Here are my orders:", "Sent from my Android phone"),
        error_lines=(2,),
        game="bigtime",
        codes=PHASE_1_CODES,
    ),
    "bigtime_headliner_hook_outlook.eml": Expected(
        [Bid(()), PreferHeadliner(("H31", "H29")), Hook("T07")],
        game="bigtime",
        codes=PHASE_2_CODES,
    ),
    "crlf_plain.eml": Expected([Refresh(), Refresh(), Hire(slot=0)]),
    "dutch_schreef.eml": Expected([Hire(slot=0)]),
    "forward_as_attachment_rfc822.eml": Expected(
        [Command("STATUS")], ignored=("(the last one got lost, see the attached mail)",)
    ),
    "gmail_alternative_on_wrote.eml": Expected([Hire(slot=2)]),
    "gmail_away_holiday.eml": Expected(
        [Away(day=24, month=12, year=2026)],
        ignored=("Hi all, off skiing \u2013 back after the holidays.", "Alice"),
    ),
    "gmail_forwarded_inline.eml": Expected([Command("HISTORY")]),
    "gmail_french_a_ecrit.eml": Expected([Hire(slot=2)]),
    "gmail_german_wrapped_base64.eml": Expected([Stage("Wolf", (5, 9, 12), "Hamburg")]),
    "gmail_wrapped_attribution.eml": Expected([QUEENIE_IN_KOELN], ignored=("Hi,", "Cheers, Alice")),
    "bigtime_status_pasted_no_header.eml": Expected(
        [Bid((3, 3, 2)), PreferAM(("T18", "T05"))], game="bigtime", codes=PHASE_1_CODES
    ),
    "interleaved_reply.eml": Expected(
        [Loan("Wolf", 2), Hire(slot=1)], ignored=("First the loan,", "then the cheap one:")
    ),
    # A quoted mark is a quoted line: the orders written between the quoted lines are read.
    "interleaved_reply_quoted_mark.eml": Expected(
        [Loan("Wolf", 2), Hire(slot=1)], ignored=("First the loan,", "then the cheap one:")
    ),
    "iphone_base64.eml": Expected([Hire(slot=3)], ignored=("Sent from my iPhone",)),
    "iphone_back.eml": Expected([Command("BACK"), Hire(slot=1)], ignored=("Sent from my iPhone",)),
    "iphone_here_are_my_orders.eml": Expected(
        [Loan("Wolf", 4), Hire(slot=2)], ignored=("Here are my orders:", "Sent from my iPhone")
    ),
    "iso2022jp_fullwidth.eml": Expected(
        [Refresh(), Hire(slot=2)], ignored=("こんにちは。", "よろしくお願いします。")
    ),
    "italian_ha_scritto.eml": Expected([Hire(slot=3)]),
    "koeln_ascii_spellings.eml": Expected([LEAR_IN_KOELN]),
    "latin1_no_charset.eml": Expected(
        [Stage("Ballet", (2, 6, 11, 19, 45, 61), "Köln")], ignored=("Grüße aus Köln!",)
    ),
    "nested_multipart_apple.eml": Expected(
        [Stage("Wolf", (5, 9, 12), "New York")], ignored=("Photo of my hand attached.",)
    ),
    "outlook_dollar_bid_crlf.eml": Expected(
        [Bid((3, 3, 2)), PreferAM(("T18", "T05")), PreferPM(("T14",))],
        ignored=("Hi all,", "Here you go, good luck!", "Jules"),
        game="bigtime",
        codes=PHASE_1_CODES,
    ),
    "outlook_away_days_with_bid_crlf.eml": Expected(
        [Bid((3, 2, 2)), Away(days=5)],
        ignored=("Work trip; play my defaults meanwhile.", "Jules"),
        game="bigtime",
        codes=PHASE_1_CODES,
    ),
    "outlook_german_von_gesendet.eml": Expected(
        [Loan("Wolf", 4), LEAR_IN_KOELN], ignored=("Grüße", "Bernd")
    ),
    "outlook_html_header_block_crlf.eml": Expected([Refresh(), Hire(slot=0)]),
    "outlook_original_message.eml": Expected([QUEENIE_IN_KOELN], ignored=("Alice",)),
    "outlook_status_quoted_whole.eml": Expected(
        [Refresh()], ignored=("Thanks, nothing for me this turn, so", "Ivan")
    ),
    "password_in_body.eml": Expected([Password("k7q2m"), Hire(card=57)]),
    "pgp_signed_thunderbird.eml": Expected([Hire(card=4)]),
    "quoted_printable_soft_break.eml": Expected(
        [Stage("Queenie", (14, 27, 33, 109), "Köln", ((14, "Queenie"), (27, "Court Jester")))]
    ),
    "spanish_escribio.eml": Expected([Refresh()]),
    "status_please_gmail.eml": Expected([Command("STATUS"), Command("HISTORY"), Command("HELP")]),
    "status_pasted_with_mark.eml": Expected([Loan("Wolf", 3, 2), Hire(card=17)]),
    # Table talk: alone (it is not "no orders"), a block among orders (CRLF, an order word and a
    # blank line inside it), a whisper from an HTML-only client.
    "talk_only_gmail.eml": Expected([Talk("Nice staging, Bob. Enjoy Köln while it lasts!")]),
    "talk_block_with_orders_outlook.eml": Expected(
        [
            Hire(slot=2),
            Talk(
                "Let's not both go for Hamburg this time.\nHIRE 3 would be silly for me anyway.",
                "Bob",
            ),
        ],
        ignored=("Thanks,", "Jules"),
    ),
    "talk_whisper_html_only.eml": Expected(
        [Talk("shall we share Köln? <3", "alice"), Loan("Wolf", 5), Talk("Good luck, all.\nDave")]
    ),
    "thanks_no_orders.eml": Expected(
        [], ignored=("Thanks for running this, great game!", "See you next time.", "Bob")
    ),
    "thunderbird_german_am_schrieb.eml": Expected(
        [LEAR_IN_KOELN], ignored=("Hallo zusammen,", "Gruß", "Bernd")
    ),
    "thunderbird_signature_flowed.eml": Expected([Refresh(), Refresh(), Hire(slot=1)]),
    "typo_and_malformed.eml": Expected([], error_lines=(1, 2)),
    "webmail_html_mark_em_dash.eml": Expected([Hire(card=57)], ignored=("Thanks, Carol",)),
    "webmail_html_only.eml": Expected(
        [Hire(card=57), Stage("Wolf", (3, 7, 9), "Köln")], ignored=("Hello moderator,",)
    ),
    "windows1252_smart_quotes.eml": Expected(
        [QUEENIE_IN_KOELN], ignored=("\u201cLast one\u201d \u2013 here goes:",)
    ),
}


def test_every_corpus_email_has_an_expectation() -> None:
    on_disk = {path.name for path in EMAILS.glob("*.eml")}
    assert on_disk == set(CORPUS)
    assert len(on_disk) >= 25


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_email_yields_exactly_the_new_orders(name: str) -> None:
    expected = CORPUS[name]
    email = read_email((EMAILS / name).read_bytes())
    parsed = parse_orders(email.text, grammar_for(expected.game, codes=expected.codes))
    assert [line.order for line in parsed.orders] == expected.orders
    assert tuple(line.text for line in parsed.ignored) == expected.ignored
    assert tuple(error.number for error in parsed.errors) == expected.error_lines
    assert parsed.has_orders == bool(expected.orders or expected.error_lines)


@pytest.mark.parametrize(
    "name",
    [
        "gmail_alternative_on_wrote.eml",
        "apple_mail_on_at_wrote.eml",
        "outlook_html_header_block_crlf.eml",
        "bigtime_bid_codes_gmail.eml",
        "outlook_dollar_bid_crlf.eml",
    ],
)
def test_html_rendering_of_an_alternative_reads_the_same_orders(name: str) -> None:
    expected = CORPUS[name]
    message = parse_message((EMAILS / name).read_bytes())
    html = next(part for part in message.walk() if part.get_content_type() == "text/html")
    text = new_text(html_to_text(decoded_text(html)))
    parsed = parse_orders(text, grammar_for(expected.game, codes=expected.codes))
    assert [line.order for line in parsed.orders] == expected.orders


def test_plain_text_is_preferred_over_html_in_an_alternative() -> None:
    # The HTML rendering of this email says HIRE 0 as well; the plain one does not.
    email = read_email((EMAILS / "nested_multipart_apple.eml").read_bytes())
    assert "HIRE 0" not in email.text


def test_headers_of_a_gmail_reply_are_decoded() -> None:
    email = read_email((EMAILS / "gmail_alternative_on_wrote.eml").read_bytes())
    assert email.subject == "Re: [sm-12] Round 3 · your turn"
    assert email.message_id == "<CAF8xq0mN3v=Yk2a7d1s@mail.gmail.com>"
    assert email.sender == "alice@example.org"
    assert email.recipients == ("moderator+sm-12.k7q2m@pbem.example.org",)
    assert email.in_reply_to == ("<174099431.55.sm-12@pbem.example.org>",)
    assert email.references == (
        "<sm-12.thread@pbem.example.org>",
        "<174099431.55.sm-12@pbem.example.org>",
    )


def test_headers_of_a_client_that_dropped_the_plus_address() -> None:
    email = read_email((EMAILS / "password_in_body.eml").read_bytes())
    assert email.subject == "[sm-12] my orders"
    assert email.sender == "lena@example.org"
    assert email.reply_to == "lena.k@example.org"
    assert email.recipients == ("moderator@pbem.example.org", "lena.backup@example.org")


def test_encoded_sender_names_do_not_hide_the_address() -> None:
    email = read_email((EMAILS / "iso2022jp_fullwidth.eml").read_bytes())
    assert email.sender == "tanaka@example.jp"
    assert email.subject == "Re: [sm-12] Round 3"
