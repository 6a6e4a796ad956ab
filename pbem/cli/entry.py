"""The `pbem` console script: the Typer app, with every usage error told in one line.

Typer's own screen for a usage error is a usage line, a hint and a box; a game master's script
(or a person) reads one line on stderr naming the value and what is accepted, and exit status 2.
"""

from __future__ import annotations

import sys

import typer

from pbem.cli.main import app

try:  # the exceptions of typer's own copy of click, which recent typer releases raise
    from typer._click.exceptions import ClickException
except ImportError:  # typer before that copy raises click's
    from click.exceptions import ClickException  # type: ignore[no-redef,import-not-found,unused-ignore]


def main(argv: list[str] | None = None) -> None:
    try:
        code = app(args=argv, prog_name="pbem", standalone_mode=False)
    except ClickException as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # `pbem gm` alone: the help is printed
            sys.exit(exc.exit_code)
        context = getattr(exc, "ctx", None)
        where = f"{context.command_path}: " if context is not None else ""
        message = " ".join(exc.format_message().split())
        typer.echo(f"Error: {where}{message}", err=True)
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("Aborted.", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
