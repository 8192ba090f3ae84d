"""Speed, continued from ``fast_path.py``: backward formulas on arrays when nothing records.

A backward formula (``Mul.backward``: ``grad * y``) is written with Tensor ops, so
that ``create_graph=True`` records it like any forward code, to any order. Without
``create_graph`` nothing records, yet each of those ops still walks the whole op
machinery (operator, promotion, ``Node.apply``, a node, the wrapper), several times
the cost of NumPy's arithmetic on a learner's small tensors.

So in a pass without ``create_graph`` the gradients in flight are ``PlainGradient`` s:
Tensors (every op and function accepts them) whose arithmetic operators and most used
methods go straight to NumPy, with the dtype rules of the Tensor ops they stand for,
and return PlainGradients again. Anything else they are asked (another method, a mixed
dtype, an odd operand) goes the Tensor way: same answer, slower, a plain Tensor. The
formula stays the one formula. Wherever the user's code sees a gradient (a hook, a
custom Function's backward, what ``autograd.grad`` returns, a step record) the engine
hands over a plain Tensor (``plain``), and ``.grad`` is always a Tensor of its own.

A pass with ``create_graph`` never makes one: there a gradient's ops must record.
"""

import numpy as np

from .fast_path import broadcast_view, matrix_product
from .ops.reduce import broadcasts_to, sum_to_shape
from .tensor import Tensor

_new = object.__new__
_ndarray = np.ndarray


def gradient(array):
    """A new PlainGradient around ``array`` (NumPy gives scalars for some 0-d results)."""
    g = _new(PlainGradient)
    g._data = array if type(array) is _ndarray else np.asarray(array)
    return g


def _array_like(grad, other):
    """``other`` as an array the NumPy operator may take with ``grad`` as a Tensor op
    would (same dtype, or a number that does not change a floating gradient's dtype: the
    first two cases of ``ops.operands.promote``), or None.
    """
    if isinstance(other, Tensor):
        array = other._data
        return array if array.dtype is grad._data.dtype else None
    if isinstance(other, (int, float)) and not isinstance(other, bool) and grad._data.dtype.kind == "f":
        return np.asarray(other, dtype=grad._data.dtype)  # (a NumPy float64 too: a number to Tensor ops)
    return None


def _binary(numpy_op, tensor_op, reflected=False):
    """An operator of PlainGradient: NumPy when ``_array_like`` allows, else the Tensor op."""
    # (Two PlainGradients of one dtype, the most common case, are checked first, without a call.)
    if reflected:
        def operator(self, other):
            if type(other) is PlainGradient and other._data.dtype is self._data.dtype:
                return gradient(numpy_op(other._data, self._data))
            array = _array_like(self, other)
            if array is None:
                return tensor_op(self, other)
            return gradient(numpy_op(array, self._data))
    else:
        def operator(self, other):
            if type(other) is PlainGradient and other._data.dtype is self._data.dtype:
                return gradient(numpy_op(self._data, other._data))
            array = _array_like(self, other)
            if array is None:
                return tensor_op(self, other)
            return gradient(numpy_op(self._data, array))
    return operator


def _axes(dim, ndim):
    """A reduction's ``dim`` as a NumPy axis when it is the plain case (an int in range); None
    where the Tensor op should decide (a tuple, a dim out of range: its error message)."""
    if type(dim) is int and -ndim <= dim < ndim:
        return dim % ndim
    return None


class PlainGradient(Tensor):
    """A gradient inside a backward formula that records nothing (see the module's docstring)."""

    __slots__ = ()

    __add__ = _binary(np.add, Tensor.__add__)
    __radd__ = _binary(np.add, Tensor.__radd__, reflected=True)
    __sub__ = _binary(np.subtract, Tensor.__sub__)
    __rsub__ = _binary(np.subtract, Tensor.__rsub__, reflected=True)
    __mul__ = _binary(np.multiply, Tensor.__mul__)
    __rmul__ = _binary(np.multiply, Tensor.__rmul__, reflected=True)
    __truediv__ = _binary(np.true_divide, Tensor.__truediv__)
    __rtruediv__ = _binary(np.true_divide, Tensor.__rtruediv__, reflected=True)

    def __neg__(self):
        return gradient(-self._data) if self._data.dtype.kind == "f" else Tensor.__neg__(self)

    def __matmul__(self, other):
        if isinstance(other, Tensor) and other._data.dtype is self._data.dtype \
                and self._data.ndim == 2 and other._data.ndim == 2:
            return gradient(matrix_product(self._data, other._data))
        return Tensor.__matmul__(self, other)

    def __rmatmul__(self, other):
        if isinstance(other, Tensor) and other._data.dtype is self._data.dtype \
                and self._data.ndim == 2 and other._data.ndim == 2:
            return gradient(matrix_product(other._data, self._data))
        return Tensor.__rmatmul__(self, other)

    @property
    def mT(self):
        if self._data.ndim < 2:
            return Tensor.mT.fget(self)
        return gradient(self._data.swapaxes(-1, -2))

    def exp(self):
        if self._data.dtype.kind != "f":
            return Tensor.exp(self)  # (an integer tensor's exp is a float one)
        return gradient(np.exp(self._data))

    def transpose(self, dim0, dim1):
        array = self._data
        if not (type(dim0) is int and type(dim1) is int and -array.ndim <= dim0 < array.ndim
                and -array.ndim <= dim1 < array.ndim):
            return Tensor.transpose(self, dim0, dim1)  # (a 0-d tensor, its error message)
        return gradient(array.swapaxes(dim0, dim1))

    def sum(self, dim=None, keepdim=False, **kwargs):
        array = self._data
        if kwargs or array.dtype.kind != "f" or not array.ndim:
            return Tensor.sum(self, dim, keepdim, **kwargs)
        if dim is None:
            return gradient(np.add.reduce(array, axis=None, keepdims=keepdim))
        axis = _axes(dim, array.ndim)
        if axis is None:
            return Tensor.sum(self, dim, keepdim)
        return gradient(np.add.reduce(array, axis=axis, keepdims=keepdim))

    def expand(self, *sizes):
        shape = sizes[0] if len(sizes) == 1 and not isinstance(sizes[0], int) else sizes
        array = self._data
        if -1 in shape or len(shape) < array.ndim:
            return Tensor.expand(self, *sizes)
        shape = tuple(shape)
        if shape == array.shape:
            return gradient(array.view())
        try:
            return gradient(broadcast_view(array, shape))
        except ValueError:
            return Tensor.expand(self, *sizes)  # (its error message)

    def reshape(self, *shape):
        shape = shape[0] if len(shape) == 1 and not isinstance(shape[0], int) else shape
        try:
            return gradient(self._data.reshape(shape))
        except (ValueError, TypeError):
            return Tensor.reshape(self, shape)  # (its error message)

    def unsqueeze(self, dim):
        array = self._data
        rank = array.ndim + 1
        if type(dim) is not int or not -rank <= dim < rank:
            return Tensor.unsqueeze(self, dim)  # (its error message)
        dim %= rank
        return gradient(array.reshape(array.shape[:dim] + (1,) + array.shape[dim:]))

    def masked_fill(self, mask, value):
        array = self._data
        if not (type(mask) is Tensor and mask._data.dtype.kind == "b" and mask._data.shape == array.shape
                and type(value) in (int, float) and array.dtype.kind == "f"):
            return Tensor.masked_fill(self, mask, value)
        return gradient(np.where(mask._data, np.asarray(value, dtype=array.dtype), array))

    def sum_to_size(self, *size):
        shape = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else tuple(size)
        array = self._data
        have = array.shape
        if have == shape:
            return self
        if not broadcasts_to(shape, have):
            return Tensor.sum_to_size(self, *size)  # (its error message)
        return gradient(sum_to_shape(array, shape))  # (SumToSize's forward)


def plain(grad):
    """``grad`` as a plain Tensor, for whatever a user sees (hooks, ``autograd.grad``'s results,
    a custom Function's backward, the engine's step records); None and Tensors as they are."""
    if type(grad) is not PlainGradient:
        return grad
    t = _new(Tensor)
    t._data = grad._data
    return t


def plain_all(grads):
    """``plain`` of each, as a tuple."""
    return tuple([plain(grad) for grad in grads])


def in_flight(grads):
    """The gradients a node returned, each a PlainGradient for the nodes after it (the same
    arrays: a formula that called a node's ``apply``, as relu's, got a Tensor back)."""
    for grad in grads:
        if grad is not None and type(grad) is not PlainGradient:
            return tuple([grad if grad is None or type(grad) is PlainGradient else gradient(grad._data)
                          for grad in grads])
    return grads
