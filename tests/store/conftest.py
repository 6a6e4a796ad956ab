"""The store's tests run on both databases through the shared fixtures in tests/support/db.py."""

from tests.support.db import db_engine, db_url, postgres_admin, postgres_url

__all__ = ["db_engine", "db_url", "postgres_admin", "postgres_url"]
