"""`pbem outbox`: the mail waiting to go out (pending, deferred) or given up (failed), and
`pbem outbox retry ID` to send a failed or deferred email again at the next cycle."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime

import typer
from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine
from sqlmodel import Session

from pbem.settings import SettingsError, load_settings
from pbem.store import OutboxRow, open_database, session_scope, utc_now
from pbem.store.operations import OutboxView, outbox_rows, outbox_view

VIEWS: tuple[OutboxView, ...] = ("pending", "deferred", "failed")

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
        next_attempt_at=row.next_attempt_at,
        last_error=row.last_error,
    )


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
        [], "--status", help=f"Only these: {', '.join(VIEWS)} or sent (repeatable)."
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per email, a line each."),
) -> None:
    """List pending, deferred and failed mail, oldest first."""
    if context.invoked_subcommand is not None:
        return
    unknown = sorted(set(status) - {*VIEWS, "sent"})
    if unknown:
        typer.echo(
            f"Error: --status {', '.join(unknown)}: use {', '.join(VIEWS)} or sent", err=True
        )
        raise typer.Exit(2)
    views: list[OutboxView] = [view for view in (*VIEWS, "sent") if view in status] or list(VIEWS)
    engine = _engine()
    with Session(engine) as session:
        lines = [outbox_line(row) for row in outbox_rows(session, views)]
    engine.dispose()
    if as_json:
        for line in lines:
            typer.echo(json.dumps(asdict(line), default=lambda moment: moment.isoformat()))
        return
    table = Table("id", "status", "to", "kind", "game", "queued", "tries", "next try", "last error")
    for line in lines:
        table.add_row(
            str(line.id),
            line.status,
            line.to,
            line.kind,
            line.game or "",
            f"{line.created_at:%Y-%m-%d %H:%M}",
            str(line.attempts),
            f"{line.next_attempt_at:%Y-%m-%d %H:%M}" if line.status != "failed" else "",
            line.last_error or "",
        )
    Console().print(table)


@outbox_app.command("retry")
def retry(
    email_id: int = typer.Argument(..., metavar="ID", help="The id `pbem outbox` shows."),
) -> None:
    """Send a failed or deferred email again at the daemon's next cycle."""
    engine = _engine()
    try:
        with session_scope(engine) as session:
            row = session.get(OutboxRow, email_id)
            if row is None:
                typer.echo(f"Error: no email {email_id} in the outbox (see pbem outbox)", err=True)
                raise typer.Exit(1)
            if row.status == "sent":
                typer.echo(
                    f"Error: email {email_id} was sent {row.sent_at:%Y-%m-%d %H:%M} UTC; "
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
