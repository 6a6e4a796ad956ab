"""Player names, subjects and lines carrying HTML, header breaks or template syntax: no game
changes, and every email the moderator writes stays well formed with the text shown literally."""

from __future__ import annotations

import pytest

from pbem.moderator.start import PlayerSpec, StartError
from tests.hostile.harness import ANN, BO, Moderator, parts, recipients, well_formed

SCRIPT = "<script>alert(1)</script>"
TEMPLATE = "{{ 7*7 }} {{ 1234*1001 }} {% if true %}yes{% endif %}"
HOSTILE = f"{SCRIPT} {TEMPLATE}"
SENDER = '"<b>x</b> {{ 7*7 }}\\" Bcc: evil@attacker.example"@example.net'
INJECTED = "\r\nBcc: evil@attacker.example\r\nX-Injected: yes"


def assert_shown_literally(raw: bytes) -> None:
    """`raw` is well formed (so no header was injected), the template syntax was not run, and
    HTML is escaped in the HTML part."""
    text, html = parts(well_formed(raw))
    for rendering in (" ".join(text.split()), html):  # long text lines are wrapped: as words
        assert TEMPLATE in rendering
        assert "1235234" not in rendering
    assert "<script>" not in html
    assert "&lt;script&gt;" in html


def test_hostile_player_names_are_shown_literally_in_every_email() -> None:
    moderator = Moderator()
    players = [
        PlayerSpec.parse(f"{ANN}:Ann {HOSTILE}{INJECTED}"),
        # Both names are hostile: an email names its reader "you", so shows the other's name.
        PlayerSpec.parse(f"{BO}:Bo {HOSTILE}{INJECTED}"),
    ]
    game_id = moderator.start("showmanager", players, seed=7, first_player=ANN)
    moderator.send(
        f"From: {ANN}\nTo: {moderator.plus_address(game_id, ANN)}\nSubject: Re: x\n"
        "Message-ID: <names@security.test>\n\nHIRE 0\nHISTORY\n".encode()
    )
    sent = moderator.outbox()
    # Two welcomes; then Bo's status, and Ann's reply carrying her new status.
    assert len(sent) >= 4
    naming = 0
    for row in sent:
        # An email names its reader "you", and the board shortens names: wherever a name is
        # shown whole, the template syntax after it is shown literally.
        text, html = parts(well_formed(row.raw))
        text = " ".join(text.split())  # long lines are wrapped: read as words
        assert "1235234" not in text + html
        assert "<script>" not in html
        whole = text.count(SCRIPT)
        assert text.count(HOSTILE) == whole
        assert html.count(f"&lt;script&gt;alert(1)&lt;/script&gt; {TEMPLATE}") == html.count(
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        )
        naming += whole > 0
    assert naming >= 3


def test_hostile_subject_and_lines_are_echoed_literally_and_change_nothing() -> None:
    moderator = Moderator()
    game_id = moderator.start("showmanager", seed=7, first_player=ANN)
    before, mark = moderator.snapshot(game_id), moderator.outbox_count()
    subject = "=?utf-8?q?" + HOSTILE.replace(" ", "_").replace("=", "=3D").replace("?", "=3F")
    subject += "=0D=0ABcc=3A_evil=40attacker=2Eexample?="
    raw = (
        f"From: {ANN}\nTo: {moderator.plus_address(game_id, ANN)}\nSubject: {subject}\n"
        "Message-ID: <subject@security.test>\n Bcc: evil@attacker.example\n"
        "In-Reply-To: <x@y>\n X-Injected: yes\n"
        f"Content-Type: text/plain; charset=utf-8\n\n{HOSTILE}\nHIRE {SCRIPT}\n"
    ).encode()
    assert moderator.send(raw).status == "rejected"
    assert moderator.snapshot(game_id) == before
    (reply,) = moderator.sent_since(mark)
    assert_shown_literally(reply.raw)
    message = well_formed(reply.raw)
    # The reply's subject is the game's phase, never the player's subject echoed back.
    assert str(message["Subject"]) == f"[{game_id}] Not carried out · Your turn"
    assert message["Bcc"] is None and str(message["To"]) == ANN


def test_a_hostile_sender_address_gets_one_well_formed_reply() -> None:
    moderator = Moderator()
    game_id = moderator.start("showmanager", seed=7, first_player=ANN)
    before, mark = moderator.snapshot(game_id), moderator.outbox_count()
    raw = (
        SENDER.join(("From: ", f"\nTo: {moderator.plus_address(game_id, ANN)}\nSubject: hi\n"))
        + f"Message-ID: <sender@security.test>\n\n{SCRIPT}\n"
    ).encode()
    assert moderator.send(raw).status == "rejected"
    assert moderator.snapshot(game_id) == before
    sent = moderator.sent_since(mark)
    assert recipients(sent) == {SENDER: 1, ANN: 1}
    for row in sent:
        message = well_formed(row.raw)
        assert "X-Injected" not in message and "Bcc" not in message


def test_a_line_break_in_a_players_address_is_refused_by_the_command_line() -> None:
    with pytest.raises(StartError):
        PlayerSpec.parse(f"{ANN}{INJECTED}:Ann")


def test_a_line_break_in_a_players_address_is_refused_by_start_game() -> None:
    moderator = Moderator()
    with pytest.raises(StartError):
        moderator.start("showmanager", [PlayerSpec(ANN + INJECTED), PlayerSpec(BO)], seed=7)
    assert all("\n" not in row.to_address for row in moderator.outbox())
