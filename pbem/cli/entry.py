"""The `pbem` console script: the Typer app, with every usage error told in one line.

Typer's own screen for a usage error is a usage line, a hint and a box; a game master's script
(or a person) reads one line on stderr naming the value and what is accepted, and exit status 2.
"""

from __future__ import annotations

import sys

import typer

from pbem.cli.main import app


def _usage_error(exc: Exception) -> tuple[int, str] | None:
    """The exit status and one-line message of a usage error, else None.

    Typer raises the exceptions of the Click it runs on (its own copy in recent releases, Click
    itself in older ones), so they are known by Click's documented interface (`exit_code`,
    `format_message`, `ctx`), not by a class imported from either.
    """
    code = getattr(exc, "exit_code", None)
    format_message = getattr(exc, "format_message", None)
    if not isinstance(code, int) or not callable(format_message):
        return None
    if type(exc).__name__ == "NoArgsIsHelpError":  # `pbem gm` alone: the help was printed
        return code, ""
    context = getattr(exc, "ctx", None)
    where = f"{context.command_path}: " if context is not None else ""
    return code, f"Error: {where}{' '.join(str(format_message()).split())}"


def main(argv: list[str] | None = None) -> None:
    try:
        code = app(args=argv, prog_name="pbem", standalone_mode=False)
    except typer.Abort:
        typer.echo("Aborted.", err=True)
        sys.exit(1)
    except Exception as exc:  # only usage errors are handled here; anything else goes on up
        usage = _usage_error(exc)
        if usage is None:
            raise
        status, line = usage
        if line:
            typer.echo(line, err=True)
        sys.exit(status)
    sys.exit(code if isinstance(code, int) else 0)
