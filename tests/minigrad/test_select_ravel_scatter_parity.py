"""``select``, ``ravel`` and the in-place ``scatter_`` / ``scatter_add_`` / ``index_fill_``, as PyTorch.

The one-hot idiom of many tutorials, ``torch.zeros(n, c).scatter_(1, labels, 1.0)``, and
``x.select(dim, i)`` (``x[:, i]`` by name) are what learners' code brings. Each result is compared
with PyTorch's: values, shape, ``requires_grad``, the node's name, whether it is a view, or the
error; gradients through them too.
"""

import pytest

import minigrad
from torch_parity import expression_outcome

SHAPES = {"x0": (), "x1": (4,), "x2": (3, 4), "x3": (2, 3, 4)}

EXPRESSIONS = [
    "x2.select(1, 0)", "x2.select(-1, -1)", "x2.select(0, 2)", "lib.select(x3, 2, 1)", "(x2 * 1).select(1, 3)",
    "x2.select(1, 5)", "x2.select(1, -5)", "x2.select(2, 0)", "x0.select(0, 0)",
    "x2.ravel()", "x2.t().ravel()", "lib.ravel(x3)", "(x2 * 1).t().ravel()", "x0.ravel()",
    "lib.zeros(3, 4).scatter_(1, lib.tensor([[0], [2], [3]]), 1.0)",
    "(x2 * 1).scatter_(1, lib.tensor([[0], [2], [3]]), 1.0)",
    "(x2 * 1).scatter_(1, lib.tensor([[0], [2], [3]]), x2[:, :1] * 2)",
    "(x2 * 1).scatter_add_(1, lib.tensor([[0], [0], [3]]), x2[:, :1] * 2)",
    "(x2 * 1).index_fill_(1, lib.tensor([0, 2]), -1.0)",
    "x2.scatter_(1, lib.tensor([[0], [2], [3]]), 1.0)", "x2.index_fill_(0, lib.tensor([1]), 0.0)",
    "lib.autograd.grad((x2 * 1).scatter_(1, lib.tensor([[0], [2], [3]]), x2[:, 1:2] * 3).sum(), x2)",
    "lib.autograd.grad(((x2 * 1).index_fill_(1, lib.tensor([0, 2]), -1.0) ** 2).sum(), x2)",
    "lib.autograd.grad((x3.select(1, 2) ** 2).sum(), x3)",
    "lib.autograd.grad((x2.t().ravel() * lib.arange(12.0)).sum(), x2)[0] * 1",  # (values: PyTorch's is a view)
]


@pytest.mark.parametrize("requires_grad", [True, False], ids=["recorded", "plain"])
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_as_pytorch(expression, requires_grad, torch):
    def seen(lib):
        return expression_outcome(lib, expression, requires_grad, True, SHAPES)

    assert seen(minigrad) == seen(torch)
