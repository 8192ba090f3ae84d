"""retain_graph: what a backward pass frees, what fails afterwards, and what may run again."""

import gc
import weakref

import numpy as np
import pytest

import minigrad

from torch_parity import HINT, assert_same_error, in_minigrad_words

# --- freeing ----------------------------------------------------------------------


def test_second_backward_through_freed_graph_raises(torch):
    """A second backward through a node that saved tensors raises 'Trying to backward through the graph a second time'."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()

    assert_same_error(run, torch, expect_hint=True)


def test_grad_also_frees_the_graph(torch):
    """autograd.grad without retain_graph frees the graph too, so a later backward fails the same way."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        lib.autograd.grad(y, x)
        y.backward()

    assert_same_error(run, torch, expect_hint=True)


def test_reading_saved_self_after_free_raises(torch):
    """grad_fn._saved_self after a non-retaining backward raises the freed-graph message."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        y = x * w
        y.sum().backward()
        y.grad_fn._saved_self

    assert_same_error(run, torch, expect_hint=True)


def test_reading_saved_result_after_free_raises(torch):
    """exp saves its result; grad_fn._saved_result after a non-retaining backward raises the freed-graph message."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        y.sum().backward()
        y.grad_fn._saved_result

    assert_same_error(run, torch, expect_hint=True)


def test_saved_tensors_are_readable_before_backward():
    """Before any backward, _saved_self is the input itself."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    assert y.grad_fn._saved_self is x
    assert y.grad_fn._saved_other is w


def test_failed_second_backward_leaves_grad_unchanged():
    """The freed-graph error happens before anything is accumulated: x.grad keeps the first result 2x."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError):
        y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


# --- nodes that save nothing ---------------------------------------------------------

# Each builds an output from x (and w); PyTorch decides whether a second backward works.
EXPRESSIONS = {
    "add_tensors": lambda x, w: (x + w).sum(),
    "add_scalar": lambda x, w: (x + 1).sum(),
    "sub_tensors": lambda x, w: (x - w).sum(),
    "neg": lambda x, w: (-x).sum(),
    "sum_only": lambda x, w: x.sum(),
    "mul_python_scalar": lambda x, w: (x * 2).sum(),
    "reshape": lambda x, w: x.reshape(2, 1).sum(),
    "mul_tensors": lambda x, w: (x * w).sum(),
    "exp": lambda x, w: x.exp().sum(),
}


@pytest.mark.parametrize("name", list(EXPRESSIONS))
def test_second_backward_without_retain_graph_matches_torch(name, torch):
    """A node that saved no tensors can run again as in PyTorch; one that did, fails as in PyTorch."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        y = EXPRESSIONS[name](x, w)
        y.backward()
        try:
            y.backward()
        except RuntimeError as e:
            return "error", str(e).split(HINT)[0].replace("torch.", "minigrad.")
        return "ok", x.grad.tolist()

    assert run(minigrad) == run(torch)


def test_rerun_of_node_without_saved_tensors_accumulates():
    """(x + 1).sum() saves nothing; backward twice gives x.grad = 1 + 1 = 2 per element."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


# --- retain_graph=True ----------------------------------------------------------------


def test_retain_graph_allows_a_second_backward_that_accumulates():
    """With retain_graph=True, backward of sum(x*x) twice gives 2x + 2x = 4x."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])


def test_retain_graph_keeps_saved_tensors_readable():
    """After backward(retain_graph=True), _saved_self still gives the input."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    y.sum().backward(retain_graph=True)
    assert y.grad_fn._saved_self is x


def test_last_backward_without_retain_frees_the_graph(torch):
    """retain, retain, then a plain backward: the third frees, so a fourth fails."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        y.backward(retain_graph=True)
        y.backward()
        y.backward()

    assert_same_error(run, torch, expect_hint=True)


def test_retain_graph_defaults_to_create_graph():
    """backward(create_graph=True) keeps the graph: a second backward works and adds 2x + 2x = 4x."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(create_graph=True)
    y.backward()  # would raise if the first call had freed the graph
    np.testing.assert_array_equal(x.grad.detach().numpy(), [4.0, 8.0])


def test_create_graph_with_explicit_retain_graph_false_frees(torch):
    """create_graph=True, retain_graph=False: the explicit False wins and the graph is freed."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        lib.autograd.grad(y, x, create_graph=True, retain_graph=False)
        y.backward()

    assert_same_error(run, torch, expect_hint=True)


def test_grad_with_create_graph_retains_by_default():
    """autograd.grad(create_graph=True) keeps the graph, so grad can be taken again: 2x both times."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    (g1,) = minigrad.autograd.grad(y, x, create_graph=True)
    (g2,) = minigrad.autograd.grad(y, x)
    np.testing.assert_array_equal(g1.detach().numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(g2.numpy(), [2.0, 4.0])


# --- saved tensors are really let go ---------------------------------------------------


def _graph_whose_only_reference_to_t_is_a_saved_tensor():
    """y = sin(2x).sum(): the intermediate t = 2x is kept alive only by SinBackward0's saved self."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    t = x * 2.0
    ref = weakref.ref(t)
    y = t.sin().sum()
    del t
    gc.collect()
    return x, y, ref


def test_saved_intermediate_is_alive_before_backward():
    """Before backward, the graph keeps the saved intermediate alive."""
    x, y, ref = _graph_whose_only_reference_to_t_is_a_saved_tensor()
    assert ref() is not None


def test_saved_tensors_are_garbage_collected_after_non_retaining_backward():
    """After backward() (retain_graph=False), nothing keeps the saved intermediate alive, though y still exists."""
    x, y, ref = _graph_whose_only_reference_to_t_is_a_saved_tensor()
    y.backward()
    gc.collect()
    assert ref() is None
    # and the gradient is still right: d/dx sin(2x) = 2 cos(2x)
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(np.array([2.0, 4.0], dtype=np.float32)), rtol=1e-6)


def test_saved_tensors_survive_a_retaining_backward():
    """After backward(retain_graph=True), the saved intermediate is still alive."""
    x, y, ref = _graph_whose_only_reference_to_t_is_a_saved_tensor()
    y.backward(retain_graph=True)
    gc.collect()
    assert ref() is not None
