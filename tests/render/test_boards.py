"""The board partials of the status emails, rendered from real mid-game and finished views.

Each game is played with uniformly random legal emails (as `pbem simulate` does) and stopped
after a number of emails; every seat's view and the game master's are rendered as text and HTML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from html.parser import HTMLParser
from typing import Any

import pytest

from pbem.games.base import NewGame, RulesEngine
from pbem.games.bigtime.views import BigTimeView
from pbem.games.registry import engine_for
from pbem.games.rng import Rng
from pbem.games.showmanager.view import CityView, GameView, MusicalView
from pbem.moderator.render import environment
from pbem.orders import grammar_for, parse_orders
from pbem.orders.html_text import html_to_text

TEXT_WIDTH = 78
HOSTILE_NAME = "<script>alert('x')</script>"
NAMES = ("Alice", HOSTILE_NAME, "Carol", "Dmitri Longname-Bartholomew-Smythe", "Eve", "Frank")
PRIVATE_HEADING = "Your hand (private)"
VOID_TAGS = frozenset({"br", "hr", "img", "meta", "input", "col", "wbr"})
END = -1  # play to the end of the game


@dataclass(frozen=True)
class Game:
    game: str
    players: int
    variant: str
    seed: int
    emails: int  # random emails played before the views are taken; END: the whole game

    @property
    def engine(self) -> RulesEngine[Any, Any]:
        return engine_for(self.game)

    def __str__(self) -> str:
        played = "end" if self.emails == END else f"{self.emails}emails"
        return f"{self.game}-{self.variant}-{self.players}p-{played}"


SHOW_MANAGER_GAMES = (
    Game("showmanager", 2, "standard", 11, 25),
    Game("showmanager", 3, "queen", 12, 40),
    Game("showmanager", 4, "premiere", 13, 30),
    Game("showmanager", 5, "standard", 14, 35),
    Game("showmanager", 6, "premiere", 15, 20),
    Game("showmanager", 2, "standard", 16, END),
    Game("showmanager", 4, "premiere", 17, END),
)
BIG_TIME_GAMES = (
    Game("bigtime", 2, "standard", 21, 3),  # round 1, phase 2
    Game("bigtime", 3, "standard", 22, 6),  # round 1, phase 3
    Game("bigtime", 4, "standard", 23, 13),  # round 2, phase 1: Coming Soon and the last show
    Game("bigtime", 4, "standard", 24, 22),
    Game("bigtime", 3, "standard", 25, END),
)
GAMES = SHOW_MANAGER_GAMES + BIG_TIME_GAMES


@cache
def final_state(game: Game) -> Any:
    engine = game.engine
    state = engine.new_game(NewGame(game.players, game.variant, game.seed))
    rng = Rng.from_seed(game.seed)
    played = 0
    while engine.awaiting(state) and played != game.emails:
        seat = engine.awaiting(state)[0]
        for action in engine.random_actions(state, seat, rng):
            engine.apply(state, seat, action)
        played += 1
    return state


def seats(game: Game) -> list[int | None]:
    return [*range(game.players), None]


def view_of(game: Game, viewer: int | None) -> Any:
    return game.engine.view(final_state(game), viewer)


def render(game: Game, viewer: int | None, kind: str) -> str:
    template = environment().get_template(f"{game.game}/board.{kind}.j2")
    return template.render(
        view=view_of(game, viewer), names=list(NAMES[: game.players]), viewer=viewer
    )


def every_view(games: tuple[Game, ...]) -> list[Any]:
    return [
        pytest.param(game, viewer, id=f"{game}-{viewer}")
        for game in games
        for viewer in seats(game)
    ]


class Tables(HTMLParser):
    """Checks that every element closes in order, and reads each <table> as rows of cell texts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.tables: list[list[list[str]]] = []
        self._building: list[list[list[str]]] = []
        self._cells: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID_TAGS:
            self._text(" ")
            return
        self.open.append(tag)
        if tag == "table":
            self._building.append([])
        elif tag == "tr":
            self._building[-1].append([])
        elif tag in ("td", "th"):
            self._cells.append([])

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1:]}>"
        self.open.pop()
        if tag == "table":
            self.tables.append(self._building.pop())
        elif tag in ("td", "th"):
            self._building[-1][-1].append(" ".join("".join(self._cells.pop()).split()))

    def handle_data(self, data: str) -> None:
        self._text(data)

    def _text(self, data: str) -> None:
        if self._cells:
            self._cells[-1].append(data)

    def table_headed(self, first_cell: str) -> list[list[str]]:
        return next(table for table in self.tables if table and table[0][0] == first_cell)


def parsed(html: str) -> Tables:
    tables = Tables()
    tables.feed(html)
    tables.close()
    assert tables.open == [], f"never closed: {tables.open}"
    return tables


def private_part(text: str) -> str:
    """What follows the private heading; the partials put the private section last."""
    assert PRIVATE_HEADING in text
    return text.split(PRIVATE_HEADING, 1)[1]


def card_ids(text: str) -> set[int]:
    return {int(number) for number in re.findall(r"#(\d+)\b", text)}


@pytest.mark.parametrize(("game", "viewer"), every_view(GAMES))
def test_html_elements_and_tables_are_balanced(game: Game, viewer: int | None) -> None:
    tables = parsed(render(game, viewer, "html"))
    assert tables.tables
    assert all(len(row) >= 1 for table in tables.tables for row in table)


@pytest.mark.parametrize(("game", "viewer"), every_view(GAMES))
def test_text_lines_fit_78_columns_without_trailing_spaces(game: Game, viewer: int | None) -> None:
    for line in render(game, viewer, "txt").splitlines():
        assert len(line) <= TEXT_WIDTH, line
        assert line == line.rstrip(), repr(line)


@pytest.mark.parametrize(("game", "viewer"), every_view(GAMES))
def test_player_names_are_escaped_in_html(game: Game, viewer: int | None) -> None:
    html = render(game, viewer, "html")
    assert "<script" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html


@pytest.mark.parametrize(("game", "viewer"), every_view(GAMES))
def test_a_quoted_board_is_never_read_as_orders(game: Game, viewer: int | None) -> None:
    grammar = grammar_for(game.game, game.variant)
    for text in (render(game, viewer, "txt"), html_to_text(render(game, viewer, "html"))):
        read = parse_orders(text, grammar)
        assert not read.has_orders, [*read.orders, *read.errors]


# --- Show Manager ---------------------------------------------------------------------------


def owner_name(seat: int | None) -> str:
    return "touring" if seat is None else NAMES[seat]


@pytest.mark.parametrize(("game", "viewer"), every_view(SHOW_MANAGER_GAMES))
def test_html_city_columns_hold_each_citys_chips_from_the_top(
    game: Game, viewer: int | None
) -> None:
    view: GameView = view_of(game, viewer)
    table = parsed(render(game, viewer, "html")).table_headed("Rank")
    header, ranks = table[0], table[1:]
    for column, city in enumerate(view.cities, start=1):
        assert header[column].startswith(city.shown)
        for rank, row in enumerate(ranks):
            cell = row[column]
            if rank < len(city.points):
                assert cell.startswith(f"{city.points[rank]} pt")
            if rank >= len(city.chips):
                assert not any(chip.shown in cell for chip in city.chips)
                continue
            chip = city.chips[rank]
            assert owner_name(chip.owner) in cell
            assert chip.shown in cell
            assert f"value {chip.value}" in cell
            assert ("LOAN" in cell) == chip.loaned


@pytest.mark.parametrize(("game", "viewer"), every_view(SHOW_MANAGER_GAMES))
def test_text_city_blocks_list_each_citys_chips_from_the_top(
    game: Game, viewer: int | None
) -> None:
    view: GameView = view_of(game, viewer)
    lines = render(game, viewer, "txt").splitlines()
    for city in view.cities:
        if not city.chips:
            assert any(line.startswith(f"{city.shown}, no musical yet") for line in lines)
            continue
        start = next(i for i, line in enumerate(lines) if line.startswith(f"{city.shown}, playing"))
        rank_lines = lines[start + 1 : start + 1 + len(city.points)]
        for rank, chip in enumerate(city.chips):
            number, points, rest = rank_lines[rank].split(None, 2)
            assert (int(number), int(points)) == (rank + 1, city.points[rank])
            assert chip.shown in rest
            assert rest.split()[-1 - chip.loaned] == str(chip.value)
            assert rest.endswith("LOANED") == chip.loaned


@pytest.mark.parametrize(("game", "viewer"), every_view(SHOW_MANAGER_GAMES))
def test_private_section_shows_the_own_hand_and_no_other(game: Game, viewer: int | None) -> None:
    everything: GameView = view_of(game, None)
    for rendered in (render(game, viewer, "txt"), html_to_text(render(game, viewer, "html"))):
        if viewer is None:
            private = rendered.split("Hands (private, game master)", 1)[1]
            shown_hands = everything.players
        else:
            private = private_part(rendered)
            shown_hands = (everything.players[viewer],)
        expected = {card.id for player in shown_hands for card in player.hand or ()}
        assert card_ids(private) == expected


@pytest.mark.parametrize(("game", "viewer"), every_view(SHOW_MANAGER_GAMES))
def test_money_is_shown_only_where_the_view_shows_it(game: Game, viewer: int | None) -> None:
    view: GameView = view_of(game, viewer)
    table = parsed(render(game, viewer, "html")).table_headed("Player")
    money_column = table[0].index("Money")
    for player, row in zip(view.players, table[1:], strict=True):
        assert row[money_column] == ("hidden" if player.money is None else str(player.money))


PREMIERE_GAMES = [game for game in SHOW_MANAGER_GAMES if game.variant == "premiere"]


@pytest.mark.parametrize("game", PREMIERE_GAMES, ids=str)
def test_premiere_games_show_premiere_names(game: Game) -> None:
    view: GameView = view_of(game, 0)
    roles = {role for musical in view.musicals for role in musical.roles}  # never renamed
    things: list[CityView | MusicalView] = [*view.cities, *view.musicals]
    renamed = [
        (thing.name, thing.premiere_name)
        for thing in things
        if thing.name != thing.premiere_name and thing.name not in roles
    ]
    assert renamed
    for kind in ("txt", "html"):
        rendered = render(game, 0, kind)
        for standard, premiere in renamed:
            assert premiere in rendered
            assert standard not in rendered


@pytest.mark.parametrize("game", SHOW_MANAGER_GAMES, ids=str)
def test_whose_turn_is_named(game: Game) -> None:
    view: GameView = view_of(game, None)
    first_line = render(game, None, "txt").splitlines()[0]
    if view.turn is None:
        assert "The game is over." in first_line
    else:
        assert f"Turn: {NAMES[view.turn][:23]}" in first_line


# --- The Big Time! --------------------------------------------------------------------------


def offers(view: BigTimeView) -> list[Any]:
    return [*view.am_row, *view.pm_row, *view.headliner_row]


@pytest.mark.parametrize(("game", "viewer"), every_view(BIG_TIME_GAMES))
def test_each_offered_act_shows_its_code_and_card(game: Game, viewer: int | None) -> None:
    view: BigTimeView = view_of(game, viewer)
    text_lines = render(game, viewer, "txt").splitlines()
    rows = parsed(render(game, viewer, "html")).table_headed("Code")[1:] if offers(view) else []
    for offer in offers(view):
        assert any(line.split()[:2] == [offer.code, offer.act.card] for line in text_lines)
        assert [offer.code, offer.act.card, offer.act.name] in [row[:3] for row in rows]


def test_the_views_offer_every_row_code() -> None:
    codes = {offer.code[0] for game in BIG_TIME_GAMES for offer in offers(view_of(game, 0))}
    assert codes == {"A", "P", "H"}


@pytest.mark.parametrize(("game", "viewer"), every_view(BIG_TIME_GAMES))
def test_face_down_headliners_are_seen_by_the_game_master_only(
    game: Game, viewer: int | None
) -> None:
    hidden = [
        act.card
        for stack in view_of(game, None).coming_soon
        for act in stack.hidden
        if act.kind == "headliner"
    ]
    for kind in ("txt", "html"):
        rendered = render(game, viewer, kind)
        assert all((card in rendered) == (viewer is None) for card in hidden)
        if viewer is not None:
            assert rendered.count("face down") == sum(
                stack.face_down for stack in view_of(game, viewer).coming_soon
            )


def test_a_coming_soon_board_was_rendered() -> None:
    assert any(view_of(game, None).coming_soon for game in BIG_TIME_GAMES)


@pytest.mark.parametrize(("game", "viewer"), every_view(BIG_TIME_GAMES))
def test_private_section_shows_own_money_and_orders(game: Game, viewer: int | None) -> None:
    view: BigTimeView = view_of(game, viewer)
    for kind in ("txt", "html"):
        rendered = render(game, viewer, kind)
        if viewer is None:
            private = rendered.split("Hands and orders (private, game master)", 1)[1]
        else:
            private = private_part(rendered)
        for own in view.private:
            cards = " ".join(map(str, own.hand))
            assert f"{cards} (${sum(own.hand)})" in private
            for act in (*own.am, *own.pm, *(own.headliner or ())):
                assert act in private


@pytest.mark.parametrize(("game", "viewer"), every_view(BIG_TIME_GAMES))
def test_html_chart_places_each_marker_on_its_space(game: Game, viewer: int | None) -> None:
    view: BigTimeView = view_of(game, viewer)
    chart = parsed(render(game, viewer, "html")).table_headed("The Big Time 3 per icon")
    spaces = {int(cell.split()[0]): cell for row in chart for cell in row[1:]}
    assert sorted(spaces) == list(range(1, 17))
    for marker in view.chart:
        assert marker.act_type in spaces[marker.space]
        tier_row = next(row for row in chart if spaces[marker.space] in row)
        assert tier_row[0] == f"{marker.tier} {marker.posterity} per icon"


@pytest.mark.parametrize(("game", "viewer"), every_view(BIG_TIME_GAMES))
def test_text_chart_lists_each_tiers_types(game: Game, viewer: int | None) -> None:
    view: BigTimeView = view_of(game, viewer)
    text = render(game, viewer, "txt")
    chart = text.split("-- Public Opinion", 1)[1].split("\n-- ", 1)[0]
    tiers = re.split(r"\n(?=\S)", chart.split("\n", 1)[1].strip())
    for marker in view.chart:
        line = next(t for t in tiers if t.startswith(f"{marker.tier}, {marker.posterity} per"))
        assert f"{marker.act_type} {marker.space}" in " ".join(line.split())


@pytest.mark.parametrize(("game", "viewer"), every_view(BIG_TIME_GAMES))
def test_playbills_show_payment_penalty_and_hook(game: Game, viewer: int | None) -> None:
    view: BigTimeView = view_of(game, viewer)
    section = render(game, viewer, "txt").split("-- Playbills", 1)[1].split("\n-- ", 1)[0]
    rows = [line for line in section.splitlines() if "$" in line]
    expected = [b for theater in view.theaters for b in (*theater.playbill, *theater.last_show)]
    for line, booking in zip(rows, expected, strict=True):
        words = line.split()
        assert words[0] == booking.act.card
        assert f"${sum(booking.paid)}" in words
        assert (f"-{booking.penalty}" in words) == (booking.penalty > 0)
        assert (words[-1] == "HOOK") == booking.hooked


@pytest.mark.parametrize("deck", [0, 1, 2])
def test_the_agency_counts_its_deck_in_words_that_agree(deck: int) -> None:
    # Found in play-testing: the final result read "Deck 1 cards".
    game = SHOW_MANAGER_GAMES[0]
    view = replace(view_of(game, 0), deck_size=deck, discard_size=1)
    names = list(NAMES[: game.players])
    text, html = (
        environment()
        .get_template(f"showmanager/board.{kind}.j2")
        .render(view=view, names=names, viewer=0)
        for kind in ("txt", "html")
    )
    cards = "card" if deck == 1 else "cards"
    assert f"Deck {deck} {cards}, discard 1;" in text
    assert f"deck {deck} {cards}, discard 1;" in html
