"""Alembic migrations of pbem's database (a package so that they ship with pbem)."""
