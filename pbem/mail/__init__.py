"""Mail transports: how email reaches the moderator and how its replies leave.

Intakes hand each incoming message to a `store` callback and acknowledge it only once the
callback says its effect is committed; senders report per recipient whether delivery worked,
should be retried, or failed for good. Nothing here touches the database: the daemon wires the
callbacks to the store.
"""
