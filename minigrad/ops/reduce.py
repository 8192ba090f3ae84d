"""Reductions: ops that combine many elements into fewer.

Their backward does the opposite move: it spreads the incoming gradient back
over the elements that were combined (``_expand_back``), weighting each by
how much it contributed.
"""

import math
import warnings

import numpy as np

from .. import dtypes, messages
from ..fast_path import sum_all
from ..graph import Node
from ..tensor import Tensor
from .operands import apply_with_outputs, int_argument, normalize_dim, numpy_names, values_indices

# What max(dim)/min(dim) return, like torch.return_types.max.
MaxResult, MinResult, MedianResult = values_indices("max"), values_indices("min"), values_indices("median")


def _axes(dim, input):
    """``dim`` as the NumPy axes to reduce (None: all of them).

    A 0-d tensor has one dim in PyTorch's eyes (``dim=0`` or ``-1``: the tensor
    itself), which NumPy calls no axis at all.
    """
    axes = normalize_dim(dim, input.ndim)
    return () if axes is not None and input.ndim == 0 else axes


def _reduction_axes(dim, input):
    """``_axes`` for sum, mean, var, std, norm ...: an empty ``dim`` (``()`` or ``[]``) means every
    dim, as in PyTorch (``x.sum(dim=())`` is the sum of all elements, where NumPy's ``axis=()``
    would sum nothing and give ``x`` back), so each axis is named (and the node is the one for a
    ``dim``: ``SumBackward1``).

    >>> import minigrad
    >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).sum(dim=())
    tensor(10.)
    """
    axes = _axes(dim, input)
    if axes == () and input._data.ndim:  # (a tensor with dims, so the () came from an empty dim list)
        return tuple(range(input._data.ndim))
    return axes


def _kept_shape(shape, axes):
    """The shape with the reduced axes kept as size 1."""
    if axes is None:
        return (1,) * len(shape)
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def _expand_back(grad, shape, axes, keepdim):
    """Undo a reduction's shape: put the reduced axes back (size 1), then broadcast.

    After a reduction over every axis the gradient is 0-d, which broadcasts as it is
    (PyTorch's ``SumBackward0`` is a bare ``expand`` too).
    """
    if not keepdim and axes is not None:
        grad = grad.reshape(_kept_shape(shape, axes))
    return grad.expand(shape)


class Sum(Node):
    """z = sum of x over dims        grad_x = grad copied to every summed element"""

    may_warn = True

    saved_params = ("dim", "keepdim")

    def name(self):
        # (PyTorch's second form, sum(dim, keepdim), is SumBackward1: keepdim=True needs a dim, even None.)
        return "SumBackward0" if self.dim is None and not self.keepdim else "SumBackward1"

    def forward(self, x, dim=None, keepdim=False):
        self.dim, self.keepdim, self.shape = dim, keepdim, x.shape
        if dim is None and not keepdim:
            return sum_all(x)  # (fast_path: a small array's sum, quicker)
        return np.add.reduce(x, axis=dim, keepdims=keepdim)  # (x.sum, without its Python wrapper)

    def backward(self, grad):
        return _expand_back(grad, self.shape, self.dim, self.keepdim)


def broadcasts_to(shape, have):
    """Whether ``shape`` broadcasts to ``have`` (NumPy's rule, aligned from the right: each dim
    of ``shape`` is 1 or matches)."""
    lead = len(have) - len(shape)
    if lead < 0:
        return False
    if have[lead:] == shape:
        return True  # (only dims added in front: every bias's gradient)
    return all([s == 1 or s == n for s, n in zip(shape, have[lead:])])


def sum_to_shape(array, shape):
    """``array`` summed down to ``shape``, which it broadcasts from (checked by the caller)."""
    have = array.shape
    lead = len(have) - len(shape)
    if lead > 0 and have[lead:] == shape:  # only dims added in front (every bias's gradient)
        return np.add.reduce(array, axis=tuple(range(lead)) if lead > 1 else 0)
    axes = (*range(lead), *[lead + i for i, n in enumerate(shape) if n == 1 and have[lead + i] != 1])
    return np.add.reduce(array, axis=axes, keepdims=True).reshape(shape)


class SumToSize(Node):
    """z = x summed down to a shape it was broadcast from        grad_x = grad broadcast back"""

    may_warn = True

    def name(self):
        return "SumBackward1"

    def forward(self, x, shape):
        self.shape = x.shape
        return sum_to_shape(x, shape)

    def backward(self, grad):
        return grad.expand(self.shape)


class Mean(Node):
    """z = mean of x over dims        grad_x = grad / (number of elements averaged)"""

    may_warn = True

    saved_params = ("dim", "keepdim")

    def name(self):
        # (PyTorch's second form, mean(dim, keepdim), is MeanBackward1: keepdim=True needs a dim, even None.)
        return "MeanBackward0" if self.dim is None and not self.keepdim else "MeanBackward1"

    def forward(self, x, dim=None, keepdim=False):
        self.dim, self.keepdim, self.shape = dim, keepdim, x.shape
        # What x.mean() does, without its Python-level bookkeeping (float16 is summed in float32).
        total = np.asarray(np.add.reduce(x, axis=dim, keepdims=keepdim,
                                         dtype=np.float32 if x.dtype.char == "e" else None))
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
        return np.asarray(_spread(np.var, x, dim, correction, keepdim)).astype(x.dtype, copy=False)

    def backward(self, grad):
        (x,) = self.saved_tensors
        n = x.numel() if self.dim is None else math.prod([x.shape[a] for a in self.dim])
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
            _check_reducible(self.op, x, dim)
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


def _evenly_distributed(grad, x, z):
    """The gradient of max(), min() and median() (all elements), as PyTorch's: grad shared
    equally by the elements equal to the result (by the nans, when it is nan), exact zeros
    elsewhere. (amax and amin multiply by the share instead: inf * 0 is nan there, in PyTorch too.)
    """
    hits = np.isnan(x._data) if np.isnan(z._data) else x._data == z._data
    zeros = Tensor._wrap(np.zeros(x.shape, dtype=grad._data.dtype))
    return zeros.masked_fill(Tensor._wrap(hits), grad / int(np.count_nonzero(hits)))


class MaxAll(Amax):
    """z = max(x) over every element        grad shared equally by the maxima"""

    op = "max"

    def name(self):
        return "MaxBackward1"

    def backward(self, grad):
        return _evenly_distributed(grad, *self.saved_tensors)


class MinAll(Amin):
    """z = min(x) over every element        grad shared equally by the minima"""

    op = "min"

    def name(self):
        return "MinBackward1"

    def backward(self, grad):
        return _evenly_distributed(grad, *self.saved_tensors)


class MaxDim(Node):
    """z = max of x along dim (and its index)        grad_x = grad at the index, 0 elsewhere"""

    saved_params = ("dim", "keepdim")
    saved_arrays = ("indices",)
    pick = staticmethod(np.argmax)
    op = "max"  # (in its errors)

    def name(self):
        return "MaxBackward0"

    def forward(self, x, dim, keepdim=False):
        self.dim, self.keepdim, self.shape = dim, keepdim, x.shape
        if x.size == 0:
            _check_reducible(self.op, x, (dim,))
        idx = np.expand_dims(self.pick(x, axis=dim), dim)
        self.indices = Tensor._wrap(idx if keepdim else np.squeeze(idx, dim))
        return np.take_along_axis(x, idx, axis=dim) if keepdim else np.squeeze(np.take_along_axis(x, idx, axis=dim), dim)

    def backward(self, grad):
        onehot = np.arange(self.shape[self.dim]).reshape([-1 if a == self.dim else 1 for a in range(len(self.shape))])
        indices = self._array("indices")._data
        if not self.keepdim:
            indices = np.expand_dims(indices, self.dim)
        others = Tensor._wrap(onehot != indices)  # (exact zeros there, whatever grad holds)
        return _expand_back(grad, self.shape, (self.dim,), self.keepdim).masked_fill(others, 0)


class MinDim(MaxDim):
    """z = min of x along dim (and its index)        grad_x = grad at the index, 0 elsewhere"""

    pick = staticmethod(np.argmin)
    op = "min"

    def name(self):
        return "MinBackward0"


def _lower_median(x, axis=None, keepdims=False):
    """The median of all of ``x``: the lower of the two middle values for an even count, as
    PyTorch's, and nan if there is a nan (NumPy's sort would put it last, out of the middle)."""
    out = np.sort(x.reshape(-1), kind="stable")[(x.size - 1) // 2]
    if x.dtype.kind == "f" and np.isnan(x).any():
        out = x.dtype.type(np.nan)
    return np.reshape(out, (1,) * x.ndim) if keepdims else out


class MedianAll(Amax):
    """z = the median of all elements (the lower middle one)        grad shared equally by the elements equal to z"""

    saved_params = ()
    reduce = staticmethod(_lower_median)
    op = "median"

    def name(self):
        return "MedianBackward0"

    def backward(self, grad):
        return _evenly_distributed(grad, *self.saved_tensors)


class MedianDim(MaxDim):
    """z = the median along dim (and its index)        grad_x = grad at the index, 0 elsewhere"""

    op = "median"

    @staticmethod
    def pick(x, axis):
        order = np.argsort(x, axis=axis, kind="stable")
        middle = np.take(order, (x.shape[axis] - 1) // 2, axis=axis)
        if x.dtype.kind != "f":
            return middle
        nans = np.isnan(x)  # a row with a nan has the median nan, at its first nan, as PyTorch's
        return np.where(nans.any(axis=axis), np.argmax(nans, axis=axis), middle)

    def name(self):
        return "MedianBackward1"


class Nansum(Sum):
    """z = sum of x over dims, NaNs counted as 0        grad_x = grad where x is not NaN, else 0"""

    may_warn = True

    saves = ("self",)

    def name(self):
        return "NansumBackward0"

    def forward(self, x, dim=None, keepdim=False):
        self.dim, self.keepdim, self.shape = dim, keepdim, x.shape
        return np.asarray(np.nansum(x, axis=dim, keepdims=keepdim))

    def backward(self, grad):
        (x,) = self.saved_tensors
        number = Tensor._wrap((~np.isnan(x._data)).astype(grad._data.dtype))
        return _expand_back(grad, self.shape, self.dim, self.keepdim) * number


class Logsumexp(Node):
    """z = log(sum(exp(x)))        grad_x = grad * exp(x - z) (the softmax of x)"""

    may_warn = True

    saves = ("self", "result")
    saved_params = ("dim", "keepdim")

    def forward(self, x, dim, keepdim=False):
        self.dim, self.keepdim = dim, keepdim
        m = np.max(x, axis=dim, keepdims=True, initial=-np.inf)  # (initial: an empty slice's max is -inf)
        m = np.where(np.isfinite(m), m, 0)  # shift for stability; never by inf
        out = np.log(np.sum(np.exp(x - m), axis=dim, keepdims=True)) + m
        return out if keepdim else np.squeeze(out, axis=dim)

    def backward(self, grad):
        x, z = self.saved_tensors
        return _expand_back(grad, x.shape, self.dim, self.keepdim) * (x - _expand_back(z, x.shape, self.dim, self.keepdim)).exp()


class Norm(Node):
    """z = (sum |x|**p) ** (1/p); p = inf: max |x|, p = -inf: min |x|, p = 0: the count of nonzeros

    grad_x = grad * sign(x) * |x|**(p-1) / z**(p-1)   (p=2: grad * x / z, p=1: grad * sign(x));
    p = +-inf: grad * sign(x), shared by the elements where |x| = z; p = 0: none (z is flat).
    Where z is 0 (and, for p < 1, where x is 0) the gradient is 0, as in PyTorch's formula.
    """

    may_warn = True

    saves = ("self", "result")
    saved_params = ("ord", "dim", "keepdim")

    def name(self):
        return "LinalgVectorNormBackward0"

    def forward(self, x, ord=2, dim=None, keepdim=False):
        self.ord, self.dim, self.keepdim = ord, dim, keepdim
        if ord == 2:
            out = np.sqrt(np.sum(x * x, axis=dim, keepdims=keepdim))
        elif ord in (math.inf, -math.inf):
            out = (np.maximum if ord > 0 else np.minimum).reduce(np.abs(x), axis=dim, keepdims=keepdim)
        elif ord == 0:
            out = np.add.reduce(x != 0, axis=dim, keepdims=keepdim)
        else:
            out = np.sum(np.abs(x) ** ord, axis=dim, keepdims=keepdim) ** (1.0 / ord)
        return np.asarray(out).astype(x.dtype, copy=False)

    def backward(self, grad):
        x, z = self.saved_tensors
        p = self.ord
        if p == 0:
            return None
        z = _expand_back(z, x.shape, self.dim, self.keepdim)
        grad = _expand_back(grad, x.shape, self.dim, self.keepdim)
        if p == 1:
            return grad * x.sign()
        zero_norm = Tensor._wrap(z._data == 0)
        if p == 2:
            return grad * (x / z).masked_fill(zero_norm, 0.0)
        if p in (math.inf, -math.inf):
            # The elements that are the max (min) |x|, or nan, share the gradient equally.
            picked = (np.abs(x._data) == z._data) | np.isnan(x._data)
            share = picked / np.add.reduce(picked, axis=self.dim, keepdims=True)
            return grad * x.sign() * Tensor._wrap(share.astype(x._data.dtype))
        if p < 1:
            scaled = x.sign() * (x.abs() ** (p - 1)).masked_fill(Tensor._wrap(x._data == 0), 0.0)
            return scaled * grad * z ** (1 - p)
        scaled = x.sign() * x.abs() ** (p - 1)
        return scaled * (grad / z ** (p - 1)).masked_fill(zero_norm, 0.0)


class Std(Node):
    """z = sqrt(var(x))        grad_x = grad * (x - mean) / ((N - correction) * z)"""

    may_warn = True

    saves = ("self", "result")
    saved_params = ("dim", "correction", "keepdim")

    def forward(self, x, dim=None, correction=1, keepdim=False):
        self.dim, self.correction, self.keepdim = dim, correction, keepdim
        return np.asarray(_spread(np.std, x, dim, correction, keepdim)).astype(x.dtype, copy=False)

    def backward(self, grad):
        x, z = self.saved_tensors
        n = _count(x.shape, self.dim)
        centered = x - x.mean(dim=self.dim, keepdim=True)
        # As PyTorch: where the deviation is 0 (all numbers equal) the gradient is 0, not 0 / 0.
        spread = _expand_back((grad / z).masked_fill(z == 0, 0), x.shape, self.dim, self.keepdim)
        return spread * centered / (n - self.correction)


class VarMean(Node):
    """(v, m) = (var(x), mean(x)), one node with two outputs

    grad_x = grad_v * 2 (x - mean) / (N - correction) + grad_m / N
    """

    may_warn = True
    several_outputs = True

    saves = ("self",)
    saved_params = ("dim", "correction", "keepdim")
    spread = staticmethod(np.var)

    def forward(self, x, dim=None, correction=1, keepdim=False):
        self.dim, self.correction, self.keepdim = dim, correction, keepdim
        first = np.asarray(_spread(self.spread, x, dim, correction, keepdim)).astype(x.dtype, copy=False)
        return first, np.asarray(x.mean(axis=dim, keepdims=keepdim)).astype(x.dtype, copy=False)

    def backward(self, grad_spread, grad_mean):
        (x,) = self.saved_tensors
        total = None
        if grad_spread is not None:
            total = self._spread_grad(x, grad_spread)
        if grad_mean is not None:
            from_mean = _expand_back(grad_mean, x.shape, self.dim, self.keepdim) / _count(x.shape, self.dim)
            total = from_mean if total is None else total + from_mean
        return total

    def _spread_grad(self, x, grad):
        centered = x - x.mean(dim=self.dim, keepdim=True)
        n = _count(x.shape, self.dim)
        return _expand_back(grad, x.shape, self.dim, self.keepdim) * centered * (2.0 / (n - self.correction))


class StdMean(VarMean):
    """(s, m) = (std(x), mean(x)), one node with two outputs

    grad_x = grad_s * (x - mean) / ((N - correction) * s) + grad_m / N
    """

    spread = staticmethod(np.std)

    def _spread_grad(self, x, grad):
        s = std(x, self.dim, keepdim=True, correction=self.correction)
        centered = x - x.mean(dim=self.dim, keepdim=True)
        n = _count(x.shape, self.dim)
        per_deviation = (_expand_back(grad, x.shape, self.dim, self.keepdim) / s).masked_fill(s == 0, 0)  # (as Std)
        return per_deviation * centered / (n - self.correction)


class Prod(Node):
    """z = product of x over dims        grad_x = grad * (product of the other elements)

    Where no element is 0 that is ``grad * z / x``. Where one is, the products of the others
    are computed directly (NB: as constants: a second derivative there is not recorded).
    """

    may_warn = True

    saves = ("self", "result")
    saved_params = ("dim", "keepdim")

    def name(self):
        return "ProdBackward0" if self.dim is None else "ProdBackward1"

    def forward(self, x, dim=None, keepdim=False):
        self.dim, self.keepdim = dim, keepdim
        axes = None if dim is None else (dim,)
        return np.asarray(np.prod(x, axis=axes, keepdims=keepdim))

    def backward(self, grad):
        x, z = self.saved_tensors
        axes = None if self.dim is None else (self.dim,)
        spread = _expand_back(grad, x.shape, axes, self.keepdim)
        if not (x._data == 0).any():
            return spread * _expand_back(z, x.shape, axes, self.keepdim) / x
        return spread * Tensor._wrap(_products_of_others(x._data, self.dim))


def _products_of_others(x, dim):
    """For each element, the product of the other elements along ``dim`` (all, if None)."""
    flat = x.reshape(-1) if dim is None else np.moveaxis(x, dim, -1)
    ones = np.ones(flat.shape[:-1] + (1,), dtype=x.dtype)
    before = np.concatenate([ones, np.cumprod(flat, axis=-1)[..., :-1]], axis=-1)
    after = np.concatenate([np.cumprod(flat[..., ::-1], axis=-1)[..., :-1][..., ::-1], ones], axis=-1)
    others = before * after
    return others.reshape(x.shape) if dim is None else np.moveaxis(others, -1, dim)


class Cumsum(Node):
    """z_i = x_0 + ... + x_i along dim        grad_x_i = grad_i + ... + grad_last (a reversed cumsum)"""

    may_warn = True

    saved_params = ("dim",)

    def forward(self, x, dim):
        self.dim = dim
        out = np.cumsum(x, axis=dim)
        if out.dtype.kind in "fc":
            out += 0.0  # PyTorch's running sum starts at +0., so -0. never comes out: NumPy's starts at x_0
        return out

    def backward(self, grad):
        return grad.flip(self.dim).cumsum(self.dim).flip(self.dim)


class Cumprod(Node):
    """z_i = x_0 * ... * x_i along dim

    grad_x_i = sum over j >= i of grad_j * z_j / x_i (a reversed cumsum); NB: where an x is 0 the
    products of the others are computed directly, as constants (no second derivative there).
    """

    may_warn = True

    saves = ("self", "result")
    saved_params = ("dim",)

    def forward(self, x, dim):
        self.dim = dim
        return np.cumprod(x, axis=dim)

    def backward(self, grad):
        x, z = self.saved_tensors
        if not (x._data == 0).any():
            return (grad * z).flip(self.dim).cumsum(self.dim).flip(self.dim) / x
        g, values = np.moveaxis(grad._data, self.dim, -1), np.moveaxis(x._data, self.dim, -1)
        out = np.zeros_like(values)
        n = values.shape[-1]
        for i in range(n):  # d z_j / d x_i = product of x_0..x_j without x_i, for j >= i
            others = values.copy()
            others[..., i] = 1
            out[..., i] = np.sum(g[..., i:] * np.cumprod(others, axis=-1)[..., i:], axis=-1)
        return Tensor._wrap(np.moveaxis(out, -1, self.dim))


def _count(shape, axes):
    """How many elements a reduction over ``axes`` combines into one."""
    return math.prod(shape) if axes is None else math.prod([shape[a] for a in axes])


def _check_reducible(op, x, axes, specify=True):
    """PyTorch's errors for a max-like reduction of an empty ``x``: over every element (``axes``
    None; ``specify``: with PyTorch's advice to name a dim), or over a dim of size 0."""
    if axes is None:
        advice = " Specify the reduction dim with the 'dim' argument." if specify else ""
        raise (RuntimeError if specify else IndexError)(
            f"{op}(): Expected reduction dim to be specified for input.numel() == 0.{advice}")
    for axis in axes:
        if x.shape[axis] == 0:
            raise IndexError(f"{op}(): Expected reduction dim {axis} to have non-zero size.")


def _spread(function, x, axes, correction, keepdim):
    """``np.var`` or ``np.std`` of ``x``.

    Where ``correction`` leaves no degrees of freedom, NumPy warns in its own words; the op
    function has given PyTorch's warning (``_no_freedom_left``). So there the sum of squares is
    divided by zero here (inf, or nan for 0 / 0), as NumPy and PyTorch both do, without it.
    (Not ``warnings.catch_warnings``: leaving it resets which warnings were already shown.)
    """
    count = _count(x.shape, axes)
    if count - correction > 0:
        return function(x, axis=axes, ddof=correction, keepdims=keepdim)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.add.reduce(x, axis=axes, keepdims=True) / count
        variance = np.add.reduce(np.abs(x - mean) ** 2, axis=axes, keepdims=keepdim) / 0.0
    return variance if function is np.var else np.sqrt(variance)


def _no_freedom_left(op, input, axes, correction):
    """PyTorch's warning (each time) when ``correction`` is not below the number of elements
    reduced together: the result is then nan or inf."""
    if _count(input._data.shape, axes) - correction <= 0:
        warnings.warn(f"{op}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel).", UserWarning, stacklevel=4)  # (at the user's line)


def _needs_float(name, t, which="Input"):
    if not dtypes.is_floating(t.dtype):
        kind = {"i": "Long", "b": "Bool"}.get(t.dtype.kind, str(t.dtype))
        raise RuntimeError(
            f"{name}(): could not infer output dtype. {which} dtype must be either a floating "
            f"point or complex dtype. Got: {kind}"
        )


@numpy_names
def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over all elements, or over ``dim`` (an int or a tuple of ints).

    >>> import minigrad
    >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).sum(dim=0)
    tensor([4., 6.])
    """
    if dtype is not None:
        input = input.to(dtype)
    if input._data.dtype.kind in "bu":
        input = input.long()  # as PyTorch: sums of bools and uint8 are int64 (NumPy's of uint8 are uint64)
    if dim is None and not keepdim:
        return Sum.apply_unary(input)  # (Sum's forward defaults: an op without params calls it plainly)
    return Sum.apply_unary(input, _reduction_axes(dim, input), keepdim)


def sum_to_size(input, *size):
    """Sum ``input`` down to ``size``, which it must broadcast from (the adjoint of broadcasting)."""
    shape = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else tuple(size)
    have = input._data.shape  # (a plain tuple: the engine calls this for every broadcast input)
    if have == shape:
        return input
    if not broadcasts_to(shape, have):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(have)}}}.")
    return SumToSize.apply(input, shape=shape)


@numpy_names
def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Average over all elements, or over ``dim``."""
    if dtype is not None:
        input = input.to(dtype)
    _needs_float("mean", input, "Optional" if dtype is not None else "Input")
    return Mean.apply_unary(input, _reduction_axes(dim, input), keepdim)


@numpy_names
def _spread_args(op, dim, unbiased, correction):
    """``(dim, correction)`` from var/std's two spellings: ``unbiased=`` (old) or ``correction=``."""
    if isinstance(dim, bool):  # the var(unbiased) positional form
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased in (None, True) else 0
    elif unbiased is not None:
        # NB: PyTorch's message goes on to list every signature it accepts; minigrad's stops here.
        raise TypeError(f"{op}() received an invalid combination of arguments - got (correction=int, unbiased=bool, )")
    return dim, correction


@numpy_names
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """Variance; divides by N - 1 by default (Bessel's correction: ``unbiased=True``, ``correction=1``).

    >>> import minigrad
    >>> minigrad.tensor([1.0, 2.0, 3.0, 4.0]).var(correction=0)
    tensor(1.2500)
    """
    dim, correction = _spread_args("var", dim, unbiased, correction)
    _needs_float("var", input)
    axes = _reduction_axes(dim, input)
    _no_freedom_left("var", input, axes, correction)
    return Var.apply(input, dim=axes, correction=correction, keepdim=keepdim)


@numpy_names
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """Standard deviation: ``sqrt(var(...))``, with var's arguments.

    >>> import minigrad
    >>> minigrad.tensor([[1.0, 3.0], [2.0, 2.0]]).std(dim=1)
    tensor([1.4142, 0.0000])
    """
    dim, correction = _spread_args("std", dim, unbiased, correction)
    _needs_float("std", input)
    axes = _reduction_axes(dim, input)
    _no_freedom_left("std", input, axes, correction)
    return Std.apply(input, dim=axes, correction=correction, keepdim=keepdim)


@numpy_names
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """``(var, mean)`` in one op (one node, two outputs: ``VarMeanBackward0``).

    >>> import minigrad
    >>> minigrad.var_mean(minigrad.tensor([1.0, 2.0, 3.0]))
    (tensor(1.), tensor(2.))
    """
    dim, correction = _spread_args("var_mean", dim, unbiased, correction)
    _needs_float("var_mean", input)
    axes = _reduction_axes(dim, input)
    _no_freedom_left("var_mean", input, axes, correction)
    return apply_with_outputs(VarMean, [input], dim=axes, correction=correction, keepdim=keepdim)


@numpy_names
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """``(std, mean)`` in one op (one node, two outputs: ``StdMeanBackward0``)."""
    dim, correction = _spread_args("std_mean", dim, unbiased, correction)
    _needs_float("std_mean", input)
    axes = _reduction_axes(dim, input)
    _no_freedom_left("std_mean", input, axes, correction)
    return apply_with_outputs(StdMean, [input], dim=axes, correction=correction, keepdim=keepdim)


@numpy_names
def prod(input, dim=None, keepdim=False, *, dtype=None):
    """Product of all elements, or along one ``dim``.

    >>> import minigrad
    >>> minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]).prod(1)
    tensor([ 2., 12.])
    """
    if dtype is not None:
        input = input.to(dtype)
    elif input.dtype.kind in "biu":
        input = input.long()  # as PyTorch: integer products are int64
    if dim is None:
        return Prod.apply(input)
    (axis,) = normalize_dim(int_argument("prod", "dim", dim), input.ndim)
    if input.ndim == 0:
        return Prod.apply(input, keepdim=keepdim)
    return Prod.apply(input, dim=axis, keepdim=keepdim)


def _running(node_class, name, input, dim, dtype):
    """cumsum / cumprod: integers (uint8 too) and bools accumulate in int64 (as PyTorch), a 0-d input as one
    element."""
    if dtype is not None:
        input = input.to(dtype)
    elif input.dtype.kind in "biu":
        input = input.long()
    (axis,) = normalize_dim(int_argument(name, "dim", dim), input.ndim)
    if input.ndim == 0:
        return node_class.apply(input.reshape(1), dim=0).reshape(())
    return node_class.apply(input, dim=axis)


@numpy_names
def cumsum(input, dim, *, dtype=None):
    """Running sums along ``dim``: ``z_i = x_0 + ... + x_i``.

    >>> import minigrad
    >>> minigrad.tensor([1.0, 2.0, 3.0]).cumsum(0)
    tensor([1., 3., 6.])
    """
    return _running(Cumsum, "cumsum", input, dim, dtype)


@numpy_names
def amax(input, dim=(), keepdim=False):
    """Largest element over ``dim`` (all dims by default)."""
    axes = None if dim == () or dim is None else _axes(dim, input)
    return Amax.apply(input, dim=axes, keepdim=keepdim)


@numpy_names
def amin(input, dim=(), keepdim=False):
    """Smallest element over ``dim`` (all dims by default)."""
    axes = None if dim == () or dim is None else _axes(dim, input)
    return Amin.apply(input, dim=axes, keepdim=keepdim)


def _max_or_min(input, dim, keepdim, all_class, dim_class):
    if dim is None:
        return all_class.apply(input)
    op_name = {MaxDim: "max", MinDim: "min", MedianDim: "median"}[dim_class]
    (axis,) = normalize_dim(int_argument(op_name, "dim", dim), input.ndim)
    if input.ndim == 0:
        # NB: PyTorch reduces a 0-d tensor over its dim 0 directly; minigrad views it as 1-D first.
        return _max_or_min(input.reshape(1), 0, False, all_class, dim_class)
    node_input = input
    values = dim_class.apply(node_input, dim=axis, keepdim=keepdim)
    node = values.grad_fn
    indices = node.indices if node is not None else Tensor._wrap(dim_class.pick(input._data, axis=axis))
    if node is None and keepdim:
        indices = Tensor._wrap(np.expand_dims(indices._data, axis))
    return {MaxDim: MaxResult, MinDim: MinResult, MedianDim: MedianResult}[dim_class](values, indices)


@numpy_names
def max(input, dim=None, keepdim=False):
    """Without ``dim``: the largest element (0-d). With ``dim``: ``(values, indices)``."""
    if isinstance(dim, Tensor):
        from .elementwise import maximum

        return maximum(input, dim)
    return _max_or_min(input, dim, keepdim, MaxAll, MaxDim)


@numpy_names
def min(input, dim=None, keepdim=False):
    """Without ``dim``: the smallest element (0-d). With ``dim``: ``(values, indices)``."""
    if isinstance(dim, Tensor):
        from .elementwise import minimum

        return minimum(input, dim)
    return _max_or_min(input, dim, keepdim, MinAll, MinDim)


@numpy_names
def argmax(input, dim=None, keepdim=False):
    """Index of the largest element (of the flattened tensor, or along ``dim``); outside the graph."""
    if dim is None:
        if not input._data.size:
            _check_reducible("argmax", input._data, None, specify=False)
        return Tensor._wrap(np.asarray(np.argmax(input._data)))
    (axis,) = _axes(dim, input) or (None,)
    if not input._data.size:
        _check_reducible("argmax", input._data, (axis,) if axis is not None else None, specify=False)
    return Tensor._wrap(np.asarray(np.argmax(input._data, axis=axis, keepdims=keepdim)))


@numpy_names
def argmin(input, dim=None, keepdim=False):
    """Index of the smallest element (of the flattened tensor, or along ``dim``); outside the graph."""
    if dim is None:
        if not input._data.size:
            _check_reducible("argmin", input._data, None, specify=False)
        return Tensor._wrap(np.asarray(np.argmin(input._data)))
    (axis,) = _axes(dim, input) or (None,)
    if not input._data.size:
        _check_reducible("argmin", input._data, (axis,) if axis is not None else None, specify=False)
    return Tensor._wrap(np.asarray(np.argmin(input._data, axis=axis, keepdims=keepdim)))


@numpy_names
def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(input)))`` over ``dim``, computed without overflow."""
    _needs_float("logsumexp", input)
    if isinstance(dim, (tuple, list)) and not dim and input._data.ndim and not keepdim:
        # PyTorch's own error for an empty dim: its kept shape (all ones) does not fit its 0-d result.
        raise RuntimeError("output with shape [] doesn't match the broadcast shape "
                           f"{messages.format_shape((1,) * input._data.ndim)}")
    return Logsumexp.apply(input, dim=_reduction_axes(dim, input), keepdim=keepdim)


def _check_norm_has_identity(input, ord, dim):
    """PyTorch's error for a max-like norm (p = inf or p < 0) over no elements: it has no identity."""
    shown = f"{ord:g}" if isinstance(ord, float) else ord
    if dim is None:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on an empty tensor because the "
                           "operation does not have an identity")
    for axis in _reduction_axes(dim, input):
        if not input._data.shape[axis]:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on the dimension {axis}"
                               "because this dimension is empty and the operation does not have an identity")


@numpy_names
def norm(input, p="fro", dim=None, keepdim=False):
    """Vector p-norm of all elements (default 2, the Euclidean length), or over ``dim``."""
    ord = 2 if p in ("fro", None) else p
    _needs_float("linalg.vector_norm", input)
    if not input._data.size and (ord < 0 or ord == math.inf):
        _check_norm_has_identity(input, ord, dim)
    return Norm.apply(input, ord=ord, dim=_reduction_axes(dim, input), keepdim=keepdim)



@numpy_names
def cumprod(input, dim, *, dtype=None):
    """Running products along ``dim``: ``z_i = x_0 * ... * x_i``.

    >>> import minigrad
    >>> minigrad.tensor([1.0, 2.0, 3.0]).cumprod(0)
    tensor([1., 2., 6.])
    """
    return _running(Cumprod, "cumprod", input, dim, dtype)



@numpy_names
def median(input, dim=None, keepdim=False):
    """Without ``dim``: the median of all elements (0-d). With ``dim``: ``(values, indices)``.

    For an even count it is the lower of the two middle values, as PyTorch's (not their mean).

    >>> import minigrad
    >>> minigrad.tensor([1.0, 3.0, 2.0, 4.0]).median()
    tensor(2.)
    """
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError("median() input tensor cannot be empty")  # NB: PyTorch returns nan here
        return MedianAll.apply(input)
    return _max_or_min(input, dim, keepdim, MedianAll, MedianDim)


@numpy_names
def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """``sum``, with NaNs counted as 0."""
    if dtype is not None:
        input = input.to(dtype)
    elif input.dtype.kind in "bu":
        input = input.long()  # (as sum)
    return Nansum.apply(input, dim=_reduction_axes(dim, input), keepdim=keepdim)
