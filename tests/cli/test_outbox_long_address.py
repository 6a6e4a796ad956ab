"""`pbem outbox` at 80 columns with a long address: one line an email, the address last and cut in
its middle, and a note that `--json` has it whole (play-testing: the address wrapped in the middle
of the row, and its overflow, "id", read as a new row)."""

from __future__ import annotations

import json

from pbem.store import open_database, queue_outbox, session_scope
from tests.cli.conftest import Pbem

NARROW = {"COLUMNS": "80"}
LONG = "very.long.name.of.somebody@mail.example-provider.co.id"
SHORT = ("ann@example.org", "bo@example.org")


def queue(url: str, addresses: tuple[str, ...]) -> None:
    engine = open_database(url)
    with session_scope(engine) as session:
        for number, address in enumerate(addresses):
            queue_outbox(
                session,
                message_id=f"<m{number}@example.org>",
                to_address=address,
                kind="status",
                raw=b"x",
                game_id=None,
            )
    engine.dispose()


def test_a_long_address_keeps_its_row_on_one_line(pbem: Pbem, cli_env: dict[str, str]) -> None:
    queue(cli_env["PBEM_DATABASE_URL"], (SHORT[0], LONG, SHORT[1]))
    ran = pbem("outbox", env=NARROW)
    assert ran.code == 0, ran.err
    lines = ran.out.splitlines()
    assert max(len(line) for line in lines) <= 80
    header, _, *rows, note = lines
    assert header.split()[-1] == "to"  # the address last: nothing after it to push aside
    assert [row.split()[0] for row in rows] == ["1", "2", "3"]  # one line an email
    assert [row.split()[-1] for row in rows[::2]] == list(SHORT)  # short ones whole
    cut = rows[1].split()[-1]
    assert "…" in cut and LONG.startswith(cut.split("…")[0]) and LONG.endswith(cut.split("…")[1])
    assert note == "an address cut short with … is whole with --json"
    whole = [json.loads(line)["to"] for line in pbem("outbox", "--json").out.splitlines()]
    assert whole == [SHORT[0], LONG, SHORT[1]]


def test_a_wide_terminal_shows_the_long_address_whole(pbem: Pbem, cli_env: dict[str, str]) -> None:
    queue(cli_env["PBEM_DATABASE_URL"], (LONG,))
    ran = pbem("outbox", env={"COLUMNS": "160"})
    assert LONG in ran.out and "…" not in ran.out and "cut short" not in ran.out
