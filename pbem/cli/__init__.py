"""The `pbem` command line: one small module per command group, assembled in `main`."""

from pbem.cli.main import app

__all__ = ["app"]
