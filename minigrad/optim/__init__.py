"""``minigrad.optim``: optimizers that update parameters from their ``.grad``, and learning-rate schedules.

``SGD``, ``Adam``, ``AdamW``, ``RMSprop`` and ``Adagrad`` follow PyTorch's update rules
exactly, so a seeded training run gives the same numbers under ``import minigrad as torch``.
"""

from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam
from .adamw import AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
