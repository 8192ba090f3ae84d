"""reshape, view and contiguous: when they share memory, when they copy, and what they record.

PyTorch's ``view`` never copies: it refuses when strides alone cannot give the new shape (a
transposed tensor flattened). ``reshape`` shares memory when it can and copies when it must,
and the graph says which: ``ViewBackward0``, ``ReshapeAliasBackward0`` (shared, non-contiguous
input) or ``CloneBackward0`` then ``UnsafeViewBackward0`` (copied).
"""

import numpy as np
import pytest

import minigrad
from minigrad import messages
from torch_parity import pytorch_part


def test_view_of_a_transposed_tensor_is_refused_with_pytorchs_message(torch):
    def attempt(lib):
        with pytest.raises(RuntimeError) as info:
            lib.ones(2, 3).t().view(6)
        return pytorch_part(info.value)

    assert attempt(minigrad) == attempt(torch)
    assert "reshape() copies when it must" in messages.VIEW_NOT_COMPATIBLE


def test_reshape_copies_only_when_it_must():
    a = minigrad.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    flat = a.t().reshape(6)  # column-major order: strides cannot do it
    assert flat.tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert flat._base is None and not np.shares_memory(flat.numpy(), a.numpy())
    kept = a.t().reshape(3, 1, 2)  # a new axis of length 1: strides can
    assert kept._base is a and np.shares_memory(kept.numpy(), a.numpy())


def test_contiguous_copies_only_a_tensor_that_is_not():
    a = minigrad.arange(6.0).reshape(2, 3)
    assert a.is_contiguous() and a.contiguous() is a
    t = a.t()
    assert not t.is_contiguous()
    c = t.contiguous()
    assert c.is_contiguous() and c.tolist() == t.tolist() and not np.shares_memory(c.numpy(), a.numpy())
    c.view(6)  # now allowed


@pytest.mark.parametrize("make", [
    lambda a: a.t().reshape(6),
    lambda a: a.t().flatten(),
    lambda a: a.t().reshape(3, 1, 2),
    lambda a: a.t().view(3, 1, 2),
    lambda a: a.t().contiguous().view(6),
], ids=["reshape copies", "flatten copies", "reshape shares", "view shares", "contiguous then view"])
def test_names_edges_and_gradients_match_pytorch(make, torch):
    def run(lib):
        a = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        out = make(a)
        names = [out.grad_fn.name(), out.grad_fn.next_functions[0][0].name()]
        (out * lib.arange(6.0).reshape(out.shape)).sum().backward()
        return names, out.detach().numpy(), a.grad.numpy()

    (mine_names, mine_out, mine_grad), (their_names, their_out, their_grad) = run(minigrad), run(torch)
    assert mine_names == their_names
    np.testing.assert_array_equal(mine_out, their_out)
    np.testing.assert_array_equal(mine_grad, their_grad)
