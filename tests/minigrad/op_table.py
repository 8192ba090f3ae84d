"""One table of every differentiable op, for ``test_ops_table.py``.

Each ``OpCase`` says how to call the op (``fn``), what it should compute
(``reference``, written with NumPy), and how to draw inputs at which the op is
smooth. ``fn`` takes the library as its first argument, ``fn(lib, *tensors)``,
so the very same expression runs under ``minigrad`` and under ``torch``: the
tests use that to ask PyTorch for the ``grad_fn`` name minigrad should give.

Inputs are drawn away from the points where an op has a kink or a jump
(``|x|`` at 0, ``clamp`` at its bounds, ties in ``max``), because there the
finite differences in ``numerical.py`` measure something else than the
gradient PyTorch defines.
"""

import dataclasses
from typing import Callable

import numpy as np

# Elements this close to a kink are redrawn; far more than the finite-difference step.
MARGIN = 0.1


# --- drawing inputs -----------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Inputs:
    """How to draw the arrays for some of a case's inputs (one array per shape).

    Attributes:
        shapes: one shape per input drawn by this spec.
        sample: ``sample(rng, shapes) -> list of float64 arrays``.
        kind: a word for test ids and failure messages.
    """

    shapes: tuple
    sample: Callable
    kind: str

    def draw(self, rng):
        return self.sample(rng, self.shapes)


def uniform(*shapes, low=-2.0, high=2.0, avoid=()):
    """Independent uniform values in ``[low, high]``, none within MARGIN of a point in ``avoid``."""

    def sample(rng, shapes):
        arrays = []
        for shape in shapes:
            values = rng.uniform(low, high, size=shape)
            too_close = np.zeros(shape, dtype=bool)
            for point in avoid:
                too_close |= np.abs(values - point) < MARGIN
            while too_close.any():  # redraw only the offending elements
                values[too_close] = rng.uniform(low, high, size=int(too_close.sum()))
                too_close[...] = False
                for point in avoid:
                    too_close |= np.abs(values - point) < MARGIN
            arrays.append(np.asarray(values, dtype=np.float64))
        return arrays

    return Inputs(shapes, sample, "uniform" if not avoid else f"avoiding {list(avoid)}")


def positive(*shapes):
    """Values in [0.5, 2]: inside the domain of log, sqrt and fractional powers."""
    return dataclasses.replace(uniform(*shapes, low=0.5, high=2.0), kind="positive")


def nonzero(*shapes):
    """Values with ``|x| >= MARGIN``: away from the kinks of abs and relu and the pole of 1/x."""
    return dataclasses.replace(uniform(*shapes, avoid=(0.0,)), kind="nonzero")


def distinct(*shapes):
    """Values that are pairwise far apart *across all these inputs*: no ties for max/min.

    A shuffled, slightly jittered grid: any two values differ by at least half
    a grid step, and zero is avoided too (so relu(x) or |x| can be mixed in).
    """

    def sample(rng, shapes):
        sizes = [int(np.prod(shape)) for shape in shapes]
        count = sum(sizes)
        step = 4.0 / count  # the values span about [-2, 2]
        grid = (np.arange(count) - count // 2 + 0.5) * step  # half-integer steps: 0 is not on it
        values = rng.permutation(grid + rng.uniform(-step / 4, step / 4, size=count))
        arrays, start = [], 0
        for shape, size in zip(shapes, sizes):
            arrays.append(values[start:start + size].reshape(shape))
            start += size
        return arrays

    return Inputs(shapes, sample, "distinct")


# --- the table's entries --------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class OpCase:
    """One row of the table.

    Attributes:
        name: the expression, as a test id.
        fn: ``fn(lib, *tensors) -> tensor`` with ``lib`` either minigrad or torch.
        reference: ``reference(*arrays) -> array``, the same computation in NumPy.
        inputs: ``Inputs`` specs; together they draw one array per tensor of ``fn``.
    """

    name: str
    fn: Callable
    reference: Callable
    inputs: tuple

    def draw(self, rng):
        """One float64 array per input of ``fn``."""
        return [array for spec in self.inputs for array in spec.draw(rng)]


def functional(lib):
    """``torch.nn.functional``, or the module where minigrad keeps the same functions."""
    return lib.nn.functional if lib.__name__ == "torch" else lib.ops


# --- NumPy references for the ops NumPy does not have -----------------------------------
def np_logsumexp(x, axis, keepdims=False):
    shift = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - shift), axis=axis, keepdims=True)) + shift
    return out if keepdims else np.squeeze(out, axis=axis)


def np_log_softmax(x, axis):
    return x - np_logsumexp(x, axis, keepdims=True)


def np_softmax(x, axis):
    return np.exp(np_log_softmax(x, axis))


def np_sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def np_cross_entropy(logits, targets, reduction):
    losses = -np_log_softmax(logits, 1)[np.arange(len(targets)), targets]
    return {"mean": np.mean, "sum": np.sum, "none": lambda a: a}[reduction](losses)


def np_mse(x, y, reduction):
    squares = (x - y) ** 2
    return {"mean": np.mean, "sum": np.sum, "none": lambda a: a}[reduction](squares)


def np_setitem(x, index, value):
    out = x.copy()
    out[index] = value
    return out


# Constant (non-differentiable) arguments shared by the fn and its reference.
MASK_2x3 = np.array([[True, False, True], [False, False, True]])
ROWS_3 = np.array([True, False, True])
TARGETS_4 = np.array([2, 0, 2, 1])


# --- in-place ops: applied to a clone, since a leaf that requires grad may not change -------
def _inplace(method, *args, **kwargs):
    def fn(lib, x, *others):
        z = x.clone()
        return getattr(z, method)(*others, *args, **kwargs)

    return fn


def _iadd(lib, x, y):
    z = x.clone()
    z += y
    return z


def _isub(lib, x, y):
    z = x.clone()
    z -= y
    return z


def _imul(lib, x, y):
    z = x.clone()
    z *= y
    return z


def _idiv(lib, x, y):
    z = x.clone()
    z /= y
    return z


def _setitem_row(lib, x, y):
    z = x.clone()
    z[1] = y
    return z


def _setitem_column_number(lib, x):
    z = x.clone()
    z[:, 0] = 2.0
    return z


def _setitem_mask(lib, x, y):
    z = x.clone()
    z[lib.tensor(MASK_2x3)] = y
    return z



# --- helpers for the ops surface of issue #8 ----------------------------------------------
def _np_std(x, axis=None, ddof=1, keepdims=False):
    return np.std(x, axis=axis, ddof=ddof, keepdims=keepdims)


def _np_rolled(x, shift, axis):
    return np.roll(x, shift, axis)


GATHER_2x3 = np.array([[2, 0], [1, 1]])
SELECT_3 = np.array([2, 0, 2])
MASK_ROW_3 = np.array([True, False, True])


def _split_second(lib, x):
    return x.split([1, 3], dim=1)[1]


def _chunk_joined(lib, x):
    a, b, c = x.chunk(3)  # sizes 2, 2, 1: every piece reaches the gradient
    return a * 2 + b - c.expand(2, 3) * 3


def _unbind_joined(lib, x):
    rows = x.unbind(1)
    return rows[0] * rows[2] + rows[1]


def _var_mean_joined(lib, x):
    v, m = lib.var_mean(x, dim=1)
    return v * 2 + m


def _std_mean_joined(lib, x):
    s, m = lib.std_mean(x, dim=0, keepdim=True)
    return s - m * 3


def _first_column(x):
    return x[:, 1:4]


def _inplace_unary(method, *args):
    def fn(lib, x):
        z = x * 1.0  # a non-leaf to change in place
        return getattr(z, method)(*args)

    return fn


def _meshgrid_product(lib, x, y):
    rows, cols = lib.meshgrid(x, y, indexing="ij")
    return rows * cols


SCATTER_2x2 = np.array([[2, 0], [1, 2]])  # no repeated index within a row: scatter's result is well defined


def _np_scatter(x, index, src):
    out = x.copy()
    rows = np.arange(index.shape[0])[:, None]
    out[rows, index] = src
    return out


def _np_scatter_add(x, index, src):
    out = x.copy()
    np.add.at(out, (np.arange(index.shape[0])[:, None], index), src)
    return out

C = OpCase

# --- the table ---------------------------------------------------------------------------
OPS = [
    # arithmetic and broadcasting
    C("x + y", lambda lib, x, y: x + y, np.add, (uniform((2, 3), (2, 3)),)),
    C("x + y (2,3)+(3,)", lambda lib, x, y: x + y, np.add, (uniform((2, 3), (3,)),)),
    C("x + y 0-d+(2,3)", lambda lib, x, y: x + y, np.add, (uniform((), (2, 3)),)),
    C("add(x, y, alpha=2)", lambda lib, x, y: lib.add(x, y, alpha=2), lambda x, y: x + 2 * y,
      (uniform((2, 1), (1, 3)),)),
    C("x + 2.5", lambda lib, x: x + 2.5, lambda x: x + 2.5, (uniform((3,)),)),
    C("2 + x", lambda lib, x: 2 + x, lambda x: 2 + x, (uniform((2, 2)),)),
    C("x - y (4,1,3)-(2,1)", lambda lib, x, y: x - y, np.subtract, (uniform((4, 1, 3), (2, 1)),)),
    C("sub(x, y, alpha=0.5)", lambda lib, x, y: lib.sub(x, y, alpha=0.5), lambda x, y: x - 0.5 * y,
      (uniform((3,), (2, 3)),)),
    C("x.sub(1.5)", lambda lib, x: x.sub(1.5), lambda x: x - 1.5, (uniform((3,)),)),
    C("2 - x", lambda lib, x: 2 - x, lambda x: 2 - x, (uniform((2, 3)),)),
    C("x * y (2,1)*(1,3)", lambda lib, x, y: x * y, np.multiply, (uniform((2, 1), (1, 3)),)),
    C("x * x", lambda lib, x: x * x, lambda x: x * x, (uniform((4,)),)),
    C("mul(x, y) 0-d", lambda lib, x, y: lib.mul(x, y), np.multiply, (uniform((), ()),)),
    C("3 * x", lambda lib, x: 3 * x, lambda x: 3 * x, (uniform((2, 3)),)),
    C("x / y (2,3)/(3,)", lambda lib, x, y: x / y, np.divide, (uniform((2, 3)), nonzero((3,)))),
    C("div(x, y) (3,)/(2,1)", lambda lib, x, y: lib.div(x, y), np.divide, (uniform((3,)), nonzero((2, 1)))),
    C("x / 4", lambda lib, x: x / 4, lambda x: x / 4, (uniform((2, 3)),)),
    C("2 / x", lambda lib, x: 2 / x, lambda x: 2 / x, (nonzero((2, 3)),)),
    C("-x", lambda lib, x: -x, np.negative, (uniform((2, 3)),)),
    C("neg(x)", lambda lib, x: lib.neg(x), np.negative, (uniform(()),)),
    C("x ** 3", lambda lib, x: x ** 3, lambda x: x ** 3, (uniform((2, 3)),)),
    C("x ** 2.5", lambda lib, x: x ** 2.5, lambda x: x ** 2.5, (positive((2, 3)),)),
    C("x ** -1", lambda lib, x: x ** -1, lambda x: x ** -1.0, (nonzero((3,)),)),
    C("x ** 0", lambda lib, x: x ** 0, lambda x: x ** 0, (uniform((3,)),)),
    C("pow(x, 0.5)", lambda lib, x: lib.pow(x, 0.5), np.sqrt, (positive((2, 2)),)),
    C("x ** y (2,3)**(3,)", lambda lib, x, y: x ** y, np.power, (positive((2, 3)), uniform((3,)))),
    C("pow(x, y) 0-d exponent", lambda lib, x, y: lib.pow(x, y), np.power, (positive((3,)), uniform(()))),
    C("2 ** x", lambda lib, x: 2 ** x, lambda x: 2.0 ** x, (uniform((2, 3)),)),
    # matrix products
    C("x @ y 1-D@1-D", lambda lib, x, y: x @ y, np.matmul, (uniform((3,), (3,)),)),
    C("x @ y 2-D@2-D", lambda lib, x, y: x @ y, np.matmul, (uniform((2, 3), (3, 4)),)),
    C("x @ y 2-D@1-D", lambda lib, x, y: x @ y, np.matmul, (uniform((2, 3), (3,)),)),
    C("x @ y 1-D@2-D", lambda lib, x, y: x @ y, np.matmul, (uniform((3,), (3, 2)),)),
    C("matmul(x, y) batched", lambda lib, x, y: lib.matmul(x, y), np.matmul, (uniform((2, 2, 3), (2, 3, 2)),)),
    C("x @ y batched@2-D", lambda lib, x, y: x @ y, np.matmul, (uniform((2, 2, 3), (3, 2)),)),
    C("x @ y (2,1,2,3)@(3,3,2)", lambda lib, x, y: x @ y, np.matmul, (uniform((2, 1, 2, 3), (3, 3, 2)),)),
    C("x @ y 1-D@batched", lambda lib, x, y: x @ y, np.matmul, (uniform((3,), (2, 3, 2)),)),
    C("x.mm(y)", lambda lib, x, y: x.mm(y), np.matmul, (uniform((3, 2), (2, 2)),)),
    # functions of one variable
    C("abs(x)", lambda lib, x: lib.abs(x), np.abs, (nonzero((2, 3)),)),
    C("x.abs() 0-d", lambda lib, x: x.abs(), np.abs, (nonzero(()),)),
    C("exp(x)", lambda lib, x: lib.exp(x), np.exp, (uniform((2, 3)),)),
    C("x.exp() 0-d", lambda lib, x: x.exp(), np.exp, (uniform(()),)),
    C("log(x)", lambda lib, x: lib.log(x), np.log, (positive((2, 3)),)),
    C("sqrt(x)", lambda lib, x: lib.sqrt(x), np.sqrt, (positive((4,)),)),
    C("sin(x)", lambda lib, x: lib.sin(x), np.sin, (uniform((2, 3)),)),
    C("cos(x)", lambda lib, x: x.cos(), np.cos, (uniform((2, 3)),)),
    C("tanh(x)", lambda lib, x: lib.tanh(x), np.tanh, (uniform((2, 3)),)),
    C("sigmoid(x)", lambda lib, x: lib.sigmoid(x), np_sigmoid, (uniform((2, 3), low=-6, high=6),)),
    C("relu(x)", lambda lib, x: lib.relu(x), lambda x: np.maximum(x, 0), (nonzero((2, 3)),)),
    C("F.relu(x)", lambda lib, x: functional(lib).relu(x), lambda x: np.maximum(x, 0), (nonzero((5,)),)),
    C("F.tanh(x)", lambda lib, x: functional(lib).tanh(x), np.tanh, (uniform((5,)),)),
    C("F.sigmoid(x)", lambda lib, x: functional(lib).sigmoid(x), np_sigmoid, (uniform((5,)),)),
    C("clamp(x, -0.5, 0.5)", lambda lib, x: lib.clamp(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5),
      (uniform((3, 4), low=-1, high=1, avoid=(-0.5, 0.5)),)),
    C("x.clamp(min=0.3)", lambda lib, x: x.clamp(min=0.3), lambda x: np.maximum(x, 0.3),
      (uniform((2, 3), avoid=(0.3,)),)),
    C("x.clamp(max=-0.2)", lambda lib, x: x.clamp(max=-0.2), lambda x: np.minimum(x, -0.2),
      (uniform((2, 3), avoid=(-0.2,)),)),
    C("x.clip(-1, 1)", lambda lib, x: x.clip(-1, 1), lambda x: np.clip(x, -1, 1), (uniform((4,), avoid=(-1, 1)),)),
    C("maximum(x, y) (2,3),(3,)", lambda lib, x, y: lib.maximum(x, y), np.maximum, (distinct((2, 3), (3,)),)),
    C("minimum(x, y) (2,1),(3,)", lambda lib, x, y: lib.minimum(x, y), np.minimum, (distinct((2, 1), (3,)),)),
    C("x.max(y)", lambda lib, x, y: x.max(y), np.maximum, (distinct((2, 3), (2, 3)),)),
    C("where(mask, x, y)", lambda lib, x, y: lib.where(lib.tensor(MASK_2x3), x, y),
      lambda x, y: np.where(MASK_2x3, x, y), (uniform((2, 3), (3,)),)),
    C("where(x > 0, x, y)", lambda lib, x, y: lib.where(x > 0, x, y), lambda x, y: np.where(x > 0, x, y),
      (nonzero((2, 3)), uniform((2, 1)))),
    C("where(mask, x, 0.0)", lambda lib, x: lib.where(lib.tensor(MASK_2x3), x, 0.0),
      lambda x: np.where(MASK_2x3, x, 0.0), (uniform((2, 3)),)),
    C("x.clone()", lambda lib, x: x.clone(), np.copy, (uniform((2, 3)),)),
    # reductions
    C("x.sum()", lambda lib, x: x.sum(), np.sum, (uniform((2, 3, 4)),)),
    C("sum(x) 0-d", lambda lib, x: lib.sum(x), np.sum, (uniform(()),)),
    C("x.sum(dim=1)", lambda lib, x: x.sum(dim=1), lambda x: x.sum(axis=1), (uniform((2, 3, 4)),)),
    C("x.sum(-1, keepdim=True)", lambda lib, x: x.sum(-1, keepdim=True), lambda x: x.sum(axis=-1, keepdims=True),
      (uniform((2, 3, 4)),)),
    C("sum(x, dim=(0, 2))", lambda lib, x: lib.sum(x, dim=(0, 2)), lambda x: x.sum(axis=(0, 2)),
      (uniform((2, 3, 4)),)),
    C("x.mean()", lambda lib, x: x.mean(), np.mean, (uniform((2, 3, 4)),)),
    C("x.mean(dim=0)", lambda lib, x: x.mean(dim=0), lambda x: x.mean(axis=0), (uniform((3, 4)),)),
    C("mean(x, (-1, 0), keepdim=True)", lambda lib, x: lib.mean(x, (-1, 0), keepdim=True),
      lambda x: x.mean(axis=(0, 2), keepdims=True), (uniform((2, 3, 4)),)),
    C("x.var()", lambda lib, x: x.var(), lambda x: np.var(x, ddof=1), (uniform((3, 4)),)),
    C("x.var(unbiased=False)", lambda lib, x: x.var(unbiased=False), np.var, (uniform((3, 4)),)),
    C("x.var(dim=1)", lambda lib, x: x.var(dim=1), lambda x: np.var(x, axis=1, ddof=1), (uniform((2, 3, 4)),)),
    C("x.var((0, -1), unbiased=False, keepdim=True)",
      lambda lib, x: x.var((0, -1), unbiased=False, keepdim=True),
      lambda x: np.var(x, axis=(0, 2), keepdims=True), (uniform((2, 3, 4)),)),
    C("var(x, -1)", lambda lib, x: lib.var(x, -1), lambda x: np.var(x, axis=-1, ddof=1), (uniform((3, 4)),)),
    C("x.amax()", lambda lib, x: x.amax(), np.max, (distinct((3, 4)),)),
    C("x.amax(dim=1)", lambda lib, x: x.amax(dim=1), lambda x: np.max(x, axis=1), (distinct((2, 3, 4)),)),
    C("amax(x, (0, -1), keepdim=True)", lambda lib, x: lib.amax(x, (0, -1), keepdim=True),
      lambda x: np.max(x, axis=(0, 2), keepdims=True), (distinct((2, 3, 4)),)),
    C("x.amin(0)", lambda lib, x: x.amin(0), lambda x: np.min(x, axis=0), (distinct((3, 4)),)),
    C("amin(x)", lambda lib, x: lib.amin(x), np.min, (distinct((2, 3)),)),
    C("x.max()", lambda lib, x: x.max(), np.max, (distinct((3, 4)),)),
    C("min(x)", lambda lib, x: lib.min(x), np.min, (distinct((3, 4)),)),
    C("x.max(dim=1).values", lambda lib, x: x.max(dim=1).values, lambda x: np.max(x, axis=1),
      (distinct((2, 3, 4)),)),
    C("max(x, 0)[0]", lambda lib, x: lib.max(x, 0)[0], lambda x: np.max(x, axis=0), (distinct((3, 4)),)),
    C("x.min(-1, keepdim=True).values", lambda lib, x: x.min(-1, keepdim=True).values,
      lambda x: np.min(x, axis=-1, keepdims=True), (distinct((2, 3, 4)),)),
    C("x.min(dim=0).values 1-D", lambda lib, x: x.min(dim=0).values, np.min, (distinct((5,)),)),
    C("x.logsumexp(dim=1)", lambda lib, x: x.logsumexp(dim=1), lambda x: np_logsumexp(x, 1),
      (uniform((2, 3, 4)),)),
    C("logsumexp(x, (0, 2), keepdim=True)", lambda lib, x: lib.logsumexp(x, (0, 2), keepdim=True),
      lambda x: np_logsumexp(x, (0, 2), keepdims=True), (uniform((2, 3, 4)),)),
    C("x.logsumexp(-1) 1-D", lambda lib, x: x.logsumexp(-1), lambda x: np_logsumexp(x, -1), (uniform((5,)),)),
    C("x.softmax(dim=-1)", lambda lib, x: x.softmax(dim=-1), lambda x: np_softmax(x, -1), (uniform((2, 3, 4)),)),
    C("softmax(x, 0)", lambda lib, x: lib.softmax(x, 0), lambda x: np_softmax(x, 0), (uniform((3, 2)),)),
    C("F.softmax(x, dim=1)", lambda lib, x: functional(lib).softmax(x, dim=1), lambda x: np_softmax(x, 1),
      (uniform((2, 3, 2)),)),
    C("x.log_softmax(dim=1)", lambda lib, x: x.log_softmax(dim=1), lambda x: np_log_softmax(x, 1),
      (uniform((2, 3, 4)),)),
    C("log_softmax(x, -1) 1-D", lambda lib, x: lib.log_softmax(x, -1), lambda x: np_log_softmax(x, -1),
      (uniform((5,)),)),
    C("F.log_softmax(x, dim=0)", lambda lib, x: functional(lib).log_softmax(x, dim=0),
      lambda x: np_log_softmax(x, 0), (uniform((3, 2)),)),
    C("x.norm()", lambda lib, x: x.norm(), lambda x: np.sqrt(np.sum(x * x)), (uniform((3, 4)),)),
    C("norm(x) 1-D", lambda lib, x: lib.norm(x), lambda x: np.sqrt(np.sum(x * x)), (uniform((5,)),)),
    C("x.norm(dim=1)", lambda lib, x: x.norm(dim=1), lambda x: np.sqrt(np.sum(x * x, axis=1)),
      (uniform((2, 3, 4)),)),
    C("x.norm(p=1)", lambda lib, x: x.norm(p=1), lambda x: np.sum(np.abs(x)), (nonzero((2, 3)),)),
    C("x.norm(p=3, dim=-1, keepdim=True)", lambda lib, x: x.norm(p=3, dim=-1, keepdim=True),
      lambda x: np.sum(np.abs(x) ** 3, axis=-1, keepdims=True) ** (1 / 3), (nonzero((2, 3)),)),
    # a 0-d tensor has one dim for reductions (0 or -1): the element itself
    C("x.sum(0) 0-d", lambda lib, x: x.sum(0), np.copy, (uniform(()),)),
    C("x.mean(-1, keepdim=True) 0-d", lambda lib, x: x.mean(-1, keepdim=True), np.copy, (uniform(()),)),
    C("x.var(0, unbiased=False) 0-d", lambda lib, x: x.var(0, unbiased=False), np.zeros_like, (uniform(()),)),
    C("x.amax(0) 0-d", lambda lib, x: x.amax(0), np.copy, (uniform(()),)),
    C("x.max(dim=0).values 0-d", lambda lib, x: x.max(dim=0).values, np.copy, (uniform(()),)),
    C("x.min(-1, keepdim=True).values 0-d", lambda lib, x: x.min(-1, keepdim=True).values, np.copy,
      (uniform(()),)),
    C("x.logsumexp(0) 0-d", lambda lib, x: x.logsumexp(0), np.copy, (uniform(()),)),
    C("x.softmax(0) 0-d", lambda lib, x: x.softmax(0), np.ones_like, (uniform(()),)),
    C("x.log_softmax(-1) 0-d", lambda lib, x: x.log_softmax(-1), np.zeros_like, (uniform(()),)),
    C("x.norm(dim=0) 0-d", lambda lib, x: x.norm(dim=0), np.abs, (nonzero(()),)),
    C("x.squeeze(0) 0-d", lambda lib, x: x.squeeze(0), np.copy, (uniform(()),)),
    # shape
    C("x.reshape(4, 6)", lambda lib, x: x.reshape(4, 6), lambda x: x.reshape(4, 6), (uniform((2, 3, 4)),)),
    C("reshape(x, (-1,))", lambda lib, x: lib.reshape(x, (-1,)), lambda x: x.reshape(-1), (uniform((2, 3)),)),
    C("x.reshape(()) from (1,)", lambda lib, x: x.reshape(()), lambda x: x.reshape(()), (uniform((1,)),)),
    C("x.view(3, -1)", lambda lib, x: x.view(3, -1), lambda x: x.reshape(3, -1), (uniform((2, 3, 2)),)),
    C("x.view((2, 2)) from 1-D", lambda lib, x: x.view((2, 2)), lambda x: x.reshape(2, 2), (uniform((4,)),)),
    C("x.flatten()", lambda lib, x: x.flatten(), lambda x: x.reshape(-1), (uniform((2, 3, 2)),)),
    # reshape of a non-contiguous tensor: a copy first (UnsafeViewBackward0), or strides alone (ReshapeAlias)
    C("x.t().reshape(-1)", lambda lib, x: x.t().reshape(-1), lambda x: x.T.reshape(-1), (uniform((2, 3)),)),
    C("x.t().reshape(3, 1, 2)", lambda lib, x: x.t().reshape(3, 1, 2), lambda x: x.T.reshape(3, 1, 2),
      (uniform((2, 3)),)),
    C("x.t().view(3, 1, 2)", lambda lib, x: x.t().view(3, 1, 2), lambda x: x.T.reshape(3, 1, 2), (uniform((2, 3)),)),
    C("x.t().flatten()", lambda lib, x: x.t().flatten(), lambda x: x.T.reshape(-1), (uniform((2, 3)),)),
    C("x.t().contiguous()", lambda lib, x: x.t().contiguous(), lambda x: np.ascontiguousarray(x.T),
      (uniform((2, 3)),)),
    C("flatten(x, 1)", lambda lib, x: lib.flatten(x, 1), lambda x: x.reshape(2, -1), (uniform((2, 3, 2)),)),
    C("x.flatten(0, 1)", lambda lib, x: x.flatten(0, 1), lambda x: x.reshape(6, 2), (uniform((2, 3, 2)),)),
    C("x.flatten(-2)", lambda lib, x: x.flatten(-2), lambda x: x.reshape(2, 6), (uniform((2, 3, 2)),)),
    C("x.transpose(0, 1)", lambda lib, x: x.transpose(0, 1), lambda x: x.swapaxes(0, 1), (uniform((2, 3)),)),
    C("transpose(x, -1, 0)", lambda lib, x: lib.transpose(x, -1, 0), lambda x: x.swapaxes(-1, 0),
      (uniform((2, 3, 4)),)),
    C("x.t()", lambda lib, x: x.t(), lambda x: x.T, (uniform((2, 3)),)),
    C("x.T", lambda lib, x: x.T, lambda x: x.T, (uniform((2, 3)),)),
    C("x.mT", lambda lib, x: x.mT, lambda x: x.swapaxes(-1, -2), (uniform((2, 3, 4)),)),
    C("x.permute(2, 0, 1)", lambda lib, x: x.permute(2, 0, 1), lambda x: x.transpose(2, 0, 1),
      (uniform((2, 3, 4)),)),
    C("permute(x, (-1, 0, 1))", lambda lib, x: lib.permute(x, (-1, 0, 1)), lambda x: x.transpose(2, 0, 1),
      (uniform((2, 3, 4)),)),
    C("x.squeeze()", lambda lib, x: x.squeeze(), np.squeeze, (uniform((2, 1, 3, 1)),)),
    C("x.squeeze(1)", lambda lib, x: x.squeeze(1), lambda x: np.squeeze(x, 1), (uniform((2, 1, 3, 1)),)),
    C("squeeze(x, -1)", lambda lib, x: lib.squeeze(x, -1), lambda x: np.squeeze(x, -1), (uniform((2, 1, 3, 1)),)),
    C("x.squeeze((1, 3))", lambda lib, x: x.squeeze((1, 3)), lambda x: np.squeeze(x, (1, 3)),
      (uniform((2, 1, 3, 1)),)),
    C("x.squeeze(0) no-op", lambda lib, x: x.squeeze(0), lambda x: x, (uniform((2, 3)),)),
    C("x.unsqueeze(0)", lambda lib, x: x.unsqueeze(0), lambda x: x[None], (uniform((2, 3)),)),
    C("unsqueeze(x, -1)", lambda lib, x: lib.unsqueeze(x, -1), lambda x: x[..., None], (uniform((2, 3)),)),
    C("x.unsqueeze(0) 0-d", lambda lib, x: x.unsqueeze(0), lambda x: x.reshape(1), (uniform(()),)),
    C("x.expand(2, 3, 4)", lambda lib, x: x.expand(2, 3, 4), lambda x: np.broadcast_to(x, (2, 3, 4)),
      (uniform((3, 1)),)),
    C("x.expand(-1, 4)", lambda lib, x: x.expand(-1, 4), lambda x: np.broadcast_to(x, (3, 4)), (uniform((3, 1)),)),
    C("x.expand((2, 3)) from 0-d", lambda lib, x: x.expand((2, 3)), lambda x: np.broadcast_to(x, (2, 3)),
      (uniform(()),)),
    C("cat([x, y])", lambda lib, x, y: lib.cat([x, y]), lambda x, y: np.concatenate([x, y]),
      (uniform((2, 3), (1, 3)),)),
    C("cat((x, y, z), dim=-1)", lambda lib, x, y, z: lib.cat((x, y, z), dim=-1),
      lambda x, y, z: np.concatenate([x, y, z], axis=-1), (uniform((2, 1), (2, 3), (2, 2)),)),
    C("cat 1-D", lambda lib, x, y: lib.cat([x, y], 0), lambda x, y: np.concatenate([x, y]),
      (uniform((2,), (3,)),)),
    C("stack([x, y])", lambda lib, x, y: lib.stack([x, y]), lambda x, y: np.stack([x, y]),
      (uniform((2, 3), (2, 3)),)),
    C("stack((x, y, z), dim=-1)", lambda lib, x, y, z: lib.stack((x, y, z), dim=-1),
      lambda x, y, z: np.stack([x, y, z], axis=-1), (uniform((2, 2), (2, 2), (2, 2)),)),
    C("stack 0-d", lambda lib, x, y: lib.stack([x, y]), lambda x, y: np.stack([x, y]), (uniform((), ()),)),
    # indexing
    C("x[1]", lambda lib, x: x[1], lambda x: x[1], (uniform((3, 4)),)),
    C("x[-1]", lambda lib, x: x[-1], lambda x: x[-1], (uniform((3, 4)),)),
    C("x[1, 2] (0-d)", lambda lib, x: x[1, 2], lambda x: x[1, 2], (uniform((3, 4)),)),
    C("x[1:]", lambda lib, x: x[1:], lambda x: x[1:], (uniform((3, 4)),)),
    C("x[::2, 1:3]", lambda lib, x: x[::2, 1:3], lambda x: x[::2, 1:3], (uniform((3, 4)),)),
    C("x[:, 1]", lambda lib, x: x[:, 1], lambda x: x[:, 1], (uniform((3, 4)),)),
    C("x[..., 1]", lambda lib, x: x[..., 1], lambda x: x[..., 1], (uniform((2, 3, 4)),)),
    C("x[0, 1:]", lambda lib, x: x[0, 1:], lambda x: x[0, 1:], (uniform((3, 4)),)),
    C("x[1:, 0]", lambda lib, x: x[1:, 0], lambda x: x[1:, 0], (uniform((3, 4)),)),
    C("x[None]", lambda lib, x: x[None], lambda x: x[None], (uniform((3,)),)),
    C("x[:, None, 1:3]", lambda lib, x: x[:, None, 1:3], lambda x: x[:, None, 1:3], (uniform((3, 4)),)),
    C("x[..., None]", lambda lib, x: x[..., None], lambda x: x[..., None], (uniform((2, 3)),)),
    C("x[1, ..., 1::2]", lambda lib, x: x[1, ..., 1::2], lambda x: x[1, ..., 1::2], (uniform((2, 3, 4)),)),
    C("x[tensor([2, 0, 2])]", lambda lib, x: x[lib.tensor([2, 0, 2])], lambda x: x[[2, 0, 2]],
      (uniform((3, 4)),)),
    C("x[[0, 2], [1, 1]]", lambda lib, x: x[[0, 2], [1, 1]], lambda x: x[[0, 2], [1, 1]], (uniform((3, 4)),)),
    C("x[:, [3, 0, 3]]", lambda lib, x: x[:, [3, 0, 3]], lambda x: x[:, [3, 0, 3]], (uniform((3, 4)),)),
    C("x[mask]", lambda lib, x: x[lib.tensor(MASK_2x3)], lambda x: x[MASK_2x3], (uniform((2, 3)),)),
    C("x[row_mask]", lambda lib, x: x[lib.tensor(ROWS_3)], lambda x: x[ROWS_3], (uniform((3, 2)),)),
    C("x[x > 0]", lambda lib, x: x[x > 0], lambda x: x[x > 0], (nonzero((3, 4)),)),
    # nn.functional
    C("mse_loss(x, y)", lambda lib, x, y: functional(lib).mse_loss(x, y), lambda x, y: np_mse(x, y, "mean"),
      (uniform((2, 3), (2, 3)),)),
    C("mse_loss(x, y, reduction='sum')", lambda lib, x, y: functional(lib).mse_loss(x, y, reduction="sum"),
      lambda x, y: np_mse(x, y, "sum"), (uniform((4,), (4,)),)),
    C("mse_loss(x, y, reduction='none')", lambda lib, x, y: functional(lib).mse_loss(x, y, reduction="none"),
      lambda x, y: np_mse(x, y, "none"), (uniform((2, 3), (2, 3)),)),
    C("cross_entropy(x, t)", lambda lib, x: functional(lib).cross_entropy(x, lib.tensor(TARGETS_4)),
      lambda x: np_cross_entropy(x, TARGETS_4, "mean"), (uniform((4, 3)),)),
    C("cross_entropy(x, t, reduction='sum')",
      lambda lib, x: functional(lib).cross_entropy(x, lib.tensor(TARGETS_4), reduction="sum"),
      lambda x: np_cross_entropy(x, TARGETS_4, "sum"), (uniform((4, 3)),)),
    C("cross_entropy(x, t, reduction='none')",
      lambda lib, x: functional(lib).cross_entropy(x, lib.tensor(TARGETS_4), reduction="none"),
      lambda x: np_cross_entropy(x, TARGETS_4, "none"), (uniform((4, 3)),)),
    C("linear(x, w, b)", lambda lib, x, w, b: functional(lib).linear(x, w, b), lambda x, w, b: x @ w.T + b,
      (uniform((4, 3), (2, 3), (2,)),)),
    C("linear(x, w)", lambda lib, x, w: functional(lib).linear(x, w), lambda x, w: x @ w.T,
      (uniform((4, 3), (2, 3)),)),
    # in place, on a clone
    C("x.clone().add_(y)", _inplace("add_"), np.add, (uniform((2, 3), (3,)),)),
    C("x.clone().sub_(y, alpha=2)", _inplace("sub_", alpha=2), lambda x, y: x - 2 * y, (uniform((2, 3), (2, 3)),)),
    C("x.clone().mul_(y)", _inplace("mul_"), np.multiply, (uniform((2, 3), (2, 1)),)),
    C("x.clone().div_(y)", _inplace("div_"), np.divide, (uniform((2, 3)), nonzero((3,)))),
    C("x.clone().clamp_(-0.5, 0.5)", _inplace("clamp_", -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5),
      (uniform((2, 3), low=-1, high=1, avoid=(-0.5, 0.5)),)),
    C("z += y", _iadd, np.add, (uniform((2, 3), (3,)),)),
    C("z -= y", _isub, np.subtract, (uniform((2, 3), ()),)),
    C("z *= y", _imul, np.multiply, (uniform((2, 3), (2, 3)),)),
    C("z /= y", _idiv, np.divide, (uniform((2, 3)), nonzero((2, 1)))),
    C("x.clone().zero_()", _inplace("zero_"), np.zeros_like, (uniform((2, 3)),)),
    C("x.clone().fill_(2.0)", _inplace("fill_", 2.0), lambda x: np.full_like(x, 2.0), (uniform((2, 3)),)),
    C("x.clone().copy_(y)", _inplace("copy_"), lambda x, y: np.broadcast_to(y, x.shape), (uniform((2, 3), (3,)),)),
    C("z[1] = y", _setitem_row, lambda x, y: np_setitem(x, 1, y), (uniform((3, 4), (4,)),)),
    C("z[:, 0] = 2.0", _setitem_column_number, lambda x: np_setitem(x, (slice(None), 0), 2.0), (uniform((3, 4)),)),
    C("z[mask] = y", _setitem_mask, lambda x, y: np_setitem(x, MASK_2x3, y), (uniform((2, 3), (3,)),)),
    # the ops surface of issue #8: functions of one variable
    C("x.square()", lambda lib, x: x.square(), np.square, (uniform((2, 3)),)),
    C("log1p(x)", lambda lib, x: lib.log1p(x), np.log1p, (positive((2, 3)),)),
    C("x.expm1()", lambda lib, x: x.expm1(), np.expm1, (uniform((2, 3)),)),
    C("tan(x)", lambda lib, x: lib.tan(x), np.tan, (uniform((2, 3), low=-1.2, high=1.2),)),
    C("x.exp2()", lambda lib, x: x.exp2(), np.exp2, (uniform((3,)),)),
    C("log2(x)", lambda lib, x: lib.log2(x), np.log2, (positive((3,)),)),
    C("x.log10()", lambda lib, x: x.log10(), np.log10, (positive((2, 2)),)),
    C("x.reciprocal()", lambda lib, x: x.reciprocal(), np.reciprocal, (nonzero((2, 3)),)),
    C("rsqrt(x)", lambda lib, x: lib.rsqrt(x), lambda x: 1 / np.sqrt(x), (positive((2, 3)),)),
    C("x.sinh()", lambda lib, x: x.sinh(), np.sinh, (uniform((3,)),)),
    C("cosh(x)", lambda lib, x: lib.cosh(x), np.cosh, (uniform((3,)),)),
    C("x.asin()", lambda lib, x: x.asin(), np.arcsin, (uniform((3,), low=-0.8, high=0.8),)),
    C("acos(x)", lambda lib, x: lib.acos(x), np.arccos, (uniform((3,), low=-0.8, high=0.8),)),
    C("x.atan()", lambda lib, x: x.atan(), np.arctan, (uniform((2, 3)),)),
    C("x.floor()", lambda lib, x: x.floor(), np.floor, (uniform((2, 3), avoid=(-1.0, 0.0, 1.0)),)),
    C("ceil(x)", lambda lib, x: lib.ceil(x), np.ceil, (uniform((2, 3), avoid=(-1.0, 0.0, 1.0)),)),
    C("x.round()", lambda lib, x: x.round(), np.round, (uniform((2, 3), avoid=(-1.5, -0.5, 0.5, 1.5)),)),
    C("x.trunc()", lambda lib, x: x.trunc(), np.trunc, (uniform((2, 3), avoid=(-1.0, 0.0, 1.0)),)),
    C("x.frac()", lambda lib, x: x.frac(), lambda x: x - np.trunc(x), (uniform((2, 3), avoid=(-1.0, 0.0, 1.0)),)),
    C("x % 0.7", lambda lib, x: x % 0.7, lambda x: np.mod(x, 0.7),
      (uniform((2, 3), avoid=(-1.4, -0.7, 0.0, 0.7, 1.4)),)),
    C("atan2(x, y)", lambda lib, x, y: lib.atan2(x, y), np.arctan2, (uniform((2, 3)), nonzero((3,)))),
    C("hypot(x, y)", lambda lib, x, y: lib.hypot(x, y), np.hypot, (nonzero((2, 3), (2, 3)),)),
    C("lerp(x, y, 0.3)", lambda lib, x, y: lib.lerp(x, y, 0.3), lambda x, y: x + 0.3 * (y - x),
      (uniform((2, 3), (3,)),)),
    C("lerp(x, y, w)", lambda lib, x, y, w: lib.lerp(x, y, w), lambda x, y, w: x + w * (y - x),
      (uniform((2, 3), (2, 3), (3,)),)),
    C("x.clamp(min=y)", lambda lib, x, y: x.clamp(min=y), np.maximum, (distinct((2, 3), (3,)),)),
    C("clamp(x, y, z)", lambda lib, x, y, z: lib.clamp(x, y, z), lambda x, y, z: np.minimum(np.maximum(x, y), z),
      (distinct((2, 3), (3,), (2, 3)),)),
    C("x.clamp_min(0.3)", lambda lib, x: x.clamp_min(0.3), lambda x: np.maximum(x, 0.3), (uniform((4,), avoid=(0.3,)),)),
    # reductions
    C("x.prod()", lambda lib, x: x.prod(), np.prod, (nonzero((2, 3)),)),
    C("x.prod(1)", lambda lib, x: x.prod(1), lambda x: np.prod(x, axis=1), (nonzero((2, 3)),)),
    C("prod(x, -1, keepdim=True)", lambda lib, x: lib.prod(x, -1, keepdim=True),
      lambda x: np.prod(x, axis=-1, keepdims=True), (nonzero((2, 3)),)),
    C("x.cumsum(1)", lambda lib, x: x.cumsum(1), lambda x: np.cumsum(x, axis=1), (uniform((2, 4)),)),
    C("cumsum(x, 0) 1-D", lambda lib, x: lib.cumsum(x, 0), np.cumsum, (uniform((5,)),)),
    C("x.std()", lambda lib, x: x.std(), _np_std, (uniform((3, 4)),)),
    C("x.std(1, keepdim=True)", lambda lib, x: x.std(1, keepdim=True),
      lambda x: _np_std(x, axis=1, keepdims=True), (uniform((3, 4)),)),
    C("x.std(correction=0)", lambda lib, x: x.std(correction=0), lambda x: _np_std(x, ddof=0), (uniform((5,)),)),
    C("x.var(1, correction=0)", lambda lib, x: x.var(1, correction=0), lambda x: np.var(x, axis=1),
      (uniform((2, 4)),)),
    C("var_mean(x, 1) joined", _var_mean_joined, lambda x: np.var(x, axis=1, ddof=1) * 2 + np.mean(x, axis=1),
      (uniform((2, 4)),)),
    C("std_mean(x, 0, keepdim=True) joined", _std_mean_joined,
      lambda x: _np_std(x, axis=0, keepdims=True) - np.mean(x, axis=0, keepdims=True) * 3, (uniform((3, 2)),)),
    C("x.sum(axis=0, keepdims=True)", lambda lib, x: x.sum(axis=0, keepdims=True),
      lambda x: x.sum(axis=0, keepdims=True), (uniform((2, 3)),)),
    C("x.mean(axis=1)", lambda lib, x: x.mean(axis=1), lambda x: x.mean(axis=1), (uniform((2, 3)),)),
    C("x.sort(1).values", lambda lib, x: x.sort(1).values, lambda x: np.sort(x, axis=1), (distinct((2, 4)),)),
    C("x.sort(0, descending=True).values", lambda lib, x: x.sort(0, descending=True).values,
      lambda x: -np.sort(-x, axis=0), (distinct((3, 2)),)),
    C("x.topk(2).values", lambda lib, x: x.topk(2).values, lambda x: -np.sort(-x, axis=-1)[..., :2],
      (distinct((2, 4)),)),
    C("x.topk(2, largest=False).values", lambda lib, x: x.topk(2, largest=False).values,
      lambda x: np.sort(x, axis=-1)[..., :2], (distinct((5,)),)),
    # pieces, selections, rearrangements
    C("x.split([1, 3], dim=1)[1]", _split_second, _first_column, (uniform((2, 4)),)),
    C("x.split(2)[0]", lambda lib, x: x.split(2)[0], lambda x: x[:2], (uniform((3, 2)),)),
    C("x.chunk(3) joined", _chunk_joined, lambda x: x[0:2] * 2 + x[2:4] - np.broadcast_to(x[4:5], (2, 3)) * 3,
      (uniform((5, 3)),)),
    C("x.unbind(1) joined", _unbind_joined, lambda x: x[:, 0] * x[:, 2] + x[:, 1], (uniform((2, 3)),)),
    C("x.narrow(1, 1, 2)", lambda lib, x: x.narrow(1, 1, 2), lambda x: x[:, 1:3], (uniform((2, 4)),)),
    C("x.tensor_split(3)[2]", lambda lib, x: x.tensor_split(3)[2], lambda x: x[4:], (uniform((5,)),)),
    C("x.gather(1, index)", lambda lib, x: x.gather(1, lib.tensor(GATHER_2x3)),
      lambda x: np.take_along_axis(x, GATHER_2x3, 1), (uniform((2, 3)),)),
    C("x.index_select(0, index)", lambda lib, x: x.index_select(0, lib.tensor(SELECT_3)),
      lambda x: x[SELECT_3], (uniform((3, 2)),)),
    C("x.masked_fill(mask, 0.5)", lambda lib, x: x.masked_fill(lib.tensor(MASK_ROW_3), 0.5),
      lambda x: np.where(MASK_ROW_3, 0.5, x), (uniform((2, 3)),)),
    C("x.repeat(2, 1, 3)", lambda lib, x: x.repeat(2, 1, 3), lambda x: np.tile(x, (2, 1, 3)), (uniform((2, 3)),)),
    C("x.tile((2,))", lambda lib, x: x.tile((2,)), lambda x: np.tile(x, 2), (uniform((2, 3)),)),
    C("x.flip(0)", lambda lib, x: x.flip(0), lambda x: np.flip(x, 0), (uniform((3, 2)),)),
    C("flip(x, (0, 1))", lambda lib, x: lib.flip(x, (0, 1)), lambda x: np.flip(x, (0, 1)), (uniform((2, 3)),)),
    C("x.roll(1, 1)", lambda lib, x: x.roll(1, 1), lambda x: np.roll(x, 1, 1), (uniform((2, 3)),)),
    C("x.roll(2)", lambda lib, x: x.roll(2), lambda x: np.roll(x.reshape(-1), 2).reshape(x.shape), (uniform((2, 3)),)),
    C("x.roll((1, -1), (0, 1))", lambda lib, x: x.roll((1, -1), (0, 1)), lambda x: np.roll(x, (1, -1), (0, 1)),
      (uniform((2, 3)),)),
    C("x.tril()", lambda lib, x: x.tril(), np.tril, (uniform((3, 3)),)),
    C("x.triu(1)", lambda lib, x: x.triu(1), lambda x: np.triu(x, 1), (uniform((3, 4)),)),
    C("diag(x) 1-D", lambda lib, x: lib.diag(x), np.diag, (uniform((3,)),)),
    C("x.diag(1) 1-D", lambda lib, x: x.diag(1), lambda x: np.diag(x, 1), (uniform((2,)),)),
    C("x.diag() 2-D", lambda lib, x: x.diag(), np.diag, (uniform((3, 4)),)),
    C("x.diag(-1) 2-D", lambda lib, x: x.diag(-1), lambda x: np.diag(x, -1).copy(), (uniform((3, 2)),)),
    C("x.trace()", lambda lib, x: x.trace(), np.trace, (uniform((3, 3)),)),
    # matrix products
    # (einsum is tested in test_ops_parity.py: its node is minigrad's own EinsumBackward0, not PyTorch's chain)
    C("addmm(b, x, y)", lambda lib, b, x, y: lib.addmm(b, x, y), lambda b, x, y: b + x @ y,
      (uniform((2,), (3, 4), (4, 2)),)),
    C("addmv(b, x, v)", lambda lib, b, x, v: lib.addmv(b, x, v), lambda b, x, v: b + x @ v,
      (uniform((3,), (3, 4), (4,)),)),
    # in-place forms, on a non-leaf
    C("z.exp_()", _inplace_unary("exp_"), np.exp, (uniform((2, 3)),)),
    C("z.sin_()", _inplace_unary("sin_"), np.sin, (uniform((2, 3)),)),
    C("z.tanh_()", _inplace_unary("tanh_"), np.tanh, (uniform((3,)),)),
    C("z.sigmoid_()", _inplace_unary("sigmoid_"), np_sigmoid, (uniform((3,)),)),
    C("z.relu_()", _inplace_unary("relu_"), lambda x: np.maximum(x, 0), (nonzero((2, 3)),)),
    C("z.sqrt_()", _inplace_unary("sqrt_"), np.sqrt, (positive((3,)),)),
    C("z.log_()", _inplace_unary("log_"), np.log, (positive((3,)),)),
    C("z.abs_()", _inplace_unary("abs_"), np.abs, (nonzero((3,)),)),
    C("z.neg_()", _inplace_unary("neg_"), np.negative, (uniform((3,)),)),
    C("z.pow_(3)", _inplace_unary("pow_", 3), lambda x: x ** 3, (uniform((3,)),)),
    C("z.clamp_min_(0.2)", _inplace_unary("clamp_min_", 0.2), lambda x: np.maximum(x, 0.2),
      (uniform((3,), avoid=(0.2,)),)),
    C("z.masked_fill_(mask, 1.5)", lambda lib, x: (x * 1.0).masked_fill_(lib.tensor(MASK_ROW_3), 1.5),
      lambda x: np.where(MASK_ROW_3, 1.5, x), (uniform((3,)),)),
    # more of PyTorch's functions, several built from the ops above
    C("div(x, y, rounding_mode='floor')", lambda lib, x, y: lib.div(x, y, rounding_mode="floor"),
      lambda x, y: np.floor(x / y), (uniform((2, 3), (3,), low=0.6, high=2.0),)),
    C("x.div(0.7, rounding_mode='trunc')", lambda lib, x: x.div(0.7, rounding_mode="trunc"),
      lambda x: np.trunc(x / 0.7), (uniform((2, 3), avoid=(-1.4, -0.7, 0.0, 0.7, 1.4)),)),
    C("fmod(x, 0.7)", lambda lib, x: lib.fmod(x, 0.7), lambda x: np.fmod(x, 0.7),
      (uniform((2, 3), avoid=(-1.4, -0.7, 0.0, 0.7, 1.4)),)),
    C("fmod(x, y)", lambda lib, x, y: lib.fmod(x, y), np.fmod, (uniform((2, 3), (3,), low=0.6, high=2.0),)),
    C("x % y", lambda lib, x, y: x % y, np.mod, (uniform((2, 3), (3,), low=0.6, high=2.0),)),
    C("x.logit()", lambda lib, x: x.logit(), lambda x: np.log(x / (1 - x)), (uniform((2, 3), low=0.2, high=0.8),)),
    C("xlogy(x, y)", lambda lib, x, y: lib.xlogy(x, y), lambda x, y: x * np.log(y), (uniform((2, 3)), positive((3,)))),
    C("logaddexp(x, y)", lambda lib, x, y: lib.logaddexp(x, y), np.logaddexp, (uniform((2, 3), (2, 3)),)),
    C("x.addcmul(y, z, value=0.5)", lambda lib, x, y, z: x.addcmul(y, z, value=0.5), lambda x, y, z: x + 0.5 * y * z,
      (uniform((2, 3), (2, 3), (3,)),)),
    C("addcdiv(x, y, z)", lambda lib, x, y, z: lib.addcdiv(x, y, z), lambda x, y, z: x + y / z,
      (uniform((2, 3), (2, 3)), nonzero((2, 3)))),
    C("x.cumprod(1)", lambda lib, x: x.cumprod(1), lambda x: np.cumprod(x, axis=1), (nonzero((2, 4)),)),
    C("diff(x)", lambda lib, x: lib.diff(x), lambda x: np.diff(x), (uniform((2, 4)),)),
    C("x.movedim(0, -1)", lambda lib, x: x.movedim(0, -1), lambda x: np.moveaxis(x, 0, -1), (uniform((2, 3, 4)),)),
    C("broadcast_to(x, (2, 3))", lambda lib, x: lib.broadcast_to(x, (2, 3)), lambda x: np.broadcast_to(x, (2, 3)),
      (uniform((3,)),)),
    C("vstack([x, y])", lambda lib, x, y: lib.vstack([x, y]), lambda x, y: np.vstack([x, y]), (uniform((3,), (2, 3)),)),
    C("hstack([x, y])", lambda lib, x, y: lib.hstack([x, y]), lambda x, y: np.hstack([x, y]), (uniform((2, 1), (2, 3)),)),
    C("meshgrid(x, y) product", _meshgrid_product, np.outer, (uniform((2,), (3,)),)),
    C("meshgrid(x, y, indexing='xy')[0]", lambda lib, x, y: lib.meshgrid(x, y, indexing="xy")[0] + y.sum(),
      lambda x, y: np.meshgrid(x, y, indexing="xy")[0] + y.sum(), (uniform((2,), (3,)),)),
    # order statistics and writing at indices
    C("x.median()", lambda lib, x: x.median(), lambda x: np.sort(x.reshape(-1))[(x.size - 1) // 2],
      (distinct((2, 3)),)),
    C("x.median(1).values", lambda lib, x: x.median(1).values, lambda x: np.sort(x, 1)[:, (x.shape[1] - 1) // 2],
      (distinct((2, 4)),)),
    C("nansum(x, 1)", lambda lib, x: lib.nansum(x, 1), lambda x: np.nansum(x, 1), (uniform((2, 3)),)),
    C("x.scatter(1, index, 0.5)", lambda lib, x: x.scatter(1, lib.tensor(GATHER_2x3), 0.5),
      lambda x: _np_scatter(x, GATHER_2x3, 0.5), (uniform((2, 3)),)),
    C("x.scatter(1, index, y)", lambda lib, x, y: x.scatter(1, lib.tensor(SCATTER_2x2), y),
      lambda x, y: _np_scatter(x, SCATTER_2x2, y), (uniform((2, 3), (2, 2)),)),
    C("x.scatter_add(1, index, y)", lambda lib, x, y: x.scatter_add(1, lib.tensor(GATHER_2x3), y),
      lambda x, y: _np_scatter_add(x, GATHER_2x3, y), (uniform((2, 3), (2, 2)),)),
    C("x.index_fill(1, index, 0.5)", lambda lib, x: x.index_fill(1, lib.tensor([2, 0]), 0.5),
      lambda x: _np_scatter(x, np.array([[2, 0], [2, 0]]), 0.5), (uniform((2, 3)),)),
    C("take_along_dim(x, index, 1)", lambda lib, x: lib.take_along_dim(x, lib.tensor(GATHER_2x3), 1),
      lambda x: np.take_along_axis(x, GATHER_2x3, 1), (uniform((2, 3)),)),
    C("x.sgn()", lambda lib, x: x.sgn(), np.sign, (nonzero((2, 3)),)),
    C("x.nan_to_num()", lambda lib, x: x.nan_to_num(), np.nan_to_num, (uniform((2, 3)),)),
]
