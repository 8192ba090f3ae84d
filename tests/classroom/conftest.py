"""Markers for the classroom tests."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "nbgrader: runs nbgrader 0.9.6 itself on the assignments (in .venv-nbgrader/, built on first "
        "use in about a minute; skipped with the reason if pip cannot install it)",
    )
