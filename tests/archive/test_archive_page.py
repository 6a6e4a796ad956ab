"""The public page of a finished game, opened in headless Chromium as a reader would: it shows
the final standings, and nothing any player's view hid (addresses, the seed, hands, face-down
cards)."""

from __future__ import annotations

import html
import re
from pathlib import Path

from sqlmodel import Session

from pbem.archive.page import archive_page, finished_game
from pbem.moderator.loaded import LoadedGame
from tests.archive.chromium import needs_chromium, rendered_dom, screenshot
from tests.archive.samples import Finished

# Labels only a seat's or the game master's board shows: the private box of each board template.
PRIVATE_LABELS = ("(private", "Your hand", "Money cards", "Sealed bid", "Hands and orders")


def page_of(finished: Finished) -> tuple[str, LoadedGame]:
    with Session(finished.engine) as session:
        game = finished_game(session, finished.game_id)
        return archive_page(session, game), game


def words(markup: str) -> str:
    """The page's text, one space between words, as a reader sees it."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def standings_lines(game: LoadedGame) -> list[str]:
    """`1 Alice 45`: each place, name and points, as the standings table reads."""
    outcome = game.engine.outcome(game.state)
    lines, place = [], 0
    for index, standing in enumerate(outcome.standings):
        above = outcome.standings[index - 1] if index else None
        tied = above and (above.score, above.money) == (standing.score, standing.money)
        place = place if tied else index + 1
        lines.append(f"{place} {game.name_of(standing.seat)} {standing.score}")
    return lines


@needs_chromium
def test_the_page_opens_in_chromium_and_shows_the_standings(
    finished: Finished, tmp_path: Path
) -> None:
    page, game = page_of(finished)
    path = tmp_path / f"{game.id}.html"
    path.write_text(page, encoding="utf-8")
    screenshot(path, tmp_path / f"{game.id}.png")
    text = words(rendered_dom(path))
    outcome = game.engine.outcome(game.state)
    assert outcome.winner is not None
    assert f"{game.name_of(outcome.winner)} won." in text
    assert "Final standings" in text
    for line in standings_lines(game):
        assert line in text, line
    assert "The final board" in text


def test_the_page_holds_nothing_a_player_could_not_see(finished: Finished) -> None:
    page, game = page_of(finished)
    text = words(page)
    lowered = page.lower()
    for player in finished.data["players"]:
        assert player["email"].lower() not in lowered
    for seat in game.seats:
        assert seat.address.lower() not in lowered
        assert seat.secret not in text.split()
    assert "seed" not in lowered
    for label in PRIVATE_LABELS:
        assert label not in text, label
    # Nothing fetched from elsewhere: no script, no link, no image, no remote URL.
    for tag in ("<script", "<link", "<img", "http://", "https://", "@import"):
        assert tag not in lowered, tag
    state = game.state
    if game.row.game == "bigtime":
        # The Headliners never dealt stay face down for ever.
        for card in state.headliner_deck:
            assert state.data.acts[card].name not in text, card
    else:
        # Money stays hidden until the end, on every board but the last.
        boards = page.split('<div class="board">')[1:]
        assert all("hidden" in board for board in boards[1:-1])
        assert "hidden" not in boards[-1]
