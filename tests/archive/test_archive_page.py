"""The public page of a finished game, opened in headless Chromium as a reader would: it shows
the final standings, and nothing any player's view hid (addresses, the seed, hands, face-down
cards)."""

from __future__ import annotations

import html
import re
from pathlib import Path

from sqlmodel import Session

from pbem.archive.chronicle import chapters
from pbem.archive.page import archive_page, finished_game
from pbem.cli.replay import Replayer, load_transcript
from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.undo import undo
from pbem.orders.format import order_text
from pbem.store import open_database, session_scope
from tests.archive.chromium import needs_chromium, rendered_dom, screenshot
from tests.archive.samples import REPLACED_IN, SAMPLES, Finished
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table

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


def test_a_phase_3_that_ran_straight_through_has_a_chapter_of_its_own(tmp_path: Path) -> None:
    # The sample's round 1, but every phase-2 email names its Headliners: phase 2's last BID
    # resolves phase 2, phase 3 and the show in one entry.
    data = load_transcript(SAMPLES / "bigtime-3p.yaml")
    phase_two = data["messages"][4:7]
    for email, headliners in zip(
        phase_two, ("H33 H30 H37 H40", "H40 H33 H30 H37", "H30 H40"), strict=True
    ):
        email["body"] = email["body"].replace("HEADLINER H40 H33 H30 H37\n", "")
        email["body"] = email["body"].replace("BID", f"HEADLINER {headliners}\nBID", 1)
    replayer = Replayer(data, f"sqlite:///{tmp_path}/pbem.sqlite3")
    for email in data["messages"][1:7]:
        assert replayer.send(email) == "accepted", email
    with Session(replayer.engine) as session:
        game = load_game(session, replayer.game_id)
        assert (game.state.round, game.state.phase) == (2, 1)
        found = {chapter.title: chapter for chapter in chapters(session, game)}
    two, three = found["Round 1 · Phase 2"], found["Round 1 · Phase 3"]
    told_in = [" ".join(line for told in c.entries for line in told.lines) for c in (two, three)]
    assert "Round 1, phase 2: the bids are revealed" in told_in[0]
    assert "phase 3" not in told_in[0] and "Headliner:" not in told_in[0]
    assert "Round 1, phase 3: the bids are revealed" in told_in[1]
    assert "Box Office" in told_in[1] and "Round 2 begins" in told_in[1]
    # The game never stood between the two phases: phase 2 has no board, phase 3 the one after.
    assert two.board is None and three.board


def test_the_chronicle_names_a_seats_earlier_holder_as_the_seat_was_held_then(
    tmp_path: Path,
) -> None:
    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    game = Table(engine, "bigtime", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=3)
    loaded = game.game()
    orders = order_text(loaded.engine.default_actions(loaded.state, 1))
    assert game.mail(BO, orders).status == "accepted"
    with session_scope(engine) as session:
        gm.replace(Desk(session, SETTINGS), game.id, "Bo", "eve@example.org:Eve", None)
    with Session(engine) as session:
        told = [line for c in chapters(session, game.game()) for e in c.entries for line in e.lines]
    engine.dispose()
    assert "Bo sent orders." in told, told
    assert any("Players: Ann, Bo, Cy." in line for line in told), told
    # Bo's sealed order was taken back with the seat: the chronicle says so, by name.
    assert (
        "The game master gave Bo's seat to Eve. The order Bo had on file was taken back: the "
        "phase waits for Eve's."
    ) in told
    assert not any("A former player" in line or "Eve sent" in line for line in told), told


def test_an_undone_resolution_is_marked_and_the_undo_told_in_the_phase_it_went_back_to(
    corrected: Finished,
) -> None:
    with Session(corrected.engine) as session:
        game = finished_game(session, corrected.game_id)
        told = chapters(session, game)
        page = words(archive_page(session, game))
    titles = [chapter.title for chapter in told]
    assert len(titles) == len(set(titles)), titles  # no phase told twice, none for the undo
    phase_one = told[titles.index("Round 1 · Phase 1")].entries
    undone = [index for index, entry in enumerate(phase_one) if entry.undone]
    assert len(undone) == 1, phase_one  # Cy's bid that resolved the phase; Ann's stood
    revealed = "Round 1, phase 1: the bids are revealed"
    assert revealed in " ".join(phase_one[undone[0]].lines)
    # Right after it, the game master's undo; then the phase played again, in the same chapter.
    undo, *again = phase_one[undone[0] + 1 :]
    assert undo.lines[0].startswith("The game master") and not undo.undone
    assert revealed in " ".join(line for entry in again for line in entry.lines)
    assert "[undone]" in page
    assert f"3 players: Ann, Bo, Dee (from {REPLACED_IN}; before that Cy)." in page


def test_after_an_undo_in_a_round_of_turns_the_next_round_opens_with_its_first_seat(
    tmp_path: Path,
) -> None:
    # Found in play-testing: after an undo to Bo's turn, every round of the archive began with
    # Bo, and the round of the undo told Ann twice.
    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    game = Table(engine, "showmanager", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=4)
    first = game.game().state.turn
    for _ in range(5):  # a round of three turns, then two of the next
        assert game.play_default_turn()
    with session_scope(engine) as session:
        undo(Desk(session, SETTINGS), game.id, None, "a slip")
    for _ in range(3):
        assert game.play_default_turn()
    with Session(engine) as session:
        loaded = game.game()
        rounds = [chapter for chapter in chapters(session, loaded) if chapter.title != "The start"]
    engine.dispose()
    names = loaded.names
    opener = f"{names[first]} "
    assert [chapter.title for chapter in rounds] == ["Round 1", "Round 2", "Round 3"]
    for chapter in rounds:
        played = [e.lines[0] for e in chapter.entries if not e.undone and "moved" not in e.lines[0]]
        assert played[0].startswith(opener), (chapter.title, played)
