"""Keeping only the new text of a reply: what the player wrote, not what their client quoted.

Dropped (ORDERS.md): `>` quoted lines; from the quote header a client writes (`On ... wrote:`
and its other languages, also wrapped over lines; Outlook's `-----Original Message-----` and
`From: Sent: To: Subject:` blocks; forwarded-message separators) down to the end; from a
signature line `-- ` down to the end; from `ORDERS_ABOVE_MARK` down to the end, which the
moderator's own emails carry so a status email pasted whole under a reply is never read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

ORDERS_ABOVE_MARK = "-- write your orders above this line --"
# The mark's words, however a client pasted its dashes and spaces (`—`, no-break spaces, `*`).
_MARK_WORDS = "write your orders above this line"
_NOT_A_LETTER = re.compile(r"[\W_]+")

# How many lines a client may wrap its `On <date>, <name> wrote:` header over.
_ATTRIBUTION_LINES = 3
# How far below a `From:` line the rest of an Outlook-style header block may reach.
_HEADER_BLOCK_LINES = 6

_ATTRIBUTIONS = [
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"^On\s.+\bwrote\s*:$",
        r"^Am\s.+\bschrieb\b.*:$",
        r"^Le\s.+\ba\s+écrit\s*:$",
        r"^El\s.+\bescribió\s*:$",
        r"^Op\s.+\bschreef\b.*:$",
        r"^Il\s.+\bha\s+scritto\s*:$",
        r"^Em\s.+\bescreveu\s*:$",
    )
]
_ATTRIBUTION_START = re.compile(r"^(On|Am|Le|El|Op|Il|Em)\s", re.IGNORECASE)
_WROTE = re.compile(
    r"\b(wrote|schrieb|a\s+écrit|escribió|schreef|ha\s+scritto|escreveu)\s*:$", re.I
)
_SEPARATORS = re.compile(
    r"^-{2,}\s*("
    r"Original Message|Forwarded Message|Ursprüngliche Nachricht|Weitergeleitete Nachricht|"
    r"Message d'origine|Message transféré|Mensaje original|Mensaje reenviado|"
    r"Oorspronkelijk bericht|Doorgestuurd bericht|Messaggio originale|Messaggio inoltrato"
    r")\s*-{2,}$"
    r"|^(Begin forwarded message|Anfang der weitergeleiteten Nachricht|"
    r"Début du message réexpédié|Inicio del mensaje reenviado)\s*:$",
    re.IGNORECASE,
)
_FROM_LABEL = re.compile(r"^\*?(From|Von|De|Van|Da|Från|Fra)\s*:", re.IGNORECASE)
_HEADER_LABEL = re.compile(
    r"^\*?(Sent|Date|To|Cc|Subject|Gesendet|Datum|An|Betreff|Envoyé|Objet|À|Enviado|Fecha|"
    r"Para|Asunto|Verzonden|Aan|Onderwerp|Inviato|Data|A|Oggetto)\s*:",
    re.IGNORECASE,
)
_UNDERSCORE_RULE = re.compile(r"^_{10,}$")


@dataclass(frozen=True)
class Stop:
    """Where reading stopped (a quote header, a signature, the moderator's mark), and the lines
    under it."""

    number: int  # the line's number in the body, from 1
    line: str
    rest: tuple[str, ...]

    @property
    def below(self) -> str:
        """The unquoted lines under the stop: a player who writes under the quote means them as
        orders. Read only when asked (an email with no orders), not for every email."""
        return "\n".join(line.rstrip() for line in self.rest if _unquoted(line))


def new_text(body: str) -> str:
    """The lines the player wrote in this email, in order, with their line breaks."""
    return read_new_text(body)[0]


def read_new_text(body: str) -> tuple[str, Stop | None]:
    """`new_text`, and where reading stopped (None: it read to the end)."""
    lines = body.splitlines()
    kept: list[str] = []
    stop: Stop | None = None
    for index, line in enumerate(lines):
        if _quote_starts(lines, index):
            stop = Stop(index + 1, line.strip(), tuple(lines[index + 1 :]))
            break
        if not line.lstrip().startswith(">"):
            kept.append(line.rstrip())
    while kept and not kept[-1]:
        kept.pop()
    return "\n".join(kept), stop


def _unquoted(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(">")


def _quote_starts(lines: Sequence[str], index: int) -> bool:
    line = lines[index].strip()
    return (
        line == "--"
        or is_orders_mark(line)
        or _SEPARATORS.match(line) is not None
        or _is_attribution(lines, index)
        or _is_wrote_before_quote(lines, index)
        or _is_header_block(lines, index)
        or (_UNDERSCORE_RULE.match(line) is not None and _is_header_block(lines, index + 1))
    )


def is_orders_mark(line: str) -> bool:
    """Whether `line` is the mark every email from the moderator starts with.

    A `>`-quoted mark is a quoted line like any other: dropped, and reading goes on, so a reply
    written between the quoted lines of the moderator's email is still read.
    """
    if line.lstrip().startswith(">"):
        return False
    words = _NOT_A_LETTER.sub(" ", unicodedata.normalize("NFKC", line).casefold())
    # The words alone, not within a sentence: HELP's "Nothing at or below the line ... is read."
    return " ".join(words.split()) == _MARK_WORDS


def _is_attribution(lines: Sequence[str], index: int) -> bool:
    """`On <date>, <name> wrote:` and its translations, on one line or wrapped over a few."""
    if not _ATTRIBUTION_START.match(lines[index].strip()):
        return False
    for end in range(index + 1, min(index + _ATTRIBUTION_LINES, len(lines)) + 1):
        joined = " ".join(line.strip() for line in lines[index:end])
        if any(pattern.match(joined) for pattern in _ATTRIBUTIONS):
            return True
    return False


def _is_wrote_before_quote(lines: Sequence[str], index: int) -> bool:
    """`Bob wrote:` (any header ending in "wrote:") directly above `>` quoted lines."""
    if not _WROTE.search(lines[index].strip()):
        return False
    below = (lines[later].strip() for later in range(index + 1, len(lines)))
    return next((line for line in below if line), "").startswith(">")


def _is_header_block(lines: Sequence[str], index: int) -> bool:
    """Outlook's `From: ... Sent: ... To: ... Subject:` (in some language) heading a quote."""
    if index >= len(lines) or not _FROM_LABEL.match(lines[index].strip()):
        return False
    below = lines[index + 1 : index + 1 + _HEADER_BLOCK_LINES]
    labels = {match[1].casefold() for line in below if (match := _HEADER_LABEL.match(line.strip()))}
    return len(labels) >= 2
