"""``norm(p, dim)`` for every kind of p, against PyTorch: values, gradients, and the errors.

p = inf and -inf are the largest and smallest |x| (their gradient shared by the elements that
tie), p = 0 counts the nonzero elements (and has no gradient), p < 1 and 1 < p < 2 have
formulas that divide by |x| or by the norm, which PyTorch masks to 0 where that is 0. The inputs
hold zeros and ties on purpose.
"""

import math

import numpy as np
import pytest

import minigrad

VALUES = [[0.0, -2.0, 2.0, 0.5], [1.0, 0.0, -0.5, 3.0], [0.0, 0.0, 0.0, 0.0]]
ORDERS = [2, 1, 1.5, 0.5, 3, -1, -0.5, math.inf, -math.inf, 0]
DIMS = [None, 1, 0, (0, 1), -1]


def _norm_and_gradient(lib, p, dim, keepdim):
    x = lib.tensor(VALUES, dtype=lib.float64, requires_grad=True)
    out = x.norm(p=p, dim=dim, keepdim=keepdim) if dim is not None else x.norm(p=p)
    if p == 0:
        out.sum().backward()
        return out.detach().numpy(), out.grad_fn.name(), x.grad
    (grad,) = lib.autograd.grad(out.sum(), x)
    return out.detach().numpy(), out.grad_fn.name(), grad.numpy()


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dim", DIMS)
@pytest.mark.parametrize("p", ORDERS)
def test_norm_and_its_gradient_are_pytorchs(p, dim, keepdim, torch):
    mine, theirs = _norm_and_gradient(minigrad, p, dim, keepdim), _norm_and_gradient(torch, p, dim, keepdim)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-12)
    assert mine[1] == theirs[1]
    if p == 0:
        assert mine[2] is None and theirs[2] is None  # the count of nonzeros has no gradient
    else:
        np.testing.assert_allclose(mine[2], theirs[2], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("p", [math.inf, -math.inf, 3, 1.5, 0.5, -1])
def test_norm_gradient_matches_finite_differences_away_from_zeros_and_ties(p):
    x = minigrad.tensor([[0.3, -1.7, 2.2], [1.1, -0.4, 0.9]], dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda t: t.norm(p=p, dim=1), (x,))
    assert minigrad.autograd.gradcheck(lambda t: t.norm(p=p), (x,))
    assert minigrad.autograd.gradgradcheck(lambda t: t.norm(p=p, dim=1), (x,))  # (create_graph=True)


def test_inf_norm_is_the_largest_magnitude_and_minus_inf_the_smallest():
    x = minigrad.tensor([3.0, -4.0, 0.5])
    assert x.norm(p=math.inf).item() == 4.0 and x.norm(p=-math.inf).item() == 0.5  # (by hand)


@pytest.mark.parametrize("p", [math.inf, -math.inf, -1, -0.5, 2, 0, 1])
@pytest.mark.parametrize("dim", [None, 0, 1, (0, 1)])
def test_norm_of_an_empty_tensor_as_pytorch(p, dim, torch):
    def outcome(lib):
        x = lib.ones(0, 3)
        try:
            out = x.norm(p=p) if dim is None else x.norm(p=p, dim=dim)
            return "value", out.tolist()
        except RuntimeError as error:
            return "error", str(error)

    assert outcome(minigrad) == outcome(torch)
