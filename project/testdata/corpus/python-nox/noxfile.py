"""Nox sessions."""

import nox

nox.options.sessions = ["tests", "lint", "mypy"]
PYTHON_VERSIONS = ["3.10", "3.11", "3.12", "3.13"]
PYTEST = ["pytest", "--cov=units", "--cov-report=term-missing"]


@nox.session(python=PYTHON_VERSIONS)
def tests(session: nox.Session) -> None:
    """Run the test suite."""
    session.install("-e", ".[test]")
    session.run(*PYTEST, *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Lint with ruff."""
    session.install("ruff")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(python="3.12")
def mypy(session: nox.Session) -> None:
    """Type-check."""
    session.install("-e", ".", "mypy")
    session.run("mypy", "src")


@nox.session
def docs(session: nox.Session) -> None:
    session.install("-r", "docs/requirements.txt")
    session.run("sphinx-build", "-W", "docs", "docs/_build/html")


@nox.session(name="format")
def format_(session: nox.Session) -> None:
    session.install("ruff")
    session.run("ruff", "format", ".")
