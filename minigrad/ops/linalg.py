"""Matrix multiplication, the one op that mixes elements across a dimension.

``z = x @ y`` has VJPs ``grad_x = grad @ y^T`` and ``grad_y = x^T @ grad``.
1-D operands are treated as a row (left) or a column (right) vector, as
NumPy and PyTorch do, and extra leading dims are batch dims that broadcast.
"""

import numpy as np

from .. import messages
from ..function import Node
from .operands import promote


def _is_transposed(array):
    """True for a 2-D array laid out column-major: a transposed view such as ``w.t()``."""
    if array.ndim != 2:
        return False
    flags = array.flags  # a new object at every access: read it once
    return flags.f_contiguous and not flags.c_contiguous


def _mat2_grad(mat1, grad, transposed):
    """``mat1^T @ grad``, computed as ``(grad^T @ mat1)^T`` when mat2 was a transposed view."""
    return (grad.mT @ mat1).mT if transposed else mat1.mT @ grad


class MatMul(Node):
    """z = x @ y        grad_x = grad @ y^T,  grad_y = x^T @ grad"""

    # "other" first: PyTorch's MmBackward0 unpacks mat2 before self, which decides which of the two
    # an in-place error names when both changed (an operand and its view, as in x @ x.mT).
    saves = ("other", "self")
    saved_for = {"self": (1,), "other": (0,)}  # each operand is needed only for the other's gradient

    def name(self):
        return self._name

    def forward(self, x, y):
        if x.ndim == 1 and y.ndim == 1:
            self._name = "DotBackward0"
        elif x.ndim == 2 and y.ndim == 2:
            self._name = "MmBackward0"
        elif x.ndim == 2 and y.ndim == 1:
            self._name = "MvBackward0"
        else:
            self._name = "BmmBackward0"  # NB: PyTorch wraps batched matmuls in view nodes too
        self.mat2_transposed = _is_transposed(y)
        return np.matmul(x, y)

    def backward(self, grad):
        y, x = self.saved_tensors  # only the ones a wanted gradient needs (see saved_for)
        x_ndim, y_ndim = (len(shape) for shape, _ in self._input_meta)
        # Promote 1-D operands to matrices, apply the 2-D formulas, then drop the added dim.
        # The column dim goes back first: for 1-D @ 1-D the gradient is 0-d and becomes (1, 1).
        if y_ndim == 1:
            grad = grad.unsqueeze(-1)
        if x_ndim == 1:
            grad = grad.unsqueeze(-2)
        grad_x = grad_y = None
        if self.needs_input_grad[0]:
            grad_x = grad @ (y.unsqueeze(-1) if y_ndim == 1 else y).mT
            if x_ndim == 1:
                grad_x = grad_x.squeeze(-2)
        if self.needs_input_grad[1]:
            grad_y = _mat2_grad(x.unsqueeze(0) if x_ndim == 1 else x, grad, self.mat2_transposed)
            if y_ndim == 1:
                grad_y = grad_y.squeeze(-1)
        return grad_x, grad_y


class Addmm(Node):
    """z = bias + m1 @ m2 (2-D)        grad_bias = grad,  grad_m1 = grad @ m2^T,  grad_m2 = m1^T @ grad

    What ``linear`` records for a 2-D input with a bias, as PyTorch does: one
    node instead of a matmul and an add.
    """

    saves = ("mat1", "mat2")
    input_names = ("self", "mat1", "mat2")
    saved_for = {"mat1": (2,), "mat2": (1,)}

    def forward(self, bias, m1, m2):
        # linear() passes weight.t(): compute that gradient transposed, so that
        # after TBackward it lands in the weight's own (row-major) layout and
        # accumulating into .grad needs no transposing copy (PyTorch does the same).
        self.mat2_transposed = _is_transposed(m2)
        out = m1 @ m2
        out += bias
        return out

    def backward(self, grad):
        m1, m2 = self.saved_tensors
        return (grad,
                grad @ m2.mT if self.needs_input_grad[1] else None,
                _mat2_grad(m1, grad, self.mat2_transposed) if self.needs_input_grad[2] else None)


def matmul(input, other):
    """Matrix product with NumPy's rules for 1-D and batched operands.

    >>> import minigrad
    >>> a = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> a @ minigrad.tensor([1.0, 1.0])
    tensor([3., 7.])
    """
    a, b = promote(input, other)
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and {b.ndim}D")
    try:
        return MatMul.apply(a, b)
    except ValueError:
        rows1, cols1 = (1, a.shape[0]) if a.ndim == 1 else a.shape[-2:]
        rows2, cols2 = (b.shape[0], 1) if b.ndim == 1 else b.shape[-2:]
        if a.ndim == 1 and b.ndim == 1:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to have "
                "the same number of elements, but got "
                f"{a.shape[0]} and {b.shape[0]} elements respectively") from None
        raise RuntimeError(messages.MATMUL_SHAPES.format(r1=rows1, c1=cols1, r2=rows2, c2=cols2)) from None


mm = matmul


def dot(input, other):
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    return matmul(input, other)


def outer(input, other):
    return input.unsqueeze(-1) * other
