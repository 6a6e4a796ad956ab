"""The one request an email to the moderator's bare address or a join address makes (LIST,
JOIN, LEAVE, HELP, WATCH, UNWATCH, ARCHIVE): the first line whose first word is the request's.

People greet before they ask ("Hello,", "Hi there!"), so lines before the request are chatter,
whatever they say. An email with a PASSWORD line before it speaks for a seat: it holds orders,
not a request.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

_LINE = re.compile(r"^(?P<word>[A-Za-z]+)\b[\s:,.;!]*(?P<rest>.*)$")


@dataclass(frozen=True)
class RequestLine:
    word: str  # upper case
    rest: str  # what follows the word and its punctuation, stripped
    line: str  # the line as written, stripped


def request_line(text: str, words: Collection[str]) -> RequestLine | None:
    """The first line of `text` whose first word (any case) is one of `words`; None when there
    is none, or a PASSWORD line comes first."""
    for raw in text.splitlines():
        line = raw.strip()
        match = _LINE.match(line)
        if match is None:
            continue
        word = match["word"].upper()
        if word == "PASSWORD":
            return None
        if word in words:
            return RequestLine(word, match["rest"].strip(), line)
    return None
