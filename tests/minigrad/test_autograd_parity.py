"""Autograd semantics that PyTorch defines and minigrad must follow, each checked against PyTorch.

Custom Functions (setup_context, what backward may return), hook results, retain_grad with
in-place ops, grad mode on generators, saved-tensor hooks and multi-grad hooks.
"""

import numpy as np
import pytest

import minigrad
from torch_parity import HINT, assert_same_error


def square_function(lib, setup_context):
    """A Square Function in PyTorch's classic style or in its setup_context style."""
    if setup_context:
        class Square(lib.autograd.Function):
            @staticmethod
            def forward(x):
                return x * x

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(*inputs)

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 2 * x * grad
    else:
        class Square(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 2 * x * grad
    return Square


@pytest.mark.parametrize("setup_context", [False, True], ids=["ctx", "setup_context"])
def test_both_function_styles_give_pytorchs_node_and_second_derivative(torch, setup_context):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        y = square_function(lib, setup_context).apply(x)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        return type(y.grad_fn).__name__, y.grad_fn.name(), g.tolist(), gg.tolist()

    assert run(minigrad) == run(torch) == ("SquareBackward", "SquareBackward", [2.0, 6.0], [2.0, 2.0])


def returning(lib, make_gradients, n_inputs=1):
    """``backward`` returns ``make_gradients(lib, grad)``; forward takes ``n_inputs`` arguments."""

    class Custom(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, *rest):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return make_gradients(lib, grad)

    def run():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        Custom.apply(x, *[3.0] * (n_inputs - 1)).sum().backward()
        return x.grad.tolist()

    return run


def test_extra_trailing_nones_are_dropped(torch):
    def run(lib):
        return returning(lib, lambda lib, grad: (grad * 2, None, None))()

    assert run(minigrad) == run(torch) == [2.0, 2.0]


@pytest.mark.parametrize("gradients, n_inputs", [
    (lambda lib, grad: (grad, grad), 1),         # one too many, not None
    (lambda lib, grad: 2.0, 1),                  # not a tensor
    (lambda lib, grad: (grad, grad.sum()), 2),   # a gradient for the number 3.0
], ids=["too-many", "a-float", "for-a-number"])
def test_wrong_gradients_raise_pytorchs_error(torch, gradients, n_inputs):
    assert_same_error(lambda lib: returning(lib, gradients, n_inputs)(), torch, expect_hint=n_inputs == 2)


def test_non_tensor_outputs_get_none_in_backward(torch):
    def run(lib):
        seen = []

        class WithCount(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, 7

            @staticmethod
            def backward(ctx, grad, grad_count):
                seen.append(grad_count)
                return grad * 2

        x = lib.tensor([1.0], requires_grad=True)
        y, count = WithCount.apply(x)
        y.sum().backward()
        return seen, count

    assert run(minigrad) == run(torch) == ([None], 7)


def test_save_for_backward_refuses_a_number(torch):
    def run(lib):
        class SavesNumber(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(3)
                return x

        SavesNumber.apply(lib.tensor([1.0], requires_grad=True))

    assert_same_error(run, torch, expect_hint=False)


def test_calling_a_function_instance_raises_after_a_deprecation_warning(torch):
    def run(lib):
        class Legacy(lib.autograd.Function):
            def forward(self, x):
                return x

        with pytest.warns(DeprecationWarning, match="should not be instantiated"):
            instance = Legacy()
        with pytest.raises(RuntimeError) as error:
            instance(lib.tensor([1.0]))
        return str(error.value).split(HINT)[0]

    # (Word for word: the message ends with a pytorch.org address.)
    assert run(minigrad) == run(torch)


def test_once_differentiable_gradient_fails_when_differentiated_again(torch):
    def run(lib):
        class Square(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            @lib.autograd.function.once_differentiable
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 2 * x * grad

        x = lib.tensor([1.0, 3.0], requires_grad=True)
        (g,) = lib.autograd.grad(Square.apply(x), x, lib.ones(2, requires_grad=True), create_graph=True)
        assert g.requires_grad and g.grad_fn.name() == "torch::autograd::Error"
        g.sum().backward()

    assert_same_error(run, torch, expect_hint=False)


# --- hooks ----------------------------------------------------------------------------------
def named_hook_that_doubles_the_length(grad):
    return grad.repeat(2)


@pytest.mark.parametrize("leaf", [True, False], ids=["leaf", "non-leaf"])
@pytest.mark.parametrize("hook, hint", [
    (named_hook_that_doubles_the_length, True),  # the message names the hook
    (lambda grad: grad.sum(), True),             # a size-1 result must not be broadcast
    (lambda grad: grad.double(), True),          # the dtype may not change
    (lambda grad: 3.0, False),                   # not a tensor
], ids=["longer", "scalar", "double", "float"])
def test_a_hook_may_not_change_size_dtype_or_type(torch, hook, hint, leaf):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x if leaf else x * 1
        h.register_hook(hook)
        (h * 2).sum().backward()

    assert_same_error(run, torch, expect_hint=hint)


def test_post_accumulate_grad_hook_must_return_none(torch):
    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        x.register_post_accumulate_grad_hook(lambda t: t.grad)
        (x * 2).sum().backward()

    assert_same_error(run, torch, expect_hint=False)


def test_node_hooks_are_checked_like_tensor_hooks(torch):
    def wrong_count(lib):
        x, w = lib.tensor([1.0], requires_grad=True), lib.tensor([2.0], requires_grad=True)
        z = x * w
        z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: grad_inputs[:1])
        z.sum().backward()

    def wrong_shape(lib):
        z = lib.tensor([1.0, 2.0], requires_grad=True) * 2
        z.grad_fn.register_prehook(lambda grad_outputs: (lib.ones(3),))
        z.sum().backward()

    assert_same_error(wrong_count, torch, expect_hint=False)
    assert_same_error(wrong_shape, torch, expect_hint=True)


def test_hook_order_at_a_leaf_is_pytorchs(torch):
    def run(lib):
        calls = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_post_accumulate_grad_hook(lambda t: calls.append("post accumulate"))
        x.register_hook(lambda g: calls.append("tensor hook"))
        y = x * 3
        accumulator = y.grad_fn.next_functions[0][0]
        accumulator.register_hook(lambda grad_inputs, grad_outputs: calls.append("node hook"))
        accumulator.register_prehook(lambda grad_outputs: calls.append("node prehook"))
        y.sum().backward()
        return calls

    assert run(minigrad) == run(torch) == ["tensor hook", "node prehook", "post accumulate", "node hook"]


# --- retain_grad, inputs=, grad_fn(...) ----------------------------------------------------------
@pytest.mark.parametrize("change", ["y.mul_(2)", "y[:1].mul_(5)"])
def test_retain_grad_follows_an_in_place_change(torch, change):
    """After y.retain_grad() and an in-place change, y.grad is the gradient of the new y."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.retain_grad()
        exec(change)
        (y * y).sum().backward()
        return y.grad.tolist(), x.grad.tolist()

    got = run(minigrad)
    assert got == run(torch)
    assert got[0] == [2 * v for v in ([6.0, 12.0] if change == "y.mul_(2)" else [15.0, 6.0])]


def test_non_leaf_input_runs_its_node_with_no_outputs(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        sent = []
        h.grad_fn.register_hook(lambda grad_inputs, grad_outputs: sent.append(grad_inputs))
        (h * h).sum().backward(inputs=[h])
        lib.autograd.grad((h * 1).sum(), [h])  # grad() does not run it (yet h retains grad: +1)
        return sent, h.grad.tolist(), x.grad

    assert run(minigrad) == run(torch) == ([(None, None)], [5.0, 9.0], None)


def test_grad_fn_is_callable(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * lib.tensor([3.0, 4.0])
        grads = y.grad_fn(lib.ones(2))
        return grads[0].tolist(), grads[1], (x * x).sum().grad_fn(lib.tensor(2.0)).tolist()

    assert run(minigrad) == run(torch) == ([3.0, 4.0], None, [2.0, 2.0])


def test_grad_with_empty_inputs_raises(torch):
    assert_same_error(lambda lib: lib.autograd.grad(lib.tensor(1.0, requires_grad=True) * 2, []), torch,
                      expect_hint=False)


# --- grad mode, numpy() ------------------------------------------------------------------------
def test_no_grad_decorates_a_generator_step_by_step(torch):
    def run(lib):
        @lib.no_grad()
        def generate(x):
            for _ in range(2):
                yield (x * 2).requires_grad, lib.is_grad_enabled()

        x = lib.tensor([1.0], requires_grad=True)
        return [(inside, lib.is_grad_enabled()) for inside in generate(x)]

    assert run(minigrad) == run(torch) == [((False, False), True)] * 2


def test_numpy_of_a_tensor_that_requires_grad_works_under_no_grad(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            return x.numpy().tolist()

    assert run(minigrad) == run(torch) == [1.0, 2.0]


# --- torch.autograd.graph ---------------------------------------------------------------------
def test_saved_tensors_hooks_see_what_each_node_saves(torch):
    # NB: sorted: a node packs its saved tensors in its own order (MulBackward0: other, then
    # self in PyTorch; minigrad follows the op's ``saves``).
    def run(lib):
        packed, unpacked = [], []

        def pack(t):
            packed.append(t.tolist())
            return t

        def unpack(t):
            unpacked.append(t.tolist())
            return t

        a = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = (a * a.exp()).sum()
        y.backward()
        return [np.round(v, 4).tolist() for v in (sorted(packed), sorted(unpacked), a.grad.tolist())]

    assert run(minigrad) == run(torch)


def test_multi_grad_hook_all_waits_for_every_gradient_of_the_pass(torch):
    def run(lib):
        a, b, c = (lib.tensor([v], requires_grad=True) for v in (1.0, 2.0, 3.0))
        seen = []
        lib.autograd.graph.register_multi_grad_hook(
            (a, b, c), lambda grads: seen.append([None if g is None else g.item() for g in grads]))
        (a * b).sum().backward()
        (c * 5).sum().backward()
        return seen

    assert run(minigrad) == run(torch) == [[2.0, 1.0, None], [None, None, 5.0]]


def test_anomaly_trace_ends_at_the_line_that_called_the_op(torch):
    """As PyTorch's: the last frame of "Traceback of forward call" is the user's own line."""

    def last_frame(lib):
        with pytest.warns(UserWarning) as caught:
            with pytest.raises(RuntimeError, match="returned nan values"):
                with lib.autograd.detect_anomaly():
                    y = lib.tensor([-1.0], requires_grad=True)
                    z = y.sqrt()  # the line the trace must end at
                    z.sum().backward()
        [trace] = [str(w.message) for w in caught if str(w.message).startswith("Error detected in")]
        # (PyTorch ends its message with a "(Triggered internally at <C++ file>)" line.)
        lines = [line.strip() for line in trace.splitlines() if not line.strip().startswith("(Triggered")]
        return lines[0], lines[-1]

    assert last_frame(minigrad) == last_frame(torch) == (
        "Error detected in SqrtBackward0. Traceback of forward call that caused the error:",
        "z = y.sqrt()  # the line the trace must end at")
