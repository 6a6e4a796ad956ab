"""`pbem outbox` as a game master reads it: the newest mail, a note of what is left out, tries
that count the one that went through, computer players' mail apart, and whole addresses at 80
columns (play-testing: the 200 oldest of 505 shown with no note, `tries 0` on sent mail,
`ann@12…`, and mail to computer players listed as sent)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlmodel import Session

from pbem.store import OutboxRow, open_database, queue_outbox, session_scope, utc_now
from tests.cli.conftest import Pbem

NARROW = {"COLUMNS": "80"}
SENT, KEPT = 205, 3


@pytest.fixture
def outbox(cli_env: dict[str, str]) -> dict[str, list[int]]:
    """205 emails sent to people, 3 handed to computer players, 1 waiting: their ids by view,
    oldest first."""
    engine = open_database(cli_env["PBEM_DATABASE_URL"])
    start = utc_now() - timedelta(days=2)
    plan = [("sent", f"p{n}@example.org") for n in range(SENT)]
    plan += [("kept", f"robo-{n}@bots.invalid") for n in range(KEPT)]
    plan += [("pending", "ann@example.org")]
    ids: dict[str, list[int]] = {"sent": [], "kept": [], "pending": []}
    with session_scope(engine) as session:
        for number, (view, address) in enumerate(plan):
            queued = start + timedelta(minutes=number)
            row_id = queue_outbox(
                session,
                message_id=f"<m{number}@example.org>",
                to_address=address,
                kind="status",
                raw=b"x",
                game_id=None,
                now=queued,
            )
            assert row_id is not None
            ids[view].append(row_id)
    with Session(engine) as session, session.begin():
        for row_id in ids["sent"] + ids["kept"]:
            row = session.get(OutboxRow, row_id)
            assert row is not None
            # As the daemon leaves them: a person's email went through at the first try, and a
            # computer player's delivery counts one attempt (pbem.moderator.bots).
            row.status, row.sent_at = "sent", row.created_at
            row.attempts = 1 if row_id in ids["kept"] else 0
            session.add(row)
    engine.dispose()
    return ids


def listed_ids(out: str) -> list[int]:
    """The ids of the table's rows, top to bottom (a wrapped address's next line has none)."""
    rows = [line.split() for line in out.splitlines()]
    return [int(words[0]) for words in rows if words and words[0].isdigit()]


def test_the_newest_are_shown_with_a_note_of_the_older_ones_left_out(
    pbem: Pbem, outbox: dict[str, list[int]]
) -> None:
    ran = pbem("outbox", "--status", "sent", env=NARROW)
    assert ran.code == 0, ran.err
    assert listed_ids(ran.out) == outbox["sent"][-200:]
    assert "the newest 200 of 205 shown; the 5 older ones are left out" in ran.out
    assert "--limit N or --all" in ran.out

    latest = pbem("outbox", "--status", "sent", "--limit", "3", env=NARROW)
    assert listed_ids(latest.out) == outbox["sent"][-3:]
    every = pbem("outbox", "--status", "sent", "--all", env=NARROW)
    assert listed_ids(every.out) == outbox["sent"] and "left out" not in every.out


def test_sent_mail_counts_its_try_and_a_computer_players_mail_is_kept_not_sent(
    pbem: Pbem, outbox: dict[str, list[int]]
) -> None:
    sent = pbem("outbox", "--status", "sent", "--json", "--limit", "1")
    [line] = [json.loads(text) for text in sent.out.splitlines()]
    assert (line["id"], line["status"], line["tries"]) == (outbox["sent"][-1], "sent", 1)
    assert "the newest 1 of 205 shown" in sent.err

    kept = pbem("outbox", "--status", "kept", "--json")
    rows = [json.loads(text) for text in kept.out.splitlines()]
    assert [(row["id"], row["status"], row["tries"]) for row in rows] == [
        (row_id, "kept", None) for row_id in outbox["kept"]
    ]
    table = pbem("outbox", "--status", "kept", env=NARROW).out
    assert "robo-0@bots.invalid" in table and " sent " not in table
    assert "kept: mail to a computer player (bots.invalid), read inside pbem, never sent" in table
    assert all(len(line) <= 80 for line in table.splitlines())
    assert "never sent" in table

    refused = pbem("outbox", "retry", str(outbox["kept"][0]))
    assert refused.code == 1 and "was handed to a computer player" in refused.err


def test_the_address_stays_whole_at_80_columns(pbem: Pbem, outbox: dict[str, list[int]]) -> None:
    waiting = pbem("outbox", env=NARROW).out
    assert max(len(line) for line in waiting.splitlines()) <= 80
    assert "ann@example.org" in waiting and "…" not in waiting
    row = next(line for line in waiting.splitlines() if "ann@example.org" in line)
    # The address last (test_outbox_long_address.py), after the next try's time.
    assert row.split()[1] == "pending" and row.split()[-1] == "ann@example.org"
    assert row.split()[-2].count(":") == 1
