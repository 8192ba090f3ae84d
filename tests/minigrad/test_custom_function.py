"""minigrad.autograd.Function: user-defined ops with forward/backward, ctx and apply."""


import numpy as np
import pytest

import minigrad

from torch_parity import HINT, assert_same_error, in_minigrad_words

def leaf(values, dtype=None):
    return minigrad.tensor(values, dtype=dtype, requires_grad=True)


def make_cube(lib):
    """y = x^3 with backward 3 x^2 written in the library's own ops."""

    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2

    return Cube


Cube = make_cube(minigrad)


# --- the basics -----------------------------------------------------------------------------


def test_custom_function_forward_and_backward():
    """Cube at x = [1, 2]: forward [1, 8], backward 3x^2 = [3, 12]."""
    x = leaf([1.0, 2.0])
    y = Cube.apply(x)
    assert y.tolist() == [1.0, 8.0]
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 12.0])


def test_custom_function_node_name_is_class_name_plus_backward(torch):
    """The node of Cube.apply is named 'CubeBackward', as in PyTorch."""
    assert Cube.apply(leaf([1.0])).grad_fn.name() == "CubeBackward"
    torch_cube = make_cube(torch)
    assert torch_cube.apply(torch.tensor([1.0], requires_grad=True)).grad_fn.name() == "CubeBackward"


def test_custom_function_next_functions_point_at_the_input():
    """CubeBackward's next_functions hold x's AccumulateGrad node."""
    x = leaf([1.0])
    y = Cube.apply(x)
    (node, nr), = y.grad_fn.next_functions
    assert node.name() == "torch::autograd::AccumulateGrad" and node.variable is x and nr == 0


def test_custom_function_inside_a_larger_graph():
    """z = Cube(2x) + x: dz/dx = 3(2x)^2 * 2 + 1 = 25 at x = 1."""
    x = leaf(1.0)
    z = Cube.apply(x * 2.0) + x
    z.backward()
    assert x.grad.item() == 25.0


def test_custom_function_without_inputs_requiring_grad_records_nothing():
    """If no input requires grad, the output has no grad_fn."""
    y = Cube.apply(minigrad.tensor([2.0]))
    assert y.grad_fn is None and not y.requires_grad
    assert y.tolist() == [8.0]


def test_custom_function_under_no_grad_records_nothing(torch):
    """Under no_grad, apply gives a result that does not require grad, as in PyTorch."""

    def run(lib):
        with lib.no_grad():
            y = make_cube(lib).apply(lib.tensor([2.0], requires_grad=True))
        return y.requires_grad, y.grad_fn is None

    assert run(minigrad) == run(torch)


def test_forward_runs_without_recording():
    """Inside forward, grad mode is off, so ops there build no graph."""
    seen = []

    class Probe(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(minigrad.is_grad_enabled())
            return x * 2.0

        @staticmethod
        def backward(ctx, grad):
            return grad * 2.0

    Probe.apply(leaf([1.0]))
    assert seen == [False]


# --- ctx -------------------------------------------------------------------------------------


def test_saved_tensors_gives_back_what_was_saved():
    """save_for_backward(a, None, b) gives back (a, None, b) in backward."""
    seen = []

    class Keep(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, None, b)
            return a * b

        @staticmethod
        def backward(ctx, grad):
            a, nothing, b = ctx.saved_tensors
            seen.append((a.tolist(), nothing, b.tolist()))
            return grad * b, grad * a

    a, b = leaf([2.0]), leaf([5.0])
    Keep.apply(a, b).sum().backward()
    assert seen == [([2.0], None, [5.0])]
    assert a.grad.tolist() == [5.0] and b.grad.tolist() == [2.0]


def test_needs_input_grad_has_one_flag_per_argument(torch):
    """needs_input_grad is (True, False, False) for (leaf requiring grad, constant tensor, Python number), as PyTorch."""

    def run(lib):
        seen = []

        class Scale(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, c, k):
                seen.append(tuple(ctx.needs_input_grad))
                return x * c * k

            @staticmethod
            def backward(ctx, grad):
                seen.append(tuple(ctx.needs_input_grad))
                return grad, None, None

        Scale.apply(lib.tensor([1.0], requires_grad=True), lib.tensor([2.0]), 3.0).sum().backward()
        return seen

    assert run(minigrad) == run(torch) == [(True, False, False), (True, False, False)]


def test_non_tensor_arguments_get_none_gradients():
    """forward(ctx, x, k) with a Python k: backward returns (grad * k, None); x.grad = k = 4."""

    class Times(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.k, None

    x = leaf([1.0, 2.0])
    y = Times.apply(x, 4.0)
    assert y.tolist() == [4.0, 8.0]
    y.sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_multiple_outputs_each_get_their_gradient():
    """forward returns (2x, 3x); loss = sum(a) + 10 sum(b) sends (1, 10): x.grad = 2 + 30 = 32."""
    seen = []

    class Two(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0, x * 3.0

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            seen.append((grad_a.tolist(), grad_b.tolist()))
            return grad_a * 2.0 + grad_b * 3.0

    x = leaf([1.0])
    a, b = Two.apply(x)
    assert a.grad_fn is b.grad_fn
    (a.sum() + (b * 10.0).sum()).backward()
    assert seen == [([1.0], [10.0])]
    assert x.grad.tolist() == [32.0]


def test_unused_output_gets_zero_gradient(torch):
    """With two outputs and only the first used, backward receives zeros for the second, as in PyTorch."""

    def run(lib):
        seen = []

        class Two(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2.0, x * 3.0

            @staticmethod
            def backward(ctx, grad_a, grad_b):
                seen.append(None if grad_b is None else grad_b.tolist())
                return grad_a * 2.0 + grad_b * 3.0

        x = lib.tensor([1.0, 1.0], requires_grad=True)
        a, _ = Two.apply(x)
        a.sum().backward()
        return seen, x.grad.tolist()

    assert run(minigrad) == run(torch)


def test_mark_non_differentiable_output(torch):
    """An output marked non-differentiable does not require grad; the other does, as in PyTorch."""

    def run(lib):
        class SortLike(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                doubled = x * 2.0
                flags = x > 1.5
                marker = x * 0.0
                ctx.mark_non_differentiable(marker)
                return doubled, flags, marker

            @staticmethod
            def backward(ctx, grad_doubled, grad_flags, grad_marker):
                return grad_doubled * 2.0

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        doubled, flags, marker = SortLike.apply(x)
        doubled.sum().backward()
        return doubled.requires_grad, flags.requires_grad, marker.requires_grad, x.grad.tolist()

    assert run(minigrad) == run(torch) == (True, False, False, [2.0, 2.0])


def test_wrong_number_of_gradients_is_an_error(torch):
    """backward returning one gradient for two inputs raises PyTorch's 'returned an incorrect number of gradients'."""

    def run(lib):
        class F(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a * b

            @staticmethod
            def backward(ctx, grad):
                return grad

        x = lib.tensor([1.0], requires_grad=True)
        F.apply(x, x).sum().backward()

    assert_same_error(run, torch, expect_hint=False)


def test_saved_tensors_after_backward_raise_freed_message(torch):
    """ctx.saved_tensors after a non-retaining backward raises the freed-graph message."""

    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        y = make_cube(lib).apply(x)
        y.sum().backward()
        y.grad_fn.saved_tensors

    assert_same_error(run, torch, expect_hint=True)


def test_saved_tensors_after_retaining_backward_still_work():
    """With retain_graph=True, backward can run again: x.grad = 2 * 3x^2 = [6, 24]."""
    x = leaf([1.0, 2.0])
    y = Cube.apply(x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 24.0])


def test_saved_input_modified_in_place_is_detected(torch):
    """An in-place change of a tensor the custom function saved is caught as in PyTorch."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 1.0
        y = make_cube(lib).apply(h)
        h.add_(1.0)
        y.sum().backward()

    assert_same_error(run, torch, expect_hint=True)


# --- higher order ---------------------------------------------------------------------------


def test_create_graph_through_a_custom_function():
    """Cube's backward uses minigrad ops, so it is differentiable: d2/dx2 x^3 = 6x = 12 at x = 2."""
    x = leaf(2.0, dtype=minigrad.float64)
    (g,) = minigrad.autograd.grad(Cube.apply(x), x, create_graph=True)
    assert g.item() == 12.0 and g.requires_grad
    (g2,) = minigrad.autograd.grad(g, x)
    assert g2.item() == 12.0


def test_once_differentiable_backward_runs_without_recording(torch):
    """@once_differentiable: backward runs with grad mode off, even with create_graph=True, as in PyTorch."""

    def run(lib):
        seen = []

        class Square(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            @lib.autograd.function.once_differentiable
            def backward(ctx, grad):
                seen.append(lib.is_grad_enabled())
                (x,) = ctx.saved_tensors
                return 2 * x * grad

        x = lib.tensor([1.0, 3.0], requires_grad=True)
        (g,) = lib.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
        return seen, g.tolist(), g.requires_grad

    assert run(minigrad) == run(torch)
