"""Set-up shared by the whole test run (tests/ and the notebooks nbval collects).

- nbval's kernels talk over Unix sockets. nbval starts each notebook's kernel over TCP; while
  the suite runs on two workers, another process's outgoing connection can take a port between
  jupyter_client choosing it and the kernel binding it, and the kernel dies at start.
  classroom/kernels.py explains this; here nbval's kernel manager gets the same socket options
  as the grader's kernels.
- The ``chromium`` fixture for the tests that drive a real browser (tests/browser, tests/book).
- The ``torch`` fixture: PyTorch as the oracle (tests/minigrad, tests/differential).

It lives at the top (not in tests/) because a conftest.py in tests/ would put tests/ on
sys.path, where tests/viz and tests/minigrad could pass for the real packages.
"""

import os
import shutil

import pytest

# Chromium's flags on these machines (TOOLCHAIN.md): without the networking ones it keeps trying
# Google's hosts, which a closed network refuses.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    try:
        import nbval.kernel
    except ImportError:  # nbval not installed: no notebook tests to set up
        return
    from classroom.kernels import socket_options

    class UnixSocketKernelManager(nbval.kernel.KernelManager):
        def __init__(self, **kwargs):
            super().__init__(**{**socket_options(), **kwargs})

    nbval.kernel.KernelManager = UnixSocketKernelManager


@pytest.fixture
def chromium():
    """Keyword arguments for Playwright's ``chromium.launch`` with the system's Chromium.

    Skips with the reason when Chromium or Playwright is missing, and fails instead under
    MINIGRAD_REQUIRE_BROWSER=1 (which ``./run tests`` sets in CI).
    """
    reasons = []
    path = next((c for c in ("/usr/bin/chromium", shutil.which("chromium")) if c and os.access(c, os.X_OK)), None)
    if path is None:
        reasons.append("Chromium is not installed (as root: apt-get install -y chromium, or ./run setup)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reasons.append("Playwright is not installed (pip install playwright; never `playwright install`)")
    if reasons:
        why = "; ".join(reasons)
        if os.environ.get("MINIGRAD_REQUIRE_BROWSER") == "1":
            pytest.fail(f"MINIGRAD_REQUIRE_BROWSER=1, but {why}", pytrace=False)
        pytest.skip(f"no real browser: {why}")
    return {"executable_path": path, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture
def torch():
    """PyTorch as the oracle (skipped if missing, unless MINIGRAD_REQUIRE_TORCH=1)."""
    if os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1":
        import torch

        return torch
    return pytest.importorskip("torch")
