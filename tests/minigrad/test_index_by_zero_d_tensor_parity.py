"""Indexing with a 0-d integer tensor, and slices that step backwards, as PyTorch.

``for i in torch.arange(n): row = x[i]; row += 1`` changes ``x`` in PyTorch: a 0-d integer tensor
indexes as the int it holds, so ``x[i]`` is a view (``SelectBackward0``). minigrad used to treat it
as an index array and copy, so the loop silently changed nothing. A slice with a negative step
(``x[::-1]``) is PyTorch's ValueError (it has ``flip`` instead); minigrad used to reverse.
"""

import numpy as np
import pytest

import minigrad
from torch_parity import expression_outcome, pytorch_part

SHAPES = {"x1": (5,), "x2": (3, 4)}

EXPRESSIONS = [
    "x2[lib.tensor(1)]", "x2[lib.tensor(-1)]", "x2[lib.tensor(1), 2]", "x2[:, lib.tensor(1)]", "x2[lib.tensor(5)]",
    "x2[lib.tensor(True)]", "x2[lib.tensor([1])]", "x2[lib.tensor(1, dtype=lib.int32)]", "x2[np.array(1)]",
    "x2[np.int64(2)]", "x1[::-1]", "x2[:, ::-2]", "x2[1:3:-1]", "x1[::0]", "x1[::2]",
    "lib.autograd.grad((x2[lib.tensor(2)] ** 2).sum(), x2)",
]


@pytest.mark.parametrize("requires_grad", [True, False], ids=["recorded", "plain"])
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_indexing_as_pytorch(expression, requires_grad, torch):
    def seen(lib):
        shapes = dict(SHAPES)
        return expression_outcome(lib, expression.replace("np.", "__import__('numpy')."), requires_grad, True, shapes)

    assert seen(minigrad) == seen(torch)


def _loop_and_writes(lib):
    z = lib.zeros(3, 2)
    for i in lib.arange(3):
        row = z[i]
        row += i
    w = lib.zeros(3)
    w[lib.tensor(1)] = 5.0
    try:
        w[::-1] = 1.0
        reversed_write = "written"
    except ValueError as error:
        reversed_write = pytorch_part(error)
    leaf = lib.zeros(3, requires_grad=True)
    try:
        leaf[lib.tensor(0)] = 1.0
        leaf_write = "written"
    except RuntimeError as error:
        leaf_write = str(error).split("\n")[0]
    return z.tolist(), w.tolist(), reversed_write, leaf_write


def test_a_row_picked_by_a_tensor_index_is_a_view_to_write_through(torch):
    mine, theirs = _loop_and_writes(minigrad), _loop_and_writes(torch)
    assert mine == theirs
    assert mine[0] == [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]  # (by hand: row i holds i)
    np.testing.assert_array_equal(mine[1], [0.0, 5.0, 0.0])
