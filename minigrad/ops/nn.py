"""Ops used by neural networks: softmax, its log, and losses.

Written as single nodes (rather than chains of exp/sum/div) because that is
how PyTorch records them, and because the fused formulas are numerically stable.
"""

import numpy as np

from .. import dtypes
from .. import messages
from ..function import Node
from ..tensor import Tensor
from .linalg import Addmm
from .operands import normalize_dim


def _stable_softmax(x, dim):
    # Array methods: much cheaper than np.max/np.sum on small arrays.
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    e /= e.sum(axis=dim, keepdims=True)  # in place: e is ours
    return e


class Softmax(Node):
    """z = exp(x) / sum(exp(x)) along dim        grad_x = z * (grad - sum(grad * z))"""

    may_warn = True

    saves = ("result",)
    saved_params = ("dim",)

    def forward(self, x, dim):
        self.dim = dim
        return _stable_softmax(x, dim)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return z * (grad - (grad * z).sum(self.dim, keepdim=True))


class LogSoftmax(Node):
    """z = x - logsumexp(x) along dim        grad_x = grad - softmax(x) * sum(grad)"""

    may_warn = True

    saves = ("result",)
    saved_params = ("dim",)

    def forward(self, x, dim):
        self.dim = dim
        shifted = x - x.max(axis=dim, keepdims=True)
        return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad - z.exp() * grad.sum(self.dim, keepdim=True)


class MseLoss(Node):
    """z = mean((x - y)**2)        grad_x = grad * 2 (x - y) / N,  grad_y = -grad_x"""

    may_warn = True

    saves = ("self", "target")
    input_names = ("self", "target")
    saved_params = ("reduction",)

    def forward(self, x, y, reduction="mean"):
        self.reduction = reduction
        sq = (x - y) ** 2
        if reduction == "mean":
            return np.asarray(sq.mean(), dtype=sq.dtype)
        if reduction == "sum":
            return np.asarray(sq.sum(), dtype=sq.dtype)
        return sq

    def backward(self, grad):
        x, y = self.saved_tensors
        diff = x - y
        scale = 2.0 / diff.numel() if self.reduction == "mean" else 2.0
        grad_x = grad * diff * scale
        return grad_x, (-grad_x if self.needs_input_grad[1] else None)


class NllLoss(Node):
    """z = -mean(logp[i, target[i]])        grad_logp = -grad / N at each target, 0 elsewhere"""

    saved_params = ("target", "reduction")

    def forward(self, logp, target, reduction="mean"):
        self.target, self.reduction, self.shape = target, reduction, logp.shape
        picked = logp[np.arange(logp.shape[0]), target]
        if reduction == "mean":
            return np.asarray(-picked.mean(), dtype=logp.dtype)
        if reduction == "sum":
            return np.asarray(-picked.sum(), dtype=logp.dtype)
        return -picked

    @property
    def _saved_target(self):
        return Tensor._wrap(self.target)

    def backward(self, grad):
        n = self.shape[0]
        onehot = np.zeros(self.shape, dtype=grad.dtype)
        onehot[np.arange(n), self.target] = 1.0
        if self.reduction == "none":
            return -grad.unsqueeze(1) * Tensor._wrap(onehot)
        scale = 1.0 / n if self.reduction == "mean" else 1.0
        return grad * Tensor._wrap(onehot * -scale)


def _dim(dim, input):
    if dim is None:  # PyTorch's legacy implicit choice
        dim = 0 if input.ndim in (0, 1, 3) else 1
    (axis,) = normalize_dim(dim, input.ndim)
    return axis


def softmax(input, dim=None, dtype=None):
    """Exponentiate and normalize along ``dim`` so each slice sums to 1."""
    if dtype is not None:
        input = input.to(dtype)
    return Softmax.apply(input, dim=_dim(dim, input))


def log_softmax(input, dim=None, dtype=None):
    """``log(softmax(input))``, computed stably."""
    if dtype is not None:
        input = input.to(dtype)
    return LogSoftmax.apply(input, dim=_dim(dim, input))


def mse_loss(input, target, reduction="mean"):
    """Mean squared error between ``input`` and ``target``."""
    if input.shape != target.shape:
        import warnings

        warnings.warn(
            f"Using a target size ({messages.format_size(target.shape)}) that is different to the input "
            f"size ({messages.format_size(input.shape)}). "
            "This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning, stacklevel=2)
    return MseLoss.apply(input, target, reduction=reduction)


def nll_loss(input, target, reduction="mean"):
    """Negative log-likelihood of integer class ``target`` given log-probabilities ``input``."""
    t = target._data if isinstance(target, Tensor) else np.asarray(target)
    if t.dtype.kind not in "iu":
        raise RuntimeError(f"expected scalar type Long but found {t.dtype}")
    if t.size and (t.min() < 0 or t.max() >= input.shape[1]):
        raise IndexError(f"Target {int(t.max() if t.max() >= input.shape[1] else t.min())} is out of bounds.")
    return NllLoss.apply(input, target=t, reduction=reduction)


def cross_entropy(input, target, reduction="mean"):
    """Softmax cross-entropy of logits ``input`` (N, C) against class indices ``target`` (N,)."""
    return nll_loss(log_softmax(input, 1), target, reduction=reduction)


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: what ``nn.Linear`` computes, recorded as PyTorch records it.

    With a bias, a 2-D input is one ``addmm`` (``AddmmBackward0``); a contiguous input of other
    dims is viewed as 2-D for that ``addmm`` and the result viewed back. Otherwise it is
    ``matmul``, then the bias added in place.
    """
    if bias is None:
        return input @ weight.t()
    if input.ndim == 2 or (input.is_contiguous() and bias.is_contiguous()):
        # PyTorch's addmm checks, in its order and words (it never promotes).
        if bias.dtype != weight.dtype:
            raise RuntimeError("self and mat2 must have the same dtype, but got "
                               f"{dtypes.SCALAR_TYPE_NAMES[bias.dtype]} and {dtypes.SCALAR_TYPE_NAMES[weight.dtype]}")
        if input.dtype != weight.dtype:
            raise RuntimeError("mat1 and mat2 must have the same dtype, but got "
                               f"{dtypes.SCALAR_TYPE_NAMES[input.dtype]} and {dtypes.SCALAR_TYPE_NAMES[weight.dtype]}")
        if input.ndim == 2:
            return Addmm.apply(bias, input, weight.t())
        rows = Addmm.apply(bias, input.view(-1, input.shape[-1]), weight.t())
        return rows.view(*input.shape[:-1], weight.shape[0])
    return (input @ weight.t()).add_(bias)


