"""The crash tests run on SQLite and on PostgreSQL (tests/support/db.py)."""

from tests.support.db import db_url, postgres_admin, postgres_url

__all__ = ["db_url", "postgres_admin", "postgres_url"]
