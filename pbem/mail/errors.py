"""The mail layer's error type: a problem a person must fix (settings, credentials, folders)."""

import ssl


class MailError(Exception):
    """A mail problem that retrying will not cure; the message says what to change."""


class MailConfigError(MailError):
    """A mail setting (an environment variable) that cannot be used as written."""


def tls_misconfigured(error: BaseException) -> bool:
    """A TLS failure only a person can cure: a certificate not trusted, or TLS spoken to a port
    that has none. The subclasses of SSLError are a connection cut mid-handshake: that heals."""
    return type(error) in (ssl.SSLError, ssl.SSLCertVerificationError)
