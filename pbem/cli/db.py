"""`pbem db`: where the database's schema stands, and upgrading it (with the daemon stopped)."""

from __future__ import annotations

import typer
from sqlalchemy import inspect

from pbem.cli.database import configured_settings
from pbem.daemon.alarms import check_daemon_name, create_alarm_table
from pbem.store import SchemaMismatch, database_engine
from pbem.store.migrate import schema_state, upgrade_to_head

db_app = typer.Typer(
    help="The database's schema: `current` tells where it stands, `upgrade` brings it up to date.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)


@db_app.command()
def current() -> None:
    """Say which schema revision the database is at and whether this pbem can use it."""
    url = configured_settings().database_url
    engine = database_engine(url)
    try:
        state = schema_state(engine)
        alarms = sorted(
            t for t in inspect(engine).get_table_names() if t.startswith("apscheduler_")
        )
    finally:
        engine.dispose()
    typer.echo(f"{url}: {state.describe()}")
    typer.echo(f"alarm tables: {', '.join(alarms) or 'none yet'}")
    if state.behind or state.ahead:
        raise typer.Exit(1)


@db_app.command()
def upgrade(
    name: list[str] = typer.Option(
        ["pbem"], "--name", help="Daemon names (`pbem run --name`) whose alarm tables to create."
    ),
) -> None:
    """Bring the database to the newest schema and create the daemons' alarm tables."""
    for daemon in name:  # before anything changes
        try:
            check_daemon_name(daemon)
        except ValueError as exc:
            typer.echo(f"Error: --name: {exc}", err=True)
            raise typer.Exit(2) from exc
    url = configured_settings().database_url
    engine = database_engine(url)
    try:
        before = schema_state(engine)
        upgrade_to_head(engine)
        for daemon in name:
            create_alarm_table(engine, daemon)
        after = schema_state(engine)
    except SchemaMismatch as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from exc
    finally:
        engine.dispose()
    if before.current == after.current:
        typer.echo(f"{url}: already at revision {after.current}; nothing to do")
    else:
        typer.echo(f"{url}: upgraded from {before.current or 'empty'} to {after.current}")
