"""Matrix multiplication, the one op that mixes elements across a dimension.

``z = x @ y`` has VJPs ``grad_x = grad @ y^T`` and ``grad_y = x^T @ grad``.
1-D operands are treated as a row (left) or a column (right) vector, as
NumPy and PyTorch do, and extra leading dims are batch dims that broadcast.
"""

import math

import numpy as np

from .. import messages
from ..fast_path import matrix_product
from ..graph import Node
from ..tensor import Tensor
from ..dtypes import CPP_TYPE_NAMES, SCALAR_TYPE_NAMES
from .operands import as_tensor
from .shape import _squeeze_, _unsafe_view, broadcast_shapes


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

    may_warn = True

    # "other" first: PyTorch's MmBackward0 unpacks mat2 before self, which decides which of the two
    # an in-place error names when both changed (an operand and its view, as in x @ x.mT).
    saves = ("other", "self")
    saved_for = {"self": (1,), "other": (0,)}  # each operand is needed only for the other's gradient

    def name(self):
        return self._name

    def forward(self, x, y):
        self.mat2_transposed = _is_transposed(y)
        if x.ndim == 2 and y.ndim == 2:
            self._name = "MmBackward0"
            return matrix_product(x, y)
        if x.ndim == 1 and y.ndim == 1:
            self._name = "DotBackward0"
        elif x.ndim == 2 and y.ndim == 1:
            self._name = "MvBackward0"
        else:
            self._name = "BmmBackward0"  # 3-D @ 3-D: matmul() brings every other batched case to this
        return np.matmul(x, y)

    def backward(self, grad):
        y, x = self.saved_tensors  # only the ones a wanted gradient needs (see saved_for)
        (x_shape, _), (y_shape, _) = self._input_meta
        x_ndim, y_ndim = len(x_shape), len(y_shape)
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
    """z = beta * bias + alpha * m1 @ m2 (2-D)

    grad_bias = beta * grad,  grad_m1 = alpha * grad @ m2^T,  grad_m2 = alpha * m1^T @ grad

    What ``linear`` records for a 2-D input with a bias, as PyTorch does: one
    node instead of a matmul and an add.
    """

    may_warn = True

    saves = ("mat1", "mat2")
    input_names = ("self", "mat1", "mat2")
    saved_for = {"mat1": (2,), "mat2": (1,)}
    saved_params = ("alpha", "beta")
    alpha = beta = 1

    def forward(self, bias, m1, m2, beta=1, alpha=1):
        # linear() passes weight.t(): compute that gradient transposed, so that
        # after TBackward it lands in the weight's own (row-major) layout and
        # accumulating into .grad needs no transposing copy (PyTorch does the same).
        self.mat2_transposed = _is_transposed(m2)
        out = matrix_product(m1, m2)
        if alpha != 1 or beta != 1:
            self.alpha, self.beta = alpha, beta
            return alpha * out + beta * bias
        out += bias
        return out

    def backward(self, grad):
        m1, m2 = self.saved_tensors
        scaled = grad if self.alpha == 1 else grad * self.alpha
        return (grad if self.beta == 1 else grad * self.beta,
                scaled @ m2.mT if self.needs_input_grad[1] else None,
                _mat2_grad(m1, scaled, self.mat2_transposed) if self.needs_input_grad[2] else None)


def _tensors(a, b):
    """Matrix products take tensors only, and never promote: mixed dtypes are an error, as in PyTorch."""
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        return a, b
    return as_tensor(a), as_tensor(b)


def mm(input, mat2):
    """Matrix times matrix (2-D only): ``MmBackward0``."""
    return _mm(*_tensors(input, mat2))


def _mm(a, b):
    """``mm`` of two tensors (``matmul`` of two matrices comes here directly)."""
    if a._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(messages.MATMUL_SHAPES.format(r1=a.shape[0], c1=a.shape[1], r2=b.shape[0], c2=b.shape[1]))
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {CPP_TYPE_NAMES[a.dtype]} != "
                           f"{CPP_TYPE_NAMES[b.dtype]}")
    return MatMul.apply_binary(a, b)


def mv(input, vec):
    """Matrix times vector: ``MvBackward0``."""
    a, b = _tensors(input, vec)
    if a.ndim != 2 or b.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {b.ndim}")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
                           f"vec ({b.shape[0]})")
    if a.dtype != b.dtype:  # PyTorch's mv is addmv into a result of the vector's dtype: three names
        names = SCALAR_TYPE_NAMES[b.dtype], SCALAR_TYPE_NAMES[a.dtype], SCALAR_TYPE_NAMES[b.dtype]
        raise RuntimeError("addmv input tensors must have the same dtype, but got {}, {}, and {}".format(*names))
    return MatMul.apply_binary(a, b)


def dot(input, other):
    """Vector times vector, a 0-d result: ``DotBackward0``."""
    a, b = _tensors(input, other)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.dtype != b.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {SCALAR_TYPE_NAMES[a.dtype]} "
                           f"and {SCALAR_TYPE_NAMES[b.dtype]}")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to have "
                           f"the same number of elements, but got {a.shape[0]} and {b.shape[0]} elements respectively")
    return MatMul.apply_binary(a, b)


def bmm(input, mat2):
    """A batch of matrix products, (b, n, m) @ (b, m, p): ``BmmBackward0``."""
    a, b = _tensors(input, mat2)
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if (b.shape[0], b.shape[1]) != (a.shape[0], a.shape[2]):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, "
                           f"{a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {SCALAR_TYPE_NAMES[a.dtype]} but found {SCALAR_TYPE_NAMES[b.dtype]}")
    return MatMul.apply_binary(a, b)


def matmul(input, other):
    """Matrix product with NumPy's rules for 1-D and batched operands, built as PyTorch builds it.

    PyTorch's matmul is not one op: it picks ``dot``, ``mv`` or ``mm``, or reshapes the operands
    and calls ``mm``/``mv`` on a folded batch or ``bmm`` on an expanded one. The graph shows those
    steps (``UnsafeViewBackward0`` over ``BmmBackward0`` ...), so minigrad takes the same steps.

    >>> import minigrad
    >>> a = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> a @ minigrad.tensor([1.0, 1.0])
    tensor([3., 7.])
    """
    a, b = _tensors(input, other)
    dim1, dim2 = a._data.ndim, b._data.ndim
    if dim1 == 2 and dim2 == 2:
        return _mm(a, b)
    if dim1 == 0 or dim2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {dim1}D and {dim2}D")
    if dim1 == 1 and dim2 == 1:
        return dot(a, b)
    if dim1 == 2 and dim2 == 1:
        return mv(a, b)
    if dim1 == 1 and dim2 == 2:
        return _squeeze_(mm(a.unsqueeze(0), b), 0)
    if _should_fold(a, b):
        return _folded(a, b)
    return _batched(a, b)


def _should_fold(a, b):
    """True when the batched operand's batch can fold into the rows of one mm (or mv), as PyTorch decides.

    Folding needs the bigger operand (3-D or more) in C order, read the way the fold reads it
    (transposed when it is on the right), and the other at most 2-D; PyTorch also folds whenever
    that other one requires grad, so its gradient comes from one mm.
    """
    big, small = (a, b) if a.ndim >= b.ndim else (b.mT, a)
    if not (big.ndim >= 3 and small.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if a.ndim == 2:
        return False
    return big.numel() == 0 or big.is_contiguous()


def _folded(a, b):
    """(..., n, m) @ (m, p) as one (prod(...) * n, m) @ (m, p); with the batch on the right, transposed."""
    transpose = b.ndim > a.ndim
    big = b.mT if transpose else a
    small = (a.t() if a.ndim == 2 else a) if transpose else b
    out_shape = big.shape[:-1]
    rows = big.reshape(math.prod(out_shape), big.shape[-1])
    if small.ndim == 1:
        return _unsafe_view(mv(rows, small), out_shape)
    out = _unsafe_view(mm(rows, small), out_shape + (small.shape[1],))
    return out.mT.contiguous() if transpose else out


def _batched(a, b):
    """Both batches broadcast, expanded and flattened into one ``bmm``."""
    n, m1 = (a.shape[-2] if a.ndim > 1 else 1), a.shape[-1]
    m2, p = (b.shape[-2] if b.ndim > 1 else b.shape[-1]), (b.shape[-1] if b.ndim > 1 else 1)
    batch_a, batch_b = a.shape[:-2], b.shape[:-2]
    if a.ndim == 3 and b.ndim == 3 and batch_a[0] != batch_b[0]:
        # A batch of one that requires grad: drop it and fold instead (its gradient from one mm).
        if batch_a[0] == 1 and a.requires_grad:
            return matmul(a.squeeze(0), b)
        if batch_b[0] == 1 and b.requires_grad:
            return matmul(a, b.squeeze(0))
    batch = broadcast_shapes(batch_a, batch_b)
    count = math.prod(batch)
    a_expanded = a.expand(batch + (n, m1)).reshape(count, n, m1)
    out_shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    if b.ndim == 1:
        b_expanded = b.expand(batch + (m2,)).reshape(count, m2).unsqueeze(2)
        return _unsafe_view(bmm(a_expanded, b_expanded).squeeze(-1), out_shape)
    b_expanded = b.expand(batch + (m2, p)).reshape(count, m2, p)
    return _unsafe_view(bmm(a_expanded, b_expanded), out_shape)


def outer(input, other):
    """The outer product of two vectors: a column times a row, as PyTorch writes it."""
    return input.reshape(-1, 1) * other


class Addmv(Node):
    """z = beta * bias + alpha * m @ v

    grad_bias = beta * grad,  grad_m = alpha * outer(grad, v),  grad_v = alpha * m^T @ grad
    """

    may_warn = True

    saves = ("mat", "vec")
    input_names = ("self", "mat", "vec")
    saved_for = {"mat": (2,), "vec": (1,)}
    saved_params = ("alpha", "beta")

    def forward(self, bias, m, v, beta=1, alpha=1):
        self.alpha, self.beta = alpha, beta
        return alpha * (m @ v) + beta * bias

    def backward(self, grad):
        m, v = self.saved_tensors
        scaled = grad if self.alpha == 1 else grad * self.alpha
        return (grad if self.beta == 1 else grad * self.beta,
                scaled.unsqueeze(1) * v if self.needs_input_grad[1] else None,
                m.mT @ scaled if self.needs_input_grad[2] else None)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * mat1 @ mat2`` in one node (``AddmmBackward0``), ``input`` broadcast.

    >>> import minigrad
    >>> minigrad.addmm(minigrad.ones(2), minigrad.eye(2), minigrad.ones(2, 2))
    tensor([[2., 2.],
            [2., 2.]])
    """
    bias, a, b = as_tensor(input), *_tensors(mat1, mat2)
    product = mm(a.detach(), b.detach())  # checks the shapes and dtypes with mm's messages
    bias.expand(product.shape)  # and the bias with expand's
    return Addmm.apply(bias, a, b, beta=beta, alpha=alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * mat @ vec`` in one node (``AddmvBackward0``)."""
    bias, a, b = as_tensor(input), *_tensors(mat, vec)
    product = mv(a.detach(), b.detach())
    if bias.ndim > 1 or (bias.ndim == 1 and bias.shape[0] not in (1, product.shape[0])):
        raise RuntimeError(f"size mismatch, got input ({bias.shape[0] if bias.ndim else 1}), "
                           f"mat ({a.shape[0]}x{a.shape[1]}), vec ({b.shape[0]})")
    return Addmv.apply(bias, a, b, beta=beta, alpha=alpha)


class Einsum(Node):
    """z = einsum(equation, x) or einsum(equation, x, y), one or two operands

    grad of an operand = einsum of grad with the other operand, back to this operand's subscripts
    (then broadcast along a subscript only this operand had: it was summed away).
    NB: PyTorch records einsum as the permutes, views and bmm it runs (the last node is usually
    ``ViewBackward0``); minigrad records one ``EinsumBackward0`` node, to keep the formula readable.
    """

    may_warn = True

    saves = ("self", "other")
    saved_params = ("equation",)

    def forward(self, *arrays, equation):
        self.equation = equation
        return np.asarray(np.einsum(equation, *arrays))

    def backward(self, grad):
        inputs, output = self.equation.split("->")
        subscripts = inputs.split(",")
        operands = [t for t in self.saved_tensors[:len(subscripts)]]
        grads = []
        for k, wanted in enumerate(subscripts):
            if not self.needs_input_grad[k]:
                grads.append(None)
                continue
            others = [(s, t) for i, (s, t) in enumerate(zip(subscripts, operands)) if i != k]
            seen = set(output).union(*[s for s, _ in others])
            kept = "".join(c for c in wanted if c in seen)
            g = einsum(",".join([output] + [s for s, _ in others]) + "->" + kept, grad, *[t for _, t in others])
            shape = self._input_meta[k][0]
            if kept != wanted:  # put back the subscripts only this operand had, then broadcast
                g = g.reshape([n if c in kept else 1 for c, n in zip(wanted, shape)]).expand(shape)
            grads.append(g)
        return tuple(grads)


class EinsumOne(Einsum):
    """z = einsum(equation, x) (one operand: a sum, a transpose ...), linear in x: nothing saved"""

    may_warn = True

    saves = ()

    def name(self):
        return "EinsumBackward0"

    def backward(self, grad):
        inputs, output = self.equation.split("->")
        shape = self._input_meta[0][0]
        kept = "".join(c for c in inputs if c in output)
        g = einsum(f"{output}->{kept}", grad)
        if kept != inputs:
            g = g.reshape([n if c in kept else 1 for c, n in zip(inputs, shape)]).expand(shape)
        return g


def einsum(equation, *operands):
    """Einstein summation: ``einsum("ij,jk->ik", a, b)`` is ``a @ b``; repeated subscripts are summed.

    The common forms are supported: any number of operands, an explicit or implicit output,
    no ``...`` and no subscript repeated within one operand (a diagonal); those raise
    NotImplementedError naming the form.

    >>> import minigrad
    >>> minigrad.einsum("ij,j->i", minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]), minigrad.tensor([1.0, 1.0]))
    tensor([3., 7.])
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    operands = [as_tensor(t) for t in operands]
    equation = equation.replace(" ", "")
    if "..." in equation:
        raise NotImplementedError(messages.EINSUM_FORM.format(equation=equation, why="'...' is not supported"))
    inputs, arrow, output = equation.partition("->")
    subscripts = inputs.split(",")
    if len(subscripts) != len(operands):
        raise RuntimeError(f"einsum(): more operands were provided than specified in the equation"
                           if len(operands) > len(subscripts) else
                           "einsum(): fewer operands were provided than specified in the equation")
    if not arrow:  # the implicit output: the subscripts seen once, in alphabetical order
        letters = "".join(subscripts)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    for s in subscripts + [output]:
        if len(set(s)) != len(s):
            raise NotImplementedError(messages.EINSUM_FORM.format(
                equation=equation, why=f"a subscript repeated within '{s}' (a diagonal) is not supported"))
    sizes = {}
    for number, (s, t) in enumerate(zip(subscripts, operands)):
        if len(s) != t.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(s)}) does not match the "
                               f"number of dimensions ({t.ndim}) for operand {number} and no ellipsis was given")
        for c, n in zip(s, t.shape):
            if sizes.setdefault(c, n) != n:
                raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {number} which does not "
                                   f"broadcast with previously seen size {sizes[c]}")
    for c in output:
        if c not in sizes:
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input operand")
    if len({t.dtype for t in operands}) > 1:
        raise RuntimeError("expected scalar type " + SCALAR_TYPE_NAMES[operands[0].dtype] + " but found "
                           + SCALAR_TYPE_NAMES[next(t.dtype for t in operands if t.dtype != operands[0].dtype)])
    while len(operands) > 2:  # contract the first two, keeping the subscripts still needed, and go on
        rest = set(output).union(*subscripts[2:])
        pair = "".join(dict.fromkeys(c for c in subscripts[0] + subscripts[1] if c in rest))
        joined = Einsum.apply(operands[0], operands[1], equation=f"{subscripts[0]},{subscripts[1]}->{pair}")
        operands, subscripts = [joined] + operands[2:], [pair] + subscripts[2:]
    node = EinsumOne if len(operands) == 1 else Einsum
    return node.apply(*operands, equation=",".join(subscripts) + "->" + output)
