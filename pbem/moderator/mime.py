"""The pieces of an email as the email package writes them (`policy.default`, LF line ends),
made faster by remembering what repeats from letter to letter.

- `folded`: a header line as `as_bytes` folds it, by the email package's header classes; the
  same name and value fold the same way, and most values (sender, recipients, subjects,
  threading) repeat, so the folding is cached.
- `folded_ids`, `folded_date`, `folded_multipart`: a Message-ID is new in every letter, and so
  are the MIME boundary in its Content-Type, a reply's In-Reply-To and References (they name
  the email answered) and, every second, the Date: no cache helps them as they are, so plain
  ones are written as the email package writes them, without its header classes
  (tests/render/test_mime.py holds the two side by side).
- `encode_text`: a text body's Content-Transfer-Encoding and payload, chosen and encoded as
  `set_content` does (email.contentmanager): 7bit or 8bit when every line is short, else
  quoted-printable or base64, whichever the first ten lines come out shorter in. Quoted-printable
  encodes each line on its own, so each line's encoding is cached: letters of one game share
  most of their lines.
"""

from __future__ import annotations

import binascii
import re
from datetime import UTC, datetime
from email import policy, quoprimime
from email.utils import format_datetime
from functools import lru_cache

POLICY = policy.default
MAX_LINE = POLICY.max_line_length or 78
SNIFFED_LINES = 10
# Bytes of the body per base64 line: 57, which encode to 76 characters.
BASE64_CHUNK = MAX_LINE // 4 * 3
# A Message-ID of dot-atoms either side of the @, as `make_msgid` makes them.
_ATOM = r"[\w-]+"
_PLAIN_ID = rf"<{_ATOM}(?:\.{_ATOM})*@{_ATOM}(?:\.{_ATOM})*>"
# One plain Message-ID, or (In-Reply-To, References) plain ones, a space between each two.
_PLAIN_MESSAGE_ID = re.compile(_PLAIN_ID, re.ASCII)
_PLAIN_IDS = re.compile(rf"{_PLAIN_ID}(?: {_PLAIN_ID})*", re.ASCII)
# A MIME boundary of the email package's form (`email.generator`): `=`s, a number, `==`.
_BOUNDARY = re.compile(r"(=+)([0-9]+)(==)", re.ASCII)


@lru_cache(maxsize=4096)
def folded(name: str, value: str) -> bytes:
    """The header as `as_bytes` writes it, folded lines and line end included."""
    header = POLICY.header_factory(name, value)
    return header.fold(policy=POLICY).encode("ascii", "surrogateescape")


def folded_message_id(value: str) -> bytes:
    """`folded("Message-ID", value)`: as it is when plain and shorter than a line, as the email
    package writes such a one (tests/moderator/test_compose.py)."""
    line = f"Message-ID: {value}\n"
    if len(line) <= MAX_LINE and _PLAIN_MESSAGE_ID.fullmatch(value):
        return line.encode("ascii")
    return folded("Message-ID", value)


def folded_ids(name: str, value: str) -> bytes:
    """`folded(name, value)` for an unstructured header (In-Reply-To, References) of plain
    Message-IDs: words without a space or an encoded word in them, which the email package
    writes on the header's line when they fit, else all on the next line when they fit there,
    else filled into lines, each as long as it may be, a space starting the next. A word too long
    for a line of its own is left to the package."""
    if not _PLAIN_IDS.fullmatch(value):
        return folded(name, value)
    if len(name) + 2 + len(value) > MAX_LINE and 1 + len(value) <= MAX_LINE:
        # All the words fit on the next line: the package moves them there together.
        return f"{name}:\n {value}\n".encode("ascii")
    head, *rest = value.split(" ")
    lines = [f"{name}: {head}"]
    for word in rest:
        if len(lines[-1]) + 1 + len(word) <= MAX_LINE:
            lines[-1] += f" {word}"
        else:
            lines.append(f" {word}")
    if max(map(len, lines)) > MAX_LINE:
        return folded(name, value)
    return "".join(f"{line}\n" for line in lines).encode("ascii")


def folded_multipart(subtype: str, boundary: str) -> bytes:
    """`folded("Content-Type", f'multipart/{subtype}; boundary="{boundary}"')`. A boundary of
    the package's form is a quoted string of `=`s and digits, folded as any other of its length:
    so one of zeros is folded (and cached), and this boundary's digits put in its place."""
    content_type = f'multipart/{subtype}; boundary="{{}}"'
    form = _BOUNDARY.fullmatch(boundary)
    if form is None:
        return folded("Content-Type", content_type.format(boundary))
    zeros = f"{form[1]}{'0' * len(form[2])}{form[3]}".encode("ascii")
    header = folded("Content-Type", content_type.format(zeros.decode("ascii")))
    if header.count(zeros) != 1:  # too long for a line: encoded (RFC 2231) or split
        return folded("Content-Type", content_type.format(boundary))
    return header.replace(zeros, boundary.encode("ascii"))


def folded_date(moment: datetime) -> bytes:
    """`folded("Date", format_datetime(moment))` for a moment in UTC: the email package reads
    the date back and writes it as `format_datetime` does, which gives the same words, on one
    line (31 characters)."""
    value = format_datetime(moment)
    if moment.utcoffset() != UTC.utcoffset(None):
        return folded("Date", value)
    return f"Date: {value}\n".encode("ascii")


def encode_text(text: str) -> tuple[str, bytes]:
    """(Content-Transfer-Encoding, payload) of `text` as a utf-8 body part."""
    lines = text.encode("utf-8").splitlines()
    if max(map(len, lines), default=0) <= MAX_LINE:
        body = b"\n".join(lines) + b"\n"
        return ("7bit" if body.isascii() else "8bit"), body
    sniffed = lines[:SNIFFED_LINES]
    head = b"".join(line + b"\n" for line in sniffed)
    if len(_quoted_printable(sniffed)) > len(binascii.b2a_base64(head)):
        whole = b"".join(line + b"\n" for line in lines)
        chunks = range(0, len(whole), BASE64_CHUNK)
        return "base64", b"".join(binascii.b2a_base64(whole[i : i + BASE64_CHUNK]) for i in chunks)
    return "quoted-printable", _quoted_printable(lines)


def _quoted_printable(lines: list[bytes]) -> bytes:
    """`quoprimime.body_encode` of `lines` (no line end in one), each ended: line by line, each
    cached."""
    return b"\n".join(map(_quoted_line, lines)) + b"\n"


@lru_cache(maxsize=65536)
def _quoted_line(line: bytes) -> bytes:
    return quoprimime.body_encode(line.decode("latin-1"), MAX_LINE).encode("ascii")
