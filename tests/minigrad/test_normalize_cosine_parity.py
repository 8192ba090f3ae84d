"""``F.normalize`` and ``F.cosine_similarity`` as PyTorch: values, gradients and the graph, node for node.

Both are compositions in PyTorch too (a norm, a clamp, a division), so minigrad builds them from
the same ops and the learner sees the same ``grad_fn`` chain.
"""

import numpy as np
import pytest

import minigrad
from torch_parity import graph_names, pytorch_part

X = [[3.0, -4.0, 0.5], [0.0, 0.0, 0.0], [1.0, 2.0, -2.0]]
Y = [[1.0, 1.0, 1.0], [2.0, -1.0, 0.5], [0.0, 3.0, 4.0]]

CASES = {
    "normalize": lambda F, x, y: F.normalize(x),
    "normalize p=1 dim=0": lambda F, x, y: F.normalize(x, p=1.0, dim=0),
    "normalize p=inf, eps": lambda F, x, y: F.normalize(x, p=float("inf"), dim=1, eps=0.5),
    "normalize dim=-1 of a row": lambda F, x, y: F.normalize(x[0], dim=-1),
    "cosine_similarity": lambda F, x, y: F.cosine_similarity(x, y),
    "cosine_similarity dim=0": lambda F, x, y: F.cosine_similarity(x, y, dim=0),
    "cosine_similarity broadcast": lambda F, x, y: F.cosine_similarity(x, y[:1]),
    "cosine_similarity of a zero row, eps": lambda F, x, y: F.cosine_similarity(x, y, eps=0.1),
}


def _outcome(lib, case):
    x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
    y = lib.tensor(Y, dtype=lib.float64, requires_grad=True)
    out = CASES[case](lib.nn.functional, x, y)
    weights = lib.arange(float(out.numel()), dtype=lib.float64).reshape(out.shape)
    (out * weights).sum().backward()
    return out.detach().numpy(), graph_names(out.grad_fn), x.grad.numpy(), y.grad


@pytest.mark.parametrize("case", CASES)
def test_as_pytorch(case, torch):
    mine, theirs = _outcome(minigrad, case), _outcome(torch, case)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-12, atol=1e-15)
    assert mine[1] == theirs[1]
    np.testing.assert_allclose(mine[2], theirs[2], rtol=1e-12, atol=1e-15)
    assert (mine[3] is None) == (theirs[3] is None)
    if mine[3] is not None:
        np.testing.assert_allclose(mine[3].numpy(), theirs[3].numpy(), rtol=1e-12, atol=1e-15)


def test_unit_vectors_and_cosines_by_hand():
    x = minigrad.tensor([[3.0, 4.0]])
    np.testing.assert_allclose(minigrad.nn.functional.normalize(x).numpy(), [[0.6, 0.8]], rtol=1e-6)
    a, b = minigrad.tensor([[1.0, 0.0]]), minigrad.tensor([[1.0, 1.0]])
    np.testing.assert_allclose(minigrad.nn.functional.cosine_similarity(a, b).numpy(), [np.sqrt(0.5)], rtol=1e-6)


def test_shapes_that_do_not_broadcast_give_pytorchs_error(torch):
    def error(lib):
        with pytest.raises(RuntimeError) as caught:
            lib.nn.functional.cosine_similarity(lib.ones(3, 4), lib.ones(2, 4))
        return pytorch_part(caught.value)

    assert error(minigrad) == error(torch)
