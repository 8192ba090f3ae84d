"""Browser tests: JupyterLab in headless Chromium, driven by Playwright."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "browser: runs JupyterLab in a real headless Chromium (skipped without Chromium or "
        "Playwright unless MINIGRAD_REQUIRE_BROWSER=1)",
    )
