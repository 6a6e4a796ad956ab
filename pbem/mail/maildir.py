"""The embedded transport: a local Maildir pair, for games run without any mail server.

Under the root (PBEM_MAILDIR, default ./pbem-mail): `inbox/` holds mail to the moderator, `sent/`
the mail it sends, one file per message. The inbox works like the IMAP folder: a message is
handed to `store`, and only once committed is it moved, flagged Seen, into the inbox's
`pbem.processed` subfolder (Maildir++ spells pbem/processed that way); a message that keeps
failing goes, unseen, to `pbem.failed`. Each move is a single rename, so it happens whole or not
at all.
"""

from __future__ import annotations

import mailbox
import time
from dataclasses import dataclass, field
from pathlib import Path

from pbem.mail.errors import MailError
from pbem.mail.handover import HandOver, Verdict
from pbem.mail.timing import Clock, Interrupted, Sleep, never, wait_until
from pbem.mail.transport import PollReport, SendResult
from pbem.unreachable import unreachable

INBOX = "inbox"
SENT = "sent"
PROCESSED_FOLDER = "pbem.processed"
FAILED_FOLDER = "pbem.failed"
SEEN = "S"
INFO_PREFIX = "2,"
MAILDIR_PARTS = ("new", "cur", "tmp")
# The computer players' mail (at bots.invalid) is filed in sent/ so that their games can be
# read, marked as never sent.
NOT_SENT = "only filed here: no mail reaches a .invalid address (a computer player's)"


def open_maildir(path: Path) -> mailbox.Maildir:
    """The Maildir at `path`, made with whichever of its `new/`, `cur/` and `tmp/` are missing.

    `mailbox.Maildir` makes them only for a folder that does not exist yet; a folder someone
    made by hand with `new/` alone would fail at the first read, with a traceback."""
    try:
        for part in MAILDIR_PARTS:
            (path / part).mkdir(mode=0o700, parents=True, exist_ok=True)
        return mailbox.Maildir(path, create=False)
    except OSError as error:
        raise MailError(
            f"cannot use {path} as a Maildir (a folder holding new/, cur/ and tmp/): "
            f"{error.strerror or error}; check PBEM_MAILDIR"
        ) from error


def deliver(root: Path, raw: bytes) -> str:
    """Puts a message in the moderator's inbox as a mail server would; returns its key."""
    return str(open_maildir(root / INBOX).add(raw))


@dataclass
class MaildirIntake:
    """An `Intake` over `root/inbox`. `wait_for_mail` polls every `poll_interval` seconds."""

    root: Path
    handover: HandOver
    poll_interval: float = 0.5
    sleep: Sleep = time.sleep
    clock: Clock = time.monotonic
    _inbox: mailbox.Maildir = field(init=False)
    _processed: Path = field(init=False)
    _failed: Path = field(init=False)

    def __post_init__(self) -> None:
        self._inbox = open_maildir(self.root / INBOX)
        # Maildir++: a subfolder is the inbox's directory named after it with a leading dot.
        self._processed = self.root / INBOX / f".{PROCESSED_FOLDER}"
        self._failed = self.root / INBOX / f".{FAILED_FOLDER}"
        for folder, path in ((PROCESSED_FOLDER, self._processed), (FAILED_FOLDER, self._failed)):
            open_maildir(path)  # completes one made by hand, as for the inbox
            self._inbox.add_folder(folder)  # marks it a Maildir++ subfolder

    def poll(self) -> PollReport:
        report = PollReport()
        for key, message in self._unseen():
            source = self.source_of(key)
            if not self.handover.is_due(source):
                continue
            verdict = self.handover.offer(self._inbox.get_bytes(key), source)
            if verdict is Verdict.STORED:
                report.stored += 1
                self._move(message, key, self._processed, seen=True)
            elif verdict is Verdict.POISON:
                report.poisoned += 1
                self._move(message, key, self._failed, seen=False)
                self.handover.set_aside(source)
            else:
                report.retry_later += 1
        return report

    def wait_for_mail(self, timeout: float, interrupted: Interrupted = never) -> bool:
        return wait_until(
            self._has_due_mail, timeout, self.poll_interval, self.sleep, self.clock, interrupted
        )

    def close(self) -> None:
        self._inbox.close()

    def source_of(self, key: str) -> str:
        return f"maildir:{self.root / INBOX}/{key}"

    def _unseen(self) -> list[tuple[str, mailbox.MaildirMessage]]:
        messages = [(key, self._inbox.get_message(key)) for key in self._inbox.iterkeys()]
        unseen = [(key, message) for key, message in messages if SEEN not in message.get_flags()]
        # Delivery order, so a player's later email is handled after the earlier one.
        return sorted(unseen, key=lambda item: (item[1].get_date(), item[0]))

    def _has_due_mail(self) -> bool:
        return any(self.handover.is_due(self.source_of(key)) for key, _ in self._unseen())

    def _move(self, message: mailbox.MaildirMessage, key: str, folder: Path, seen: bool) -> None:
        current = self._inbox_path(message, key)
        flags = set(message.get_flags()) | ({SEEN} if seen else set())
        info = INFO_PREFIX + "".join(sorted(flags))
        # Maildir keeps unflagged mail in new/ and mail with flags in cur/, flags in the name.
        target = (
            folder / "cur" / f"{key}{mailbox.Maildir.colon}{info}"
            if flags
            else folder / "new" / key
        )
        current.rename(target)

    def _inbox_path(self, message: mailbox.MaildirMessage, key: str) -> Path:
        info = message.get_info()
        name = f"{key}{mailbox.Maildir.colon}{info}" if info else key
        return self.root / INBOX / message.get_subdir() / name


@dataclass
class MaildirSender:
    """A `Sender` that files each message in `root/sent`, the envelope as its first headers
    (and `X-Pbem-Not-Sent` on mail no server could deliver, to .invalid addresses)."""

    root: Path
    _sent: mailbox.Maildir = field(init=False)

    def __post_init__(self) -> None:
        self._sent = open_maildir(self.root / SENT)

    def send(self, raw: bytes, to: list[str], sender: str) -> SendResult:
        if not to:
            raise ValueError("a message needs at least one recipient")
        newline = b"\r\n" if b"\r\n" in raw else b"\n"
        envelope = [f"Return-Path: <{sender}>", f"X-Pbem-Envelope-To: {', '.join(to)}"]
        if all(unreachable(address) for address in to):
            envelope.append(f"X-Pbem-Not-Sent: {NOT_SENT}")
        self._sent.add(b"".join(line.encode() + newline for line in envelope) + raw)
        return SendResult(delivered=tuple(to))

    def close(self) -> None:
        self._sent.close()
