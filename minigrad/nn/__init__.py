"""``minigrad.nn``: just enough of ``torch.nn`` to build and train a real model.

``Module`` (the tree of parameters), ``Parameter``, the layers ``Linear``,
``Sequential``, ``ReLU``, ``Tanh``, ``Sigmoid``, the losses ``MSELoss`` and
``CrossEntropyLoss``, and ``functional`` (the same computations as functions).
"""

from . import functional
from .layers import Linear, ReLU, Sequential, Sigmoid, Tanh
from .loss import CrossEntropyLoss, MSELoss
from .module import Module
from .parameter import Parameter

__all__ = ["functional", "Module", "Parameter", "Linear", "Sequential", "ReLU", "Tanh", "Sigmoid", "MSELoss",
           "CrossEntropyLoss"]
