"""The pieces of an email as the email package writes them (`policy.default`, LF line ends),
made faster by remembering what repeats from letter to letter.

- `folded`: a header line as `as_bytes` folds it, by the email package's header classes; the
  same name and value fold the same way, and most values (sender, recipients, subjects,
  threading) repeat, so the folding is cached.
- `folded_message_id`: a Message-ID is new in every letter, so no cache helps it: a plain one is
  written as the email package writes it, without its header classes.
- `encode_text`: a text body's Content-Transfer-Encoding and payload, chosen and encoded as
  `set_content` does (email.contentmanager): 7bit or 8bit when every line is short, else
  quoted-printable or base64, whichever the first ten lines come out shorter in. Quoted-printable
  encodes each line on its own, so each line's encoding is cached: letters of one game share
  most of their lines.
"""

from __future__ import annotations

import binascii
import re
from email import policy, quoprimime
from functools import lru_cache

POLICY = policy.default
MAX_LINE = POLICY.max_line_length or 78
SNIFFED_LINES = 10
# Bytes of the body per base64 line: 57, which encode to 76 characters.
BASE64_CHUNK = MAX_LINE // 4 * 3
# A Message-ID of dot-atoms either side of the @, as `make_msgid` makes them.
_ATOM = r"[\w-]+"
_PLAIN_MESSAGE_ID = re.compile(rf"<{_ATOM}(\.{_ATOM})*@{_ATOM}(\.{_ATOM})*>", re.ASCII)


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


def encode_text(text: str) -> tuple[str, bytes]:
    """(Content-Transfer-Encoding, payload) of `text` as a utf-8 body part."""
    lines = text.encode("utf-8").splitlines()
    if max(map(len, lines), default=0) <= MAX_LINE:
        body = b"\n".join(lines) + b"\n"
        return ("7bit" if body.isascii() else "8bit"), body
    sniffed = b"".join(line + b"\n" for line in lines[:SNIFFED_LINES])
    if len(_quoted_printable(sniffed)) > len(binascii.b2a_base64(sniffed)):
        whole = b"".join(line + b"\n" for line in lines)
        chunks = range(0, len(whole), BASE64_CHUNK)
        return "base64", b"".join(binascii.b2a_base64(whole[i : i + BASE64_CHUNK]) for i in chunks)
    return "quoted-printable", _quoted_printable(b"\n".join(lines) + b"\n")


def _quoted_printable(body: bytes) -> bytes:
    """`quoprimime.body_encode` of a body ending in a line end: line by line, each cached."""
    return b"\n".join(map(_quoted_line, body.split(b"\n")[:-1])) + b"\n"


@lru_cache(maxsize=65536)
def _quoted_line(line: bytes) -> bytes:
    return quoprimime.body_encode(line.decode("latin-1"), MAX_LINE).encode("ascii")
