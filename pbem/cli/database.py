"""The one way a command opens the configured database."""

from __future__ import annotations

import typer
from sqlalchemy import Engine

from pbem.settings import Settings, SettingsError, load_settings
from pbem.store import StoreError, connect_database


def open_configured(*, create: bool) -> tuple[Engine, Settings]:
    """The configured database, never upgraded here (that is `pbem db upgrade`).

    `create`: an empty database gets the newest schema (`start`, `run`); otherwise no database
    yet is an error. A schema behind or ahead of this code, like a bad setting, is one line on
    stderr and exit 1.
    """
    try:
        settings = load_settings()
        return connect_database(settings.database_url, create=create), settings
    except (SettingsError, StoreError) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from exc
