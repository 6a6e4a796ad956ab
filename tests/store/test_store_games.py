"""Games, seats and history: locking, lookups, the history sequence and the schema's guards."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import select

from pbem.store import (
    GameNotFound,
    GameRow,
    HistoryRow,
    InboundRow,
    SeatRow,
    StaleGame,
    append_history,
    games_past_deadline,
    games_with_status,
    history_entry,
    last_history,
    lock_game,
    open_database,
    record_inbound,
    record_inbound_result,
    save_game_state,
    seat_by_secret,
    seats_of,
    session_scope,
    utc_now,
)
from tests.support.db import insert_game


def add_entries(engine: Engine, game_id: str, count: int) -> None:
    with session_scope(engine) as session:
        for number in range(count):
            append_history(
                session,
                game_id,
                actor="player0@example.org",
                kind="order",
                summary=f"order {number}",
                state_after=f'{{"step": {number}}}',
            )


def test_lock_game_reads_the_latest_saved_state(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        game_id = insert_game(session).id
    with session_scope(db_engine) as reader:
        stale = reader.get_one(GameRow, game_id)
        with session_scope(db_engine) as writer:
            writer.get_one(GameRow, game_id).state = '{"turn": 2}'
        locked = lock_game(reader, game_id)
        assert locked is stale
        assert locked.state == '{"turn": 2}'


def test_lock_game_of_a_missing_game_says_which(db_engine: Engine) -> None:
    with pytest.raises(GameNotFound, match="sm-99"), session_scope(db_engine) as session:
        lock_game(session, "sm-99")


@pytest.mark.postgres
def test_lock_game_on_postgresql_holds_other_daemons_off_until_commit(postgres_url: str) -> None:
    engine = open_database(postgres_url)
    try:
        with session_scope(engine) as session:
            game_id = insert_game(session).id
        with session_scope(engine) as first:
            lock_game(first, game_id)
            with pytest.raises(OperationalError, match="lock"), session_scope(engine) as second:
                second.connection().execute(text("SET LOCAL lock_timeout = '200ms'"))
                lock_game(second, game_id)
        with session_scope(engine) as second:
            assert lock_game(second, game_id).id == game_id
    finally:
        engine.dispose()


def test_seats_come_in_seat_order_and_are_found_by_secret(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        game = insert_game(session, players=3)
        seats = seats_of(session, game.id)
        assert [seat.position for seat in seats] == [0, 1, 2]
        assert seat_by_secret(session, game.id, seats[2].secret) is seats[2]
        assert seat_by_secret(session, game.id, "iiiii") is None


def test_a_secret_only_opens_the_seat_of_its_own_game(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        first, second = insert_game(session, players=1), insert_game(session, players=1)
        first_seat, second_seat = seats_of(session, first.id)[0], seats_of(session, second.id)[0]
        second_seat.secret = first_seat.secret
        session.flush()
        assert seat_by_secret(session, second.id, first_seat.secret) is second_seat
        assert seat_by_secret(session, first.id, first_seat.secret) is first_seat


def test_two_seats_cannot_share_a_position(db_engine: Engine) -> None:
    with pytest.raises(IntegrityError), session_scope(db_engine) as session:
        game = insert_game(session, players=1)
        session.add(SeatRow(game_id=game.id, position=0, address="x@example.org", secret="abcde"))
        session.flush()


def test_history_numbers_each_games_entries_from_one(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        first, second = insert_game(session).id, insert_game(session).id
    add_entries(db_engine, first, 3)
    add_entries(db_engine, second, 2)
    add_entries(db_engine, first, 1)
    with session_scope(db_engine) as session:
        assert [entry.seq for entry in last_history(session, first, limit=10)] == [1, 2, 3, 4]
        assert [entry.seq for entry in last_history(session, second, limit=10)] == [1, 2]


def test_last_history_is_the_latest_entries_oldest_first(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        game_id = insert_game(session).id
    add_entries(db_engine, game_id, 5)
    with session_scope(db_engine) as session:
        latest = last_history(session, game_id, limit=2)
        assert [(entry.seq, entry.summary) for entry in latest] == [(4, "order 3"), (5, "order 4")]
        entry = history_entry(session, game_id, 2)
        assert entry is not None and entry.state_after == '{"step": 1}'
        assert history_entry(session, game_id, 6) is None


def test_history_refuses_a_second_entry_with_the_same_number(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        game_id = insert_game(session).id
    add_entries(db_engine, game_id, 1)
    with pytest.raises(IntegrityError), session_scope(db_engine) as session:
        session.add(
            HistoryRow(
                game_id=game_id, seq=1, actor="gm", kind="gm", summary="dup", state_after="{}"
            )
        )


def test_history_entry_remembers_the_email_behind_it(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        game_id = insert_game(session).id
        inbound_id = record_inbound(session, message_key="<m@x>", raw=b"raw", source="replay")
        assert inbound_id is not None
        entry = append_history(
            session,
            game_id,
            actor="gm:alice",
            kind="gm",
            summary="undo to 3",
            why="testing",
            inbound_id=inbound_id,
            state_after="{}",
        )
    assert (entry.actor, entry.why, entry.inbound_id) == ("gm:alice", "testing", inbound_id)


def test_unknown_game_status_is_refused_by_the_database(db_engine: Engine) -> None:
    with pytest.raises(IntegrityError), session_scope(db_engine) as session:
        insert_game(session).status = "over"  # type: ignore[assignment]


def test_a_seat_needs_an_existing_game(db_engine: Engine) -> None:
    with pytest.raises(IntegrityError), session_scope(db_engine) as session:
        session.add(SeatRow(game_id="sm-404", position=0, address="x@example.org", secret="abcde"))
        session.flush()


def test_deleting_a_game_deletes_its_seats_and_history_but_keeps_its_emails(
    db_engine: Engine,
) -> None:
    with session_scope(db_engine) as session:
        game = insert_game(session)
        inbound_id = record_inbound(session, message_key="<m@x>", raw=b"raw", source="replay")
        assert inbound_id is not None
        record_inbound_result(session, inbound_id, "accepted", "ok", game.id)
    add_entries(db_engine, game.id, 2)
    with session_scope(db_engine) as session:
        session.delete(session.get_one(GameRow, game.id))
    with session_scope(db_engine) as session:
        assert seats_of(session, game.id) == []
        assert last_history(session, game.id) == []
        kept = session.exec(select(InboundRow)).one()
        assert kept.game_id is None


def test_games_are_listed_by_status(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        running, paused = insert_game(session), insert_game(session)
        paused.status = "paused"
    with session_scope(db_engine) as session:
        assert [game.id for game in games_with_status(session, "running")] == [running.id]
        assert [game.id for game in games_with_status(session, "paused")] == [paused.id]


def test_games_past_deadline_are_running_ones_most_overdue_first(db_engine: Engine) -> None:
    now = utc_now()
    with session_scope(db_engine) as session:
        late, later, future, paused = (insert_game(session) for _ in range(4))
        late.deadline_at = now - timedelta(hours=1)
        later.deadline_at = now - timedelta(hours=5)
        future.deadline_at = now + timedelta(hours=1)
        paused.deadline_at = now - timedelta(hours=9)
        paused.status = "paused"
    with session_scope(db_engine) as session:
        assert [game.id for game in games_past_deadline(session, now)] == [later.id, late.id]


def test_a_state_saved_over_a_version_another_process_saved_is_refused(
    db_engine: Engine,
) -> None:
    with session_scope(db_engine) as session:
        game_id = insert_game(session).id
    with pytest.raises(StaleGame), session_scope(db_engine) as late:
        late_copy = late.get_one(GameRow, game_id)  # unlocked, as two daemons on SQLite
        with session_scope(db_engine) as early:
            save_game_state(early, early.get_one(GameRow, game_id), '{"by": "early"}', "running")
        save_game_state(late, late_copy, '{"by": "late"}', "finished")
    with session_scope(db_engine) as session:
        saved = session.get_one(GameRow, game_id)
        assert (saved.state, saved.status, saved.version) == ('{"by": "early"}', "running", 2)
