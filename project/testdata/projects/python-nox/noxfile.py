import nox

nox.options.sessions = ["tests", "lint"]


@nox.session(python=["3.10", "3.11", "3.12"])
def tests(session: nox.Session) -> None:
    session.install("-e", ".[test]")
    session.run("pytest", "--cov", *session.posargs)


@nox.session(
    python="3.12",
    tags=["style"],
)
def lint(session):
    session.install("ruff")
    session.run(
        "ruff",
        "check",
        "src",
    )


@nox.session(name="format")
def fmt(session):
    session.install("black")
    session.run("black", "src")


@nox.session(reuse_venv=True)
def docs(session):
    session.install("sphinx")
    session.run("sphinx-build", "docs", "docs/_build")
