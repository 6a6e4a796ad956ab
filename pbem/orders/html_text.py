"""Reading an HTML-only email through its text, the way a reader sees it in a mail client.

Line breaks come from <br> and block elements; scripts, styles and the head are dropped;
<blockquote> lines come out prefixed with `>`, as a plain-text client quotes them, so that
the quote stripping treats both alike.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_HIDDEN = frozenset({"script", "style", "head", "title", "template"})
_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "center", "dd", "div", "dl", "dt",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main",
        "nav", "ol", "p", "pre", "section", "table", "tr", "ul",
    }
)  # fmt: skip
_CELLS = frozenset({"td", "th"})
_SPACES = re.compile(r"\s+")


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._pieces: list[str] = []
        self._line_quote_depth = 0
        self._quote_depth = 0
        self._hidden = 0
        self._preformatted = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag == "br":
            self._end_line(blank=True)
        elif tag in _CELLS:
            self._add(" ")
        elif tag in _BLOCKS:
            self._end_line()
            if tag == "blockquote":
                self._quote_depth += 1
            if tag == "pre":
                self._preformatted += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCKS:
            self._end_line()
            if tag == "blockquote":
                self._quote_depth = max(0, self._quote_depth - 1)
            if tag == "pre":
                self._preformatted = max(0, self._preformatted - 1)

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        if not self._preformatted:
            self._add(_SPACES.sub(" ", data))
            return
        first, *others = data.replace("\r\n", "\n").split("\n")
        self._add(first)
        for line in others:
            self._end_line(blank=True)
            self._add(line)

    def close(self) -> None:
        super().close()
        self._end_line()

    def _add(self, text: str) -> None:
        if not self._pieces:
            self._line_quote_depth = self._quote_depth
        self._pieces.append(text)

    def _end_line(self, blank: bool = False) -> None:
        """Close the line being written; `blank`: a <br> on an empty line shows a blank line."""
        text = "".join(self._pieces).strip()
        self._pieces = []
        if text:
            self.lines.append("> " * self._line_quote_depth + text)
        elif blank and self.lines and self.lines[-1]:
            self.lines.append("")


def html_to_text(html: str) -> str:
    """The visible text of `html`, one line per rendered line (blank runs folded into one)."""
    collector = _TextCollector()
    collector.feed(html)
    collector.close()
    return "\n".join(collector.lines).strip("\n")
