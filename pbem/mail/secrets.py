"""Mail settings kept out of the URLs: passwords in files (or systemd credentials), the CA file,
the OAuth2 token file.

A password comes from exactly one place: the URL, PBEM_IMAP_PASSWORD_FILE /
PBEM_SMTP_PASSWORD_FILE, or the systemd credential `pbem-imap-password` / `pbem-smtp-password`
(`LoadCredential=` puts it in $CREDENTIALS_DIRECTORY). A file holds the password alone; one
line end after it is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pbem.mail.errors import MailConfigError

CA_FILE_VARIABLE = "PBEM_CA_FILE"
IMAP_PASSWORD_FILE_VARIABLE = "PBEM_IMAP_PASSWORD_FILE"
SMTP_PASSWORD_FILE_VARIABLE = "PBEM_SMTP_PASSWORD_FILE"
OAUTH_FILE_VARIABLE = "PBEM_OAUTH_FILE"
CREDENTIALS_DIRECTORY_VARIABLE = "CREDENTIALS_DIRECTORY"
IMAP_CREDENTIAL = "pbem-imap-password"
SMTP_CREDENTIAL = "pbem-smtp-password"
DEFAULT_OAUTH_FILE = Path("pbem-oauth.json")


@dataclass(frozen=True)
class PasswordSource:
    """Where one transport's password may be, besides its URL."""

    file_variable: str
    file: Path | None
    credential: Path | None
    """The systemd credential's path, when $CREDENTIALS_DIRECTORY is set."""

    def read(self, url_password: str | None, url_variable: str) -> str | None:
        """The password, from the one place that gives it; None when none does."""
        found = [
            (name, path)
            for name, path in ((self.file_variable, self.file), ("credential", self.credential))
            if path is not None and (name != "credential" or path.exists())
        ]
        places = [url_variable] * (url_password is not None) + [_describe(*f) for f in found]
        if len(places) > 1:
            raise MailConfigError(
                f"the password is given in {' and in '.join(places)}: keep one of them"
            )
        return _read_password(*found[0]) if found else url_password


@dataclass(frozen=True)
class MailSecrets:
    ca_file: Path | None = None
    imap_password: PasswordSource = PasswordSource(IMAP_PASSWORD_FILE_VARIABLE, None, None)
    smtp_password: PasswordSource = PasswordSource(SMTP_PASSWORD_FILE_VARIABLE, None, None)
    oauth_file: Path = DEFAULT_OAUTH_FILE

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> MailSecrets:
        def path(variable: str) -> Path | None:
            value = env.get(variable, "").strip()
            return Path(value) if value else None

        credentials = path(CREDENTIALS_DIRECTORY_VARIABLE)
        ca_file = path(CA_FILE_VARIABLE)
        if ca_file is not None and not ca_file.is_file():
            raise MailConfigError(f"{CA_FILE_VARIABLE} names {ca_file}, which is not a file")
        return cls(
            ca_file=ca_file,
            imap_password=PasswordSource(
                IMAP_PASSWORD_FILE_VARIABLE,
                path(IMAP_PASSWORD_FILE_VARIABLE),
                credentials / IMAP_CREDENTIAL if credentials else None,
            ),
            smtp_password=PasswordSource(
                SMTP_PASSWORD_FILE_VARIABLE,
                path(SMTP_PASSWORD_FILE_VARIABLE),
                credentials / SMTP_CREDENTIAL if credentials else None,
            ),
            oauth_file=path(OAUTH_FILE_VARIABLE) or DEFAULT_OAUTH_FILE,
        )


def _describe(name: str, path: Path) -> str:
    return f"the systemd credential {path}" if name == "credential" else f"{name} ({path})"


def _read_password(name: str, path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise MailConfigError(
            f"cannot read the password in {_describe(name, path)}: {error}"
        ) from error
    password = text.removesuffix("\n").removesuffix("\r")
    if not password:
        raise MailConfigError(f"{_describe(name, path)} is empty: it must hold the password")
    return password
