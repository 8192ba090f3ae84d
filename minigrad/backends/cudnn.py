"""``minigrad.backends.cudnn``: NVIDIA's cuDNN library, which minigrad does not have.

Scripts set ``deterministic`` and ``benchmark`` for reproducibility; as in PyTorch without a
GPU, the settings are kept and change nothing.
"""

deterministic = False
benchmark = False
enabled = True


def is_available():
    """False: minigrad computes with NumPy on the CPU."""
    return False
