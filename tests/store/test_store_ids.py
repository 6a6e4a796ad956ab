"""Short game ids, seat secrets and received-email keys."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import Engine

from pbem.games.registry import UnknownGame
from pbem.store import ids as ids_module
from pbem.store import message_key, new_secret, next_game_id, session_scope
from pbem.store.ids import SECRET_ALPHABET, SECRET_LENGTH


def test_game_ids_carry_the_game_tag_and_count_up_per_game(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        made = [next_game_id(session, game) for game in ("showmanager", "bigtime", "showmanager")]
    with session_scope(db_engine) as session:
        made.append(next_game_id(session, "bigtime"))
    assert made == ["sm-1", "bt-1", "sm-2", "bt-2"]


def test_a_rolled_back_game_id_is_handed_out_again(db_engine: Engine) -> None:
    with pytest.raises(RuntimeError), session_scope(db_engine) as session:
        next_game_id(session, "showmanager")
        raise RuntimeError("game creation failed")
    with session_scope(db_engine) as session:
        assert next_game_id(session, "showmanager") == "sm-1"


def test_unknown_game_gets_no_id(db_engine: Engine) -> None:
    with pytest.raises(UnknownGame, match="showmanager"), session_scope(db_engine) as session:
        next_game_id(session, "chess")


def test_game_ids_made_at_once_by_many_sessions_are_distinct(db_engine: Engine) -> None:
    def make_id(_: int) -> str:
        with session_scope(db_engine) as session:
            return next_game_id(session, "bigtime")

    with ThreadPoolExecutor(max_workers=4) as pool:
        made = list(pool.map(make_id, range(12)))
    assert sorted(made, key=lambda game_id: int(game_id.split("-")[1])) == [
        f"bt-{number}" for number in range(1, 13)
    ]


def test_secret_is_short_and_unambiguous() -> None:
    secret = new_secret()
    assert len(secret) == SECRET_LENGTH
    assert set(secret) <= set(SECRET_ALPHABET)
    assert not set("ilo") & set(SECRET_ALPHABET)


def test_secret_differs_from_those_already_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    # Letters drawn: first "aaaaa" (taken), then "bbbbb".
    letters: Iterator[str] = iter("aaaaabbbbb")
    monkeypatch.setattr(ids_module.secrets, "choice", lambda _alphabet: next(letters))
    assert new_secret(taken={"aaaaa"}) == "bbbbb"


def test_message_key_is_the_message_id_when_there_is_one() -> None:
    assert message_key(" <abc@example.org> ", b"raw") == "<abc@example.org>"


def test_message_key_without_message_id_is_the_hash_of_the_raw_bytes() -> None:
    raw = b"From: a@example.org\r\n\r\nHIRE 0\r\n"
    expected = "sha256:" + hashlib.sha256(raw).hexdigest()
    assert message_key(None, raw) == expected
    assert message_key("  ", raw) == expected
    assert message_key(None, raw + b" ") != expected
