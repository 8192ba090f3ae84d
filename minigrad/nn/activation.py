"""Activation layers: each one is the ``nn.functional`` function of the same name, as a module."""

from . import functional as F
from .module import Module


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


class LeakyReLU(Module):
    """``x`` where positive, ``negative_slope * x`` elsewhere.

    >>> import minigrad
    >>> minigrad.nn.LeakyReLU(0.1)(minigrad.tensor([-1.0, 2.0]))
    tensor([-0.1000,  2.0000])
    """

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.

    >>> import minigrad
    >>> minigrad.nn.ELU()(minigrad.tensor([1.0]))
    tensor([1.])
    """

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    """``x * Phi(x)``, the Gaussian error linear unit (``approximate="tanh"``: its tanh approximation).

    >>> import minigrad
    >>> minigrad.nn.GELU()(minigrad.tensor([0.0]))
    tensor([0.])
    """

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``: a smooth ReLU.

    >>> import minigrad
    >>> minigrad.nn.Softplus()(minigrad.tensor([0.0]))
    tensor([0.6931])
    """

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmax(Module):
    """Exponentiate and normalise along ``dim`` (each slice sums to 1).

    >>> import minigrad
    >>> minigrad.nn.Softmax(dim=0)(minigrad.tensor([0.0, 0.0]))
    tensor([0.5000, 0.5000])
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """``log(softmax(x))`` along ``dim``, computed stably.

    >>> import minigrad
    >>> minigrad.nn.LogSoftmax(dim=0)(minigrad.tensor([0.0, 0.0])).exp()
    tensor([0.5000, 0.5000])
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class SiLU(Module):
    """``x * sigmoid(x)`` (also called swish).

    >>> import minigrad
    >>> minigrad.nn.SiLU()(minigrad.tensor([0.0]))
    tensor([0.])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""
