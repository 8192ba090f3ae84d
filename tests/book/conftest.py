"""The book: built once per run by book/build.sh, then its pages checked."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "book: builds the Jupyter Book (book/build.sh, about a minute) and checks its pages, "
        "in a real headless Chromium too when there is one",
    )
