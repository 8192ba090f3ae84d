"""Elementwise ops: each output element depends on the same element of each input.

Each class states its forward formula and its vector-Jacobian product (VJP):
given ``grad`` = d(loss)/d(z), the gradient for each input. Inputs that were
broadcast get a gradient of the broadcast shape; the engine sums it back
down (see ``engine.fit_gradients``), so the formulas here stay the textbook ones.
"""

import numpy as np

from .. import dtypes, messages
from ..fast_path import broadcast_view, zero_where
from ..graph import Node
from ..tensor import Tensor
from .operands import (as_tensor, broadcast_error, check_operand, checked_number, is_operand, normalize_dim, promote,
                       zero_gradient)


def _binary(node_class, a, b, **params):
    if not (isinstance(a, Tensor) and isinstance(b, Tensor) and a._data.dtype is b._data.dtype):
        a, b = promote(a, b, node_class.__name__.lower())
    try:
        return node_class.apply(a, b, **params) if params else node_class.apply_binary(a, b)
    except ValueError:
        try:
            np.broadcast_shapes(a._data.shape, b._data.shape)
        except ValueError:
            raise broadcast_error(a.shape, b.shape) from None
        raise


# --- arithmetic ---------------------------------------------------------------------
class Add(Node):
    """z = x + alpha * y        grad_x = grad,  grad_y = alpha * grad"""

    may_warn = True

    def forward(self, x, y, alpha=1):
        self.alpha = alpha
        return x + y if alpha == 1 else x + alpha * y

    def backward(self, grad):
        return grad, (grad if self.alpha == 1 else grad * self.alpha)


class Sub(Node):
    """z = x - alpha * y        grad_x = grad,  grad_y = -alpha * grad"""

    may_warn = True

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

    may_warn = True

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


def _power(x, y):
    """``x ** y`` of arrays. An integer to a negative integer power, which NumPy refuses, is
    PyTorch's: 1 and -1 keep their powers, every other base (0 too) gives 0."""
    if y.dtype.kind not in "iu" or x.dtype.kind not in "iub" or not (y < 0).any():
        return x ** y
    magnitude = np.abs(y)
    small = np.where(x == 1, 1, np.where(x == -1, np.where(magnitude % 2 == 1, -1, 1), 0))
    return np.where(y < 0, small, x ** magnitude).astype(np.result_type(x, y))


#: Exponents PyTorch's pow kernel computes without pow for float32 and float64 (NumPy's ``**`` has
#: the same shortcuts for 2 and -1). They differ from pow in the last bit, and at the edges:
#: rsqrt(-inf) is nan, where (-inf) ** -0.5 is 0.
_POWER_AS_PYTORCH = {0.5: np.sqrt, -0.5: lambda x: 1 / np.sqrt(x), 3: lambda x: x * x * x, -2: lambda x: 1 / (x * x)}


def _power_special(x, exponent):
    """``x ** exponent`` for an exponent in ``_POWER_AS_PYTORCH``, as PyTorch computes it. A float16
    tensor gets pow itself, 0.5 too (NumPy's ``**`` takes sqrt: nan at -inf, where pow gives inf)."""
    if x.dtype == np.float16:
        return np.power(x, exponent)
    if x.dtype.kind == "f":
        return _POWER_AS_PYTORCH[exponent](x)
    return x ** exponent


class Pow(Node):
    """z = x ** p (p a number)        grad_x = grad * p * x ** (p - 1)"""

    may_warn = True

    saves = ("self",)
    saved_params = ("exponent",)

    def forward(self, x, exponent):
        self.exponent = exponent
        if exponent in _POWER_AS_PYTORCH:
            return _power_special(x, exponent)
        return x ** exponent

    def backward(self, grad):
        (x,) = self.saved_tensors
        p = self.exponent
        if p == 0:
            return zero_gradient(grad)
        # Grouped as PyTorch's pow_backward, so a create_graph graph has its nodes:
        # MulBackward0(grad, MulBackward1(PowBackward0(x))).
        return grad * mul_by_number(x ** (p - 1), p)


class MulByNumber(Node):
    """z = x * c for a Python number c, as PyTorch's own formulas multiply        grad_x = grad * c

    PyTorch's mul(Tensor, Scalar): the number is a parameter, so the node has one edge. (A
    learner's ``x * 2`` wraps the 2 in a tensor and records MulBackward0, as here too.)
    """

    may_warn = True

    saved_params = ("other",)

    def name(self):
        return "MulBackward1"

    def forward(self, x, other):
        self.other = other
        return x * other

    def backward(self, grad):
        return mul_by_number(grad, self.other)


class PowTensor(Node):
    """z = x ** y (both tensors)        grad_x = grad * (y * x ** (y - 1)),  grad_y = grad * z * log(x)"""

    may_warn = True

    saves = ("self", "exponent", "result")
    input_names = ("self", "exponent")

    def name(self):
        return "PowBackward1"

    def forward(self, x, y):
        return _power(x, y)

    def backward(self, grad):
        x, y, z = self.saved_tensors
        grad_x = None
        if self.needs_input_grad[0]:
            # PyTorch's grouping, and exact zeros where y == 0 (whatever x ** -1 is there).
            grad_x = where(Tensor._wrap(y._data == 0), 0.0, grad * (y * x ** (y - 1)))
        grad_y = None
        if self.needs_input_grad[1]:
            # d/dy x**y = x**y * log(x); PyTorch takes it as 0 where x == 0 and y >= 0 (where x ** y
            # is flat), and leaves 0 ** y * log(0) = inf * -inf = -inf where y < 0.
            flat = Tensor._wrap((x._data == 0) & (y._data >= 0))
            grad_y = grad * where(flat, 0.0, z * log(x))
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
        return _power(base, y)

    def backward(self, grad):
        y, z = self.saved_tensors
        if self.base == 0:
            # PyTorch's convention: 0 where 0**y is flat (y >= 0); elsewhere z * log(0), -inf.
            with np.errstate(invalid="ignore"):
                return grad * where(y >= 0, 0.0, z * float("-inf"))
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

    may_warn = True

    saves = ("self",)

    def forward(self, x):
        return np.sin(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad * cos(x)


class Cos(Node):
    """z = cos(x)        grad_x = -grad * sin(x)"""

    may_warn = True

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

    may_warn = True

    saves = ("result",)

    def forward(self, x):
        # Written so that exp never overflows: exp(-|x|) is at most 1.
        e = np.exp(-np.abs(x))
        return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad * z * (1 - z)


class Relu(Node):
    """z = max(x, 0)        grad_x = grad where z > 0, else 0 (``threshold_backward``)"""

    saves = ("result",)

    def forward(self, x):
        return np.maximum(0, x)  # (NumPy keeps its second argument on a tie: relu(-0.) is -0., as PyTorch's)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return ThresholdBackward.apply_binary(grad, z)


class ThresholdBackward(Node):
    """z = g where result > 0, else 0 (relu's backward, as a node of its own)

    grad_g = grad where result > 0, else 0,  grad_result = 0

    Recorded under create_graph, so a second derivative through relu is zeros, as PyTorch's
    (the mask does not move when the input moves a little), not an error.
    """

    may_warn = True

    input_names = ("grad_output", "self")
    saves = ("self",)
    saved_params = ("threshold",)
    threshold = 0

    def name(self):
        return "ThresholdBackwardBackward0"

    def forward(self, g, result):
        # A select, as PyTorch's threshold_backward, not g * (result > threshold): an inf or nan
        # in g stays out of the zeros, and a nan result (relu of nan) lets g through.
        # (zero_where is np.where(result <= threshold, 0, g), vectorized: see fast_path.py)
        return zero_where(result <= self.threshold, g)

    def backward(self, grad):
        (result,) = self.saved_tensors
        return ThresholdBackward.apply_binary(grad, result), zero_gradient(grad)


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

    def name(self):
        return self.kind  # SignBackward0, or SgnBackward0 for sgn (the same on real numbers)

    def forward(self, x, kind="SignBackward0"):
        self.kind = kind
        if x.dtype.kind == "f":  # (as PyTorch: (x > 0) - (x < 0), so the sign of nan is 0, not NumPy's nan)
            return np.subtract(x > 0, x < 0, dtype=x.dtype)
        return np.sign(x)

    def backward(self, grad):
        return zero_gradient(grad)


class Clamp(Node):
    """z = min(max(x, min), max)        grad_x = grad where min <= x <= max, else 0"""

    saves = ("self",)
    saved_params = ("min", "max")

    def name(self):
        return self.kind

    def forward(self, x, min=None, max=None, kind="ClampBackward1"):
        self.min, self.max, self.kind = min, max, kind
        # (x as NumPy's second argument, which it keeps on a tie: clamp(-0., min=0) is -0., as PyTorch's)
        if min is not None:
            x = np.maximum(min, x)
        return x if max is None else np.minimum(max, x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        inside = np.ones(x.shape, dtype=np.bool_)
        if self.min is not None:
            inside &= x._data >= self.min
        if self.max is not None:
            inside &= x._data <= self.max
        return where(Tensor._wrap(inside), grad, 0.0)


class Maximum(Node):
    """z = max(x, y)        grad goes to the larger input; ties split it in half"""

    saves = ("self", "other")

    def forward(self, x, y):
        return np.maximum(y, x)  # (PyTorch keeps x on a tie, maximum(-0., 0.) is -0.; NumPy its second argument)

    def backward(self, grad):
        x, y = self.saved_tensors
        return _tie_split(grad, x, y, x._data < y._data, x._data > y._data)


class Minimum(Node):
    """z = min(x, y)        grad goes to the smaller input; ties split it in half"""

    saves = ("self", "other")

    def forward(self, x, y):
        return np.minimum(y, x)  # (as Maximum: x on a tie)

    def backward(self, grad):
        x, y = self.saved_tensors
        return _tie_split(grad, x, y, x._data > y._data, x._data < y._data)


def _tie_split(grad, x, y, x_loses, y_loses):
    """maximum's and minimum's gradients, as PyTorch's: half of grad to each on a tie, all of it
    to the one kept, none to the other (exact zeros, whatever grad holds); a nan, which is
    neither a tie nor a loss, passes grad to both."""
    shared = where(Tensor._wrap(x._data == y._data), grad / 2, grad)
    return shared.masked_fill(Tensor._wrap(x_loses), 0), shared.masked_fill(Tensor._wrap(y_loses), 0)


class Where(Node):
    """z = x where condition else y        grad_x = grad where condition,  grad_y = grad elsewhere"""

    saved_arrays = ("condition",)

    def forward(self, x, y, condition):
        self.condition = condition
        return np.where(condition, x, y)

    def backward(self, grad):
        keep = Tensor._wrap(broadcast_view(self._array("condition"), grad.shape))
        return where(keep, grad, 0.0), where(keep, 0.0, grad)


class Clone(Node):
    """z = copy of x        grad_x = grad"""

    def forward(self, x):
        return x.copy()

    def backward(self, grad):
        return grad


# --- more functions of one variable (PyTorch's names: Log1PBackward0 ...) --------------------
class Log1p(Node):
    """z = log(1 + x)        grad_x = grad / (1 + x)"""

    may_warn = True

    saves = ("self",)

    def name(self):
        return "Log1PBackward0"

    def forward(self, x):
        return np.log1p(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad / (x + 1)


class Expm1(Node):
    """z = exp(x) - 1        grad_x = grad * (z + 1)"""

    may_warn = True

    saves = ("result",)

    def forward(self, x):
        return np.expm1(x)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad * (z + 1)


class Exp2(Node):
    """z = 2 ** x        grad_x = grad * z * log(2)"""

    may_warn = True

    saves = ("result",)

    def forward(self, x):
        return np.exp2(x)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad * z * float(np.log(2.0))


class Log2(Node):
    """z = log2(x)        grad_x = grad / (x * log(2))"""

    may_warn = True

    saves = ("self",)

    def forward(self, x):
        return np.log2(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad / (x * float(np.log(2.0)))


class Log10(Node):
    """z = log10(x)        grad_x = grad / (x * log(10))"""

    may_warn = True

    saves = ("self",)

    def forward(self, x):
        return np.log10(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad / (x * float(np.log(10.0)))


class Rsqrt(Node):
    """z = 1 / sqrt(x)        grad_x = -grad * z**3 / 2"""

    may_warn = True

    saves = ("result",)

    def forward(self, x):
        return 1 / np.sqrt(x)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad * -0.5 * z * z * z


class Tan(Node):
    """z = tan(x)        grad_x = grad * (1 + z**2)"""

    may_warn = True

    saves = ("result",)

    def forward(self, x):
        return np.tan(x)

    def backward(self, grad):
        (z,) = self.saved_tensors
        return grad * (z * z + 1)


class Sinh(Node):
    """z = sinh(x)        grad_x = grad * cosh(x)"""

    may_warn = True

    saves = ("self",)

    def forward(self, x):
        return np.sinh(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad * cosh(x)


class Cosh(Node):
    """z = cosh(x)        grad_x = grad * sinh(x)"""

    may_warn = True

    saves = ("self",)

    def forward(self, x):
        return np.cosh(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad * sinh(x)


class Asin(Node):
    """z = asin(x)        grad_x = grad / sqrt(1 - x**2)"""

    may_warn = True

    saves = ("self",)

    def forward(self, x):
        return np.arcsin(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad * rsqrt(1 - x * x)


class Acos(Node):
    """z = acos(x)        grad_x = -grad / sqrt(1 - x**2)"""

    may_warn = True

    saves = ("self",)

    def forward(self, x):
        return np.arccos(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return -grad * rsqrt(1 - x * x)


class Atan(Node):
    """z = atan(x)        grad_x = grad / (1 + x**2)"""

    saves = ("self",)

    def forward(self, x):
        return np.arctan(x)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad / (x * x + 1)


class Rounding(Node):
    """z = floor(x), ceil(x), round(x) or trunc(x)        grad_x = 0 (flat wherever differentiable)

    One class, PyTorch's four node names (``FloorBackward0`` ...): the derivative is the same.
    """

    may_warn = True

    def name(self):
        return f"{self.how.capitalize()}Backward{1 if self.decimals else 0}"

    def forward(self, x, how, decimals=0):
        self.how, self.decimals = how, decimals
        if how == "round":
            return np.round(x, decimals)
        return {"floor": np.floor, "ceil": np.ceil, "trunc": np.trunc}[how](x)

    def backward(self, grad):
        return zero_gradient(grad)


class Frac(Node):
    """z = x - trunc(x)        grad_x = grad"""

    may_warn = True

    def forward(self, x):
        return x - np.trunc(x)

    def backward(self, grad):
        return grad


class Atan2(Node):
    """z = atan2(x, y), the angle of the point (y, x)

    grad_x = grad * y / (x**2 + y**2),  grad_y = -grad * x / (x**2 + y**2)
    """

    may_warn = True

    saves = ("self", "other")

    def forward(self, x, y):
        return np.arctan2(x, y)

    def backward(self, grad):
        x, y = self.saved_tensors
        scale = grad / (x * x + y * y)
        return (scale * y if self.needs_input_grad[0] else None,
                scale * -x if self.needs_input_grad[1] else None)


class Hypot(Node):
    """z = sqrt(x**2 + y**2)        grad_x = grad * x / z,  grad_y = grad * y / z"""

    may_warn = True

    saves = ("self", "other", "result")

    def forward(self, x, y):
        return np.hypot(x, y)

    def backward(self, grad):
        x, y, z = self.saved_tensors
        return (grad * x / z if self.needs_input_grad[0] else None,
                grad * y / z if self.needs_input_grad[1] else None)


def _remainder(x, y):
    """PyTorch's remainder: NumPy's, but an exact zero keeps the sign of x, as C's fmod gives it
    (``-4.0 % 2`` is -0.), where NumPy gives it the sign of y."""
    r = np.mod(x, y)
    if r.dtype.kind == "f":
        zero = r == 0
        if zero.any():
            r = np.where(zero, np.copysign(r, x), r)
    return r


class Remainder(Node):
    """z = x - floor(x / c) * c for a number c (``x % 3``)        grad_x = grad"""

    may_warn = True

    saved_params = ("other",)

    def forward(self, x, other):
        self.other = other
        return _remainder(x, other)

    def backward(self, grad):
        return grad


class RemainderTensor(Node):
    """z = x - floor(x / y) * y        grad_x = grad,  grad_y = -grad * (x // y)  (PyTorch's floor division)"""

    may_warn = True

    saves = ("self", "other")
    saved_for = {"self": (1,), "other": (1,)}  # (only y's gradient reads them)

    def name(self):
        return "RemainderBackward1"

    def forward(self, x, y):
        return _remainder(x, y)

    def backward(self, grad):
        x, y = self.saved_tensors
        return grad, (-grad * Tensor._wrap(np.floor_divide(x._data, y._data)) if self.needs_input_grad[1] else None)


def _lerp(x, y, w):
    """PyTorch's lerp: x + w (y - x) for |w| < 0.5, else y - (y - x)(1 - w), each exact at the end
    it is near (and so at x = inf the second gives inf where the first gives inf - inf = nan).
    float16 is computed in float32 and rounded once, as PyTorch's kernel does."""
    half = x.dtype == np.float16
    if half:
        x, y = x.astype(np.float32), y.astype(np.float32)
        w = w.astype(np.float32) if isinstance(w, np.ndarray) else w
    d = y - x
    if not isinstance(w, np.ndarray):
        z = x + w * d if -0.5 < w < 0.5 else y - d * (1 - w)
    else:
        z = np.where(np.abs(w) < 0.5, x + w * d, y - d * (1 - w))
    return z.astype(np.float16) if half else z


class Lerp(Node):
    """z = x + w * (y - x) for a number w        grad_x = grad * (1 - w),  grad_y = grad * w"""

    may_warn = True

    saved_params = ("weight",)
    input_names = ("self", "end")

    def forward(self, x, y, weight):
        self.weight = weight
        return _lerp(x, y, weight)

    def backward(self, grad):
        return grad * (1 - self.weight), grad * self.weight


class LerpTensor(Node):
    """z = x + w * (y - x)        grad_x = grad * (1 - w),  grad_y = grad * w,  grad_w = grad * (y - x)"""

    may_warn = True

    saves = ("self", "end", "weight")
    input_names = ("self", "end", "weight")

    def name(self):
        return "LerpBackward1"

    def forward(self, x, y, w):
        return _lerp(x, y, w)

    def backward(self, grad):
        x, y, w = self.saved_tensors
        return grad * (1 - w), grad * w, grad * (y - x)


class ClampTensor(Node):
    """z = min(max(x, lo), hi) with tensor bounds (a missing bound: +-inf)

    grad_x = grad where lo <= x <= hi,  grad_lo = grad where x < lo (and lo <= hi),
    grad_hi = grad where x > hi or lo > hi (then z is hi)
    """

    saves = ("self", "min", "max")
    input_names = ("self", "min", "max")

    def name(self):
        return "ClampBackward0"

    def forward(self, x, lo, hi):
        return np.minimum(hi, np.maximum(lo, x))  # (x kept on a tie, as Clamp's)

    def backward(self, grad):
        x, lo, hi = (t._data for t in self.saved_tensors)
        to_x = Tensor._wrap((x >= lo) & (x <= hi))
        to_lo = Tensor._wrap((x < lo) & (lo <= hi))
        to_hi = Tensor._wrap((x > hi) | (lo > hi))
        return where(to_x, grad, 0.0), where(to_lo, grad, 0.0), where(to_hi, grad, 0.0)


class DivRounded(Node):
    """z = floor(x / y) or trunc(x / y) (``div(..., rounding_mode=)``)        grad_x = grad_y = 0 (a step function)"""

    may_warn = True

    saves = ("self", "other")
    saved_params = ("rounding_mode",)

    def name(self):
        return "DivBackward2"

    def forward(self, x, y, rounding_mode):
        self.rounding_mode = rounding_mode
        if x.dtype.kind in "iub":
            quotient = np.floor_divide(x, y)
            if rounding_mode == "trunc":  # floor and trunc differ where the exact quotient is negative
                quotient = np.where((quotient < 0) & (quotient * y != x), quotient + 1, quotient)
            return quotient.astype(x.dtype, copy=False)
        if rounding_mode == "floor":
            # PyTorch's floor division, which NumPy's is step for step: the quotient of x - fmod(x, y),
            # not floor(x / y) (for 1 // 0.1 that is 9.0 against 10.0; inf // y is nan against inf).
            return np.floor_divide(x, y)
        return np.trunc(x / y)

    def backward(self, grad):
        return zero_gradient(grad), zero_gradient(grad)


class Fmod(Node):
    """z = x - trunc(x / c) * c for a number c (C's fmod: the sign of x)        grad_x = grad"""

    may_warn = True

    def forward(self, x, other):
        self.other = other
        return np.fmod(x, other)

    def backward(self, grad):
        return grad


class FmodTensor(Node):
    """z = x - trunc(x / y) * y (C's fmod)        grad_x = grad,  grad_y = -grad * trunc(x / y)"""

    may_warn = True

    saves = ("self", "other")
    saved_for = {"self": (1,), "other": (1,)}  # (only y's gradient reads them)

    def name(self):
        return "FmodBackward1"

    def forward(self, x, y):
        return np.fmod(x, y)

    def backward(self, grad):
        x, y = self.saved_tensors
        return grad, (-grad * Tensor._wrap(np.trunc(x._data / y._data)) if self.needs_input_grad[1] else None)


class Logit(Node):
    """z = log(x / (1 - x))        grad_x = grad / (x * (1 - x)), nan outside [0, 1]"""

    may_warn = True

    saves = ("self",)

    def forward(self, x):
        self.eps = None
        return np.log(x / (1 - x))

    def backward(self, grad):
        (x,) = self.saved_tensors
        # PyTorch's: nan outside the domain, where the formula alone would give a number.
        outside = Tensor._wrap((x._data < 0) | (x._data > 1))
        return where(outside, float("nan"), grad / (x * (1 - x)))


class Xlogy(Node):
    """z = x * log(y) (0 where x == 0, unless y is nan)

    grad_x = xlogy(grad, y) (0 where x == 0 and y <= 0),  grad_y = grad * x / y
    """

    may_warn = True

    saves = ("self", "other")

    def forward(self, x, y):
        return np.where((x == 0) & ~np.isnan(y), 0, x * np.log(y)).astype(x.dtype, copy=False)

    def backward(self, grad):
        x, y = self.saved_tensors
        grad_x = None
        if self.needs_input_grad[0]:
            # PyTorch's: the log(y) that x == 0 took out of the value is in its gradient, except where
            # it is -inf or nan (y <= 0).
            grad_x = xlogy(grad, y).masked_fill(Tensor._wrap((x._data == 0) & (y._data <= 0)), 0)
        return grad_x, grad * x / y if self.needs_input_grad[1] else None


class Logaddexp(Node):
    """z = log(exp(x) + exp(y))        grad_x = grad * sigmoid(x - y),  grad_y = grad * sigmoid(y - x)"""

    may_warn = True

    saves = ("self", "other")

    def forward(self, x, y):
        return np.logaddexp(x, y)

    def backward(self, grad):
        x, y = self.saved_tensors
        return grad * sigmoid(x - y), grad * sigmoid(y - x)


class Addcmul(Node):
    """z = x + value * t1 * t2        grad_x = grad,  grad_t1 = grad * value * t2,  grad_t2 = grad * value * t1"""

    may_warn = True

    saves = ("tensor1", "tensor2")
    input_names = ("self", "tensor1", "tensor2")
    saved_params = ("value",)

    def forward(self, x, t1, t2, value=1):
        self.value = value
        return x + value * t1 * t2

    def backward(self, grad):
        t1, t2 = self.saved_tensors
        scaled = grad * self.value if self.value != 1 else grad
        return grad, scaled * t2, scaled * t1


class Addcdiv(Node):
    """z = x + value * t1 / t2        grad_x = grad,  grad_t1 = grad * value / t2,  grad_t2 = -grad * value * t1 / t2**2"""

    may_warn = True

    saves = ("tensor1", "tensor2")
    input_names = ("self", "tensor1", "tensor2")
    saved_params = ("value",)

    def forward(self, x, t1, t2, value=1):
        self.value = value
        return x + value * t1 / t2

    def backward(self, grad):
        t1, t2 = self.saved_tensors
        scaled = grad * self.value if self.value != 1 else grad
        return grad, scaled / t2, -scaled * t1 / (t2 * t2)


# --- the functions users call -------------------------------------------------------------
def add(input, other, *, alpha=1):
    """Elementwise ``input + alpha * other``, with broadcasting.

    >>> import minigrad
    >>> minigrad.add(minigrad.tensor([1.0, 2.0]), 10)
    tensor([11., 12.])
    """
    # (alpha=1, the default of Add's forward, is not passed: an op without params calls it plainly.)
    if type(alpha) is int and alpha == 1:
        return _binary(Add, input, other)
    return _binary(Add, *_with_alpha(input, other, alpha, "add"), alpha=alpha)


def _with_alpha(input, other, alpha, op_name):
    """Both operands in their common dtype, which must suit ``alpha`` as PyTorch's rule says: a
    float alpha needs a floating result, a bool alpha a bool one."""
    a, b = promote(input, other, op_name)
    kind = a._data.dtype.kind
    if isinstance(alpha, (bool, np.bool_)) and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, np.floating)) and kind in "iub":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    return a, b


def sub(input, other, *, alpha=1):
    """Elementwise ``input - alpha * other``, with broadcasting."""
    if isinstance(input, Tensor) and input._data.dtype.kind == "b" and _is_bool(other):
        raise RuntimeError(messages.BOOL_SUBTRACTION)
    if isinstance(input, Tensor):
        if type(alpha) is int and alpha == 1:
            return _binary(Sub, input, other)
        return _binary(Sub, *_with_alpha(input, other, alpha, "sub"), alpha=alpha)
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


def mul_by_number(input, number):
    """``input * number`` recorded as PyTorch's formulas record it (MulBackward1, one edge)."""
    return MulByNumber.apply_unary(input, number)


def div(input, other, *, rounding_mode=None):
    """Elementwise true division (integers give the default float dtype)."""
    if rounding_mode is not None:
        if rounding_mode not in ("floor", "trunc"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                               f"'{rounding_mode}'")
        a, b = promote(input, other, "div")
        _no_integer_division_by_zero(b)
        return _binary(DivRounded, a, b, rounding_mode=rounding_mode)
    if (isinstance(input, Tensor) and isinstance(other, Tensor) and input._data.dtype is other._data.dtype
            and input._data.dtype.kind == "f"):
        return _binary(Div, input, other)  # (the common case: two float tensors of one dtype)
    a, b = promote(input, other, "div")
    if a._data.dtype.kind != "f":
        a, b = a.to(dtypes.default_float), b.to(dtypes.default_float)
    if not isinstance(input, Tensor):
        # ``2 / x`` (Tensor.__rtruediv__): PyTorch computes reciprocal(x) * 2, and so records it.
        return mul(Reciprocal.apply(b), a)
    return _binary(Div, a, b)


def neg(input):
    if _is_bool(input):
        raise RuntimeError(messages.BOOL_NEGATION)
    return Neg.apply_unary(input)


def _is_bool(operand):
    return isinstance(operand, Tensor) and operand._data.dtype.kind == "b"


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
        if isinstance(exponent, (int, np.integer)) and exponent < 0 and input._data.dtype.kind in "iub":
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return Pow.apply_unary(input, exponent)
    return Pow.apply_unary(input.to(dtypes.default_float), exponent)


def _float_unary(node_class):
    def op(input):
        if input._data.dtype.kind != "f":
            input = input.to(dtypes.default_float)
        return node_class.apply_unary(input)

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
    return Relu.apply_unary(input)


def abs(input):
    return Abs.apply_unary(input)


def sign(input):
    return Sign.apply_unary(input)


def clamp(input, min=None, max=None):
    """Limit every element to ``[min, max]`` (either may be None; numbers or tensors).

    >>> import minigrad
    >>> minigrad.tensor([-2.0, 0.5, 3.0]).clamp(min=minigrad.tensor([0.0, 1.0, 1.0]))
    tensor([0., 1., 3.])
    """
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    for name, bound in (("min", min), ("max", max)):
        if bound is not None and not is_operand(bound):
            raise TypeError(messages.NOT_A_NUMBER.format(op="clamp", name=name, type=type(bound).__name__))
    if input._data.dtype.kind in "iub":
        for bound in (min, max):  # (as PyTorch promotes: an integer clamped to 0.5 is float)
            if isinstance(bound, float) or (isinstance(bound, Tensor) and bound._data.dtype.kind == "f"):
                input = input.to(dtypes.default_float)
                break
    min, max = checked_number(min, input._data.dtype), checked_number(max, input._data.dtype)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        lo = as_tensor(-np.inf if min is None else min, input.dtype)
        hi = as_tensor(np.inf if max is None else max, input.dtype)
        try:
            np.broadcast_shapes(input.shape, lo.shape, hi.shape)
        except ValueError:
            bound = lo if min is not None else hi
            raise broadcast_error(input.shape, bound.shape) from None
        return ClampTensor.apply(input, lo, hi)
    return Clamp.apply(input, min=min, max=max)


def clamp_min(input, min):
    """``clamp(input, min=min)``, recorded as PyTorch's ``ClampMinBackward0``."""
    if isinstance(min, Tensor):
        return clamp(input, min=min)
    return Clamp.apply(input, min=min, kind="ClampMinBackward0")


def clamp_max(input, max):
    """``clamp(input, max=max)``, recorded as PyTorch's ``ClampMaxBackward0``."""
    if isinstance(max, Tensor):
        return clamp(input, max=max)
    return Clamp.apply(input, max=max, kind="ClampMaxBackward0")


clip = clamp


log1p = _float_unary(Log1p)
expm1 = _float_unary(Expm1)
exp2 = _float_unary(Exp2)
log2 = _float_unary(Log2)
log10 = _float_unary(Log10)
rsqrt = _float_unary(Rsqrt)
tan = _float_unary(Tan)
sinh = _float_unary(Sinh)
cosh = _float_unary(Cosh)
asin = arcsin = _float_unary(Asin)
acos = arccos = _float_unary(Acos)
atan = arctan = _float_unary(Atan)


def reciprocal(input):
    """Elementwise ``1 / input`` (integer inputs give the default float dtype).

    >>> import minigrad
    >>> minigrad.tensor([2.0, 4.0]).reciprocal()
    tensor([0.5000, 0.2500])
    """
    if not dtypes.is_floating(input.dtype):
        input = input.to(dtypes.default_float)
    return Reciprocal.apply_unary(input)


def square(input):
    """Elementwise ``input ** 2`` (PyTorch records it as ``pow(input, 2)``).

    >>> import minigrad
    >>> minigrad.tensor([-3.0, 2.0]).square()
    tensor([9., 4.])
    """
    return pow(input, 2)


def _rounding(how):
    def op(input, decimals=0):
        if not dtypes.is_floating(input.dtype):
            return input.clone()  # whole numbers are already rounded (PyTorch: a copy)
        return Rounding.apply(input, how=how, decimals=decimals)

    op.__name__ = how
    op.__doc__ = f"Elementwise {how}; its gradient is zero everywhere, as PyTorch's ({how.capitalize()}Backward0)."
    return op


floor = _rounding("floor")
ceil = _rounding("ceil")
trunc = fix = _rounding("trunc")


def round(input, *, decimals=0):
    """Round half to even, as PyTorch (``round(2.5)`` is 2); its gradient is zero.

    >>> import minigrad
    >>> minigrad.tensor([0.5, 1.5, 2.7]).round()
    tensor([0., 2., 3.])
    """
    return _rounding("round")(input, decimals)


def frac(input):
    """The fractional part ``input - trunc(input)``; its gradient is ``grad``."""
    return Frac.apply_unary(input)


def atan2(input, other):
    """Elementwise angle of the point ``(other, input)``, in ``(-pi, pi]``.

    >>> import minigrad
    >>> minigrad.atan2(minigrad.tensor([1.0]), minigrad.tensor([1.0]))
    tensor([0.7854])
    """
    return _binary(Atan2, *_as_floats(input, other, "atan2"))


arctan2 = atan2


def hypot(input, other):
    """Elementwise ``sqrt(input**2 + other**2)``."""
    return _binary(Hypot, input, other)


def _as_floats(input, other, op_name):
    check_operand(op_name, other)
    a, b = promote(input, other, op_name)
    if a._data.dtype.kind != "f":
        a, b = a.to(dtypes.default_float), b.to(dtypes.default_float)
    return a, b


def remainder(input, other):
    """Python's ``%``: the remainder has the sign of the divisor (``-3 % 2`` is 1).

    >>> import minigrad
    >>> minigrad.tensor([-3, 5]) % 2
    tensor([1, 1])
    """
    if isinstance(input, Tensor) and not isinstance(other, Tensor):
        check_operand("remainder", other)
        a, b = promote(input, other, "remainder")
        _no_integer_division_by_zero(b)
        return Remainder.apply(a, other=b._data)
    a, b = promote(input, other, "remainder")
    _no_integer_division_by_zero(b)
    return _binary(RemainderTensor, a, b)


def _no_integer_division_by_zero(divisor):
    if divisor.dtype.kind in "iub" and not np.all(divisor._data):
        raise RuntimeError("ZeroDivisionError")


def floor_divide(input, other):
    """Python's ``//``: ``floor(input / other)``, outside the graph.

    NB: PyTorch records a node whose backward raises "the derivative for 'floor_divide' is not
    implemented"; minigrad records nothing (the result does not require grad).
    """
    a, b = promote(input, other, "floor_divide")
    _no_integer_division_by_zero(b)
    with np.errstate(all="ignore"):
        return Tensor._wrap(np.asarray(np.floor_divide(a._data, b._data)))


def lerp(input, end, weight):
    """``input + weight * (end - input)``: a number weight gives LerpBackward0, a tensor one LerpBackward1.

    >>> import minigrad
    >>> minigrad.lerp(minigrad.tensor([0.0, 10.0]), minigrad.tensor([10.0, 20.0]), 0.5)
    tensor([ 5., 15.])
    """
    if not is_operand(weight):
        raise TypeError(messages.NOT_A_NUMBER.format(op="lerp", name="weight", type=type(weight).__name__))
    if isinstance(weight, Tensor):
        try:
            np.broadcast_shapes(input.shape, end.shape, weight.shape)
        except ValueError:
            raise broadcast_error(input.shape, end.shape if end.shape != input.shape else weight.shape) from None
        return LerpTensor.apply(input, end, weight)
    return _binary(Lerp, input, end, weight=weight)


def maximum(input, other):
    return _binary(Maximum, input, other)


def minimum(input, other):
    return _binary(Minimum, input, other)


def where(condition, input=None, other=None):
    """``input`` where ``condition`` is true, else ``other``, with broadcasting.

    ``where(condition)`` alone is ``nonzero(condition, as_tuple=True)``: the indices of the
    true (nonzero) elements, one tensor per dim.
    """
    if input is None and other is None:
        from .shape import nonzero

        return nonzero(condition if isinstance(condition, Tensor) else Tensor._wrap(np.asarray(condition)),
                       as_tuple=True)
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if cond.dtype.kind != "b":
        raise RuntimeError(messages.WHERE_CONDITION_NOT_BOOL.format(dtype=dtypes.SCALAR_TYPE_NAMES.get(cond.dtype, str(cond.dtype))))
    a, b = promote(input, other, "where")
    checked_number(input, a._data.dtype)  # (a number must fit the result's dtype)
    checked_number(other, b._data.dtype)
    shape = cond.shape
    for operand in (a, b):  # one at a time, so the message names the pair that clashes, as PyTorch's
        try:
            shape = np.broadcast_shapes(shape, operand.shape)
        except ValueError:
            raise broadcast_error(shape, operand.shape) from None
    return Where.apply(a, b, condition=cond.astype(bool))


def clone(input):
    """A copy that gradients flow through."""
    return Clone.apply_unary(input)


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


def isinf(input):
    return Tensor._wrap(np.isinf(input._data))


def isfinite(input):
    return Tensor._wrap(np.isfinite(input._data))


def _bitwise(ufunc, name):
    def op(input, other):
        a, b = promote(input, other, name)
        if a.dtype.kind == "f":
            kind = {2: "Half", 4: "Float", 8: "Double"}[a._data.dtype.itemsize]
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{kind}\'')
        try:
            return Tensor._wrap(ufunc(a._data, b._data))
        except ValueError:
            raise broadcast_error(a.shape, b.shape) from None

    op.__name__ = name
    op.__doc__ = f"Elementwise {name} of bool or integer tensors (``&``, ``|``, ``^``); outside the graph."
    return op


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(np.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor")


def bitwise_not(input):
    """``~x``: logical not of a bool tensor, bitwise not of an integer one."""
    if input.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return Tensor._wrap(np.invert(input._data))


def logical_and(input, other):
    return _compare(np.logical_and)(input, other)


def logical_or(input, other):
    return _compare(np.logical_or)(input, other)


def logical_not(input):
    return Tensor._wrap(np.logical_not(input._data))


def all(input, dim=None, keepdim=False):
    """True where every element (over ``dim``) is nonzero; a bool tensor."""
    axes = normalize_dim(dim, input.ndim) if input.ndim else None
    return Tensor._wrap(np.asarray(np.all(input._data, axis=axes, keepdims=keepdim)))


def any(input, dim=None, keepdim=False):
    """True where some element (over ``dim``) is nonzero; a bool tensor."""
    axes = normalize_dim(dim, input.ndim) if input.ndim else None
    return Tensor._wrap(np.asarray(np.any(input._data, axis=axes, keepdims=keepdim)))



# --- more of PyTorch's elementwise functions -----------------------------------------------------
logit = _float_unary(Logit)


def fmod(input, other):
    """C's remainder: ``x - trunc(x / other) * other``, with the sign of ``x`` (``%`` has the divisor's)."""
    if isinstance(other, Tensor):
        a, b = promote(input, other, "fmod")
        _no_integer_division_by_zero(b)
        return _binary(FmodTensor, a, b)
    check_operand("fmod", other)
    a, b = promote(input, other, "fmod")
    _no_integer_division_by_zero(b)
    return Fmod.apply(a, other=b._data)


def true_divide(input, other):
    """``div(input, other)``: true division, whatever the dtypes."""
    return div(input, other)


def xlogy(input, other):
    """``input * log(other)``, taken as 0 where ``input`` is 0 (the convention entropy sums need)."""
    return _binary(Xlogy, *_as_floats(input, other, "xlogy"))


def logaddexp(input, other):
    """``log(exp(input) + exp(other))`` without overflow."""
    return _binary(Logaddexp, *_as_floats(input, other, "logaddexp"))


def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2`` in one node (``AddcmulBackward0``)."""
    try:
        np.broadcast_shapes(input.shape, tensor1.shape, tensor2.shape)
    except ValueError:
        raise broadcast_error(tensor1.shape, tensor2.shape) from None
    return Addcmul.apply(input, tensor1, tensor2, value=value)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2`` in one node (``AddcdivBackward0``)."""
    try:
        np.broadcast_shapes(input.shape, tensor1.shape, tensor2.shape)
    except ValueError:
        raise broadcast_error(tensor1.shape, tensor2.shape) from None
    return Addcdiv.apply(input, tensor1, tensor2, value=value)


def positive(input):
    """``+input``: the tensor itself."""
    return input


negative = neg



def sgn(input):
    """``sign(input)`` (PyTorch's name for it that also covers complex numbers; ``SgnBackward0``)."""
    return Sign.apply(input, kind="SgnBackward0")


class NanToNum(Node):
    """z = x with NaN -> nan, +inf -> posinf, -inf -> neginf        grad_x = grad where x is finite, else 0"""

    saves = ("self",)

    def forward(self, x, nan, posinf, neginf):
        return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return grad * Tensor._wrap(np.isfinite(x._data).astype(grad._data.dtype))


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """Replace NaN and infinities by numbers (by default 0, and the dtype's largest and smallest)."""
    return NanToNum.apply(input, nan=nan, posinf=posinf, neginf=neginf)
