"""`pbem show GAME`: the game master's full view of a game, with what waits on it; before a game
open for sign-up starts, the sign-up."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

import typer
from sqlmodel import Session

from pbem.cli.database import open_configured
from pbem.cli.listings import watching_line
from pbem.moderator.addresses import join_address
from pbem.moderator.desk import Desk
from pbem.moderator.letters import status_context
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.play import one_line
from pbem.moderator.render import render
from pbem.moderator.results import standings
from pbem.moderator.signup_letters import describe, names_line, seat_name, seats_words
from pbem.store import (
    GameNotFound,
    QueuedOrderRow,
    SignupRow,
    signup_players,
    waiting_orders,
    watchers_of,
)


def show(game: str, as_json: bool = typer.Option(False, "--json")) -> None:
    """The game master's full view of a game, its deadline and the early orders waiting."""
    engine, settings = open_configured(create=False)
    with Session(engine) as session:
        try:
            loaded = load_game(session, game)
        except GameNotFound as exc:
            signup = open_signup_of(session, game)
            if signup is not None:  # what there is to see before the start: the sign-up
                typer.echo(signup_view(Desk(session, settings), signup, as_json))
            typer.echo(f"Error: {no_game(session, game)}", err=True)
            raise typer.Exit(1) from exc
        waiting = waiting_orders(session, loaded.id)
        if as_json:
            typer.echo(
                json.dumps(
                    {
                        "id": loaded.id,
                        "game": loaded.row.game,
                        "variant": loaded.row.variant,
                        "status": loaded.row.status,
                        "private": loaded.row.private,
                        "deadline_hours": loaded.row.deadline_hours,
                        "deadline_at": loaded.row.deadline_at,
                        "policy": loaded.row.policy,
                        "watchers": watchers_of(session, loaded.id),
                        "seats": [
                            {
                                "address": s.address,
                                "name": s.name,
                                "kind": s.kind,
                                "away_until": s.away_until,
                                "away_days": s.away_days,
                            }
                            for s in loaded.seats
                        ],
                        "waiting_orders": [
                            {"seat": row.position + 1, "lines": row.lines, "at": row.created_at}
                            for row in waiting
                        ],
                        **standings(loaded),
                        "view": dataclasses.asdict(loaded.engine.view(loaded.state, None)),
                    },
                    default=str,
                )
            )
            return
        paused = loaded.row.status == "paused"
        text, _html = render(
            "status",
            title=f"{loaded.id} (game master's view){': PAUSED' if paused else ''}",
            game_id=loaded.id,
            events=[],
            **status_context(loaded, None),
        )
        typer.echo(text)
        if paused:  # the board still names whose turn it is: say plainly that nobody can play
            typer.echo(
                "Paused by the game master: no orders are taken and no deadline runs until "
                f"`pbem gm resume {loaded.id}`."
            )
        typer.echo(watching_line(loaded.row.private, watchers_of(session, loaded.id)))
        typer.echo(waiting_line(loaded, waiting))


def waiting_line(game: LoadedGame, waiting: Sequence[QueuedOrderRow]) -> str:
    """The early orders that wait for their turns, each with its seat (the game master's alone)."""
    if not waiting:
        return "Early orders waiting: none."
    told = "; ".join(f"{game.name_of(row.position)}: {one_line(row.lines)}" for row in waiting)
    return f"Early orders waiting ({len(waiting)}): {told}"


def open_signup_of(session: Session, game_id: str) -> SignupRow | None:
    """The sign-up `game_id` is open for, if it is: a game that has not started yet."""
    signup = session.get(SignupRow, game_id)
    return signup if signup is not None and signup.status == "open" else None


def no_game(session: Session, game_id: str) -> str:
    """Why `pbem show` and `pbem history` have no game to show: still open for sign-up (found in
    play-testing: "no game", while `pbem games` listed it), or none of that id."""
    signup = open_signup_of(session, game_id)
    if signup is None:
        return f"no game {game_id!r}; `pbem games` lists them"
    taken = len(signup_players(session, game_id))
    return (
        f"{game_id} is open for sign-up ({taken} of {seats_words(signup)} seats taken) and has "
        "not started: no board or history yet"
    )


def signup_view(desk: Desk, signup: SignupRow, as_json: bool) -> str:
    """An open sign-up as the game master sees it: its game, seats, start rule and players
    (by name; with addresses in JSON)."""
    players = signup_players(desk.session, signup.id)
    if as_json:
        signed_up = [
            {"name": seat_name(players, index), "address": player.address}
            for index, player in enumerate(players)
        ]
        join = join_address(desk.settings.address, signup.id)
        return json.dumps({**signup.model_dump(), "players": signed_up, "join": join}, default=str)
    about = describe(desk, signup, len(players))
    return f"{about}\nSigned up: {names_line(players, None)}."
