"""Test-run set-up shared by every folder: nbval's kernels talk over Unix sockets.

nbval starts each notebook's kernel over TCP. While the suite runs on two workers, another
process's outgoing connection can take a port between jupyter_client choosing it and the kernel
binding it, and the kernel dies at start. classroom.kernels explains this; here nbval's kernel
manager gets the same socket options as the grader's kernels.
"""

import pytest


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
