"""The `pbem` command line: one small module per command group, assembled in `main`; `entry`
is the console script."""

from pbem.cli.entry import main
from pbem.cli.main import app

__all__ = ["app", "main"]
