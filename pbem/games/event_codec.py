"""Events to JSON and back, for the history: `{"kind": ..., field: value}`, tuples as lists.

An event kind is found by its `kind` in `pbem.games.base.EVENT_KINDS`, so the module defining it
must be imported before decoding (the engines' are, through the registry; the moderator's
through `pbem.moderator.events`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from pbem.games.base import EVENT_KINDS, Event


class EventDecodeError(ValueError):
    """Stored event data that names no known kind of event or does not fit it."""


def encode_events(events: Iterable[Event]) -> str:
    return json.dumps([_plain(event) for event in events], separators=(",", ":"))


def decode_events(text: str) -> list[Event]:
    return [_event(item) for item in json.loads(text)]


def _plain(value: Any) -> Any:
    if isinstance(value, Event):
        data: dict[str, Any] = {"kind": value.kind}
        for field in fields(value):
            item = getattr(value, field.name)
            if not (field.name == "to" and item is None):
                data[field.name] = _plain(item)
        return data
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _event(data: dict[str, Any]) -> Event:
    cls = EVENT_KINDS.get(data.get("kind", ""))
    if cls is None:
        raise EventDecodeError(f"unknown event kind {data.get('kind')!r}")
    values = {name: _typed(item) for name, item in data.items() if name != "kind"}
    try:
        return cls(**values)
    except TypeError as exc:
        raise EventDecodeError(f"{data['kind']}: {exc}") from exc


def _typed(value: Any) -> Any:
    if isinstance(value, dict):
        return _event(value)
    if isinstance(value, list):
        return tuple(_typed(item) for item in value)
    return value
