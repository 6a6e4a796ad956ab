"""The mail layer's error type: a problem a person must fix (settings, credentials, folders)."""


class MailError(Exception):
    """A mail problem that retrying will not cure; the message says what to change."""


class MailConfigError(MailError):
    """A mail setting (an environment variable) that cannot be used as written."""
