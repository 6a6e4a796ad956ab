"""What a fresh install relies on: only declared distributions, the version from the package's
metadata, and no secrets in a traceback. (.ci/run installs into fresh virtualenvs for real.)"""

from __future__ import annotations

import ast
import sys
import tomllib
from importlib.metadata import packages_distributions, version
from pathlib import Path

import typer
from typer.testing import CliRunner

from pbem.cli import app

ROOT = Path(__file__).parent.parent
# Imported modules whose distribution's name differs, or that come with another distribution.
PROVIDED_BY = {
    "psycopg": "psycopg",
    "yaml": "pyyaml",
    "msal": "msal",
    "google_auth_oauthlib": "google-auth-oauthlib",
}


def imported_top_level_modules() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "pbem").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.partition(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.partition(".")[0])
    return names - set(sys.stdlib_module_names) - {"pbem", "__future__"}


def declared_distributions() -> set[str]:
    """The runtime dependencies and the optional extras (`oauth`), not the test or dev tools."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    return {
        requirement.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower()
        for requirement in [*project["dependencies"], *extras["oauth"]]
    }


def test_every_distribution_pbem_imports_is_declared() -> None:
    distributions = packages_distributions()
    declared = declared_distributions()
    for module in imported_top_level_modules():
        names = {name.lower() for name in distributions.get(module, [PROVIDED_BY.get(module, "")])}
        assert names & declared, f"pbem imports {module} ({names}), not declared in pyproject.toml"


def test_nothing_imports_click_which_typer_no_longer_brings() -> None:
    assert "click" not in imported_top_level_modules()


def test_version_comes_from_the_package_metadata() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"pbem {version('pbem')}"


def test_no_command_group_shows_local_variables_in_a_traceback() -> None:
    """Locals of a failing `pbem run` held the IMAP password (typer's default shows them)."""
    groups = [app, *(group.typer_instance for group in app.registered_groups)]
    assert all(isinstance(group, typer.Typer) for group in groups)
    assert [group.pretty_exceptions_show_locals for group in groups] == [False] * len(groups)
