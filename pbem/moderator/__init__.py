"""The moderator: one inbound message in, one transaction, replies out (to the outbox)."""
