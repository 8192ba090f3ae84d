"""Layers: ``Linear``, the activations, and ``Sequential`` to chain them."""

import math
from collections import OrderedDict

from .. import dtypes
from ..creation import empty, rand
from ..grad_mode import no_grad
from . import functional as F
from .module import Module
from .parameter import Parameter


def _uniform_(tensor, bound):
    """Fill ``tensor`` in place with U(-bound, bound) from minigrad's seeded generator."""
    with no_grad():
        return tensor.copy_((rand(*tensor.shape, dtype=tensor.dtype) * 2 - 1) * bound)


class Linear(Module):
    """``y = x @ weight.T + bias``, with weight of shape (out_features, in_features).

    Both are initialised as PyTorch does (``kaiming_uniform_(a=sqrt(5))`` for the
    weight), which comes down to U(-1/sqrt(in_features), 1/sqrt(in_features)) for
    both, drawn from the generator that ``minigrad.manual_seed`` seeds.

    Args:
        in_features: size of each input sample.
        out_features: size of each output sample.
        bias: learn an additive bias (default True).
        device: only None or "cpu".
        dtype: the parameters' dtype (default float32).

    >>> import minigrad
    >>> layer = minigrad.nn.Linear(3, 2)
    >>> layer
    Linear(in_features=3, out_features=2, bias=True)
    >>> layer(minigrad.ones(4, 3)).shape
    minigrad.Size([4, 2])
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        if device not in (None, "cpu"):
            raise NotImplementedError("minigrad runs on the CPU only: device must be None or 'cpu'")
        dtype = dtypes.default_float if dtype is None else dtype
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty(out_features, in_features, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Draw new initial values: U(-1/sqrt(in_features), 1/sqrt(in_features))."""
        bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
        _uniform_(self.weight, bound)
        if self.bias is not None:
            _uniform_(self.bias, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class ReLU(Module):
    """``max(x, 0)`` elementwise; ``inplace=True`` overwrites the input.

    >>> import minigrad
    >>> minigrad.nn.ReLU()(minigrad.tensor([-1.0, 1.0]))
    tensor([0., 1.])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    """Elementwise hyperbolic tangent.

    >>> import minigrad
    >>> minigrad.nn.Tanh()(minigrad.tensor([0.0]))
    tensor([0.])
    """

    def forward(self, input):
        return F.tanh(input)


class Sigmoid(Module):
    """Elementwise ``1 / (1 + exp(-x))``.

    >>> import minigrad
    >>> minigrad.nn.Sigmoid()(minigrad.tensor([0.0]))
    tensor([0.5000])
    """

    def forward(self, input):
        return F.sigmoid(input)


class Sequential(Module):
    """Modules run one after another: the output of each is the input of the next.

    Children are named ``"0"``, ``"1"``, ... (or by the keys of an OrderedDict).

    >>> import minigrad
    >>> from minigrad import nn
    >>> model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    >>> model
    Sequential(
      (0): Linear(in_features=2, out_features=3, bias=True)
      (1): ReLU()
    )
    >>> model(minigrad.ones(1, 2)).shape
    minigrad.Size([1, 3])
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, index):
        items = list(self._modules.items())
        if isinstance(index, slice):
            return Sequential(OrderedDict(items[index]))
        if not -len(items) <= index < len(items):
            raise IndexError(f"index {index} is out of range")
        return items[index][1]

    def append(self, module):
        """Add ``module`` at the end; return self."""
        self.add_module(str(len(self)), module)
        return self
