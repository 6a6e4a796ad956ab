"""Configuration: environment variables, optionally a `pbem.toml` with the same keys.

An environment variable wins over the file, so one file can serve several daemons that differ only
in, say, the database they use.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pbem.mail.limits import (
    DEFAULT_GIVE_UP_HOURS,
    SendLimits,
    SendLimitsError,
    parse_give_up_hours,
    parse_send_limits,
)

# Mail settings kept out of the URLs, handed to the mail layer (pbem.mail.secrets) as they are.
MAIL_FILE_KEYS = (
    "PBEM_CA_FILE",
    "PBEM_IMAP_PASSWORD_FILE",
    "PBEM_SMTP_PASSWORD_FILE",
    "PBEM_OAUTH_FILE",
)

KEYS = (
    "PBEM_DATABASE_URL",
    "PBEM_IMAP_URL",
    "PBEM_SMTP_URL",
    "PBEM_ADDRESS",
    "PBEM_MAILDIR",
    "PBEM_GM_ADDRESS",
    *MAIL_FILE_KEYS,
    "PBEM_SEND_LIMITS",
    "PBEM_GIVE_UP_HOURS",
)
# Set by systemd for LoadCredential= (so never read from the file).
CREDENTIALS_DIRECTORY = "CREDENTIALS_DIRECTORY"
DEFAULT_ADDRESS = "pbem@localhost"
DEFAULT_MAILDIR = "pbem-mail"
DEFAULT_DATABASE_URL = "sqlite:///pbem.sqlite3"


class SettingsError(ValueError):
    """A configuration a person must fix; the message says how."""


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    address: str = DEFAULT_ADDRESS
    imap_url: str | None = None
    smtp_url: str | None = None
    maildir: str = DEFAULT_MAILDIR
    gm_address: str | None = None  # told of mail that could not be delivered or handled
    mail_files: tuple[tuple[str, str], ...] = ()
    """The mail settings kept outside the URLs (CA file, password files, OAuth2 token file,
    $CREDENTIALS_DIRECTORY), as (variable, value)."""
    send_limits: SendLimits | None = None  # None: a preset chosen by the SMTP server's host
    give_up_hours: float = DEFAULT_GIVE_UP_HOURS  # deferred mail older than this is given up

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"

    @property
    def uses_maildir(self) -> bool:
        """With no IMAP and SMTP configured, mail goes through the local Maildir pair."""
        return self.imap_url is None and self.smtp_url is None


def _read_file(path: Path) -> dict[str, str]:
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path} is not valid TOML: {exc}") from exc
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise SettingsError(f"{path}: unknown keys {', '.join(unknown)}; known: {', '.join(KEYS)}")
    return {key: str(value) for key, value in data.items()}


def load_settings(config_file: Path | None = None) -> Settings:
    """Settings from `config_file` (or ./pbem.toml when present), overridden by the environment."""
    named = config_file or (
        Path(os.environ["PBEM_CONFIG"]) if os.environ.get("PBEM_CONFIG") else None
    )
    path = named or Path("pbem.toml")
    values: dict[str, str] = {}
    # A file asked for by name must be there: without it pbem would run on its defaults.
    if named is not None and not path.exists():
        raise SettingsError(f"configuration file {path} (PBEM_CONFIG) does not exist")
    if path.exists():
        values.update(_read_file(path))
    values.update(
        {key: os.environ[key] for key in (*KEYS, CREDENTIALS_DIRECTORY) if os.environ.get(key)}
    )
    address = values.get("PBEM_ADDRESS", DEFAULT_ADDRESS)
    if "@" not in address or "+" in address.partition("@")[0]:
        raise SettingsError(
            f"PBEM_ADDRESS {address!r} must be a plain address like pbem@example.org "
            "(pbem adds +game.secret to it itself)"
        )
    try:
        limits = values.get("PBEM_SEND_LIMITS")
        send_limits = parse_send_limits(limits) if limits else None
        give_up_hours = parse_give_up_hours(
            values.get("PBEM_GIVE_UP_HOURS", str(DEFAULT_GIVE_UP_HOURS))
        )
    except SendLimitsError as exc:
        raise SettingsError(str(exc)) from exc
    return Settings(
        database_url=values.get("PBEM_DATABASE_URL", DEFAULT_DATABASE_URL),
        address=address,
        imap_url=values.get("PBEM_IMAP_URL"),
        smtp_url=values.get("PBEM_SMTP_URL"),
        maildir=values.get("PBEM_MAILDIR", DEFAULT_MAILDIR),
        gm_address=values.get("PBEM_GM_ADDRESS"),
        mail_files=tuple(
            (key, values[key]) for key in (*MAIL_FILE_KEYS, CREDENTIALS_DIRECTORY) if key in values
        ),
        send_limits=send_limits,
        give_up_hours=give_up_hours,
    )
