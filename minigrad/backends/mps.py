"""``minigrad.backends.mps``: Apple's GPU backend, which minigrad does not have."""


def is_available():
    """False: minigrad computes with NumPy on the CPU."""
    return False


def is_built():
    """False: minigrad was not built with MPS."""
    return False
