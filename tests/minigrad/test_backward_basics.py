"""Tensor.backward(): implicit gradients, gradient= as the VJP vector, accumulation, diamonds."""


import numpy as np
import pytest

import minigrad

from torch_parity import HINT, assert_same_error, in_minigrad_words

# --- the implicit gradient -------------------------------------------------------


def test_scalar_output_gets_implicit_gradient_one():
    """backward() on a 0-d output uses d(out)/d(out) = 1: d/dx sum(x*x) = 2x."""
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_backward_returns_none():
    """backward() returns None, as in PyTorch."""
    x = minigrad.tensor(2.0, requires_grad=True)
    assert (x * x).backward() is None


def test_one_element_output_of_shape_1_gets_implicit_gradient():
    """An output of shape (1,) has one element, so the implicit gradient is allowed."""
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum().reshape(1)
    assert y.shape == (1,)
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_one_element_output_of_shape_1_1_gets_implicit_gradient():
    """An output of shape (1, 1) also has one element: implicit gradient allowed (PyTorch checks numel)."""
    x = minigrad.tensor([[3.0]], requires_grad=True)
    (x * 5.0).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[5.0]])


def test_non_scalar_output_needs_gradient(torch):
    """A vector output without gradient= raises PyTorch's 'implicitly created only for scalar outputs'."""

    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (x * 2).backward()

    assert_same_error(run, torch, expect_hint=True)


# --- gradient= is the vector of a vector-Jacobian product -------------------------


def test_gradient_argument_weights_each_output_element():
    """y = x*x elementwise, gradient v gives x.grad = v * 2x: [1,10,100] * [2,4,6] = [2,40,600]."""
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).backward(gradient=minigrad.tensor([1.0, 10.0, 100.0]))
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 40.0, 600.0])


def test_gradient_argument_is_vjp_of_a_matrix_product():
    """y = W @ x has Jacobian W, so backward(v) gives x.grad = W^T v (checked with NumPy)."""
    W = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)
    v = np.array([10.0, 100.0], dtype=np.float32)
    x = minigrad.tensor([1.0, -1.0, 2.0], requires_grad=True)
    y = minigrad.tensor(W) @ x
    y.backward(minigrad.tensor(v))
    np.testing.assert_allclose(x.grad.numpy(), W.T @ v)


def test_gradient_of_wrong_shape_is_an_error(torch):
    """A gradient whose shape differs from the output's raises PyTorch's 'Mismatch in shape' message."""

    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (x * 2).backward(lib.ones(2))

    assert_same_error(run, torch, expect_hint=True)


def test_gradient_of_broadcastable_but_different_shape_is_an_error(torch):
    """gradient= is not broadcast: shape (1,) for an output of shape (3,) is a mismatch too."""

    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (x * 2).backward(lib.ones(1))

    assert_same_error(run, torch, expect_hint=True)


# --- outputs that are not in a graph ----------------------------------------------


def test_backward_on_tensor_without_grad_fn_is_an_error(torch):
    """backward() on a constant raises 'element 0 of tensors does not require grad and does not have a grad_fn'."""

    def run(lib):
        lib.tensor(1.0).backward()

    assert_same_error(run, torch, expect_hint=True)


def test_backward_on_result_computed_under_no_grad_is_an_error(torch):
    """A result computed under no_grad has no grad_fn, so backward() raises the 'element 0' message."""

    def run(lib):
        x = lib.tensor(2.0, requires_grad=True)
        with lib.no_grad():
            y = x * x
        y.backward()

    assert_same_error(run, torch, expect_hint=True)


# --- accumulation ----------------------------------------------------------------


def test_gradients_accumulate_over_backward_calls():
    """Two backward calls add up: d/dx (x*x) = 2x = 6 at x=3, twice gives 12."""
    x = minigrad.tensor(3.0, requires_grad=True)
    (x * x).backward()
    (x * x).backward()
    assert x.grad.item() == 12.0


def test_gradients_accumulate_over_three_calls_of_different_functions():
    """Accumulation sums whatever each call contributes: 2x + 3 + x^2 at x=2 is 4 + 3 + 4 = 11."""
    x = minigrad.tensor(2.0, requires_grad=True)
    (x * x).backward()
    (x * 3.0).backward()
    (x * x * x / 3.0).backward()  # d/dx x^3/3 = x^2 = 4
    assert x.grad.item() == pytest.approx(11.0)


def test_accumulation_updates_the_existing_grad_tensor_in_place(torch):
    """Without create_graph, a second backward adds into the existing .grad tensor (a kept reference sees it)."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
        first = x.grad
        (x * x).sum().backward()
        return first is x.grad, first.tolist()

    assert run(minigrad) == run(torch)


def test_accumulation_does_not_alias_the_user_gradient():
    """The gradient= tensor passed by the user is not modified by later accumulation."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    v = minigrad.tensor([1.0, 1.0])
    x.backward(v)  # x.grad = v's values
    x.backward(v)
    np.testing.assert_array_equal(v.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_gradients_accumulate_over_paths():
    """x used on two paths: d/dx (x*x + 3x) = 2x + 3 = 7 at x=2."""
    x = minigrad.tensor(2.0, requires_grad=True)
    (x * x + x * 3.0).backward()
    assert x.grad.item() == 7.0


def test_leaf_used_twice_in_one_op_gets_both_contributions():
    """x*x sends a gradient to x through both operands: 2 * x = 10 at x=5."""
    x = minigrad.tensor(5.0, requires_grad=True)
    (x * x).backward()
    assert x.grad.item() == 10.0


def test_zeroing_grad_with_none_restarts_accumulation():
    """Setting x.grad = None starts afresh: the next backward writes 2x = 4 at x=2, not 8."""
    x = minigrad.tensor(2.0, requires_grad=True)
    (x * x).backward()
    x.grad = None
    (x * x).backward()
    assert x.grad.item() == 4.0


def test_grad_has_the_leaf_shape_and_dtype():
    """x.grad has x's shape and dtype, even when x was broadcast in the forward pass."""
    x = minigrad.tensor([[1.0], [2.0]], requires_grad=True)  # (2, 1), float32
    (x * minigrad.ones(2, 3)).sum().backward()
    assert x.grad.shape == (2, 1)
    assert x.grad.dtype == minigrad.float32
    np.testing.assert_array_equal(x.grad.numpy(), [[3.0], [3.0]])  # each row was used 3 times


# --- a diamond: each node runs once with the summed gradient ------------------------


def test_diamond_runs_the_shared_node_once_with_the_summed_gradient():
    """b = 2x feeds c = 3b and d = 4b; b's node runs once and receives 3 + 4 = 7."""
    x = minigrad.tensor(1.0, requires_grad=True)
    b = x * 2.0
    c = b * 3.0
    d = b * 4.0
    e = c + d
    calls = {}

    def count(name):
        def prehook(grad_outputs):
            calls.setdefault(name, []).append(grad_outputs[0].item())
        return prehook

    b.grad_fn.register_prehook(count("b"))
    c.grad_fn.register_prehook(count("c"))
    d.grad_fn.register_prehook(count("d"))
    e.grad_fn.register_prehook(count("e"))
    b.grad_fn.next_functions[0][0].register_prehook(count("x"))
    e.backward()
    assert calls == {"e": [1.0], "c": [1.0], "d": [1.0], "b": [7.0], "x": [14.0]}
    assert x.grad.item() == 14.0


def test_diamond_leaf_accumulator_runs_once():
    """A leaf reached by two paths: its AccumulateGrad runs once, with the sum 2 + 5 = 7."""
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x * 2.0 + x * 5.0
    accumulate = y.grad_fn.next_functions[0][0].next_functions[0][0]
    assert accumulate is y.grad_fn.next_functions[1][0].next_functions[0][0]
    seen = []
    accumulate.register_prehook(lambda grad_outputs: seen.append(grad_outputs[0].item()))
    y.backward()
    assert seen == [7.0]


def test_a_new_grad_is_laid_out_like_its_leaf_as_in_pytorch(torch):
    # PyTorch's "gradient layout contract": a transposed leaf gets a transposed .grad.
    def run(lib):
        w = lib.tensor(np.arange(6.0).reshape(2, 3)).t().detach().requires_grad_()
        c = lib.tensor(np.arange(6.0).reshape(3, 2), requires_grad=True)
        (w * lib.tensor(np.arange(6.0).reshape(3, 2)) * c).sum().backward()
        return w.is_contiguous(), w.grad.is_contiguous(), c.grad.is_contiguous(), w.grad.tolist(), c.grad.tolist()

    assert run(minigrad) == run(torch)
    assert run(minigrad)[:3] == (False, False, True)
