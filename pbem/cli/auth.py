"""`pbem auth`: the OAuth2 login for Gmail and Microsoft 365, set up once and renewed by pbem.

`login` asks the provider for consent and writes the token file (PBEM_OAUTH_FILE, 0600);
`status` tells what the file holds (never a token); `refresh` renews the access token now.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import typer

from pbem.mail.oauth import OAuthError, OAuthGrant, TokenFile
from pbem.mail.oauth_providers import PROVIDERS, ConsentRequest
from pbem.mail.secrets import DEFAULT_OAUTH_FILE, OAUTH_FILE_VARIABLE
from pbem.settings import SettingsError, load_settings

auth_app = typer.Typer(
    help="OAuth2 logins (Gmail, Microsoft 365): set up once, renewed by pbem.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)

FILE_HELP = f"The token file (default: {OAUTH_FILE_VARIABLE}, else ./{DEFAULT_OAUTH_FILE})."


@auth_app.command("login")
def login(
    provider: str = typer.Option(..., "--provider", help=f"One of: {', '.join(PROVIDERS)}."),
    user: str = typer.Option(..., "--user", help="The mailbox's address, as in the URLs."),
    client_id: str = typer.Option(..., "--client-id", help="Your OAuth client's (app's) id."),
    client_secret: str | None = typer.Option(
        None, "--client-secret", help="Google: the Desktop-app client's secret."
    ),
    tenant: str = typer.Option("common", "--tenant", help="Microsoft: tenant id or domain."),
    token_file: Path | None = typer.Option(None, "--file", help=FILE_HELP),
) -> None:
    """Ask the provider for consent once; pbem keeps the refresh token and renews the rest."""
    consent = PROVIDERS.get(provider.lower())
    if consent is None:
        typer.echo(f"Error: --provider {provider!r}: use one of {', '.join(PROVIDERS)}", err=True)
        raise typer.Exit(2)
    path = _token_path(token_file)
    request = ConsentRequest(user, client_id, client_secret, tenant)
    try:
        grant = consent(request, typer.echo)
        TokenFile(path).save(grant)
    except (OAuthError, OSError) as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from error
    typer.echo(f"Saved the {grant.provider} login of {grant.user} in {path} (mode 0600).")
    typer.echo(
        "Add ?auth=xoauth2 to PBEM_IMAP_URL and PBEM_SMTP_URL (and no password); pbem renews "
        f"the token itself. Give the daemon {OAUTH_FILE_VARIABLE}={path.resolve()}."
    )


@auth_app.command("status")
def status(token_file: Path | None = typer.Option(None, "--file", help=FILE_HELP)) -> None:
    """Which login the token file holds and until when its access token is good."""
    path = _token_path(token_file)
    try:
        grant = TokenFile(path).load()
    except OAuthError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from error
    typer.echo(_describe(path, grant))


@auth_app.command("refresh")
def refresh(token_file: Path | None = typer.Option(None, "--file", help=FILE_HELP)) -> None:
    """Renew the access token now (the daemon does it by itself before each login)."""
    path = _token_path(token_file)
    try:
        grant = TokenFile(path).renew()
    except (OAuthError, OSError) as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from error
    typer.echo(_describe(path, grant))


def _token_path(given: Path | None) -> Path:
    if given is not None:
        return given
    try:
        configured = dict(load_settings().mail_files).get(OAUTH_FILE_VARIABLE)
    except SettingsError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(2) from error
    return Path(configured) if configured else DEFAULT_OAUTH_FILE


def _describe(path: Path, grant: OAuthGrant) -> str:
    until = datetime.fromtimestamp(grant.expires_at, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    token = f"access token good until {until}" if grant.access_token else "no access token yet"
    return f"{path}: {grant.provider} login of {grant.user}; {token}"
