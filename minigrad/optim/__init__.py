"""``minigrad.optim``: optimizers that update parameters from their ``.grad``.

``SGD`` and ``Adam`` follow PyTorch's update rules exactly, so a seeded
training run gives the same numbers under ``import minigrad as torch``.
"""

from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam"]
