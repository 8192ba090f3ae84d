"""``minigrad.nn``: the parts of ``torch.nn`` that tutorials and course notebooks build models from.

``Module`` (the tree of parameters), ``Parameter``, ``init`` (initial values), the layers
(``Linear``, ``Conv2d``, ``MaxPool2d``, ``Embedding``, ``Dropout``, ``Flatten``, ``LayerNorm``,
``BatchNorm1d`` ...), the
activations, the containers ``Sequential``, ``ModuleList``, ``ModuleDict``, the losses, and
``functional`` (the same computations as functions).
"""

from . import functional, init, utils
from .activation import ELU, GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv2d, MaxPool2d
from .layers import Dropout, Embedding, Flatten, Identity, Linear, Unflatten
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss
from .module import Module
from .normalization import BatchNorm1d, LayerNorm
from .parameter import Parameter

__all__ = ["functional", "init", "utils", "Module", "Parameter", "Linear", "Identity", "Flatten", "Unflatten",
           "Dropout", "Embedding", "Conv2d", "MaxPool2d", "LayerNorm", "BatchNorm1d", "Sequential", "ModuleList",
           "ModuleDict", "ReLU", "Tanh", "Sigmoid", "SiLU", "LeakyReLU", "ELU", "GELU", "Softplus", "Softmax",
           "LogSoftmax", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss",
           "NLLLoss", "CrossEntropyLoss"]
