"""`pbem outbox`: the mail waiting to go out (pending, deferred) or given up (failed), what went
out (sent) and what computer players were handed (kept), and `pbem outbox retry ID` to send a
failed or deferred email again at the next cycle."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine
from sqlmodel import Session

from pbem.cli.numbers import in_range
from pbem.moderator.addresses import BOT_DOMAIN
from pbem.moderator.counting import are, counted
from pbem.settings import SettingsError, load_settings
from pbem.store import OutboxRow, open_database, session_scope, utc_now
from pbem.store.operations import OutboxView, outbox_rows, outbox_total, outbox_view

VIEWS: tuple[OutboxView, ...] = ("pending", "deferred", "failed")
OTHER_VIEWS: tuple[OutboxView, ...] = ("sent", "kept")
DEFAULT_LIMIT = 200
# The address column's narrowest, when the others leave it less: most addresses whole.
ADDRESS_WIDTH = 14
# Between two columns (`_plain_table`: a space of padding either side, collapsed to two).
GAP = 2
# Month, day and time (UTC): the year is in --json, and the shorter times leave the address room.
MOMENT = "%m-%d %H:%M"
# Under 80 columns, as the table is.
KEPT_NOTE = f"kept: mail to a computer player ({BOT_DOMAIN}), read inside pbem, never sent"
ADDRESS_CUT = "an address cut short with … is whole with --json"

outbox_app = typer.Typer(
    help="The mail waiting to go out, and retrying what failed.",
    invoke_without_command=True,
    pretty_exceptions_show_locals=False,
)


@dataclass(frozen=True)
class OutboxLine:
    id: int
    status: OutboxView
    to: str
    kind: str
    game: str | None
    created_at: datetime
    attempts: int
    tries: int | None  # the tries to send it, the one that went through counted; None: kept
    next_attempt_at: datetime
    last_error: str | None


def outbox_line(row: OutboxRow) -> OutboxLine:
    assert row.id is not None
    return OutboxLine(
        id=row.id,
        status=outbox_view(row),
        to=row.to_address,
        kind=row.kind,
        game=row.game_id,
        created_at=row.created_at,
        attempts=row.attempts,
        tries=_tries(row),
        next_attempt_at=row.next_attempt_at,
        last_error=row.last_error,
    )


def _tries(row: OutboxRow) -> int | None:
    """`attempts` counts the tries that did not get through; a sent email had one more."""
    view = outbox_view(row)
    if view == "kept":
        return None
    return row.attempts + 1 if view == "sent" else row.attempts


def _engine() -> Engine:
    try:
        settings = load_settings()
    except SettingsError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from exc
    return open_database(settings.database_url)


@outbox_app.callback()
def outbox(
    context: typer.Context,
    status: list[str] = typer.Option(
        [],
        "--status",
        help=f"Only these: {', '.join((*VIEWS, *OTHER_VIEWS))} (repeatable).",
    ),
    limit: int = typer.Option(DEFAULT_LIMIT, "--limit", help="Show the newest N emails."),
    show_all: bool = typer.Option(False, "--all", help="Show every email, however many."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per email, a line each."),
) -> None:
    """List pending, deferred and failed mail: the newest 200, the oldest of them first."""
    if context.invoked_subcommand is not None:
        return
    known = (*VIEWS, *OTHER_VIEWS)
    unknown = sorted(set(status) - set(known))
    if unknown:
        typer.echo(
            f"Error: --status {', '.join(unknown)}: use {', '.join(known[:-1])} or {known[-1]}",
            err=True,
        )
        raise typer.Exit(2)
    in_range("--limit", limit, 1)
    views: list[OutboxView] = [view for view in known if view in status] or list(VIEWS)
    engine = _engine()
    with Session(engine) as session:
        lines = [
            outbox_line(row) for row in outbox_rows(session, views, None if show_all else limit)
        ]
        total = outbox_total(session, views)
    engine.dispose()
    left_out = total - len(lines)
    # The note goes to stderr beside JSON, so the lines on stdout stay one JSON object each.
    notes = [KEPT_NOTE] if any(line.status == "kept" for line in lines) else []
    if left_out:
        older = f"the {counted(left_out, 'older one')} {are(left_out)}"
        notes.append(
            f"the newest {len(lines)} of {total} shown; {older} left out: --limit N or --all "
            "shows more"
        )
    if as_json:
        for line in lines:
            typer.echo(json.dumps(asdict(line), default=lambda moment: moment.isoformat()))
    else:
        console = Console()
        tables, cut = _tables(lines, console.width)
        for number, table in enumerate(tables):
            console.print(*([""] if number else []), table)
        if cut:
            notes.append(ADDRESS_CUT)
    for note in notes:
        typer.echo(note, err=as_json)


def _tables(lines: list[OutboxLine], width: int) -> tuple[list[Table], bool]:
    """The lines as a table of one row each at `width` columns, and the servers' last answers in
    a table of their own below it, each on the whole width; and whether an address was cut.

    The short columns never wrap, and `next try` is there only when some email waits. The
    address comes last, with the room the others leave it: play-testing found a long address
    wrapped in the middle of the row, its overflow on a line of its own that read as a new row.
    One longer than that room is cut in its middle ("…"), keeping its start and its domain;
    `--json` has it whole."""
    waiting = any(_due(line) for line in lines)
    names = ("id", "status", "kind", "game", "queued", "tries", *(["next try"] if waiting else []))
    rows = [
        (
            str(line.id),
            line.status,
            line.kind,
            line.game or "",
            f"{line.created_at:{MOMENT}}",
            "" if line.tries is None else str(line.tries),
            *([f"{line.next_attempt_at:{MOMENT}}" if _due(line) else ""] if waiting else []),
        )
        for line in lines
    ]
    widths = [max(len(cell) for cell in column) for column in zip(names, *rows, strict=True)]
    room = max(width - sum(widths) - GAP * len(widths), ADDRESS_WIDTH)
    table = _plain_table()
    for name in names:
        table.add_column(name, no_wrap=True)
    table.add_column("to", no_wrap=True)
    addresses = [_shortened(line.to, room) for line in lines]
    for cells, address in zip(rows, addresses, strict=True):
        table.add_row(*cells, address)
    errors = _plain_table()
    errors.add_column("id", no_wrap=True)
    errors.add_column("last error", overflow="fold")
    for line in lines:
        if line.last_error:
            errors.add_row(str(line.id), line.last_error)
    cut = any(address != line.to for address, line in zip(addresses, lines, strict=True))
    return ([table, errors] if errors.row_count else [table]), cut


def _due(line: OutboxLine) -> bool:
    """Whether the email still waits to go out, so its next try is worth showing."""
    return line.status in ("pending", "deferred")


def _shortened(address: str, width: int) -> str:
    """The address in at most `width` characters: whole when it fits, else cut in its middle
    with "…", so its start and the end of its domain both show."""
    if len(address) <= width:
        return address
    head = (width - 1) // 2
    return f"{address[:head]}…{address[len(address) - (width - 1 - head) :]}"


def _plain_table() -> Table:
    return Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)


@outbox_app.command("retry")
def retry(
    email_id: int = typer.Argument(..., metavar="ID", help="The id `pbem outbox` shows."),
) -> None:
    """Send a failed or deferred email again at the daemon's next cycle."""
    in_range("ID", email_id, 1)
    engine = _engine()
    try:
        with session_scope(engine) as session:
            row = session.get(OutboxRow, email_id)
            if row is None:
                typer.echo(f"Error: no email {email_id} in the outbox (see pbem outbox)", err=True)
                raise typer.Exit(1)
            if row.status == "sent":
                done = "handed to a computer player" if outbox_view(row) == "kept" else "sent"
                typer.echo(
                    f"Error: email {email_id} was {done} {row.sent_at:%Y-%m-%d %H:%M} UTC; "
                    "only pending, deferred or failed mail can be retried",
                    err=True,
                )
                raise typer.Exit(1)
            # Queued anew: the give-up age starts again too.
            now = utc_now()
            row.status, row.attempts, row.next_attempt_at, row.created_at = "pending", 0, now, now
            session.add(row)
    finally:
        engine.dispose()
    typer.echo(f"email {email_id} to {row.to_address} goes out at the next cycle")
