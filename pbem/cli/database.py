"""The one way a command reads the settings and opens the configured database."""

from __future__ import annotations

import typer
from sqlalchemy import Engine

from pbem.settings import Settings, SettingsError, load_settings
from pbem.store import StoreError, connect_database


def configured_settings() -> Settings:
    """The settings, or one line on stderr and exit 2 (a bad setting is like a bad option)."""
    try:
        return load_settings()
    except SettingsError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from exc


def open_configured(*, create: bool) -> tuple[Engine, Settings]:
    """The configured database, never upgraded here (that is `pbem db upgrade`).

    `create`: an empty database gets the newest schema (`start`, `run`); otherwise no database
    yet is an error. Each failure is one line on stderr: a bad setting exits 2 (like a bad
    option), a database this code cannot use (missing, behind or ahead) exits 1.
    """
    settings = configured_settings()
    try:
        return connect_database(settings.database_url, create=create), settings
    except StoreError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from exc
