"""Fixtures and helpers shared by the test folders."""
