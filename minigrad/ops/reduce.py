"""Reductions: ops that combine many elements into fewer.

Their backward does the opposite move: it spreads the incoming gradient back
over the elements that were combined (``_expand_back``), weighting each by
how much it contributed.
"""

import collections

import numpy as np

from .. import dtypes
from ..function import Node
from ..tensor import Tensor
from .operands import normalize_dim

# What max(dim)/min(dim) return, like torch.return_types.max.
ValuesIndices = collections.namedtuple("ValuesIndices", ["values", "indices"])


def _axes(dim, input):
    """``dim`` as the NumPy axes to reduce (None: all of them).

    A 0-d tensor has one dim in PyTorch's eyes (``dim=0`` or ``-1``: the tensor
    itself), which NumPy calls no axis at all.
    """
    axes = normalize_dim(dim, input.ndim)
    return () if axes is not None and input.ndim == 0 else axes


def _kept_shape(shape, axes):
    """The shape with the reduced axes kept as size 1."""
    if axes is None:
        return (1,) * len(shape)
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def _expand_back(grad, shape, axes, keepdim):
    """Undo a reduction's shape: put the reduced axes back (size 1), then broadcast."""
    if not keepdim:
        grad = grad.reshape(_kept_shape(shape, axes))
    return grad.expand(shape)


class Sum(Node):
    """z = sum of x over dims        grad_x = grad copied to every summed element"""

    saved_params = ("dim", "keepdim")

    def name(self):
        return "SumBackward0" if self.dim is None else "SumBackward1"

    def forward(self, x, dim=None, keepdim=False):
        self.dim, self.keepdim, self.shape = dim, keepdim, x.shape
        return np.asarray(x.sum(axis=dim, keepdims=keepdim))

    def backward(self, grad):
        return _expand_back(grad, self.shape, self.dim, self.keepdim)


class SumToSize(Node):
    """z = x summed down to a shape it was broadcast from        grad_x = grad broadcast back"""

    def name(self):
        return "SumBackward1"

    def forward(self, x, shape):
        self.shape = x.shape
        lead = x.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape) if n == 1 and x.shape[lead + i] != 1)
        return np.asarray(x.sum(axis=axes, keepdims=True).reshape(shape))

    def backward(self, grad):
        return grad.expand(self.shape)


class Mean(Node):
    """z = mean of x over dims        grad_x = grad / (number of elements averaged)"""

    may_warn = True

    saved_params = ("dim", "keepdim")

    def name(self):
        return "MeanBackward0" if self.dim is None else "MeanBackward1"

    def forward(self, x, dim=None, keepdim=False):
        self.dim, self.keepdim, self.shape = dim, keepdim, x.shape
        # What x.mean() does, without its Python-level bookkeeping (float16 is summed in float32).
        total = np.asarray(x.sum(axis=dim, keepdims=keepdim, dtype=np.float32 if x.dtype == np.float16 else None))
        # A nonempty x gives a nonempty total.
        self.count = x.size // total.size if x.size else 0
        return np.asarray(total / self.count).astype(x.dtype, copy=False)

    def backward(self, grad):
        return _expand_back(grad, self.shape, self.dim, self.keepdim) / self.count


class Var(Node):
    """z = sum((x - mean)**2) / (N - correction)        grad_x = grad * 2 (x - mean) / (N - correction)"""

    may_warn = True

    saves = ("self",)
    saved_params = ("dim", "correction", "keepdim")

    def forward(self, x, dim=None, correction=1, keepdim=False):
        self.dim, self.correction, self.keepdim = dim, correction, keepdim
        return np.asarray(x.var(axis=dim, ddof=correction, keepdims=keepdim)).astype(x.dtype, copy=False)

    def backward(self, grad):
        (x,) = self.saved_tensors
        n = x.numel() if self.dim is None else int(np.prod([x.shape[a] for a in self.dim]))
        centered = x - x.mean(dim=self.dim, keepdim=True)
        return _expand_back(grad, x.shape, self.dim, self.keepdim) * centered * (2.0 / (n - self.correction))


class Amax(Node):
    """z = largest element over dims        grad shared equally by the elements equal to z"""

    saves = ("self", "result")
    saved_params = ("dim", "keepdim")
    reduce = staticmethod(np.max)
    op = "amax"

    def forward(self, x, dim=None, keepdim=False):
        self.dim, self.keepdim = dim, keepdim
        if x.size == 0:
            raise RuntimeError(f"{self.op}(): Expected reduction dim to be specified for input.numel() == 0.")
        return np.asarray(self.reduce(x, axis=dim, keepdims=keepdim))

    def backward(self, grad):
        x, z = self.saved_tensors
        hits = (x._data == _expand_back(z, x.shape, self.dim, self.keepdim)._data).astype(grad.dtype)
        count = hits.sum(axis=self.dim, keepdims=True)
        return _expand_back(grad, x.shape, self.dim, self.keepdim) * Tensor._wrap(hits / count)


class Amin(Amax):
    """z = smallest element over dims        grad shared equally by the elements equal to z"""

    reduce = staticmethod(np.min)
    op = "amin"


class MaxAll(Amax):
    """z = max(x) over every element        grad shared equally by the maxima"""

    def name(self):
        return "MaxBackward1"


class MinAll(Amin):
    """z = min(x) over every element        grad shared equally by the minima"""

    def name(self):
        return "MinBackward1"


class MaxDim(Node):
    """z = max of x along dim (and its index)        grad_x = grad at the index, 0 elsewhere"""

    saved_params = ("dim", "keepdim")
    saved_arrays = ("indices",)
    pick = staticmethod(np.argmax)

    def name(self):
        return "MaxBackward0"

    def forward(self, x, dim, keepdim=False):
        self.dim, self.keepdim, self.shape = dim, keepdim, x.shape
        idx = np.expand_dims(self.pick(x, axis=dim), dim)
        self.indices = Tensor._wrap(idx if keepdim else np.squeeze(idx, dim))
        return np.take_along_axis(x, idx, axis=dim) if keepdim else np.squeeze(np.take_along_axis(x, idx, axis=dim), dim)

    def backward(self, grad):
        onehot = np.arange(self.shape[self.dim]).reshape([-1 if a == self.dim else 1 for a in range(len(self.shape))])
        indices = self._array("indices")._data
        if not self.keepdim:
            indices = np.expand_dims(indices, self.dim)
        chosen = Tensor._wrap((onehot == indices).astype(grad.dtype))
        return _expand_back(grad, self.shape, (self.dim,), self.keepdim) * chosen


class MinDim(MaxDim):
    """z = min of x along dim (and its index)        grad_x = grad at the index, 0 elsewhere"""

    pick = staticmethod(np.argmin)

    def name(self):
        return "MinBackward0"


class Logsumexp(Node):
    """z = log(sum(exp(x)))        grad_x = grad * exp(x - z) (the softmax of x)"""

    may_warn = True

    saves = ("self", "result")
    saved_params = ("dim", "keepdim")

    def forward(self, x, dim, keepdim=False):
        self.dim, self.keepdim = dim, keepdim
        m = np.max(x, axis=dim, keepdims=True)
        m = np.where(np.isfinite(m), m, 0)  # shift for stability; never by inf
        out = np.log(np.sum(np.exp(x - m), axis=dim, keepdims=True)) + m
        return out if keepdim else np.squeeze(out, axis=dim)

    def backward(self, grad):
        x, z = self.saved_tensors
        return _expand_back(grad, x.shape, self.dim, self.keepdim) * (x - _expand_back(z, x.shape, self.dim, self.keepdim)).exp()


class Norm(Node):
    """z = (sum |x|**p) ** (1/p)        grad_x = grad * x * |x|**(p-2) / z**(p-1)  (p=2: grad * x / z)"""

    may_warn = True

    saves = ("self", "result")
    saved_params = ("ord", "dim", "keepdim")

    def name(self):
        return "LinalgVectorNormBackward0"

    def forward(self, x, ord=2, dim=None, keepdim=False):
        self.ord, self.dim, self.keepdim = ord, dim, keepdim
        if ord == 2:
            out = np.sqrt(np.sum(x * x, axis=dim, keepdims=keepdim))
        else:
            out = np.sum(np.abs(x) ** ord, axis=dim, keepdims=keepdim) ** (1.0 / ord)
        return np.asarray(out).astype(x.dtype, copy=False)

    def backward(self, grad):
        x, z = self.saved_tensors
        z = _expand_back(z, x.shape, self.dim, self.keepdim)
        grad = _expand_back(grad, x.shape, self.dim, self.keepdim)
        safe_z = z + Tensor._wrap((z._data == 0).astype(z.dtype))  # 0/0 -> 0, as PyTorch's masked formula
        if self.ord == 2:
            return grad * x / safe_z
        if self.ord == 1:
            return grad * x.sign()
        return grad * x * x.abs() ** (self.ord - 2) / safe_z ** (self.ord - 1)


def _needs_float(name, t):
    if not dtypes.is_floating(t.dtype):
        kind = {"i": "Long", "b": "Bool"}.get(t.dtype.kind, str(t.dtype))
        raise RuntimeError(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating "
            f"point or complex dtype. Got: {kind}"
        )


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over all elements, or over ``dim`` (an int or a tuple of ints).

    >>> import minigrad
    >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).sum(dim=0)
    tensor([4., 6.])
    """
    if dtype is not None:
        input = input.to(dtype)
    if input.dtype.kind == "b":
        input = input.long()
    return Sum.apply(input, dim=_axes(dim, input), keepdim=keepdim)


def sum_to_size(input, *size):
    """Sum ``input`` down to ``size``, which it must broadcast from (the adjoint of broadcasting)."""
    shape = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else tuple(size)
    if input.shape == shape:
        return input
    # NumPy's broadcasting rule, aligned from the right: each dim of `shape` is 1 or matches.
    if len(shape) > input.ndim or not all(s == 1 or s == n for s, n in zip(shape[::-1], input.shape[::-1])):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(input.shape)}}}.")
    return SumToSize.apply(input, shape=shape)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Average over all elements, or over ``dim``."""
    if dtype is not None:
        input = input.to(dtype)
    _needs_float("mean", input)
    return Mean.apply(input, dim=_axes(dim, input), keepdim=keepdim)


def var(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """Variance; ``unbiased=True`` divides by N - 1 (Bessel's correction)."""
    if isinstance(dim, bool):  # var(unbiased) positional form
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased else 0
    _needs_float("var", input)
    return Var.apply(input, dim=_axes(dim, input), correction=correction, keepdim=keepdim)


def amax(input, dim=(), keepdim=False):
    """Largest element over ``dim`` (all dims by default)."""
    axes = None if dim == () or dim is None else _axes(dim, input)
    return Amax.apply(input, dim=axes, keepdim=keepdim)


def amin(input, dim=(), keepdim=False):
    """Smallest element over ``dim`` (all dims by default)."""
    axes = None if dim == () or dim is None else _axes(dim, input)
    return Amin.apply(input, dim=axes, keepdim=keepdim)


def _max_or_min(input, dim, keepdim, all_class, dim_class):
    if dim is None:
        return all_class.apply(input)
    (axis,) = normalize_dim(dim, input.ndim)
    if input.ndim == 0:
        # NB: PyTorch reduces a 0-d tensor over its dim 0 directly; minigrad views it as 1-D first.
        return _max_or_min(input.reshape(1), 0, False, all_class, dim_class)
    node_input = input
    values = dim_class.apply(node_input, dim=axis, keepdim=keepdim)
    node = values.grad_fn
    indices = node.indices if node is not None else Tensor._wrap(
        np.argmax(input._data, axis=axis) if dim_class is MaxDim else np.argmin(input._data, axis=axis))
    if node is None and keepdim:
        indices = Tensor._wrap(np.expand_dims(indices._data, axis))
    return ValuesIndices(values, indices)


def max(input, dim=None, keepdim=False):
    """Without ``dim``: the largest element (0-d). With ``dim``: ``(values, indices)``."""
    if isinstance(dim, Tensor):
        from .elementwise import maximum

        return maximum(input, dim)
    return _max_or_min(input, dim, keepdim, MaxAll, MaxDim)


def min(input, dim=None, keepdim=False):
    """Without ``dim``: the smallest element (0-d). With ``dim``: ``(values, indices)``."""
    if isinstance(dim, Tensor):
        from .elementwise import minimum

        return minimum(input, dim)
    return _max_or_min(input, dim, keepdim, MinAll, MinDim)


def argmax(input, dim=None, keepdim=False):
    if dim is None:
        return Tensor._wrap(np.asarray(np.argmax(input._data)))
    return Tensor._wrap(np.argmax(input._data, axis=dim, keepdims=keepdim))


def argmin(input, dim=None, keepdim=False):
    if dim is None:
        return Tensor._wrap(np.asarray(np.argmin(input._data)))
    return Tensor._wrap(np.argmin(input._data, axis=dim, keepdims=keepdim))


def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(input)))`` over ``dim``, computed without overflow."""
    _needs_float("logsumexp", input)
    return Logsumexp.apply(input, dim=_axes(dim, input), keepdim=keepdim)


def norm(input, p="fro", dim=None, keepdim=False):
    """Vector p-norm of all elements (default 2, the Euclidean length), or over ``dim``."""
    ord = 2 if p in ("fro", None) else p
    _needs_float("linalg.vector_norm", input)
    return Norm.apply(input, ord=ord, dim=_axes(dim, input), keepdim=keepdim)
