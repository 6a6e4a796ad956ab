"""Choosing the transports from the settings: the servers named by URL, else the local Maildir."""

from __future__ import annotations

from pbem.mail.config import MailSettings
from pbem.mail.handover import DEFAULT_RETRY_DELAY, HandOver
from pbem.mail.imap import ImapIntake, ImapOptions
from pbem.mail.maildir import MaildirIntake, MaildirSender
from pbem.mail.smtp import SmtpSender
from pbem.mail.transport import Intake, KeyValueState, ReportPoison, Sender, StoreMessage


def open_intake(
    settings: MailSettings,
    store: StoreMessage,
    on_poison: ReportPoison,
    state: KeyValueState,
    retry_delay: float = DEFAULT_RETRY_DELAY,
    imap_options: ImapOptions | None = None,
) -> Intake:
    handover = HandOver(store, on_poison, retry_delay=retry_delay)
    if settings.imap is not None:
        return ImapIntake(settings.imap, handover, state, imap_options or ImapOptions())
    return MaildirIntake(settings.maildir, handover)


def open_sender(settings: MailSettings) -> Sender:
    if settings.smtp is not None:
        return SmtpSender(settings.smtp)
    return MaildirSender(settings.maildir)
