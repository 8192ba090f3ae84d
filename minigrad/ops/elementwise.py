"""Elementwise ops: each output element depends on the same element of each input.

Each class states its forward formula and its vector-Jacobian product (VJP):
given ``grad`` = d(loss)/d(z), the gradient for each input. Inputs that were
broadcast get a gradient of the broadcast shape; the engine sums it back
down (see ``engine._validate``), so the formulas here stay the textbook ones.
"""

import numpy as np

from .. import dtypes
from ..function import Node
from ..tensor import Tensor
from .operands import as_tensor, broadcast_error, promote


def _binary(node_class, a, b, **params):
    a, b = promote(a, b)
    try:
        return node_class.apply(a, b, **params)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None


# --- arithmetic ---------------------------------------------------------------------
class Add(Node):
    """z = x + alpha * y        grad_x = grad,  grad_y = alpha * grad"""

    def forward(self, x, y, alpha=1):
        self.alpha = alpha
        return x + y if alpha == 1 else x + alpha * y

    def backward(self, grad):
        return grad, (grad if self.alpha == 1 else grad * self.alpha)


class Sub(Node):
    """z = x - alpha * y        grad_x = grad,  grad_y = -alpha * grad"""

    def forward(self, x, y, alpha=1):
        self.alpha = alpha
        return x - y if alpha == 1 else x - alpha * y

    def backward(self, grad):
        return grad, (-grad if self.alpha == 1 else grad * -self.alpha)


class Rsub(Node):
    """z = c - alpha * x for a number c (``2 - x``)        grad_x = -alpha * grad

    PyTorch's rsub(Tensor, Scalar): the number is a parameter, not an input, so the node has
    one edge.
    """

    saved_params = ("alpha",)

    def name(self):
        return "RsubBackward1"

    def forward(self, x, other, alpha=1):
        self.alpha = alpha
        return other - x if alpha == 1 else other - alpha * x

    def backward(self, grad):
        return -grad if self.alpha == 1 else grad * -self.alpha


class Mul(Node):
    """z = x * y        grad_x = grad * y,  grad_y = grad * x"""

    may_warn = True

    saves = ("self", "other")
    saved_for = {"self": (1,), "other": (0,)}

    def forward(self, x, y):
        return x * y

    def backward(self, grad):
        x, y = self.saved_tensors
        return (grad * y if self.needs_input_grad[0] else None,
                grad * x if self.needs_input_grad[1] else None)


class Div(Node):
    """z = x / y        grad_x = grad / y,  grad_y = -grad * x / y**2"""

    may_warn = True

    saves = ("self", "other")
    saved_for = {"self": (1,), "other": (0, 1)}

    def forward(self, x, y):
        return x / y

    def backward(self, grad):
        x, y = self.saved_tensors
        return (grad / y if self.needs_input_grad[0] else None,
                -grad * x / (y * y) if self.needs_input_grad[1] else None)


class Reciprocal(Node):
    """z = 1 / x        grad_x = -grad * z**2"""

    may_warn = True

    saves = ("result",)

    def forward(self, x):
        return 1 / x

    def backward(self, grad):
        (z,) = self.saved_tensors
        return -grad * z * z


class Neg(Node):
    """z = -x        grad_x = -grad"""

    def forward(self, x):
        return -x

    def backward(self, grad):
        return -grad


class Pow(Node):
    """z = x ** p (p a number)        grad_x = grad * p * x ** (p - 1)"""

    may_warn = True

    saves = ("self",)
    saved_params = ("exponent",)

    def forward(self, x, exponent):
        self.exponent = exponent
        return x ** exponent

    def backward(self, grad):
        (x,) = self.saved_tensors
        p = self.exponent
        if p == 0:
            return grad * 0
        return grad * p * x ** (p - 1)


class PowTensor(Node):
    """z = x ** y (both tensors)        grad_x = grad * y * x ** (y - 1),  grad_y = grad * z * log(x)"""

    may_warn = True

    saves = ("self", "exponent", "result")
    input_names = ("self", "exponent")

    def name(self):
        return "PowBackward1"

    def forward(self, x, y):
        return x ** y

    def backward(self, grad):
        x, y, z = self.saved_tensors
        grad_x = grad * y * x ** (y - 1) if self.needs_input_grad[0] else None
        grad_y = None
        if self.needs_input_grad[1]:
            # d/dy x**y = x**y * log(x); PyTorch takes it as 0 where x == 0 (and y >= 0).
            grad_y = grad * where(x == 0, 0.0, z * log(where(x == 0, 1.0, x)))
        return grad_x, grad_y


class PowScalarBase(Node):
    """z = c ** y for a number c (``2 ** x``)        grad_y = grad * z * log(c)  (0 where c == 0)

    PyTorch's pow(Scalar, Tensor): the number is a parameter, so the node has one edge.
    """

    may_warn = True

    saves = ("exponent", "result")
    input_names = ("exponent",)

    def name(self):
        return "PowBackward2"

    def forward(self, y, base):
        self.base = base
        return base ** y

    def backward(self, grad):
        _, z = self.saved_tensors
        if self.base == 0:
            return grad * 0  # PyTorch's convention: d/dy 0**y taken as 0
        with np.errstate(invalid="ignore"):  # a negative base: nan, as in PyTorch
            return grad * z * float(np.log(self.base))


# --- functions of one variable ----------------------------------------------------------
class Exp(Node):
    """z = exp(x)        grad_x = grad * z"""

    may_warn = True

    saves = ("result",)

    def forward(self, x):
        return np.exp(x)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad * z


class Log(Node):
    """z = log(x)        grad_x = grad / x"""

    may_warn = True

    saves = ("self",)

    def forward(self, x):
        return np.log(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad / x


class Sqrt(Node):
    """z = sqrt(x)        grad_x = grad / (2 * z)"""

    may_warn = True

    saves = ("result",)

    def forward(self, x):
        return np.sqrt(x)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad / (2 * z)


class Sin(Node):
    """z = sin(x)        grad_x = grad * cos(x)"""

    saves = ("self",)

    def forward(self, x):
        return np.sin(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad * cos(x)


class Cos(Node):
    """z = cos(x)        grad_x = -grad * sin(x)"""

    saves = ("self",)

    def forward(self, x):
        return np.cos(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return -grad * sin(x)


class Tanh(Node):
    """z = tanh(x)        grad_x = grad * (1 - z**2)"""

    saves = ("result",)

    def forward(self, x):
        return np.tanh(x)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad * (1 - z * z)


class Sigmoid(Node):
    """z = 1 / (1 + exp(-x))        grad_x = grad * z * (1 - z)"""

    saves = ("result",)

    def forward(self, x):
        # Written so that exp never overflows: exp(-|x|) is at most 1.
        e = np.exp(-np.abs(x))
        return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad * z * (1 - z)


class Relu(Node):
    """z = max(x, 0)        grad_x = grad where z > 0, else 0"""

    saves = ("result",)

    def forward(self, x):
        return np.maximum(x, 0)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad * (z > 0)


class Abs(Node):
    """z = |x|        grad_x = grad * sign(x)  (0 at x = 0)"""

    saves = ("self",)

    def forward(self, x):
        return np.abs(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad * sign(x)


class Sign(Node):
    """z = sign(x)        grad_x = 0 (the function is flat wherever it is differentiable)"""

    def forward(self, x):
        return np.sign(x)

    def backward(self, grad):
        return grad * 0


class Clamp(Node):
    """z = min(max(x, min), max)        grad_x = grad where min <= x <= max, else 0"""

    saves = ("self",)
    saved_params = ("min", "max")

    def name(self):
        return "ClampBackward1"

    def forward(self, x, min=None, max=None):
        self.min, self.max = min, max
        return np.clip(x, min, max)

    def backward(self, grad):
        (x,) = self.saved_tensors
        inside = np.ones(x.shape, dtype=np.bool_)
        if self.min is not None:
            inside &= x._data >= self.min
        if self.max is not None:
            inside &= x._data <= self.max
        return grad * Tensor._wrap(inside)


class Maximum(Node):
    """z = max(x, y)        grad goes to the larger input; ties split it in half"""

    saves = ("self", "other")

    def forward(self, x, y):
        return np.maximum(x, y)

    def backward(self, grad):
        x, y = self.saved_tensors
        share = Tensor._wrap(np.where(x._data == y._data, 0.5, (x._data > y._data) * 1.0).astype(grad.dtype))
        return grad * share, grad * (1 - share)


class Minimum(Node):
    """z = min(x, y)        grad goes to the smaller input; ties split it in half"""

    saves = ("self", "other")

    def forward(self, x, y):
        return np.minimum(x, y)

    def backward(self, grad):
        x, y = self.saved_tensors
        share = Tensor._wrap(np.where(x._data == y._data, 0.5, (x._data < y._data) * 1.0).astype(grad.dtype))
        return grad * share, grad * (1 - share)


class Where(Node):
    """z = x where condition else y        grad_x = grad where condition,  grad_y = grad elsewhere"""

    saved_arrays = ("condition",)

    def forward(self, x, y, condition):
        self.condition = condition
        return np.where(condition, x, y)

    def backward(self, grad):
        keep = Tensor._wrap(np.broadcast_to(self._array("condition"), grad.shape))
        zero = grad * 0
        return where(keep, grad, zero), where(keep, zero, grad)


class Clone(Node):
    """z = copy of x        grad_x = grad"""

    def forward(self, x):
        return x.copy()

    def backward(self, grad):
        return grad


# --- the functions users call -------------------------------------------------------------
def add(input, other, *, alpha=1):
    """Elementwise ``input + alpha * other``, with broadcasting.

    >>> import minigrad
    >>> minigrad.add(minigrad.tensor([1.0, 2.0]), 10)
    tensor([11., 12.])
    """
    return _binary(Add, input, other, alpha=alpha)


def sub(input, other, *, alpha=1):
    """Elementwise ``input - alpha * other``, with broadcasting."""
    if isinstance(input, Tensor):
        return _binary(Sub, input, other, alpha=alpha)
    # A number on the left only comes from ``2 - x`` (Tensor.__rsub__), which PyTorch records as rsub.
    number, tensor = promote(input, other)
    return Rsub.apply(tensor, other=number._data, alpha=alpha)


def mul(input, other):
    """Elementwise product, with broadcasting.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    >>> minigrad.mul(x, x)
    tensor([1., 4.], grad_fn=<MulBackward0>)
    """
    return _binary(Mul, input, other)


def div(input, other, *, rounding_mode=None):
    """Elementwise true division (integers give the default float dtype)."""
    if rounding_mode is not None:
        raise NotImplementedError("minigrad supports div(rounding_mode=None) only")
    a, b = promote(input, other)
    if not dtypes.is_floating(a.dtype):
        a, b = a.to(dtypes.default_float), b.to(dtypes.default_float)
    if not isinstance(input, Tensor):
        # ``2 / x`` (Tensor.__rtruediv__): PyTorch computes reciprocal(x) * 2, and so records it.
        return mul(Reciprocal.apply(b), a)
    return _binary(Div, a, b)


def neg(input):
    return Neg.apply(input)


def pow(input, exponent):
    """``input ** exponent``.

    A number exponent gives PowBackward0, a tensor one PowBackward1, a number base (``2 ** x``) PowBackward2.
    """
    if not isinstance(input, Tensor):  # ``2 ** x`` (Tensor.__rpow__)
        base, exponent = promote(input, exponent)
        return PowScalarBase.apply(exponent, base=base._data)
    if isinstance(exponent, Tensor):
        return _binary(PowTensor, input, exponent)
    if dtypes.is_floating(input.dtype) or isinstance(exponent, (int, np.integer)):
        return Pow.apply(input, exponent=exponent)
    return Pow.apply(input.to(dtypes.default_float), exponent=exponent)


def _float_unary(node_class):
    def op(input):
        if not dtypes.is_floating(input.dtype):
            input = input.to(dtypes.default_float)
        return node_class.apply(input)

    op.__name__ = node_class.__name__.lower()
    op.__doc__ = f"Elementwise {op.__name__} (integer inputs give the default float dtype).\n\n{node_class.__doc__}"
    return op


exp = _float_unary(Exp)
log = _float_unary(Log)
sqrt = _float_unary(Sqrt)
sin = _float_unary(Sin)
cos = _float_unary(Cos)
tanh = _float_unary(Tanh)
sigmoid = _float_unary(Sigmoid)


def relu(input):
    """Elementwise ``max(input, 0)``."""
    return Relu.apply(input)


def abs(input):
    return Abs.apply(input)


def sign(input):
    return Sign.apply(input)


def clamp(input, min=None, max=None):
    """Limit every element to ``[min, max]`` (either may be None)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return Clamp.apply(input, min=min, max=max)


clip = clamp


def maximum(input, other):
    return _binary(Maximum, input, other)


def minimum(input, other):
    return _binary(Minimum, input, other)


def where(condition, input, other):
    """``input`` where ``condition`` is true, else ``other``, with broadcasting."""
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    a, b = promote(input, other)
    try:
        np.broadcast_shapes(cond.shape, a.shape, b.shape)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    return Where.apply(a, b, condition=cond.astype(bool))


def clone(input):
    """A copy that gradients flow through."""
    return Clone.apply(input)


# --- comparisons: results are bool tensors, outside the graph ---------------------------------
def _compare(ufunc):
    def op(input, other):
        a, b = promote(input, other)
        try:
            return Tensor._wrap(ufunc(a._data, b._data))
        except ValueError:
            raise broadcast_error(a.shape, b.shape) from None

    op.__name__ = ufunc.__name__
    return op


eq = _compare(np.equal)
ne = _compare(np.not_equal)
lt = _compare(np.less)
le = _compare(np.less_equal)
gt = _compare(np.greater)
ge = _compare(np.greater_equal)


def isnan(input):
    return Tensor._wrap(np.isnan(input._data))


def logical_not(input):
    return Tensor._wrap(np.logical_not(input._data))


def all(input, dim=None, keepdim=False):
    """True where every element (over ``dim``) is nonzero; a bool tensor."""
    return Tensor._wrap(np.asarray(np.all(input._data, axis=dim, keepdims=keepdim)))


def any(input, dim=None, keepdim=False):
    """True where some element (over ``dim``) is nonzero; a bool tensor."""
    return Tensor._wrap(np.asarray(np.any(input._data, axis=dim, keepdims=keepdim)))
