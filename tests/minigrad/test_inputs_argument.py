"""backward(inputs=...): accumulate only into the given tensors, and run only what leads to them."""

import warnings

import numpy as np
import pytest

import minigrad

from torch_parity import HINT, assert_same_error, in_minigrad_words

def all_nodes(root):
    """Every node reachable from ``root`` (explicit stack, each once)."""
    seen, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None or any(node is s for s in seen):
            continue
        seen.append(node)
        stack.extend(child for child, _ in node.next_functions)
    return seen


def record_runs(root):
    """Register a prehook on every node under ``root`` that appends the node's name when it runs."""
    ran = []
    for node in all_nodes(root):
        node.register_prehook(lambda grad_outputs, name=node.name(): ran.append(name))
    return ran


# --- restricting accumulation --------------------------------------------------------


def test_inputs_restricts_accumulation_to_the_listed_leaf():
    """y = sum(a*b), inputs=[a]: a.grad = b = [3, 4] and b.grad stays None."""
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    (a * b).sum().backward(inputs=[a])
    np.testing.assert_array_equal(a.grad.numpy(), [3.0, 4.0])
    assert b.grad is None


def test_inputs_may_be_a_single_tensor():
    """inputs=a (not in a list) works like inputs=[a]."""
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    (a * b).sum().backward(inputs=a)
    np.testing.assert_array_equal(a.grad.numpy(), [3.0, 4.0])
    assert b.grad is None


def test_inputs_may_be_a_tuple_of_several_leaves():
    """inputs=(a, c) fills a and c but not b: y = sum(a*b + c) gives a.grad = b, c.grad = 1."""
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    c = minigrad.tensor([5.0, 6.0], requires_grad=True)
    (a * b + c).sum().backward(inputs=(a, c))
    np.testing.assert_array_equal(a.grad.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(c.grad.numpy(), [1.0, 1.0])
    assert b.grad is None


def test_inputs_accumulate_over_calls():
    """Two backward(inputs=[a], retain_graph=True) calls add up: a.grad = 2b = [6, 8]."""
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    y = (a * b).sum()
    y.backward(inputs=[a], retain_graph=True)
    y.backward(inputs=[a])
    np.testing.assert_array_equal(a.grad.numpy(), [6.0, 8.0])
    assert b.grad is None


def test_inputs_works_with_autograd_backward():
    """minigrad.autograd.backward(y, inputs=[b]) fills only b.grad = a = [1, 2]."""
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    minigrad.autograd.backward((a * b).sum(), inputs=[b])
    np.testing.assert_array_equal(b.grad.numpy(), [1.0, 2.0])
    assert a.grad is None


# --- non-leaf inputs --------------------------------------------------------------------


def test_non_leaf_input_gets_grad():
    """h = 2a, y = sum(h*h), inputs=[h]: h.grad = 2h = [4, 8] and a.grad stays None."""
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = a * 2.0
    (h * h).sum().backward(inputs=[h])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a populated .grad must not warn
        np.testing.assert_array_equal(h.grad.numpy(), [4.0, 8.0])
    assert a.grad is None


def test_non_leaf_input_grad_matches_torch(torch):
    """A non-leaf in inputs= gets the same .grad, is_leaf and retains_grad as in PyTorch."""

    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        h = a.exp()
        y = (h * a).sum()
        y.backward(inputs=[h, a])
        return h.grad.tolist(), a.grad.tolist(), h.is_leaf, h.retains_grad

    got, expected = run(minigrad), run(torch)
    np.testing.assert_allclose(got[0], expected[0], rtol=1e-6)
    np.testing.assert_allclose(got[1], expected[1], rtol=1e-6)
    assert got[2:] == expected[2:]


def test_non_leaf_input_accumulates_over_calls():
    """backward(inputs=[h]) twice (retaining) gives h.grad = 2 * 2h = [8, 16]."""
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = a * 2.0
    y = (h * h).sum()
    y.backward(inputs=[h], retain_graph=True)
    y.backward(inputs=[h])
    np.testing.assert_array_equal(h.grad.numpy(), [8.0, 16.0])


# --- pruning ------------------------------------------------------------------------------


def test_nodes_not_on_a_path_to_inputs_do_not_run():
    """y = exp(a) * sin(b), inputs=[a]: SinBackward0 and b's AccumulateGrad never run."""
    a = minigrad.tensor([0.5], requires_grad=True)
    b = minigrad.tensor([0.25], requires_grad=True)
    y = (a.exp() * b.sin()).sum()
    ran = record_runs(y.grad_fn)
    sin_node = y.grad_fn.next_functions[0][0].next_functions[1][0]
    assert sin_node.name() == "SinBackward0"
    y.backward(inputs=[a])
    assert "SinBackward0" not in ran
    assert ran.count("torch::autograd::AccumulateGrad") == 1
    assert ran == ["SumBackward0", "MulBackward0", "ExpBackward0", "torch::autograd::AccumulateGrad"]


def test_nodes_below_a_non_leaf_input_do_not_run(torch):
    """inputs=[h] with h = exp(a): the gradient stops at h. As in PyTorch, h's own node
    ExpBackward0 runs (its hooks fire, grad_inputs all None) but computes nothing, and
    nothing below it runs."""

    def run(lib):
        a = lib.tensor([0.5], requires_grad=True)
        h = a.exp()
        y = (h * 3.0).sum()
        ran = record_runs(y.grad_fn)
        sent = []
        h.grad_fn.register_hook(lambda grad_inputs, grad_outputs: sent.append(grad_inputs))
        y.backward(inputs=[h])
        return ran, sent, a.grad, h.grad.tolist()

    got, expected = run(minigrad), run(torch)
    assert got == expected
    assert got[0] == ["SumBackward0", "MulBackward0", "ExpBackward0"]
    assert got[1] == [(None,)] and got[2] is None and got[3] == [3.0]


def test_the_node_of_a_non_leaf_input_frees_its_saved_tensors(torch):
    """backward(inputs=[h]) runs h.grad_fn, which frees what it saved: a second backward
    through it fails as in PyTorch; autograd.grad does not run it, so it does not."""
    def through_backward(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * x
        h.sum().backward(inputs=[h])
        h.sum().backward()

    assert_same_error(through_backward, torch, expect_hint=True)

    def through_grad(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * x
        lib.autograd.grad(h.sum(), [h])
        h.sum().backward()
        return x.grad.tolist()

    assert through_grad(minigrad) == through_grad(torch)


def test_pruned_run_matches_torch(torch):
    """The set of nodes that run for backward(inputs=[b]) on a small graph is PyTorch's."""

    def run(lib):
        a = lib.tensor([0.5, 1.5], requires_grad=True)
        b = lib.tensor([0.25, 2.0], requires_grad=True)
        c = lib.tensor([1.0, -1.0], requires_grad=True)
        y = ((a * b).exp() + c.tanh() * a + b.sin()).sum()
        ran = record_runs(y.grad_fn)
        y.backward(inputs=[b])
        return sorted(ran), b.grad.tolist(), a.grad, c.grad

    got, expected = run(minigrad), run(torch)
    assert got[0] == expected[0]
    np.testing.assert_allclose(got[1], expected[1], rtol=1e-6)
    assert got[2] is None and got[3] is None and expected[2] is None and expected[3] is None


def test_pruned_nodes_keep_their_saved_tensors(torch):
    """A node pruned by inputs= did not run, so it did not free: a later backward through it works as in PyTorch."""

    def run(lib):
        a = lib.tensor([0.5], requires_grad=True)
        b = lib.tensor([0.25], requires_grad=True)
        s = b.sin()
        y = (a + s).sum()
        y.backward(inputs=[a])  # SinBackward0 is not run, so it keeps b
        s.sum().backward()
        return b.grad.tolist()

    np.testing.assert_allclose(run(minigrad), run(torch), rtol=1e-6)


# --- errors ----------------------------------------------------------------------------------


def test_empty_inputs_is_an_error(torch):
    """backward(inputs=[]) raises PyTorch's '`inputs` argument to `backward()` cannot be empty.'"""

    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        (a * a).sum().backward(inputs=[])

    assert_same_error(run, torch, expect_hint=False)


def test_input_that_does_not_require_grad_is_an_error(torch):
    """A tensor in inputs= that does not require grad raises PyTorch's error."""

    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        c = lib.tensor([1.0, 2.0])
        (a * c).sum().backward(inputs=[c])

    assert_same_error(run, torch, expect_hint=False)


def test_input_that_does_not_require_grad_is_an_error_for_autograd_backward(torch):
    """The same error through minigrad.autograd.backward(..., inputs=...)."""

    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        c = lib.tensor([1.0, 2.0])
        lib.autograd.backward((a * c).sum(), inputs=[a, c])

    assert_same_error(run, torch, expect_hint=False)
