"""Elementwise ops at their edges, as PyTorch gives them (found by a differential sweep).

Integer powers with negative exponents, an integer tensor clamped to a float bound, ``alpha``
that does not suit the result's dtype, ``where`` with a condition alone, and ``masked_fill``
with a 0-d tensor value, which is an input of its own: it gets the gradients of the elements
it filled (PyTorch's ``MaskedFillBackward1``).
"""

import numpy as np
import pytest

import minigrad
from torch_parity import expression_outcome

SHAPES = {"x": (3,), "m": (2, 3)}

EXPRESSIONS = [
    "lib.tensor([2, 0, 1]) ** -1", "lib.tensor([2, 0, 1]).pow(-2)", "lib.pow(lib.tensor([3]), -1)",
    "lib.tensor([0, 1, -1, 2, -2, 3]) ** lib.tensor([-1, -1, -1, -1, -3, -2])",
    "lib.tensor(-1) ** lib.tensor([-3, -2, 0, 5])", "2 ** lib.tensor([-1, 2])", "lib.tensor([2, 3]) ** 2",
    "lib.tensor([2, 0, 1]).clamp(0.5, 1.5)", "lib.tensor([2, 0, 1]).clamp(min=0.5)", "lib.tensor([2, 0, 1]).clamp(0, 1)",
    "lib.tensor([2, 0, 1]).clamp(max=lib.tensor(1.5))", "x.clamp(max=lib.tensor(0.5))",
    "lib.where(x > 0)", "lib.where(m > 0)", "lib.where(lib.tensor([2, 0, 1]))", "lib.where(x > 0, x, 0.0)",
    "lib.add(lib.tensor([2, 0, 1]), 1, alpha=0.5)", "lib.sub(lib.tensor([2, 0, 1]), 1, alpha=0.5)",
    "lib.tensor([2, 0, 1]).add(lib.tensor([1, 1, 1]), alpha=2)", "lib.add(x, 1, alpha=True)", "lib.add(x, x, alpha=0.5)",
    "x.sub(x, alpha=2)", "x.masked_fill(x > 0, lib.tensor(7.0))", "m.masked_fill(m > 0, lib.tensor(7.0, dtype=lib.float64))",
    "x.masked_fill(x > 0, lib.tensor([7.0]))",
]


@pytest.mark.parametrize("requires_grad", [True, False], ids=["recorded", "plain"])
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_an_elementwise_op_at_its_edge_gives_what_pytorch_gives(expression, requires_grad, torch):
    assert expression_outcome(minigrad, expression, requires_grad, True, SHAPES) == \
        expression_outcome(torch, expression, requires_grad, True, SHAPES)


@pytest.mark.parametrize("shape, mask_shape", [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (2, 1)), ((), ())])
def test_masked_fill_with_a_tensor_value_sends_it_the_gradient_of_what_it_filled(shape, mask_shape, torch):
    rng = np.random.default_rng(1)
    data, mask, weights = rng.standard_normal(shape), rng.random(mask_shape) < 0.5, rng.standard_normal(shape)

    def grads(lib):
        x = lib.tensor(data, requires_grad=True)
        value = lib.tensor(3.0, dtype=lib.float32, requires_grad=True)  # (another dtype: float64 data)
        out = x.masked_fill(lib.tensor(mask), value)
        (out * lib.tensor(weights)).sum().backward()
        return out.grad_fn.name(), out.tolist(), x.grad.tolist(), value.grad.item(), str(value.grad.dtype)

    mine, theirs = grads(minigrad), grads(torch)
    assert mine[:3] == theirs[:3]
    assert mine[3] == pytest.approx(theirs[3], rel=1e-6) and mine[4].split(".")[1] == theirs[4].split(".")[1]
    # by hand: the value's gradient is the sum of the weights where the mask (broadcast) is true
    assert mine[3] == pytest.approx(float(np.where(np.broadcast_to(mask, shape), weights, 0).sum()), rel=1e-6)
